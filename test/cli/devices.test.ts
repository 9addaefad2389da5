/**
 * `loom run --device webgpu` and `--device sim` through the built binary (issue 10 item 6,
 * issue 8 item 10). webgpu: loom's WGSL on Dawn + SwiftShader against the suite's JS reference
 * and the reference interpreter; no adapter is exit 4. sim: loom's AMDGPU code in the ISA
 * simulator against the same references; a kernel the back end cannot lower yet is refused
 * with its TARGET diagnostics (exit 1), never run.
 */
import { test, type TestContext } from "node:test";
import assert from "node:assert/strict";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { createRequire } from "node:module";
import { fromRoot } from "../util/paths.js";
import { nagaError } from "../wgsl/helpers.js";
import { doc, loomWith, tempDir, type Ran } from "./helpers.js";

const SWIFTSHADER_ICD = "/usr/lib/chromium/vk_swiftshader_icd.json";
const kernel = (name: string): string => fromRoot("examples", "kernels", `${name}.loom`);

function skipOrFail(t: TestContext, reason: string): false {
  if (process.env.REQUIRE_ALL_TOOLS === "1") throw new Error(`REQUIRE_ALL_TOOLS=1 but ${reason}`);
  console.log(`SKIP ${t.name}: ${reason}`);
  t.skip(reason);
  return false;
}

/** Dawn and the SwiftShader ICD are installed (or the test is skipped). */
function haveDawn(t: TestContext): boolean {
  if (!existsSync(SWIFTSHADER_ICD)) return skipOrFail(t, `the SwiftShader Vulkan ICD ${SWIFTSHADER_ICD} is missing (apt-get install chromium)`);
  try {
    createRequire(import.meta.url).resolve("webgpu");
  } catch {
    return skipOrFail(t, "the npm package 'webgpu' (Dawn) is not installed (npm ci)");
  }
  return true;
}

const onSwiftShader = (...args: string[]): Ran => loomWith({ env: { VK_ICD_FILENAMES: SWIFTSHADER_ICD, VK_DRIVER_FILES: undefined }, timeout: 300_000 }, ...args);
const onSim = (...args: string[]): Ran => loomWith({ timeout: 300_000 }, ...args);

