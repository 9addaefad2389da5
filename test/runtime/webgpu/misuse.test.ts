/**
 * Every misuse is a LoomError with a status, and WebGPU's own errors come back as WebGpuError
 * carrying the implementation's text (Tint's message with line and column, Dawn's validation
 * chain). A rejected dispatch leaves the output untouched.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { LoomError } from "../../../src/core/errors.js";
import { WebGpuError, WebGpuRuntime, type WebGpuBuffer } from "../../../src/runtime/webgpu/index.js";
import { dawnRuntime } from "./dawn.js";
import { SAXPY_WGSL, saxpyRecord, wgslRecord } from "./shaders.js";

async function rejects(p: Promise<unknown> | (() => unknown), status: string, pattern: RegExp): Promise<unknown> {
  let error: unknown;
  try {
    await (typeof p === "function" ? p() : p);
  } catch (e) {
    error = e;
  }
  assert.ok(error instanceof LoomError, `expected a LoomError, got ${String(error)}`);
  assert.equal(error.status, status, error.message);
  assert.match(error.message, pattern);
  return error;
}

test("Tint's compilation errors come back with line and column", async (t) => {
  const rt = await dawnRuntime(t);
  if (!rt) return;
  try {
    const bad = SAXPY_WGSL.replace("let i = gid.x;", "let i: i32 = gid.x;");
    const e = (await rejects(rt.createKernel(bad, saxpyRecord(bad)), "invalid-argument", /WebGPU compilation error: 13:\d+: error: cannot initialize 'let' of type 'i32' with value of type 'u32'/)) as WebGpuError;
    assert.ok(e instanceof WebGpuError);
    assert.equal(e.kind, "compilation");
  } finally {
    rt.destroy();
  }
});

test("pipeline validation errors carry Dawn's text: a missing entry point, a binding whose access disagrees", async (t) => {
  const rt = await dawnRuntime(t);
  if (!rt) return;
  try {
    const renamed = saxpyRecord(SAXPY_WGSL, { entryName: "axpy" });
    await rejects(rt.createKernel(SAXPY_WGSL, renamed), "invalid-argument", /WebGPU validation error: .*axpy/s);
    // The record says buffer 0 is written, the shader declares it read-only.
    const writable = wgslRecord(SAXPY_WGSL, { entryName: "saxpy", types: ["index", "f32", "buffer", "buffer"], workgroupSize: [64, 1, 1] });
    await rejects(rt.createKernel(SAXPY_WGSL, writable), "invalid-argument", /ReadOnlyStorage.*not compatible/s);
  } finally {
    rt.destroy();
  }
});

test("records that do not fit the bytes, the format or the device are refused before WebGPU sees them", async (t) => {
  const rt = await dawnRuntime(t);
  if (!rt) return;
  try {
    await rejects(rt.createKernel(SAXPY_WGSL, saxpyRecord(`${SAXPY_WGSL} `)), "invalid-argument", /the record and the module disagree/);
    await rejects(rt.createKernel(SAXPY_WGSL, { ...saxpyRecord(), format: "spirv" }), "invalid-argument", /'spirv' executable, not WGSL/);
    await rejects(rt.createKernel(SAXPY_WGSL, saxpyRecord(), "nope"), "not-found", /no entry 'nope' \(has: saxpy\)/);
    await rejects(rt.createKernel(SAXPY_WGSL, { ...saxpyRecord(), version: 2 } as never), "invalid-argument", /version 2/);
    await rejects(rt.createKernel(SAXPY_WGSL, undefined as never), "invalid-argument", /record is required/);
    await rejects(rt.createKernel(SAXPY_WGSL, saxpyRecord(SAXPY_WGSL, { requiredFeatures: ["shader-f16"] })), "failed-precondition", /shader-f16/);
    await rejects(rt.createKernel(SAXPY_WGSL, saxpyRecord(SAXPY_WGSL, { workgroupSize: [1024, 1, 1] })), "out-of-range", /maxComputeWorkgroupSizeX/);
    await rejects(rt.createKernel(SAXPY_WGSL, saxpyRecord(SAXPY_WGSL, { workgroupStorageBytes: 1 << 20 })), "out-of-range", /maxComputeWorkgroupStorageSize/);
    await rejects(rt.createKernel(SAXPY_WGSL, saxpyRecord(SAXPY_WGSL, { bufferAddressing: "device-address", bindings: [] })), "invalid-argument", /binds buffers/);
  } finally {
    rt.destroy();
  }
});

test("dispatch misuse: statuses, and a rejected dispatch leaves the output untouched", async (t) => {
  const rt = await dawnRuntime(t);
  if (!rt) return;
  try {
    const kernel = await rt.createKernel(SAXPY_WGSL, saxpyRecord());
    const n = 100;
    const x: WebGpuBuffer = rt.createBuffer(4 * n), y: WebGpuBuffer = rt.createBuffer(4 * n);
    x.upload(new Float32Array(n).fill(1));
    y.upload(new Float32Array(n).fill(5));
    const args = [n, 2, kernel.bufferArgument(x), kernel.bufferArgument(y)];
    const good = { workgroupCount: [2, 1, 1], args, buffers: [x, y] } as const;
    await rejects(rt.dispatch(kernel, { ...good, buffers: [x] }), "invalid-argument", /binds 2 buffer/);
    await rejects(rt.dispatch(kernel, { ...good, args: args.slice(1) }), "invalid-argument", /takes 4 argument/);
    await rejects(rt.dispatch(kernel, { ...good, args: undefined, argBlock: new Uint8Array(40) }), "invalid-argument", /is 48 bytes, got 40/);
    await rejects(rt.dispatch(kernel, { ...good, args: [n, 2, { address: 64, byteLength: 400 }, kernel.bufferArgument(y)] }), "invalid-argument", /must be 0/);
    await rejects(rt.dispatch(kernel, { ...good, args: [n, 2, kernel.bufferArgument(x), { address: 0, byteLength: 800 }] }), "out-of-range", /declares 800 bytes but buffers\[1\] holds 400/);
    await rejects(rt.dispatch(kernel, { ...good, workgroupCount: [1, 1] }), "invalid-argument", /three non-negative integers/);
    await rejects(rt.dispatch(kernel, { ...good, workgroupCount: [1 << 20, 1, 1] }), "out-of-range", /maxComputeWorkgroupsPerDimension/);
    await rejects(rt.dispatch(kernel, { ...good, args: [-1n << 64n, 2, kernel.bufferArgument(x), kernel.bufferArgument(y)] }), "out-of-range", /does not fit index/);
    await rejects(rt.dispatch(kernel, { ...good, args: [2 ** 31, 2, kernel.bufferArgument(x), kernel.bufferArgument(y)] }), "out-of-range", /outside the 32-bit index domain/);
    await rejects(rt.dispatch(kernel, { ...good, args: [-(2 ** 31) - 1, 2, kernel.bufferArgument(x), kernel.bufferArgument(y)] }), "out-of-range", /outside the 32-bit index domain/);
    await rejects(rt.dispatch(kernel, { ...good, args: [n, "2" as never, kernel.bufferArgument(x), kernel.bufferArgument(y)] }), "invalid-argument", /expected a number for f32/);
    const other = await dawnRuntime(t);
    try {
      await rejects(rt.dispatch(kernel, { ...good, buffers: [x, other!.createBuffer(400)] }), "invalid-argument", /buffers\[1\] is not a buffer of this runtime/);
    } finally {
      other!.destroy();
    }
    assert.deepEqual(new Float32Array((await y.download()).buffer), new Float32Array(n).fill(5), "nothing ran");
    const none = await rt.dispatch(kernel, { ...good, workgroupCount: [0, 1, 1] });
    assert.deepEqual(none, { dispatched: false });
    await rt.dispatch(kernel, good);
    assert.deepEqual(new Float32Array((await y.download()).buffer), new Float32Array(n).fill(7));

    await rejects(() => x.upload(new Uint8Array(8), 398), "out-of-range", /do not fit/);
    await rejects(() => x.upload(new Uint8Array(3), 4), "invalid-argument", /whole 4-byte words/);
    await rejects(x.download(396, 8), "out-of-range", /outside/);
    await rejects(() => rt.createBuffer(-1), "invalid-argument", /non-negative/);
    await rejects(() => rt.createBuffer(2 ** 40), "out-of-range", /maxBufferSize/);
    x.destroy();
    await rejects(rt.dispatch(kernel, good), "failed-precondition", /buffer was destroyed/);
    await rejects(x.download(), "failed-precondition", /buffer was destroyed/);
    kernel.destroy();
    await rejects(rt.dispatch(kernel, good), "failed-precondition", /kernel was destroyed/);
  } finally {
    rt.destroy();
  }
  await rejects(() => rt.createBuffer(4), "failed-precondition", /runtime was destroyed/);
});

test("without WebGPU, create says what is missing", async () => {
  await rejects(WebGpuRuntime.create({}), "failed-precondition", /navigator\.gpu is undefined/);
  await rejects(WebGpuRuntime.create({ gpu: { requestAdapter: async () => null } }), "failed-precondition", /found no adapter/);
});
