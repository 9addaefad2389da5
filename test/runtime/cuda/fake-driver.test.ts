/**
 * The whole runtime against fake-driver/fake-cuda.c, a libcuda stand-in with the driver API's C
 * signatures (built here with cc): every binding, out-parameter, JIT option array, the
 * kernelParams block, graphs, timing, and the lost-context path, without a GPU. What a real
 * device does is checked by bench/cuda-smoke.ts on one.
 */
import { test, type TestContext } from "node:test";
import assert from "node:assert/strict";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createRequire } from "node:module";
import { LoomError } from "../../../src/core/errors.js";
import { CudaError, CudaRuntime, kernelInterface, packArguments, LIBRARY_ENV_VAR, DEVICE_ENV_VAR } from "../../../src/runtime/cuda/index.js";
import { fromRoot } from "../../util/paths.js";
import { requireTool, runTool } from "../../util/tools.js";

interface FakeProbe {
  lastLaunch(): { grid: number[]; block: number[]; shared: number; stream: bigint; paramsNull: boolean; extraNull: boolean; name: string; bytes: Uint8Array };
  launchCount(): number;
  primaryRefs(device: number): number;
  maxDynamic(): number;
  reset(): void;
}

let library: string | undefined;
let probe: FakeProbe;

const PTX = `.version 8.0
.target sm_90
.address_size 64
.visible .entry saxpy(.param .align 8 .b8 args[48])
{ ret; }
.visible .entry fault(.param .align 8 .b8 args[8])
{ ret; }
.visible .entry noargs
{ ret; }
.visible .entry heavy(.param .align 8 .b8 args[8])
{ ret; }
`;
const SAXPY = kernelInterface("saxpy", [["x", "buffer"], ["y", "buffer"], ["a", "f32"], ["n", "index"]]);

function build(): string {
  const dir = mkdtempSync(join(tmpdir(), "loom-fake-cuda-"));
  const out = join(dir, "libfakecuda.so");
  const r = runTool("cc", ["-shared", "-fPIC", "-O1", "-Wall", "-Werror", "-o", out, fromRoot("test/runtime/cuda/fake-driver/fake-cuda.c")]);
  assert.equal(r.status, 0, `cc failed: ${r.stderr}`);
  return out;
}

/** Builds and loads the fake driver once per process; skips (or fails under REQUIRE_ALL_TOOLS=1) without cc. */
function setup(t: TestContext): boolean {
  if (!requireTool(t, "cc", "apt-get install -y gcc (the C compiler builds the fake driver)")) return false;
  if (library === undefined) {
    library = build();
    process.env[LIBRARY_ENV_VAR] = library;
    delete process.env[DEVICE_ENV_VAR];
    const koffi = createRequire(import.meta.url)("koffi") as typeof import("koffi");
    const lib = koffi.load(library);
    const last = lib.func("int fake_last_launch(void *out)");
    const count = lib.func("int fake_get_launch_count()");
    const refs = lib.func("int fake_primary_refs(int d)");
    const maxDyn = lib.func("int fake_get_max_dynamic()");
    const reset = lib.func("int fake_reset()");
    probe = {
      lastLaunch() {
        const buf = new Uint8Array(512);
        last(buf);
        const v = new DataView(buf.buffer);
        const u = (i: number) => v.getUint32(4 * i, true);
        const nameBytes = buf.subarray(48, 112);
        return {
          grid: [u(0), u(1), u(2)],
          block: [u(3), u(4), u(5)],
          shared: u(6),
          stream: v.getBigUint64(32, true),
          paramsNull: u(10) !== 0,
          extraNull: u(11) !== 0,
          name: new TextDecoder().decode(nameBytes.subarray(0, nameBytes.indexOf(0))),
          bytes: buf.slice(112, 112 + 256),
        };
      },
      launchCount: () => count() as number,
      primaryRefs: (d) => refs(d) as number,
      maxDynamic: () => maxDyn() as number,
      reset: () => void reset(),
    };
  }
  return true;
}

function throwsStatus(fn: () => unknown, status: string, message: RegExp): void {
  assert.throws(fn, (e: unknown) => e instanceof LoomError && e.status === status && message.test(e.message), `expected ${status} ${message}`);
}