test("loom run --device webgpu: saxpy and row_softmax4 pass on Dawn + SwiftShader; --bench; --json", (t) => {
  if (!haveDawn(t)) return;
  const saxpy = onSwiftShader("run", kernel("saxpy"), "--device", "webgpu", "--bench", "--repeat", "3");
  assert.equal(saxpy.code, 0, saxpy.out + saxpy.err);
  assert.match(saxpy.out, /^device +SwiftShader.* \(WebGPU \(Dawn\), /m);
  assert.match(saxpy.out, /^y +device vs JS reference: max error 0 \(0 of 4099 differ\)$/m);
  assert.match(saxpy.out, /^y +interpreter vs JS reference: max error 0 \(0 of 4099 differ\)$/m);
  assert.match(saxpy.out, /^time +median [\d.]+ us over 3 runs/m);
  assert.match(saxpy.out, /^result +PASS$/m);

  const softmax = doc(onSwiftShader("run", kernel("row_softmax4"), "--device", "webgpu", "--json"));
  assert.equal(softmax.schema, "loom-cli/1");
  assert.equal(softmax.command, "run");
  assert.equal(softmax.ok, true);
  assert.equal(softmax.exitCode, 0);
  const r = softmax.result as { deviceKind: string; deviceName: string; kernel: string; suite: boolean; passed: boolean; dispatched: boolean; device: { name: string; count: number; mismatches: number }[]; interpreter: { mismatches: number }[] };
  assert.equal(r.deviceKind, "webgpu");
  assert.match(r.deviceName, /SwiftShader/);
  assert.equal(r.kernel, "row_softmax4");
  assert.equal(r.suite, true);
  assert.equal(r.passed, true);
  assert.equal(r.dispatched, true);
  assert.equal(r.device.length, 1);
  assert.ok(r.device[0]!.count > 0);
  assert.equal(r.device[0]!.mismatches, 0);
  assert.equal(r.interpreter[0]!.mismatches, 0);
});

test("loom run --device webgpu without an adapter exits 4 with the reason; wgsl:device likewise", (t) => {
  if (!haveDawn(t)) return;
  const env = { VK_ICD_FILENAMES: "/nonexistent.json", VK_DRIVER_FILES: "/nonexistent.json" };
  const r = loomWith({ env }, "run", kernel("saxpy"), "--device", "webgpu");
  assert.equal(r.code, 4, r.out + r.err);
  assert.match(r.err, /^loom run: no usable webgpu device: .*found no adapter/m);
  // No JavaScript stack (Dawn itself logs the Vulkan loader's failure, with a C++ location).
  assert.doesNotMatch(r.err, /    at .*\.js:\d+/);
  const j = doc(loomWith({ env }, "run", kernel("saxpy"), "--device", "webgpu", "--json"));
  assert.equal(j.ok, false);
  assert.equal(j.exitCode, 4);
  assert.equal(j.error?.kind, "device");
  const c = loomWith({ env }, "compile", kernel("saxpy"), "--target", "wgsl:device", "-o", "-");
  assert.notEqual(c.code, 0);
  assert.match(c.err, /found no adapter/);
});

test("loom compile --target wgsl:webgpu -o OUT.wgsl writes WGSL naga accepts, byte-identical on a rerun; wgsl:device too", async (t) => {
  const dir = tempDir(t);
  const out = join(dir, "saxpy.wgsl");
  const r = loomWith({}, "compile", kernel("saxpy"), "--target", "wgsl:webgpu", "-o", out);
  assert.equal(r.code, 0, r.out + r.err);
  const wgsl = readFileSync(out, "utf8");
  assert.match(wgsl, /@compute @workgroup_size\(128, 1, 1\)\nfn saxpy\(/);
  const error = await nagaError(t, wgsl);
  if (error === false) return;
  assert.equal(error, undefined, `naga rejects loom's WGSL: ${error}`);
  const again = loomWith({}, "compile", kernel("saxpy"), "--target", "wgsl:webgpu", "-o", "-");
  assert.equal(again.out, wgsl);
  if (!haveDawn(t)) return;
  const live = onSwiftShader("compile", kernel("reduce_sum"), "--target", "wgsl:device", "-o", "-");
  assert.equal(live.code, 0, live.err);
  assert.equal(await nagaError(t, live.out), undefined);
});

test("loom run --device sim: saxpy and matmul16 pass in the AMDGPU simulator (gfx1100; gfx942 by --device-index); --json", () => {
  const saxpy = onSim("run", kernel("saxpy"), "--device", "sim");
  assert.equal(saxpy.code, 0, saxpy.out + saxpy.err);
  assert.match(saxpy.out, /^device +AMDGPU simulator \(gfx1100\) \(gfx1100, wave32, /m);
  assert.match(saxpy.out, /^y +device vs JS reference: max error 0 \(0 of 4099 differ\)$/m);
  assert.match(saxpy.out, /^result +PASS$/m);
  const wave64 = onSim("run", kernel("saxpy"), "--device", "sim", "--device-index", "gfx942");
  assert.equal(wave64.code, 0, wave64.out + wave64.err);
  assert.match(wave64.out, /^device +AMDGPU simulator \(gfx942\) \(gfx942, wave64, /m);

  const matmul = doc(onSim("run", kernel("matmul16"), "--device", "sim", "--json"));
  assert.equal(matmul.ok, true);
  assert.equal(matmul.exitCode, 0);
  const r = matmul.result as { deviceKind: string; deviceName: string; passed: boolean; launch: { subgroupSize: number }; device: { name: string; count: number; mismatches: number }[]; gpuNs: number[] };
  assert.equal(r.deviceKind, "sim");
  assert.equal(r.deviceName, "AMDGPU simulator (gfx1100)");
  assert.equal(r.passed, true);
  assert.equal(r.device[0]!.name, "c");
  assert.ok(r.device[0]!.count > 0);
  assert.equal(r.device[0]!.mismatches, 0);
  // The simulator has no device timer: no times, rather than CPU time passed off as GPU time.
  assert.deepEqual(r.gpuNs, []);
});

test("loom run --device sim: every suite kernel passes or is refused with TARGET diagnostics (exit 1), never run wrong", () => {
  const files = readdirLoom();
  let refused = 0;
  for (const file of files) {
    const r = onSim("run", file, "--device", "sim", "--json");
    const j = doc(r);
    if (r.code === 0) {
      assert.equal((j.result as { passed: boolean }).passed, true, file);
      continue;
    }
    refused++;
    assert.equal(r.code, 1, `${file}: ${r.out}${r.err}`);
    assert.equal(j.ok, false);
    assert.deepEqual(j.result, {}, `${file} was refused, yet ran`);
    assert.ok(j.diagnostics.length > 0);
    for (const d of j.diagnostics) assert.match(d.message, /error \[TARGET\/\d{3}\]: .* AMDGPU profile 'sim-gfx1100'/, file);
  }
  console.log(JSON.stringify({ simSuite: { kernels: files.length, refused } }));
});

test("loom run --device sim: an unknown processor is exit 4 naming the ones it runs", () => {
  const r = onSim("run", kernel("saxpy"), "--device", "sim", "--device-index", "gfx803");
  assert.equal(r.code, 4, r.out + r.err);
  assert.match(r.err, /^loom run: no usable sim device: the simulator runs gfx1100 and gfx942 code, not 'gfx803'$/m);
});

/** The suite's kernel files (examples/kernels/*.loom). */
function readdirLoom(): string[] {
  return readdirSync(fromRoot("examples", "kernels"))
    .filter((f) => f.endsWith(".loom"))
    .sort()
    .map((f) => fromRoot("examples", "kernels", f));
}
