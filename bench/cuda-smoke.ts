/**
 * The CUDA runtime on a real GPU, in one command: `node dist/bench/cuda-smoke.js [options]`.
 * Prints one JSON object (progress to stderr) and exits 1 when any check failed; every failure
 * is caught and reported in the JSON, never thrown, so one run says everything.
 *
 * Built-in checks use hand-written PTX with the documented ABI (bench/device/cuda-smoke.ptx,
 * docs/runtime-cuda.md), so they need no compiler: saxpy (one f32 per thread) and saxpy4
 * (16-byte accesses) at test sizes (0, 1, primes, non-multiples) and one bench size; an u32 sum
 * using shfl.sync, bar.sync, dynamic shared memory (also above 48 KiB, through the opt-in) and
 * atomics; the JIT (cuModuleLoadDataEx, cuLink* to a cubin, the cubin reloaded); host cost per
 * launch (values packed per launch, values bound once, the raw binding, launch + synchronize,
 * graph replay); and last a kernel that faults, to check the error and that a new runtime says the
 * process is spent (CUDA keeps a fault for the process).
 *
 *   --dir DIR     also run every DIR/*.json case file (format in docs/runtime-cuda.md)
 *   --quick       bench size 2^24 instead of 2^28, fewer repetitions
 *   --bench-n N   the bench size (elements)
 *   --repeat N    timed launches per bench shape (default 20)
 *   --warmup-ms T sustained load before each timed shape (default 500: the SM clock drops within seconds of light load)
 *   --out FILE    also write the JSON there
 *   --no-fault    skip the fault check (it loses the context of every runtime on the device)
 */