test("devices: facts from cuDeviceGetAttribute, selection by name, profile facts", (t) => {
  if (!setup(t)) return;
  const devices = CudaRuntime.listDevices();
  assert.deepEqual(devices.map((d) => d.name), ["Fake Ampere A100", "Fake NVIDIA H200"]);
  const rt = CudaRuntime.create({ device: "h200" });
  try {
    const info = rt.deviceInfo();
    assert.equal(info.index, 1);
    assert.deepEqual(info.computeCapability, [9, 0]);
    assert.equal(info.processor, "sm_90");
    assert.equal(info.multiprocessorCount, 132);
    assert.equal(info.clockRateKHz, 0, "an attribute the driver refuses reads 0");
    assert.equal(info.totalMemoryBytes, 150754820096);
    assert.equal(info.limits.maxSharedMemoryPerBlockOptin, 232448);
    assert.deepEqual(info.limits.maxGridDim, [2147483647, 65535, 65535]);
    assert.equal(info.driverVersion, 13000);
    assert.deepEqual(rt.profileFacts().limits, {
      maxWorkgroupSize: [1024, 1024, 64],
      maxFlatWorkgroupSize: 1024,
      maxWorkgroupCount: [2147483647, 65535, 65535],
      maxWorkgroupStorageBytes: 232448,
      maxArgumentBlockBytes: 32764,
    });
    assert.equal(rt.profileFacts().subgroupSize, 32);
    assert.equal(rt.jitIdentity(), "sm_90/cuda-driver-13000");
    assert.deepEqual(rt.memoryInfo(), { freeBytes: 1000, totalBytes: 2000 });
  } finally {
    rt.destroy();
  }
  process.env[DEVICE_ENV_VAR] = "0";
  try {
    const rt0 = CudaRuntime.create();
    assert.equal(rt0.deviceInfo().name, "Fake Ampere A100");
    rt0.destroy();
  } finally {
    delete process.env[DEVICE_ENV_VAR];
  }
  throwsStatus(() => CudaRuntime.create({ device: "v100" }), "not-found", /matches no CUDA device name; devices: 0: Fake Ampere A100; 1: Fake NVIDIA H200/);
  assert.equal(probe.primaryRefs(0) + probe.primaryRefs(1), 0, "every retained primary context was released");
});

