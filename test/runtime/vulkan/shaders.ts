/**
 * Builds the GLSL reference shaders in shaders/ with glslangValidator (an independent path
 * to SPIR-V following our ABI) and proves each module valid with spirv-val before any test
 * runs it, since lavapipe silently runs invalid SPIR-V (verification.md, SPIR-V §1).
 */
import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fromRoot } from "../../util/paths.js";
import { runTool } from "../../util/tools.js";

export type ShaderName = "saxpy" | "saxpy_address" | "reduce" | "subgroup_count";

let dir: string | undefined;
const built = new Map<ShaderName, string>();

/** Path of the compiled, validated .spv for `name` (built once per process). */
export function shaderPath(name: ShaderName): string {
  const done = built.get(name);
  if (done) return done;
  dir ??= mkdtempSync(join(tmpdir(), "loom-vk-shaders-"));
  const out = join(dir, `${name}.spv`);
  const src = fromRoot("test", "runtime", "vulkan", "shaders", `${name}.comp`);
  const compiled = runTool("glslangValidator", ["-V", "--target-env", "vulkan1.3", src, "-o", out]);
  if (compiled.status !== 0) throw new Error(`glslangValidator failed on ${name}.comp:\n${compiled.stdout}${compiled.stderr}`);
  const valid = runTool("spirv-val", ["--target-env", "vulkan1.3", out]);
  if (valid.status !== 0 || valid.stdout + valid.stderr !== "") {
    throw new Error(`spirv-val rejected ${name}.spv:\n${valid.stdout}${valid.stderr}`);
  }
  built.set(name, out);
  return out;
}

export function shaderBytes(name: ShaderName): Uint8Array {
  return new Uint8Array(readFileSync(shaderPath(name)));
}