import { spawnSync } from "node:child_process";
import { existsSync, readFileSync, readdirSync, writeFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { performance } from "node:perf_hooks";
import { LoomError } from "../src/core/errors.js";
import {
  CudaError,
  CudaRuntime,
  checkKernelInterface,
  kernelInterface,
  type ArgValue,
  type CudaBuffer,
  type CudaKernel,
  type CudaKernelInterface,
  type LaunchShape,
} from "../src/runtime/cuda/index.js";

const here = dirname(fileURLToPath(import.meta.url));
const root = [resolve(here, "../.."), resolve(here, "..")].find((r) => existsSync(join(r, "bench/device/cuda-smoke.ptx"))) ?? resolve(here, "../..");

const { values: opts } = parseArgs({
  options: {
    dir: { type: "string" },
    quick: { type: "boolean" },
    repeat: { type: "string" },
    "warmup-ms": { type: "string" },
    out: { type: "string" },
    "no-fault": { type: "boolean" },
    "bench-n": { type: "string" },
  },
});
const REPEAT = Number(opts.repeat ?? (opts.quick ? 5 : 20));
const WARMUP_MS = Number(opts["warmup-ms"] ?? (opts.quick ? 100 : 500));
const BENCH_N = Number(opts["bench-n"] ?? (opts.quick ? 1 << 24 : 1 << 28));

interface Check {
  readonly name: string;
  ok: boolean;
  error?: string;
  cuResult?: string;
  [key: string]: unknown;
}

const checks: Check[] = [];
const log = (s: string) => process.stderr.write(`cuda-smoke: ${s}\n`);

/** Runs `body`, recording its fields; any throw becomes `ok: false` with the message and CUresult name. */
function run(name: string, body: (c: Check) => void): Check {
  const c: Check = { name, ok: true };
  const t0 = performance.now();
  try {
    body(c);
  } catch (e) {
    c.ok = false;
    c.error = e instanceof Error ? e.message : String(e);
    if (e instanceof CudaError) c.cuResult = e.cuResult;
  }
  c.wallMs = round(performance.now() - t0, 3);
  checks.push(c);
  log(`${c.ok ? "ok  " : "FAIL"} ${name}${c.error ? `: ${c.error.split("\n")[0]}` : ""}`);
  return c;
}

const round = (x: number, digits = 3) => Math.round(x * 10 ** digits) / 10 ** digits;

function stats(xs: readonly number[]): { median: number; min: number; max: number } | null {
  if (xs.length === 0) return null;
  const s = [...xs].sort((a, b) => a - b);
  const mid = s.length >> 1;
  const median = s.length % 2 ? (s[mid] as number) : ((s[mid - 1] as number) + (s[mid] as number)) / 2;
  return { median, min: s[0] as number, max: s[s.length - 1] as number };
}

function nvidiaSmiClocks(): string | null {
  const r = spawnSync("nvidia-smi", ["--query-gpu=clocks.sm,clocks.mem", "--format=csv,noheader"], { encoding: "utf8", timeout: 10_000 });
  return r.status === 0 ? r.stdout.trim() : null;
}

/** Deterministic inputs: xorshift32 from a seed. */
function randomF32(n: number, seed: number): Float32Array {
  const out = new Float32Array(n);
  let s = seed >>> 0 || 1;
  for (let i = 0; i < n; i++) {
    s ^= s << 13;
    s ^= s >>> 17;
    s ^= s << 5;
    out[i] = ((s >>> 0) / 2 ** 32) * 2 - 1;
  }
  return out;
}

function randomU32(n: number, seed: number): Uint32Array {
  const f = randomF32(n, seed);
  // A plain loop: `Uint32Array.from` with a map function goes through an iterator and a JS
  // array, which at 2^28 elements exhausts the heap.
  const out = new Uint32Array(n);
  for (let i = 0; i < n; i++) out[i] = Math.floor(((f[i] as number) + 1) * 2 ** 31) >>> 0;
  return out;
}

/** Mismatches of `got` against `want` with |d| ≤ atol + rtol·|want| (exact for integers). */
function compare(got: ArrayLike<number>, want: ArrayLike<number>, atol: number, rtol: number): { mismatches: number; maxError: number; first?: { index: number; got: number; want: number } } {
  let mismatches = 0;
  let maxError = 0;
  let first: { index: number; got: number; want: number } | undefined;
  for (let i = 0; i < want.length; i++) {
    const g = got[i] as number;
    const w = want[i] as number;
    const d = Math.abs(g - w);
    if (!(d <= atol + rtol * Math.abs(w))) {
      mismatches++;
      first ??= { index: i, got: g, want: w };
    }
    if (d > maxError) maxError = d;
  }
  return first ? { mismatches, maxError, first } : { mismatches, maxError };
}

/** Sustained load for `ms` (the clock ramps up under load), then synchronize. */
function warmUp(rt: CudaRuntime, launch: () => void, ms: number): number {
  const t0 = performance.now();
  let n = 0;
  while (performance.now() - t0 < ms) {
    for (let i = 0; i < 8; i++) launch();
    n += 8;
    rt.synchronize();
  }
  return n;
}

/** Median/min/max device ms of `repeat` timed launches after a warm-up by time. */
function timeLaunches(rt: CudaRuntime, kernel: CudaKernel, shape: LaunchShape, args: readonly ArgValue[]): { ms: ReturnType<typeof stats>; warmupLaunches: number; clocks: { before: string | null; after: string | null } } {
  kernel.setArguments(args);
  const warmupLaunches = warmUp(rt, () => rt.launch(kernel, shape), WARMUP_MS);
  const before = nvidiaSmiClocks();
  const times: number[] = [];
  for (let i = 0; i < REPEAT; i++) {
    const r = rt.dispatch(kernel, { ...shape, timing: true });
    if (r.gpuMs !== undefined) times.push(r.gpuMs);
  }
  return { ms: stats(times), warmupLaunches, clocks: { before, after: nvidiaSmiClocks() } };
}

const SAXPY_ARGS: readonly (readonly [string, "buffer" | "f32" | "index"])[] = [
  ["x", "buffer"],
  ["y", "buffer"],
  ["a", "f32"],
  ["n", "index"],
];

function saxpyChecks(rt: CudaRuntime, module: ReturnType<CudaRuntime["loadModule"]>): void {
  const variants = [
    { entry: "saxpy", perThread: 1, block: 256 },
    { entry: "saxpy4", perThread: 4, block: 256 },
  ];
  for (const v of variants) {
    const kernel = module.kernel(kernelInterface(v.entry, SAXPY_ARGS));
    const sizes = [0, 1, 3, 255, 256, 257, 1000, 4099, (1 << 20) + 3];
    for (const n of [...sizes, BENCH_N]) {
      const bench = n === BENCH_N;
      run(`${v.entry} n=${n}${bench ? " (bench)" : ""}`, (c) => {
        const x = randomF32(n, 1 + n);
        const y0 = randomF32(n, 2 + n);
        const a = 1.5;
        let xb: CudaBuffer | undefined;
        let yb: CudaBuffer | undefined;
        try {
          xb = rt.createBuffer(4 * n);
          yb = rt.createBuffer(4 * n);
          xb.upload(x);
          yb.upload(y0);
          const threads = Math.ceil(n / v.perThread);
          const shape: LaunchShape = { workgroupCount: [Math.ceil(threads / v.block), 1, 1], workgroupSize: [v.block, 1, 1] };
          c.workgroupCount = shape.workgroupCount;
          const r = rt.dispatch(kernel, { ...shape, args: [xb, yb, a, n] });
          c.launched = r.launched;
          const got = new Float32Array(yb.download().buffer);
          const want = new Float32Array(n);
          for (let i = 0; i < n; i++) want[i] = Math.fround(a * (x[i] as number) + (y0[i] as number));
          // fma rounds once; the reference rounds the product too: one ulp apart at most.
          const cmp = compare(got, want, 1e-6, 2 ** -22);
          Object.assign(c, cmp);
          if (cmp.mismatches > 0) throw new Error(`${cmp.mismatches} of ${n} elements differ (first ${JSON.stringify(cmp.first)})`);
          if (bench) {
            const t = timeLaunches(rt, kernel, shape, [xb, yb, a, n]);
            c.timing = t;
            c.bytesPerLaunch = 12 * n;
            c.gbPerSecond = t.ms ? round((12 * n) / (t.ms.median * 1e6), 1) : null;
            c.gbPerSecondBest = t.ms ? round((12 * n) / (t.ms.min * 1e6), 1) : null;
          }
        } finally {
          xb?.destroy();
          yb?.destroy();
        }
      });
    }
  }
}

function reduceChecks(rt: CudaRuntime, module: ReturnType<CudaRuntime["loadModule"]>): void {
  const block = 256;
  // One u32 partial per warp: 32 bytes of dynamic shared memory for 256 threads.
  const record = kernelInterface(
    "reduce_u32",
    [
      ["x", "buffer"],
      ["out", "buffer"],
      ["n", "index"],
    ],
    { workgroupSize: [block, 1, 1], workgroupStorageBytes: 4 * (block / 32) },
  );
  const kernel = module.kernel(record);
  const sms = rt.deviceInfo().multiprocessorCount || 1;
  for (const [n, extraShared] of [
    [0, 0],
    [1, 0],
    [31, 0],
    [1000, 0],
    [(1 << 20) + 7, 0],
    [(1 << 20) + 7, 100 * 1024],
    [BENCH_N, 0],
  ] as const) {
    const bench = n === BENCH_N;
    run(`reduce_u32 n=${n}${extraShared ? ` shared=${extraShared}` : ""}${bench ? " (bench)" : ""}`, (c) => {
      const x = randomU32(n, 7 + n);
      let want = 0;
      for (let i = 0; i < n; i++) want = (want + (x[i] as number)) >>> 0;
      let xb: CudaBuffer | undefined;
      let ob: CudaBuffer | undefined;
      try {
        xb = rt.createBuffer(4 * n);
        ob = rt.createBuffer(4);
        xb.upload(x);
        const groups = Math.max(1, Math.min(Math.ceil(n / block), 8 * sms));
        const shape: LaunchShape = { workgroupCount: [groups, 1, 1], ...(extraShared ? { workgroupStorageBytes: extraShared } : {}) };
        rt.dispatch(kernel, { ...shape, args: [xb, ob, n] });
        const got = new Uint32Array(ob.download().buffer)[0];
        c.got = got;
        c.want = want;
        if (got !== want) throw new Error(`sum ${got} != ${want}`);
        if (bench) {
          const t = timeLaunches(rt, kernel, shape, [xb, ob, n]);
          c.timing = t;
          c.gbPerSecond = t.ms ? round((4 * n) / (t.ms.median * 1e6), 1) : null;
        }
      } finally {
        xb?.destroy();
        ob?.destroy();
      }
    });
  }
}

function jitChecks(rt: CudaRuntime, ptx: string): void {
  run("jit: cuModuleLoadDataEx (PTX), cuLink* to a cubin, cubin reloaded", (c) => {
    const t0 = performance.now();
    const m = rt.loadModule(ptx, { verbose: true });
    c.loadPtxMs = round(performance.now() - t0);
    c.driverWallMs = m.jit.wallMs;
    c.infoLog = m.jit.infoLog.slice(0, 2000);
    const t1 = performance.now();
    const cub = rt.compileToCubin(ptx);
    c.linkMs = round(performance.now() - t1);
    c.cubinBytes = cub.cubin.byteLength;
    if (cub.cubin[0] !== 0x7f || cub.cubin[1] !== 0x45) throw new Error("cuLinkComplete did not return an ELF image");
    const t2 = performance.now();
    const again = rt.loadModule(cub.cubin);
    c.loadCubinMs = round(performance.now() - t2);
    c.reloadedKind = again.kind;
    again.kernel(kernelInterface("saxpy", SAXPY_ARGS));
    again.destroy();
    m.destroy();
    c.jitIdentity = rt.jitIdentity();
  });
  run("jit: a PTX error is CUDA_ERROR_INVALID_PTX with the error log", (c) => {
    try {
      rt.loadModule(ptx.replace("fma.rn.f32 %f3, %f1, %f2, %f3;", "fma.rn.f32 %f3, %f1, %f2, %undefined_register;"));
      throw new Error("broken PTX loaded");
    } catch (e) {
      if (!(e instanceof CudaError)) throw e;
      c.reported = e.cuResult;
      c.jitLog = e.jitLog;
      if (e.cuResult !== "CUDA_ERROR_INVALID_PTX" || !e.jitLog) throw new Error(`expected CUDA_ERROR_INVALID_PTX with a log, got ${e.cuResult}: ${e.message}`);
    }
  });
}

function overheadChecks(rt: CudaRuntime, module: ReturnType<CudaRuntime["loadModule"]>): void {
  run("host cost per launch (noop kernel, 1 workgroup of 32)", (c) => {
    const kernel = module.kernel(kernelInterface("noop", SAXPY_ARGS));
    const x = rt.createBuffer(4096);
    const shape: LaunchShape = { workgroupCount: [1, 1, 1], workgroupSize: [32, 1, 1] };
    const values: ArgValue[] = [x, x, 2, 1024];
    const N = opts.quick ? 2000 : 20000;
    const perLaunchUs = (fn: () => void, n: number): number => {
      rt.synchronize();
      const t0 = performance.now();
      for (let i = 0; i < n; i++) fn();
      const t = performance.now() - t0;
      rt.synchronize();
      return round((t * 1000) / n);
    };
    warmUp(rt, () => rt.launch(kernel, { ...shape, args: values }), WARMUP_MS);
    const samples = (fn: () => void, n: number) => stats(Array.from({ length: 5 }, () => perLaunchUs(fn, n)));
    c.packedPerLaunchUs = samples(() => rt.launch(kernel, { ...shape, args: values }), N);
    kernel.setArguments(values);
    c.boundPerLaunchUs = samples(() => rt.launch(kernel, shape), N);
    // The binding floor: cuLaunchKernel through koffi with the kernel's own parameter block.
    const { cu } = kernel.ctx.lib;
    const handle = kernel.handle;
    const params = (kernel as unknown as { params: bigint }).params;
    const stream = rt.stream.handle;
    c.rawBindingPerLaunchUs = samples(() => void cu.cuLaunchKernel(handle, 1, 1, 1, 32, 1, 1, 0, stream, params, 0n), N);
    c.launchAndSyncUs = stats(
      Array.from({ length: 5 }, () => {
        const n = N / 10;
        const t0 = performance.now();
        for (let i = 0; i < n; i++) {
          rt.launch(kernel, shape);
          rt.stream.synchronize();
        }
        return round(((performance.now() - t0) * 1000) / n);
      }),
    );
    const nodes = 100;
    const graph = rt.captureGraph((stream) => {
      for (let i = 0; i < nodes; i++) rt.launch(kernel, { ...shape, stream });
    });
    const replays = opts.quick ? 20 : 200;
    c.graphPerNodeUs = stats(Array.from({ length: 5 }, () => round(perLaunchUs(() => graph.launch(), replays) / nodes)));
    const start = rt.createEvent();
    const end = rt.createEvent();
    start.record();
    for (let i = 0; i < replays; i++) graph.launch();
    end.record();
    c.graphDevicePerNodeUs = round((end.elapsedMsSince(start) * 1000) / (replays * nodes));
    graph.destroy();
    x.destroy();
  });
}

function dirChecks(rt: CudaRuntime, dir: string): void {
  for (const file of readdirSync(dir).filter((f) => f.endsWith(".json")).sort()) {
    let spec: DirSpec;
    try {
      spec = JSON.parse(readFileSync(join(dir, file), "utf8")) as DirSpec;
    } catch (e) {
      run(`${file}`, () => {
        throw e;
      });
      continue;
    }
    let module: ReturnType<CudaRuntime["loadModule"]> | undefined;
    const loaded = run(`${file}: load ${spec.ptx}`, (c) => {
      module = rt.loadModule(readFileSync(join(dir, spec.ptx)), { verbose: true });
      c.infoLog = module.jit.infoLog.slice(0, 2000);
      c.driverWallMs = module.jit.wallMs;
    });
    if (!loaded.ok || !module) continue;
    const records = new Map<string, CudaKernelInterface>();
    for (const k of spec.kernels ?? spec.interface?.kernels ?? []) records.set(k.entryName, k);
    for (const [i, cs] of (spec.cases ?? []).entries()) {
      run(`${file}: ${cs.kernel} ${cs.label ?? `case ${i}`}`, (c) => runDirCase(rt, module as NonNullable<typeof module>, records, dir, cs, c));
    }
  }
}

interface DirBufferArg {
  readonly buffer: "f32" | "i32" | "u32" | "f64" | "u8";
  readonly length: number;
  /** "zero" (default), "iota", "random" (xorshift32 with `seed`), or a raw little-endian file. */
  readonly init?: "zero" | "iota" | "random" | { readonly file: string };
  readonly seed?: number;
}
interface DirCase {
  readonly kernel: string;
  readonly label?: string;
  readonly launch: LaunchShape;
  /** Buffers, or `{ "value": number | "123n" }` for scalars (a string ending in n is a bigint). */
  readonly args: readonly (DirBufferArg | { readonly value: number | string | boolean })[];
  readonly expect?: readonly { readonly arg: number; readonly file?: string; readonly values?: readonly number[]; readonly atol?: number; readonly rtol?: number }[];
  readonly repeat?: number;
}
interface DirSpec {
  readonly ptx: string;
  readonly kernels?: readonly CudaKernelInterface[];
  readonly interface?: { readonly kernels: readonly CudaKernelInterface[] };
  readonly cases?: readonly DirCase[];
}

const ARRAYS = { f32: Float32Array, i32: Int32Array, u32: Uint32Array, f64: Float64Array, u8: Uint8Array } as const;

function runDirCase(rt: CudaRuntime, module: ReturnType<CudaRuntime["loadModule"]>, records: Map<string, CudaKernelInterface>, dir: string, cs: DirCase, c: Check): void {
  const record = records.get(cs.kernel);
  if (!record) throw new Error(`no kernel-interface record for '${cs.kernel}'`);
  const kernel = module.kernel(checkKernelInterface(record));
  const buffers: (CudaBuffer | undefined)[] = [];
  try {
    const values: ArgValue[] = cs.args.map((a, i) => {
      if ("value" in a) return typeof a.value === "string" && a.value.endsWith("n") ? BigInt(a.value.slice(0, -1)) : (a.value as number | boolean);
      const Ctor = ARRAYS[a.buffer];
      let data: ArrayBufferView;
      if (typeof a.init === "object") data = new Uint8Array(readFileSync(join(dir, a.init.file)));
      else if (a.init === "iota") {
        const iota = new Ctor(a.length);
        for (let k = 0; k < a.length; k++) iota[k] = k;
        data = iota;
      }
      else if (a.init === "random") data = a.buffer === "u32" || a.buffer === "i32" ? randomU32(a.length, a.seed ?? 1 + i) : randomF32(a.length, a.seed ?? 1 + i);
      else data = new Ctor(a.length);
      const b = rt.createBuffer(a.length * Ctor.BYTES_PER_ELEMENT);
      buffers[i] = b;
      b.upload(data);
      return b;
    });
    const r = rt.dispatch(kernel, { ...cs.launch, args: values, timing: true });
    c.launched = r.launched;
    c.gpuMs = r.gpuMs;
    for (const e of cs.expect ?? []) {
      const spec = cs.args[e.arg];
      const b = buffers[e.arg];
      if (!spec || "value" in spec || !b) throw new Error(`expect.arg ${e.arg} is not a buffer argument`);
      const Ctor = ARRAYS[spec.buffer];
      const got = new Ctor(b.download().buffer as ArrayBuffer);
      const want = e.values ?? (e.file ? new Ctor(new Uint8Array(readFileSync(join(dir, e.file))).buffer as ArrayBuffer) : undefined);
      if (!want) throw new Error(`expect for arg ${e.arg} needs values or file`);
      const cmp = compare(got as ArrayLike<number>, want as ArrayLike<number>, e.atol ?? 0, e.rtol ?? 0);
      c[`arg${e.arg}`] = cmp;
      if (cmp.mismatches > 0) throw new Error(`argument ${e.arg}: ${cmp.mismatches} mismatches (first ${JSON.stringify(cmp.first)})`);
    }
    if (cs.repeat) {
      const t = timeLaunches(rt, kernel, cs.launch, values);
      c.timing = t;
    }
  } finally {
    for (const b of buffers) b?.destroy();
  }
}

function faultCheck(rt: CudaRuntime, ptx: string): CudaRuntime | undefined {
  let next: CudaRuntime | undefined;
  run("fault: an illegal address is reported, the context is lost, a new runtime refuses clearly", (c) => {
    const kernel = rt.loadModule(ptx).kernel(kernelInterface("fault", [["p", "buffer"]]));
    try {
      rt.dispatch(kernel, { workgroupCount: [1, 1, 1], workgroupSize: [32, 1, 1], args: [{ address: 0n, byteLength: 0n }] });
      throw new Error("the faulting kernel completed");
    } catch (e) {
      if (!(e instanceof CudaError)) throw e;
      c.reported = e.cuResult;
      c.contextLost = e.contextLost;
      c.message = e.message;
    }
    c.runtimeSaysLost = rt.isLost;
    try {
      rt.createBuffer(16);
      c.refusedAfterLoss = false;
    } catch (e) {
      c.refusedAfterLoss = true;
      c.refusal = (e as Error).message;
    }
    rt.destroy();
    try {
      next = CudaRuntime.create();
      c.freshRuntimeRefused = false;
    } catch (e) {
      c.freshRuntimeRefused = e instanceof LoomError && e.status === "failed-precondition" && /earlier kernel fault/.test(e.message);
      c.freshRefusal = (e as Error).message;
    }
    if (!c.contextLost || !c.refusedAfterLoss || !c.freshRuntimeRefused) throw new Error("fault handling incomplete (see fields)");
  });
  return next;
}

function main(): number {
  const report: Record<string, unknown> = { tool: "cuda-smoke", date: new Date().toISOString(), node: process.version, quick: opts.quick === true, benchN: BENCH_N, repeat: REPEAT, warmupMs: WARMUP_MS };
  const ptxPath = join(root, "bench/device/cuda-smoke.ptx");
  let rt: CudaRuntime | undefined;
  const created = run("CudaRuntime.create", (c) => {
    rt = CudaRuntime.create();
    c.device = rt.deviceInfo();
    c.profileFacts = rt.profileFacts();
    c.memory = rt.memoryInfo();
    c.clocks = nvidiaSmiClocks();
  });
  if (created.ok && rt) {
    const live = rt;
    let ptx = "";
    const loaded = run("load bench/device/cuda-smoke.ptx", (c) => {
      ptx = readFileSync(ptxPath, "utf8");
      const m = live.loadModule(ptx, { verbose: true });
      c.infoLog = m.jit.infoLog.slice(0, 4000);
      c.driverWallMs = m.jit.wallMs;
      m.destroy();
    });
    if (loaded.ok) {
      const module = live.loadModule(ptx);
      saxpyChecks(live, module);
      reduceChecks(live, module);
      jitChecks(live, ptx);
      overheadChecks(live, module);
      if (opts.dir) dirChecks(live, resolve(opts.dir));
      if (!opts["no-fault"]) rt = faultCheck(live, ptx) ?? (live.isDestroyed ? undefined : live);
    } else if (opts.dir) dirChecks(live, resolve(opts.dir));
  }
  try {
    rt?.destroy();
  } catch (e) {
    run("destroy", () => {
      throw e;
    });
  }
  const failed = checks.filter((c) => !c.ok);
  report.summary = { checks: checks.length, passed: checks.length - failed.length, failed: failed.map((c) => c.name) };
  report.checks = checks;
  const text = JSON.stringify(report, (_k, v) => (typeof v === "bigint" ? v.toString() : v), 2);
  console.log(text);
  if (opts.out) writeFileSync(opts.out, `${text}\n`);
  return failed.length === 0 ? 0 : 1;
}

process.exitCode = main();
