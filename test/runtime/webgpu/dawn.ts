/**
 * Dawn in Node on the SwiftShader Vulkan ICD (docs/runtime-webgpu.md "Tests"): the npm `webgpu`
 * package's `create()` with VK_ICD_FILENAMES pointing at the ICD Debian's chromium ships.
 * Missing package or ICD skips the test with one printed line, and fails under REQUIRE_ALL_TOOLS=1.
 */
import { existsSync, mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { TestContext } from "node:test";
import { WebGpuRuntime, type GpuEntry } from "../../../src/runtime/webgpu/index.js";

export const SWIFTSHADER_ICD = "/usr/lib/chromium/vk_swiftshader_icd.json";

function skipOrFail(t: TestContext, reason: string): undefined {
  if (process.env.REQUIRE_ALL_TOOLS === "1") throw new Error(`REQUIRE_ALL_TOOLS=1 but ${reason}`);
  console.log(`SKIP ${t.name}: ${reason}`);
  t.skip(reason);
  return undefined;
}

let entry: Promise<GpuEntry | string> | undefined;

/** Dawn's entry object (kept for the life of the process, as the package needs), or why there is none. */
async function dawnEntry(): Promise<GpuEntry | string> {
  return (entry ??= (async () => {
    const icd = process.env.VK_ICD_FILENAMES ?? process.env.VK_DRIVER_FILES ?? SWIFTSHADER_ICD;
    if (!existsSync(icd)) return `the SwiftShader Vulkan ICD ${icd} is missing (apt-get install chromium)`;
    process.env.VK_ICD_FILENAMES = icd;
    process.env.XDG_RUNTIME_DIR ??= mkdtempSync(join(tmpdir(), "xdg-"));
    let mod: { create(options: string[]): unknown };
    try {
      mod = (await import("webgpu")) as unknown as { create(options: string[]): unknown };
    } catch (e) {
      return `the npm package 'webgpu' does not load (${(e as Error).message}; npm ci)`;
    }
    return mod.create([]) as GpuEntry;
  })());
}

/** A runtime on Dawn + SwiftShader, or undefined after skipping the test. The caller destroys it. */
export async function dawnRuntime(t: TestContext): Promise<WebGpuRuntime | undefined> {
  const gpu = await dawnEntry();
  if (typeof gpu === "string") return skipOrFail(t, gpu);
  const adapter = await gpu.requestAdapter();
  if (!adapter) return skipOrFail(t, `Dawn found no adapter through ${process.env.VK_ICD_FILENAMES}`);
  return WebGpuRuntime.create({ gpu, adapter });
}