test("saxpy: buffers, the argument block as the kernel's one parameter, dispatch with timing", (t) => {
  if (!setup(t)) return;
  const rt = CudaRuntime.create({ device: 1 });
  try {
    const kernel = rt.createKernel(PTX, SAXPY);
    assert.equal(kernel.module.kind, "ptx");
    assert.equal(kernel.module.jit.infoLog, "ptxas info    : 0 bytes gmem");
    assert.equal(kernel.module.jit.wallMs, 1.25);
    assert.equal(kernel.attributes.registers, 18);
    const n = 1000;
    const x = rt.createBuffer(4 * n);
    const y = rt.createBuffer(4 * n);
    assert.deepEqual([...y.download(0, 8)], [0, 0, 0, 0, 0, 0, 0, 0], "new buffers are zero");
    x.upload(Float32Array.from({ length: n }, (_, i) => i));
    y.upload(new Float32Array(n).fill(1));
    const r = rt.dispatch(kernel, { workgroupCount: [4, 1, 1], workgroupSize: [256, 1, 1], args: [x, y, 2, n], timing: true });
    assert.deepEqual(r, { launched: true, gpuMs: 0.5 });
    const out = new Float32Array(y.download().buffer);
    assert.equal(out[0], 1);
    assert.equal(out[999], 1999);
    const last = probe.lastLaunch();
    assert.equal(last.name, "saxpy");
    assert.deepEqual([last.grid, last.block, last.shared], [[4, 1, 1], [256, 1, 1], 0]);
    assert.equal(last.paramsNull, false);
    assert.equal(last.extraNull, true);
    assert.deepEqual(last.bytes.subarray(0, 48), packArguments(SAXPY, [x, y, 2, n]));
    assert.equal(last.stream, rt.stream.handle);
    // A record with a fixed workgroup size needs none per launch, and refuses another.
    const fixed = rt.createKernel(PTX, { ...SAXPY, workgroupSize: [128, 1, 1] });
    assert.equal(rt.launch(fixed, { workgroupCount: [1, 1, 1], args: [x, y, 0, 0] }), true);
    assert.deepEqual(probe.lastLaunch().block, [128, 1, 1]);
    throwsStatus(() => rt.launch(fixed, { workgroupCount: [1, 1, 1], workgroupSize: [64, 1, 1], args: [x, y, 0, 0] }), "invalid-argument", /differs from the kernel's \[128, 1, 1\]/);
    // setArguments binds values for later launches.
    kernel.setArguments([x, y, 1, n]);
    rt.launch(kernel, { workgroupCount: [4, 1, 1], workgroupSize: [256, 1, 1] });
    assert.equal(new Float32Array(y.download().buffer)[999], 1999 + 999);
    // Device-to-device copies and fill.
    const z = rt.createBuffer(4 * n);
    y.copyTo(z);
    assert.deepEqual(z.download(), y.download());
    z.fill(0);
    assert.equal(z.download().every((b) => b === 0), true);
  } finally {
    rt.destroy();
  }
});

test("misuse is rejected before anything is launched", (t) => {
  if (!setup(t)) return;
  const rt = CudaRuntime.create({ device: 1 });
  try {
    const kernel = rt.createKernel(PTX, SAXPY);
    const x = rt.createBuffer(64);
    const before = probe.launchCount();
    const shape = { workgroupCount: [1, 1, 1], workgroupSize: [32, 1, 1] } as const;
    throwsStatus(() => rt.launch(kernel, { ...shape, args: [x, { address: x.address + 32n, byteLength: 64 }, 1, 16] }), "out-of-range", /'y'.*not inside a live buffer/);
    throwsStatus(() => rt.launch(kernel, { ...shape, args: [x, { address: 0x1234n, byteLength: 4 }, 1, 1] }), "out-of-range", /not inside a live buffer/);
    throwsStatus(() => rt.launch(kernel, { ...shape, args: new Uint8Array(40) }), "invalid-argument", /40 bytes, the record says 48/);
    const forged = packArguments(SAXPY, [x, x, 1, 1]);
    new DataView(forged.buffer).setBigUint64(24, 65n, true);
    throwsStatus(() => rt.launch(kernel, { ...shape, args: forged }), "out-of-range", /'y'.*not inside/);
    throwsStatus(() => rt.launch(kernel, { ...shape }), "invalid-argument", /no arguments/);
    throwsStatus(() => rt.launch(kernel, { workgroupCount: [1, 1, 1], args: [x, x, 1, 1] }), "invalid-argument", /pass workgroupSize/);
    throwsStatus(() => rt.launch(kernel, { workgroupCount: [1, 1, 1], workgroupSize: [1024, 2, 1], args: [x, x, 1, 1] }), "out-of-range", /2048 threads per workgroup exceed 1024/);
    throwsStatus(() => rt.launch(kernel, { workgroupCount: [1, 70000, 1], workgroupSize: [1, 1, 1], args: [x, x, 1, 1] }), "out-of-range", /workgroupCount\[1\] = 70000 exceeds/);
    throwsStatus(() => rt.launch(kernel, { workgroupCount: [1, 1, 1], workgroupSize: [32, 1, 1], workgroupStorageBytes: 300000, args: [x, x, 1, 1] }), "out-of-range", /shared memory/);
    throwsStatus(() => x.upload(new Uint8Array(65)), "out-of-range", /outside the 64-byte buffer/);
    throwsStatus(() => x.download(60, 8), "out-of-range", /outside/);
    assert.equal(probe.launchCount(), before, "nothing reached cuLaunchKernel");
    // A zero count launches nothing and is not an error.
    assert.equal(rt.launch(kernel, { workgroupCount: [0, 1, 1], workgroupSize: [32, 1, 1], args: [x, x, 1, 1] }), false);
    assert.equal(probe.launchCount(), before);
    // The function's own thread limit (registers) counts too.
    const heavy = rt.createKernel(PTX, kernelInterface("heavy", [["n", "i32"]]));
    throwsStatus(() => rt.launch(heavy, { workgroupCount: [1, 1, 1], workgroupSize: [512, 1, 1], args: [1] }), "out-of-range", /512 threads per workgroup exceed 256/);
    // Another runtime's kernel is refused.
    const other = CudaRuntime.create({ device: 1 });
    try {
      throwsStatus(() => other.launch(kernel, { ...shape, args: [x, x, 1, 1] }), "invalid-argument", /kernel must be a CudaKernel of this runtime/);
    } finally {
      other.destroy();
    }
    x.destroy();
    throwsStatus(() => x.download(), "failed-precondition", /destroyed/);
  } finally {
    rt.destroy();
  }
});

test("workgroup storage is dynamic shared memory, opted in above 48 KiB", (t) => {
  if (!setup(t)) return;
  const rt = CudaRuntime.create({ device: 1 });
  try {
    const record = kernelInterface("noargs", [], { workgroupSize: [64, 1, 1], workgroupStorageBytes: 4096 });
    const kernel = rt.createKernel(PTX, record);
    rt.launch(kernel, { workgroupCount: [2, 1, 1] });
    let last = probe.lastLaunch();
    assert.equal(last.shared, 4096);
    assert.equal(last.paramsNull, true, "an entry without arguments gets no parameter");
    rt.launch(kernel, { workgroupCount: [2, 1, 1], workgroupStorageBytes: 100 * 1024 });
    last = probe.lastLaunch();
    assert.equal(last.shared, 100 * 1024);
    assert.equal(probe.maxDynamic(), 100 * 1024, "cuFuncSetAttribute(MAX_DYNAMIC_SHARED_SIZE_BYTES) before the launch");
    const staticShared = rt.createKernel(PTX, record, { dynamicSharedMemory: false });
    rt.launch(staticShared, { workgroupCount: [1, 1, 1] });
    assert.equal(probe.lastLaunch().shared, 0);
  } finally {
    rt.destroy();
  }
});

test("JIT errors carry the CUresult name and the error log; cubins round-trip through cuLink*", (t) => {
  if (!setup(t)) return;
  const rt = CudaRuntime.create({ device: 1 });
  try {
    const broken = PTX.replace("{ ret; }", "{ FAKE_SYNTAX_ERROR; }");
    assert.throws(
      () => rt.loadModule(broken),
      (e: unknown) =>
        e instanceof CudaError &&
        e.cuResult === "CUDA_ERROR_INVALID_PTX" &&
        e.status === "invalid-argument" &&
        e.jitLog === "ptxas application ptx input, line 7; error   : Unknown symbol 'FAKE_SYNTAX_ERROR'" &&
        e.message.includes("loadModule (cuModuleLoadDataEx of ptx") &&
        e.message.endsWith("Unknown symbol 'FAKE_SYNTAX_ERROR'"),
    );
    assert.throws(() => rt.compileToCubin(broken), (e: unknown) => e instanceof CudaError && e.cuResult === "CUDA_ERROR_INVALID_PTX" && /Unknown symbol/.test(e.jitLog ?? ""));
    const { cubin, infoLog, wallMs } = rt.compileToCubin(PTX, { verbose: true, optimizationLevel: 3 });
    assert.deepEqual([...cubin.subarray(0, 4)], [0x7f, 0x45, 0x4c, 0x46]);
    assert.equal(infoLog, "ptxas info    : Used 18 registers");
    assert.equal(wallMs, 1.25);
    const module = rt.loadModule(cubin);
    assert.equal(module.kind, "cubin");
    module.kernel(SAXPY);
    assert.throws(
      () => module.kernel(kernelInterface("missing", [])),
      (e: unknown) => e instanceof CudaError && e.cuResult === "CUDA_ERROR_NOT_FOUND" && e.status === "not-found" && /no kernel \(\.entry\) named 'missing'/.test(e.message),
    );
    throwsStatus(() => rt.loadModule(PTX, { optimizationLevel: 9 }), "invalid-argument", /optimizationLevel must be 0..4/);
    throwsStatus(() => rt.compileToCubin(cubin), "invalid-argument", /expected PTX text, got a cubin/);
  } finally {
    rt.destroy();
  }
});

test("graphs replay captured launches with the arguments they were captured with", (t) => {
  if (!setup(t)) return;
  const rt = CudaRuntime.create({ device: 1 });
  try {
    const kernel = rt.createKernel(PTX, SAXPY);
    const n = 64;
    const x = rt.createBuffer(4 * n);
    const y = rt.createBuffer(4 * n);
    x.upload(new Float32Array(n).fill(1));
    const graph = rt.captureGraph((stream) => {
      for (let i = 0; i < 3; i++) rt.launch(kernel, { workgroupCount: [1, 1, 1], workgroupSize: [64, 1, 1], args: [x, y, i + 1, n], stream });
    });
    assert.equal(new Float32Array(y.download().buffer)[0], 0, "capture runs nothing");
    const start = rt.createEvent();
    const end = rt.createEvent();
    start.record();
    graph.launch();
    graph.launch();
    end.record();
    assert.equal(end.elapsedMsSince(start), 3.0, "six launches between the events");
    rt.synchronize();
    assert.equal(new Float32Array(y.download().buffer)[63], 2 * (1 + 2 + 3));
    const failing = () =>
      rt.captureGraph(() => {
        throw new Error("inside capture");
      });
    assert.throws(failing, /inside capture/);
    const s = rt.createStream();
    rt.launch(kernel, { workgroupCount: [1, 1, 1], workgroupSize: [64, 1, 1], args: [x, y, 0, n], stream: s });
    assert.equal(probe.lastLaunch().stream, s.handle);
    s.synchronize();
  } finally {
    rt.destroy();
  }
});

test("a kernel fault loses the context: the error names it, later calls are refused, a new runtime says the process is spent", (t) => {
  if (!setup(t)) return;
  probe.reset();
  const rt = CudaRuntime.create({ device: 1 });
  const kernel = rt.createKernel(PTX, kernelInterface("fault", [["n", "i32"]]));
  const buffer = rt.createBuffer(16);
  rt.launch(kernel, { workgroupCount: [1, 1, 1], workgroupSize: [32, 1, 1], args: [0] });
  assert.throws(
    () => rt.synchronize(),
    (e: unknown) => e instanceof CudaError && e.cuResult === "CUDA_ERROR_ILLEGAL_ADDRESS" && e.contextLost && /context is lost/.test(e.message),
  );
  assert.equal(rt.isLost, true);
  throwsStatus(() => buffer.download(), "failed-precondition", /lost after CUDA_ERROR_ILLEGAL_ADDRESS; destroy every CudaRuntime on this device/);
  throwsStatus(() => rt.launch(kernel, { workgroupCount: [1, 1, 1], workgroupSize: [32, 1, 1], args: [0] }), "failed-precondition", /lost/);
  rt.destroy();
  assert.equal(rt.isDestroyed, true);
  assert.equal(probe.primaryRefs(1), 0);
  throwsStatus(() => CudaRuntime.create({ device: 1 }), "failed-precondition", /CUDA_ERROR_ILLEGAL_ADDRESS: an earlier kernel fault left this process's CUDA state unusable/);
  // A new process (the fake's reset) gets a working device again.
  probe.reset();
  const fresh = CudaRuntime.create({ device: 1 });
  try {
    const b = fresh.createBuffer(4);
    b.upload(new Uint32Array([7]));
    assert.equal(new Uint32Array(b.download().buffer)[0], 7);
  } finally {
    fresh.destroy();
  }
});

test("createKernelCached: the JIT runs once per PTX, options and device; hits load the cached cubin; a damaged entry is rebuilt", async (t) => {
  if (!setup(t)) return;
  const rt = CudaRuntime.create({ device: 1 });
  try {
    const store = new Map<string, Uint8Array>();
    const calls: string[] = [];
    // Promise-returning, like an asynchronous store.
    const cache = {
      get: async (key: string) => (calls.push(`get ${key}`), store.get(key)),
      put: async (key: string, bytes: Uint8Array) => void (calls.push(`put ${key}`), store.set(key, bytes)),
    };
    let links = 0;
    const compile = rt.compileToCubin.bind(rt);
    rt.compileToCubin = (ptx, options) => (links++, compile(ptx, options));
    const first = await rt.createKernelCached(PTX, SAXPY, cache);
    assert.equal(first.hit, false);
    assert.equal(links, 1);
    assert.match(first.key, /^cubin-[0-9a-f]{64}$/);
    assert.deepEqual([...store.get(first.key)!.subarray(0, 4)], [0x7f, 0x45, 0x4c, 0x46], "the cubin (ELF) was stored");
    const second = await rt.createKernelCached(PTX, SAXPY, cache);
    assert.equal(second.hit, true);
    assert.equal(second.key, first.key);
    assert.equal(links, 1, "a hit does not run the JIT");
    rt.launch(second.kernel, { workgroupCount: [1, 1, 1], workgroupSize: [32, 1, 1], args: [{ address: 0n, byteLength: 0 }, { address: 0n, byteLength: 0 }, 1, 0] });
    assert.equal(probe.lastLaunch().name, "saxpy");
    // Other codegen options or other PTX are other entries; synchronous stores work too.
    assert.notEqual(rt.cubinCacheKey(PTX, { optimizationLevel: 1 }), first.key);
    assert.notEqual(rt.cubinCacheKey(PTX.replace("saxpy", "saxpz")), first.key);
    assert.equal(rt.cubinCacheKey(new TextEncoder().encode(PTX)), first.key);
    store.set(first.key, Uint8Array.of(1, 2, 3));
    const rebuilt = await rt.createKernelCached(PTX, SAXPY, { get: (k: string) => store.get(k), put: (k: string, b: Uint8Array) => store.set(k, b) });
    assert.equal(rebuilt.hit, false);
    assert.equal(links, 2);
    assert.equal(store.get(first.key)![0], 0x7f);
    assert.deepEqual(calls.filter((c) => c.startsWith("put")).length, 1);
    await assert.rejects(rt.createKernelCached(PTX, SAXPY, {} as never), (e: unknown) => e instanceof LoomError && e.status === "invalid-argument");
    throwsStatus(() => rt.cubinCacheKey(store.get(first.key)!), "invalid-argument", /expected PTX text/);
  } finally {
    rt.destroy();
  }
});
