/**
 * Batched, asynchronous submission (VulkanRuntime.submitBatch) on lavapipe: saxpy and saxpy4
 * from examples/kernels, compiled for the device, dispatched several times in one command
 * buffer. Each dispatch reads what the one before wrote (the barrier between them), so the
 * result is the plain-JS loop of the same updates, exactly (inputs on a 2⁻¹² grid). Misuse is
 * refused before anything is recorded; any other use of the device waits for a pending batch.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { LoomError } from "../../../src/core/errors.js";
import { compileForDevice, deviceProfile, random, type DeviceKernel } from "../../../src/harness/index.js";
import { VulkanRuntime, packArguments, type VulkanBuffer, type VulkanKernel } from "../../../src/runtime/vulkan/index.js";
import { fromRoot } from "../../util/paths.js";
import { requireLavapipe } from "./probe.js";

const N = 4099;
const ALPHA = 0.5;

function grid(seed: number): Float32Array {
  const r = random(seed);
  return Float32Array.from({ length: N }, () => Math.round((r() * 2 - 1) * 4096) / 4096);
}

function load(rt: VulkanRuntime, file: string): { device: DeviceKernel; kernel: VulkanKernel } {
  const compiled = compileForDevice(file, readFileSync(fromRoot(`examples/kernels/${file}`), "utf8"), deviceProfile(rt));
  if (!compiled.ok) throw new Error(compiled.diagnostics);
  return { device: compiled.kernel, kernel: rt.createKernel(compiled.kernel.spirv, compiled.kernel.record, compiled.kernel.exportName) };
}

function item(k: { device: DeviceKernel; kernel: VulkanKernel }, x: VulkanBuffer, y: VulkanBuffer, n = N) {
  const launch = k.device.launch([n]);
  const argBlock = packArguments(k.device.slots, [n, ALPHA, k.kernel.bufferArgument(x), k.kernel.bufferArgument(y)], k.device.interface.argumentBlockBytes);
  return { kernel: k.kernel, workgroupCount: launch.workgroupCount, argBlock, buffers: [x, y] };
}

test("submitBatch: dependent dispatches in one submission, collected by wait() or done(), with misuse refused up front", async (t) => {
  if (!requireLavapipe(t)) return;
  const rt = VulkanRuntime.create();
  try {
    const saxpy = load(rt, "saxpy.loom");
    const saxpy4 = load(rt, "saxpy4.loom");
    const xs = grid(1);
    const ys = grid(2);
    const x = rt.createBuffer(4 * N);
    const y = rt.createBuffer(4 * N);
    const other = rt.createBuffer(4 * N);
    x.upload(xs);
    y.upload(ys);
    const want = (rounds: number) => {
      const out = Float32Array.from(ys);
      for (let r = 0; r < rounds; r++) for (let i = 0; i < N; i++) out[i] = Math.fround(ALPHA * xs[i]! + out[i]!);
      return out;
    };
    const batch = rt.submitBatch([item(saxpy, x, y), item(saxpy4, x, y), item(saxpy, x, y, 0), item(saxpy4, x, y)], { timestamps: true });
    const result = await batch.done();
    assert.equal(result.dispatched, 3, "the empty item is skipped");
    assert.ok(typeof result.gpuNs === "number" && result.gpuNs >= 0);
    assert.equal(batch.isComplete, true);
    assert.deepEqual(batch.wait(), result, "collecting twice gives the same result");
    assert.deepEqual(new Float32Array(y.download().buffer), want(3));

    // A download while a batch is pending waits for it.
    rt.submitBatch([item(saxpy4, x, y), item(saxpy4, x, y)]);
    assert.deepEqual(new Float32Array(y.download().buffer), want(5));
    // So does a plain dispatch.
    const pending = rt.submitBatch([item(saxpy, x, y)]);
    const one = item(saxpy4, x, y);
    rt.dispatch(saxpy4.kernel, one);
    assert.equal(pending.isComplete, true);
    assert.deepEqual(new Float32Array(y.download().buffer), want(7));

    const refused = (items: Parameters<VulkanRuntime["submitBatch"]>[0], pattern: RegExp) =>
      assert.throws(() => rt.submitBatch(items), (e: unknown) => e instanceof LoomError && e.status === "invalid-argument" && pattern.test(e.message));
    refused([item(saxpy4, x, y), item(saxpy4, x, other)], /items\[1\] dispatches kernel 'saxpy4' with other buffers/);
    refused([item(saxpy4, x, y), { ...item(saxpy4, x, y), buffers: [x] }], /items\[1\]: kernel 'saxpy4' takes 2 buffers, got 1/);
    refused([null as never], /items\[0\] must be/);
    assert.deepEqual(new Float32Array(y.download().buffer), want(7), "refused batches ran nothing");
    assert.equal((await rt.submitBatch([]).done()).dispatched, 0);
  } finally {
    rt.destroy();
  }
});
