/**
 * Probes for the Vulkan runtime tests (verification.md "When a tool is missing"): lavapipe is
 * "there" when `vulkaninfo --summary` lists llvmpipe; the validation layer when it lists
 * VK_LAYER_KHRONOS_validation. A missing piece skips with one printed line naming test, tool
 * and fix, or fails under REQUIRE_ALL_TOOLS=1 (CI). Present-but-broken is never a skip.
 */
import { spawnSync } from "node:child_process";
import type { TestContext } from "node:test";
import { haveCommand, requireTool } from "../../util/tools.js";

const FIX_LAVAPIPE = "apt-get install -y mesa-vulkan-drivers libvulkan-dev vulkan-tools; see toolchain.md §1";
const FIX_LAYER = "apt-get install -y vulkan-validationlayers; see toolchain.md §1";
const FIX_GLSL = "apt-get install -y glslang-tools spirv-tools; see toolchain.md §2";

let summary: string | undefined;

/** `vulkaninfo --summary` output ("" when vulkaninfo is missing). */
export function vulkanSummary(): string {
  if (summary === undefined) {
    if (!haveCommand("vulkaninfo")) summary = "";
    else {
      const r = spawnSync("vulkaninfo", ["--summary"], { encoding: "utf8", env: quietEnv(), timeout: 60_000 });
      summary = `${r.stdout ?? ""}`;
    }
  }
  return summary;
}

/** Environment without WSI noise (toolchain.md §1) and without layers the caller did not ask for. */
export function quietEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env, XDG_RUNTIME_DIR: process.env.XDG_RUNTIME_DIR ?? "/tmp", ...extra };
  if (!("VK_INSTANCE_LAYERS" in extra)) delete env.VK_INSTANCE_LAYERS;
  return env;
}

function skipOrFail(t: TestContext, tool: string, reason: string, fix: string): false {
  const line = `${tool}: ${reason} (${fix})`;
  if (process.env.REQUIRE_ALL_TOOLS === "1") throw new Error(`REQUIRE_ALL_TOOLS=1 but ${line}`);
  console.log(`SKIP ${t.name}: ${line}`);
  t.skip(line);
  return false;
}

/** True when lavapipe is installed; otherwise skips (or fails under REQUIRE_ALL_TOOLS=1). */
export function requireLavapipe(t: TestContext): boolean {
  if (!requireTool(t, "vulkaninfo", FIX_LAVAPIPE)) return false;
  if (!/llvmpipe/.test(vulkanSummary())) return skipOrFail(t, "lavapipe", "vulkaninfo --summary lists no llvmpipe device", FIX_LAVAPIPE);
  return true;
}

export function requireValidationLayer(t: TestContext): boolean {
  if (!requireLavapipe(t)) return false;
  if (!/VK_LAYER_KHRONOS_validation/.test(vulkanSummary())) {
    return skipOrFail(t, "VK_LAYER_KHRONOS_validation", "vulkaninfo --summary lists no such layer", FIX_LAYER);
  }
  return true;
}

/** glslangValidator and spirv-val, to build and check the reference shaders. */
export function requireGlslang(t: TestContext): boolean {
  return requireTool(t, "glslangValidator", FIX_GLSL) && requireTool(t, "spirv-val", FIX_GLSL);
}
