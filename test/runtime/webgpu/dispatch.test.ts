/**
 * The WebGPU runtime on Dawn + SwiftShader with hand-written WGSL (shaders.ts): saxpy and a
 * workgroup-memory block sum for n = 0, 1, 1000, 1009, 65537, checked against JS references;
 * timestamps; uploads and downloads at offsets.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { dawnRuntime } from "./dawn.js";
import type { WebGpuBuffer } from "../../../src/runtime/webgpu/index.js";
import { BLOCK_SUM_WGSL, SAXPY_WGSL, blockSumRecord, saxpyRecord } from "./shaders.js";

const SIZES = [0, 1, 1000, 1009, 65537];

function seeded(seed: number): () => number {
  let s = seed >>> 0 || 1;
  return () => {
    s ^= s << 13;
    s >>>= 0;
    s ^= s >>> 17;
    s ^= s << 5;
    s >>>= 0;
    return s;
  };
}

test("saxpy on Dawn matches the JS reference within 2 ulp of |a·x| + |y|", async (t) => {
  const rt = await dawnRuntime(t);
  if (!rt) return;
  try {
    const kernel = await rt.createKernel(SAXPY_WGSL, saxpyRecord());
    assert.deepEqual(kernel.layout, {
      buffers: [{ binding: 0, argument: 2, readOnly: true }, { binding: 1, argument: 3, readOnly: false }],
      argumentBlock: { binding: 2, bytes: 48 },
    });
    for (const n of SIZES) {
      const next = seeded(n + 7);
      const grid = () => ((next() % 32768) - 16384) / 4096;
      const xs = Float32Array.from({ length: n }, grid), ys = Float32Array.from({ length: n }, grid);
      const alpha = 2.5;
      const x: WebGpuBuffer = rt.createBuffer(4 * n), y: WebGpuBuffer = rt.createBuffer(4 * n);
      x.upload(xs);
      y.upload(ys);
      const groups = Math.ceil(n / 64);
      const r = await rt.dispatch(kernel, { workgroupCount: [groups, 1, 1], args: [BigInt(n), alpha, kernel.bufferArgument(x), kernel.bufferArgument(y)], buffers: [x, y] });
      assert.equal(r.dispatched, n > 0);
      const got: Float32Array = new Float32Array((await y.download()).buffer);
      for (let i = 0; i < n; i++) {
        const want = Math.fround(alpha * xs[i]! + ys[i]!);
        const bound = 2 * 2 ** -23 * (Math.abs(alpha * xs[i]!) + Math.abs(ys[i]!));
        if (Math.abs(got[i]! - want) > bound) assert.fail(`n=${n}: y[${i}] = ${got[i]}, want ${want}`);
      }
      x.destroy();
      y.destroy();
    }
  } finally {
    rt.destroy();
  }
});

test("a workgroup-memory block sum on Dawn is exact (u32, wrapping), read-only input binding", async (t) => {
  const rt = await dawnRuntime(t);
  if (!rt) return;
  try {
    const kernel = await rt.createKernel(BLOCK_SUM_WGSL, blockSumRecord());
    for (const n of SIZES) {
      const next = seeded(n + 11);
      const xs = Uint32Array.from({ length: n }, next);
      const blocks = Math.ceil(n / 256);
      const x: WebGpuBuffer = rt.createBuffer(4 * n), sums: WebGpuBuffer = rt.createBuffer(4 * blocks);
      x.upload(xs);
      await rt.dispatch(kernel, { workgroupCount: [blocks, 1, 1], args: [n, kernel.bufferArgument(x), kernel.bufferArgument(sums)], buffers: [x, sums] });
      const got: Uint32Array = new Uint32Array((await sums.download()).buffer);
      const want = new Uint32Array(blocks);
      xs.forEach((v, i) => (want[i >> 8] = (want[i >> 8]! + v) >>> 0));
      assert.deepEqual(got, want, `n=${n}`);
    }
  } finally {
    rt.destroy();
  }
});

test("timestamp queries time the pass where the device has them", async (t) => {
  const rt = await dawnRuntime(t);
  if (!rt) return;
  try {
    const facts = rt.profileFacts();
    assert.ok(facts.limits.maxComputeInvocationsPerWorkgroup! >= 256, JSON.stringify(facts.limits));
    assert.ok(facts.features.includes("timestamp-query"), `SwiftShader offers timestamp-query (features: ${facts.features.join(", ")})`);
    assert.equal(rt.timestampsAvailable, true);
    const kernel = await rt.createKernel(SAXPY_WGSL, saxpyRecord());
    const n = 4096;
    const x = rt.createBuffer(4 * n), y = rt.createBuffer(4 * n);
    const times: number[] = [];
    for (let i = 0; i < 3; i++) {
      const r = await rt.dispatch(kernel, { workgroupCount: [n / 64, 1, 1], args: [n, 1, kernel.bufferArgument(x), kernel.bufferArgument(y)], buffers: [x, y], timestamps: true });
      assert.equal(r.dispatched, true);
      assert.equal(typeof r.gpuNs, "number");
      times.push(r.gpuNs!);
    }
    assert.ok(times.every((ns) => ns >= 0 && ns < 10e9), times.join(","));
    // Untimed dispatches report no time.
    const untimed = await rt.dispatch(kernel, { workgroupCount: [1, 1, 1], args: [n, 1, kernel.bufferArgument(x), kernel.bufferArgument(y)], buffers: [x, y] });
    assert.equal(untimed.gpuNs, undefined);
  } finally {
    rt.destroy();
  }
});

test("uploads and downloads at word offsets, odd lengths at the end, partial reads", async (t) => {
  const rt = await dawnRuntime(t);
  if (!rt) return;
  try {
    const b = rt.createBuffer(23);
    assert.equal(b.allocatedBytes, 24);
    const model = new Uint8Array(23);
    assert.deepEqual(await b.download(), model, "new buffers are zero");
    const a = Uint8Array.from({ length: 8 }, (_, i) => i + 1);
    b.upload(a, 4);
    model.set(a, 4);
    const tail = Uint8Array.from([90, 91, 92]);
    b.upload(tail, 20);
    model.set(tail, 20);
    assert.deepEqual(await b.download(), model);
    assert.deepEqual(await b.download(3, 7), model.slice(3, 10));
    assert.deepEqual(await b.download(21, 2), model.slice(21, 23));
    assert.deepEqual(await b.download(5, 0), new Uint8Array(0));
  } finally {
    rt.destroy();
  }
});

test("repeat dispatches the same work that many times in one pass; a non-positive repeat is refused", async (t) => {
  const rt = await dawnRuntime(t);
  if (!rt) return;
  try {
    const kernel = await rt.createKernel(SAXPY_WGSL, saxpyRecord());
    const n = 1000;
    // Small integers: y + 3·x is exact in f32 whichever way the adds associate.
    const xs = Float32Array.from({ length: n }, (_, i) => (i % 17) - 8), ys = Float32Array.from({ length: n }, (_, i) => (i % 5) - 2);
    const x = rt.createBuffer(4 * n), y = rt.createBuffer(4 * n);
    x.upload(xs);
    y.upload(ys);
    const options = { workgroupCount: [Math.ceil(n / 64), 1, 1], args: [BigInt(n), 1, kernel.bufferArgument(x), kernel.bufferArgument(y)], buffers: [x, y] };
    assert.equal((await rt.dispatch(kernel, { ...options, repeat: 3 })).dispatched, true);
    const got = new Float32Array((await y.download()).buffer);
    for (let i = 0; i < n; i++) assert.equal(got[i], ys[i]! + 3 * xs[i]!, `y[${i}]`);
    for (const repeat of [0, -1, 1.5]) await assert.rejects(rt.dispatch(kernel, { ...options, repeat }), { name: "LoomError", status: "invalid-argument" });
  } finally {
    rt.destroy();
  }
});
