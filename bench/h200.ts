/**
 * loom against what an NVIDIA user would otherwise run, on any NVIDIA GPU (written for the H200):
 *
 *   python3 bench/h200-anchors.py > anchors.json      # torch and Triton, same machine, same run
 *   node dist/bench/h200.js --anchors anchors.json --webgpu --out h200.json
 *
 * (bench/h200-all.sh runs both and the suites.) Each fast kernel of examples/kernels runs next
 * to the simple one it replaces, through CUDA (loom's PTX, the driver's JIT), Vulkan (loom's
 * SPIR-V) and, with --webgpu, WebGPU (loom's WGSL on Dawn, fast kernels only), at the headline
 * shapes of issues 9 and 14: saxpy 2^28 (and 2^25, the largest 1-D grid WebGPU allows), i32
 * sum 2^28, row softmax 32768×1024, transpose 8192², f32 matmul 4096³. Every shape is checked
 * against the suite's JS reference (matmul 4096³ on every 64th row: the full reference would
 * take minutes), gets ≥ 0.5 s of sustained load (CUDA: launches in groups of 10; Vulkan:
 * submitBatch batches of ≈ 50 ms; WebGPU: passes of ≈ 50 ms), then is timed 20 times (CUDA
 * events; timestamp queries): medians with min and max. Host overhead: one launch from JS
 * (launch evaluation + argument packing + cuLaunchKernel) against the same launch from C
 * (bench/c/cuda-launch.c, built with nvcc), CUDA graph replay per node, a tiny Vulkan dispatch
 * against the same record/submit/wait from C (bench/c/vulkan-dispatch.c, built with cc), and
 * 1000 batched dispatches. nvidia-smi's SM and memory clocks are read before and after each
 * part. Prints one JSON object; exit status 1 when a check failed.
 *
 *   --anchors FILE  anchors JSON from bench/h200-anchors.py (goal ratios are computed against it)
 *   --only cuda|vulkan
 *   --quick         small shapes (a smoke run)
 *   --kernel NAME   only this kernel's shapes (repeatable)
 *   --warmup-ms T   sustained load before each timed shape (default 500)
 *   --webgpu        also run the shapes through loom's WGSL on Dawn (npm `webgpu`), next to Vulkan
 *   --loom SYMBOL=FILE  compile SYMBOL from FILE instead of examples/kernels (a variant to try)
 *   --ptx SYMBOL=FILE   for CUDA, load this PTX for SYMBOL instead of loom's (same interface)
 *   --tag T         a label stored in the report
 */
import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { performance } from "node:perf_hooks";
import { KERNEL_SUITE } from "../examples/kernels/suite.js";
import { compareOutput, compileForDevice, deviceProfile, runCase, workloadBits, type ExpectedOutput, type HostArray, type KernelCase, type OutputCheck, type SuiteKernel } from "../src/harness/index.js";
import { Compiler, Context, LaunchConfigProgram, createLaunchConfig, PassProgram, Source, Workspace, compileModule, emitModule, parseExecutableInterface, type ExecutableInterface, type KernelInterface, type LaunchConfig } from "../src/index.js";
import { createPtxTargetEnvironment, profileFromDevice } from "../src/targets/ptx/index.js";
import { CudaRuntime, type ArgValue, type CudaBuffer, type CudaKernel } from "../src/runtime/cuda/index.js";
import { VulkanRuntime, packArguments, type VulkanBuffer, type VulkanKernel } from "../src/runtime/vulkan/index.js";
import { WebGpuRuntime, type GpuEntry, type WebGpuBuffer, type WebGpuKernel } from "../src/runtime/webgpu/index.js";
import { compileWgsl, type WgslCompiled } from "./webgpu-kernel.js";
import { percentiles } from "./stats.js";

const { values: opts } = parseArgs({
  options: {
    anchors: { type: "string" }, out: { type: "string" }, only: { type: "string" }, quick: { type: "boolean" }, kernel: { type: "string", multiple: true }, "warmup-ms": { type: "string" },
    loom: { type: "string", multiple: true }, ptx: { type: "string", multiple: true }, webgpu: { type: "boolean" }, tag: { type: "string" },
  },
});
const QUICK = opts.quick === true;
const REPEAT = QUICK ? 5 : 20;
const WARMUP_MS = opts["warmup-ms"] !== undefined ? Number(opts["warmup-ms"]) : QUICK ? 100 : 500;
const here = dirname(fileURLToPath(import.meta.url));
const root = [resolve(here, "../.."), resolve(here, "..")].find((d) => existsSync(join(d, "examples/kernels"))) ?? resolve(here, "../..");
const kernelDir = join(root, "examples/kernels");
const overrides = (list: readonly string[] | undefined): Map<string, string> => new Map((list ?? []).map((x) => [x.slice(0, x.indexOf("=")), resolve(x.slice(x.indexOf("=") + 1))]));
const loomFiles = overrides(opts.loom);
const ptxFiles = overrides(opts.ptx);
/** The source of a suite kernel: examples/kernels, or the --loom override. */
const sourceOf = (k: SuiteKernel): { file: string; text: string } => {
  const file = loomFiles.get(k.symbol) ?? join(kernelDir, k.file);
  return { file, text: readFileSync(file, "utf8") };
};
const message = (e: unknown) => (e instanceof Error ? `${e.name}: ${e.message}` : String(e));

interface Timing {
  readonly medianMs: number;
  readonly minMs: number;
  readonly maxMs: number;
}
const timingOf = (ms: readonly number[]): Timing => ({ medianMs: percentiles([...ms]).p50, minMs: Math.min(...ms), maxMs: Math.max(...ms) });

interface Row {
  readonly api: "cuda" | "vulkan" | "webgpu";
  readonly kernel: string;
  readonly label: string;
  readonly passed: boolean;
  readonly checks?: readonly OutputCheck[];
  readonly error?: string;
  readonly timing?: Timing;
  readonly gbPerS?: number;
  readonly tflops?: number;
  readonly warmupDispatches?: number;
  /** Why the shape was not run on this API (a limit of the API, not a failure). */
  readonly skipped?: string;
}

// ---- the shapes --------------------------------------------------------------------------

const suite = (symbol: string): SuiteKernel => {
  const k = KERNEL_SUITE.find((s) => s.symbol === symbol);
  if (!k) throw new Error(`no suite kernel ${symbol}`);
  return k;
};

/** A matmul case whose reference covers every `stride`-th row; other entries accept any finite value. */
function sampledMatmul(base: SuiteKernel, m: number, stride: number): KernelCase {
  const c = base.build({ workload: [m, m], sizes: { k: m } }, 11);
  const a = (c.args.find((x) => x.kind === "buffer" && x.name === "a") as { data: Float32Array }).data;
  const b = (c.args.find((x) => x.kind === "buffer" && x.name === "b") as { data: Float32Array }).data;
  return {
    ...c,
    label: `${m}x${m} k=${m} (rows ≡ 0 mod ${stride} checked)`,
    reference: () => {
      const want = new Float32Array(m * m);
      const mags = new Float64Array(m * m).fill(Infinity);
      const row = new Float64Array(m);
      const mag = new Float64Array(m);
      for (let i = 0; i < m; i += stride) {
        row.fill(0);
        mag.fill(0);
        for (let p = 0; p < m; p++) {
          const aip = a[i * m + p]!;
          for (let j = 0; j < m; j++) {
            const t = aip * b[p * m + j]!;
            row[j]! += t;
            mag[j]! += Math.abs(t);
          }
        }
        for (let j = 0; j < m; j++) {
          want[i * m + j] = row[j]!;
          mags[i * m + j] = mag[j]!;
        }
      }
      const out: ExpectedOutput = { values: want, compare: { kind: "float", epsilons: m + 2 }, magnitude: mags };
      return { c: out };
    },
  };
}

interface Shape {
  readonly kernel: SuiteKernel;
  readonly make: () => KernelCase;
  /** Floating-point operations, for TFLOP/s (matmuls). */
  readonly flops?: number;
}

function shapes(): Shape[] {
  const n = QUICK ? 1 << 22 : 1 << 28;
  const rows = QUICK ? 4096 : 32768;
  const edge = QUICK ? 2048 : 8192;
  const mm = QUICK ? 1024 : 4096;
  const oneD = (symbol: string): Shape => ({ kernel: suite(symbol), make: () => suite(symbol).build({ workload: [n] }, 3) });
  const softmax = (symbol: string, r: number): Shape => ({ kernel: suite(symbol), make: () => suite(symbol).build({ workload: [r], sizes: { cols: 1024 } }, 3) });
  const transpose = (symbol: string, e: number): Shape => ({ kernel: suite(symbol), make: () => suite(symbol).build({ workload: [e, e] }, 3) });
  const matmul = (symbol: string): Shape => ({ kernel: suite(symbol), make: () => sampledMatmul(suite(symbol), mm, 64), flops: 2 * mm ** 3 });
  // WebGPU allows 65535 workgroups per dimension: saxpy4 at 2^25 is the largest 1-D grid there.
  const saxpy4Small: Shape = { kernel: suite("saxpy4"), make: () => suite("saxpy4").build({ workload: [QUICK ? 1 << 20 : 1 << 25] }, 3) };
  const all = [
    oneD("saxpy"), oneD("saxpy4"), saxpy4Small,
    oneD("reduce_sum"), oneD("reduce_sum4"),
    softmax("row_softmax", rows), softmax("row_softmax4", rows),
    transpose("transpose_tile", edge), transpose("transpose32", edge),
    matmul("matmul16"), matmul("matmul_tiled"),
  ];
  return all.filter((s) => !opts.kernel || opts.kernel.includes(s.kernel.symbol));
}

// ---- clocks ------------------------------------------------------------------------------

function clocks(): unknown {
  const r = spawnSync("nvidia-smi", ["--query-gpu=clocks.sm,clocks.mem,clocks.max.sm,power.draw,temperature.gpu", "--format=csv,noheader"], { encoding: "utf8" });
  return r.status === 0 ? r.stdout.trim() : `nvidia-smi: ${r.error?.message ?? r.stderr}`;
}

// ---- warm-up and timing, shared by the three APIs ------------------------------------------

/**
 * Sustained load for WARMUP_MS: `group` runs one group of dispatches back to back (launches then
 * a synchronize, a batch, a compute pass) and returns how many it ran; returns the total.
 */
async function sustain(group: () => number | Promise<number>): Promise<number> {
  let dispatches = 0;
  const until = performance.now() + WARMUP_MS;
  while (performance.now() < until) dispatches += await group();
  return dispatches;
}

/** REPEAT timed runs of `once` (GPU milliseconds: events or timestamp queries). */
async function timeRepeats(once: () => number | Promise<number>): Promise<Timing> {
  const ms: number[] = [];
  for (let i = 0; i < REPEAT; i++) ms.push(await once());
  return timingOf(ms);
}

/** Dispatches per ≈ 50 ms group, from one timed run (≥ 1, ≤ 2000). */
const perGroup = (firstMs: number) => Math.max(1, Math.min(2000, Math.ceil(50 / Math.max(firstMs, 0.002))));

// ---- CUDA --------------------------------------------------------------------------------

interface CudaCompiled {
  readonly ptx: Uint8Array;
  readonly record: KernelInterface;
  launch(workload: readonly (number | bigint)[]): LaunchConfig;
  /** The embedding's fast path: `invokeNumbers` into one reused LaunchConfig (no allocation). */
  launchNumbers(workload: readonly number[]): LaunchConfig;
}

function compilePtx(file: string, text: string, symbol: string, rt: CudaRuntime): CudaCompiled {
  const env = createPtxTargetEnvironment();
  const context = Context.create({ targetEnvironments: [env] });
  const profile = profileFromDevice(env, rt);
  const pipeline = PassProgram.fromTargetPipeline(context, { kind: "prepared-low" }).value!;
  const workspace = new Workspace(context);
  const parsed = workspace.parseModule(Source.fromText(file, text));
  if (!parsed.ok || !parsed.value) throw new Error(parsed.formatDiagnostics());
  const module = parsed.value;
  const compiled = compileModule(Compiler.create(context), workspace, pipeline, module, { specializations: [{ functionSymbol: symbol, targetProfile: profile }], artifacts: { launchConfig: true } });
  if (!compiled.ok) throw new Error(compiled.formatDiagnostics());
  const emitted = emitModule(env, workspace, module, { artifactFormat: "ptx" });
  if (!emitted.ok) throw new Error(emitted.formatDiagnostics());
  const ptx = emitted.findArtifact("executable")!.contents.slice();
  const record = parseExecutableInterface(emitted.findArtifact("interface")!.contents).kernels.find((r) => r.symbol === symbol)!;
  const program = LaunchConfigProgram.load(compiled.findArtifact("launch-config")!);
  const fn = program.lookupFunction(record.entryName);
  const types = module.kernels().find((s) => s.symbol === symbol)?.workload.map((a) => a.type) ?? [];
  const reused = createLaunchConfig();
  return { ptx, record, launch: (w) => program.invoke(fn, w.map((v, i) => workloadBits(v, types[i] ?? ""))), launchNumbers: (w) => program.invokeNumbers(fn, w, reused) };
}

const bytesOf = (a: HostArray) => new Uint8Array(a.buffer, a.byteOffset, a.byteLength);
const like = (a: HostArray, bytes: Uint8Array): HostArray => {
  const buf = bytes.slice().buffer;
  return a instanceof Float32Array ? new Float32Array(buf) : a instanceof Int32Array ? new Int32Array(buf) : new Uint32Array(buf);
};

/**
 * A case's arguments on one API: each buffer argument made by `create` (and pushed to `created`,
 * which the caller destroys), uploaded, and turned into its argument value by `bind`; scalars pass.
 */
function stageArguments<B extends { upload(bytes: Uint8Array): unknown }, A>(
  args: KernelCase["args"],
  create: (byteLength: number) => B,
  bind: (buffer: B) => A,
  created: B[],
): { values: (A | number | bigint)[]; buffers: B[]; byName: Map<string, { buffer: B; data: HostArray }> } {
  const byName = new Map<string, { buffer: B; data: HostArray }>();
  const buffers: B[] = [];
  const values = args.map((a) => {
    if (a.kind === "scalar") return a.value;
    const buffer = create(a.data.byteLength);
    created.push(buffer);
    buffers.push(buffer);
    if (a.data.byteLength > 0) buffer.upload(bytesOf(a.data));
    byName.set(a.name, { buffer, data: a.data });
    return bind(buffer);
  });
  return { values, buffers, byName };
}

async function cudaRow(rt: CudaRuntime, shape: Shape, kernels: Map<string, { kernel: CudaKernel; compiled: CudaCompiled }>): Promise<Row> {
  const symbol = shape.kernel.symbol;
  let label = "?";
  const created: CudaBuffer[] = [];
  try {
    let entry = kernels.get(symbol);
    if (!entry) {
      const source = sourceOf(shape.kernel);
      const loomCompiled = compilePtx(source.file, source.text, symbol, rt);
      const ptxFile = ptxFiles.get(symbol);
      const compiled = ptxFile ? { ...loomCompiled, ptx: new Uint8Array(readFileSync(ptxFile)) } : loomCompiled;
      entry = { compiled, kernel: rt.createKernel(compiled.ptx, compiled.record, { dynamicSharedMemory: false }) };
      kernels.set(symbol, entry);
    }
    const c = shape.make();
    label = c.label;
    const { values: args, byName } = stageArguments(c.args, (n) => rt.createBuffer(n), (buffer): ArgValue => ({ address: buffer.address, byteLength: buffer.byteLength }), created);
    const launch = entry.compiled.launch(c.workload);
    const options = { workgroupCount: launch.workgroupCount, workgroupSize: launch.workgroupSize, args };
    rt.dispatch(entry.kernel, options);
    const checks = Object.entries(c.reference()).map(([name, want]) => compareOutput(name, like(byName.get(name)!.data, byName.get(name)!.buffer.download()), want));
    const passed = checks.every((x) => x.mismatches === 0);
    const warm = await sustain(() => {
      for (let i = 0; i < 10; i++) rt.launch(entry.kernel, options);
      rt.synchronize();
      return 10;
    });
    const timing = await timeRepeats(() => rt.dispatch(entry.kernel, { ...options, timing: true }).gpuMs ?? NaN);
    return { api: "cuda", kernel: symbol, label, passed, checks, timing, warmupDispatches: warm, ...rates(c, shape, timing) };
  } catch (e) {
    return { api: "cuda", kernel: symbol, label, passed: false, error: message(e) };
  } finally {
    for (const b of created) b.destroy();
  }
}

function rates(c: KernelCase, shape: Shape, t: Timing): { gbPerS?: number; tflops?: number } {
  return shape.flops ? { tflops: shape.flops / (t.medianMs * 1e9) } : { gbPerS: c.bytesMoved / (t.medianMs * 1e6) };
}

const NOOP = `// A launch that does nothing: host overhead only.
kernel.def export("noop") @noop(%n: index) {
  %c1 = index.constant 1 : index
  %width = index.constant 32 : index
  kernel.launch.config workgroups(%c1, %c1, %c1) workgroup_size(%width, %c1, %c1) : index
} launch(%n: index, %x: buffer) {
  kernel.return
}
`;

function perLaunchUs(rt: { synchronize(): void }, fn: () => void, n: number): Timing {
  const runs = Array.from({ length: 5 }, () => {
    rt.synchronize();
    const t0 = performance.now();
    for (let i = 0; i < n; i++) fn();
    const t = performance.now() - t0;
    rt.synchronize();
    return (t * 1000) / n;
  });
  const t = timingOf(runs);
  return { medianMs: t.medianMs, minMs: t.minMs, maxMs: t.maxMs };
}

/** bench/c/cuda-launch.c built with nvcc, for `ptx`'s entry: the path of the executable, or an error. */
function cudaCBaseline(ptx: Uint8Array): { exe: string; ptxPath: string } | { error: string } {
  const dir = mkdtempSync(join(tmpdir(), "loom-h200-"));
  const ptxPath = join(dir, "noop.ptx");
  writeFileSync(ptxPath, ptx);
  const exe = join(dir, "cuda-launch");
  const build = spawnSync("nvcc", ["-O2", "-o", exe, join(root, "bench/c/cuda-launch.c"), "-lcuda"], { encoding: "utf8" });
  return build.status === 0 ? { exe, ptxPath } : { error: `nvcc: ${build.error?.message ?? build.stderr}` };
}

interface CLaunch {
  readonly launchUs: { median: number };
  readonly nonBlockingLaunchUs?: { median: number };
}

/**
 * Host cost per launch, JS against C, in ROUNDS rounds: each round times the JS launch (launch
 * evaluation + argument packing + cuLaunchKernel, and the bound launch) in this process, then
 * runs the C baseline in a fresh process; the ratio of a round compares the two measured
 * seconds apart on the same stream kind (the runtime's stream has CU_STREAM_DEFAULT flags, so
 * the C baseline's `launchUs` uses them too). The goal reads the median of the round ratios.
 */
async function cudaOverhead(rt: CudaRuntime): Promise<unknown> {
  const out: Record<string, unknown> = {};
  const compiled = compilePtx("noop.loom", NOOP, "noop", rt);
  const kernel = rt.createKernel(compiled.ptx, compiled.record, { dynamicSharedMemory: false });
  const x = rt.createBuffer(256);
  const args: ArgValue[] = [1, x];
  const N = QUICK ? 2000 : 20000;
  const workload = [1];
  const oneLaunch = () => {
    const l = compiled.launchNumbers(workload);
    rt.launch(kernel, { workgroupCount: l.workgroupCount, workgroupSize: l.workgroupSize, args });
  };
  const bound = compiled.launchNumbers(workload);
  const boundOptions = { workgroupCount: bound.workgroupCount, workgroupSize: bound.workgroupSize };
  const boundLaunch = () => rt.launch(kernel, boundOptions);
  const c = cudaCBaseline(compiled.ptx);
  if ("error" in c) out["cBaseline"] = c;
  await sustain(() => {
    for (let i = 0; i < 100; i++) oneLaunch();
    return 100;
  });
  const rounds: { jsUs: number; boundUs: number; cUs?: number; cNonBlockingUs?: number; ratio?: number; boundRatio?: number }[] = [];
  for (let r = 0; r < (QUICK ? 2 : 7); r++) {
    const jsUs = perLaunchUs(rt, oneLaunch, N).medianMs;
    kernel.setArguments(args);
    const boundUs = perLaunchUs(rt, boundLaunch, N).medianMs;
    if ("error" in c) {
      rounds.push({ jsUs, boundUs });
      continue;
    }
    const run = spawnSync(c.exe, [c.ptxPath, compiled.record.entryName, String(compiled.record.argumentBlockBytes), String(N)], { encoding: "utf8" });
    if (run.status !== 0) {
      out["cBaseline"] = { error: run.stderr };
      rounds.push({ jsUs, boundUs });
      continue;
    }
    const cr = JSON.parse(run.stdout) as CLaunch;
    out["cBaseline"] = cr;
    const cUs = cr.launchUs.median;
    rounds.push({ jsUs, boundUs, cUs, cNonBlockingUs: cr.nonBlockingLaunchUs?.median, ratio: jsUs / cUs, boundRatio: boundUs / cUs });
  }
  // The koffi crossing alone, through both entry points (which one the runtime uses: cuLaunchKernelEx when the driver has it).
  {
    const { cu } = kernel.ctx.lib;
    const inner = kernel as unknown as { handle: bigint; params: bigint; config: bigint };
    const stream = rt.stream.handle;
    out["rawBindingUs"] = {
      cuLaunchKernel: perLaunchUs(rt, () => void cu.cuLaunchKernel(inner.handle, 1, 1, 1, 32, 1, 1, 0, stream, inner.params, 0n), N),
      cuLaunchKernelEx: cu.cuLaunchKernelEx ? perLaunchUs(rt, () => void cu.cuLaunchKernelEx!(inner.config, inner.handle, inner.params, 0n), N) : "not exported by the driver",
    };
  }
  // Units: the Timing fields hold microseconds here.
  const of = (k: "jsUs" | "boundUs" | "cUs" | "ratio" | "boundRatio") => {
    const v = rounds.map((x) => x[k]).filter((y): y is number => y !== undefined);
    return v.length > 0 ? timingOf(v) : undefined;
  };
  out["rounds"] = rounds;
  out["jsLaunchUs"] = of("jsUs");
  out["jsBoundLaunchUs"] = of("boundUs");
  out["cLaunchUs"] = of("cUs");
  out["launchRatio"] = of("ratio");
  out["boundLaunchRatio"] = of("boundRatio");
  kernel.setArguments(args);
  const nodes = 100;
  const graph = rt.captureGraph((stream) => {
    for (let i = 0; i < nodes; i++) rt.launch(kernel, { ...boundOptions, args, stream });
  });
  const replays = QUICK ? 20 : 200;
  const g = perLaunchUs(rt, () => graph.launch(), replays);
  out["graphPerNodeUs"] = { medianMs: g.medianMs / nodes, minMs: g.minMs / nodes, maxMs: g.maxMs / nodes };
  graph.destroy();
  // The driver's JIT through a cubin cache: a miss runs cuLink*, a hit loads the cached cubin.
  const store = new Map<string, Uint8Array>();
  const cache = { get: (k: string) => store.get(k), put: (k: string, b: Uint8Array) => void store.set(k, b) };
  const matmul = compilePtx("matmul_tiled.loom", readFileSync(join(kernelDir, "matmul_tiled.loom"), "utf8"), "matmul_tiled", rt);
  const timeCreate = async () => {
    const t0 = performance.now();
    const r = await rt.createKernelCached(matmul.ptx, matmul.record, cache, { dynamicSharedMemory: false });
    return { ms: performance.now() - t0, hit: r.hit };
  };
  out["cubinCache"] = { miss: await timeCreate(), hit: await timeCreate(), plainLoadModuleMs: (() => {
    const t0 = performance.now();
    rt.createKernel(matmul.ptx, matmul.record, { dynamicSharedMemory: false });
    return performance.now() - t0;
  })() };
  x.destroy();
  return out;
}

async function runCuda(report: Record<string, unknown>, rows: Row[]): Promise<void> {
  let rt: CudaRuntime | undefined;
  try {
    rt = CudaRuntime.create();
    report["cudaDevice"] = rt.deviceInfo();
    report["clocksBeforeCuda"] = clocks();
    // Host costs first, before the shapes fill the heap with multi-GB host arrays (whose
    // collection a later measurement would pay for).
    report["cudaOverhead"] = await cudaOverhead(rt);
    checkpoint(report, rows);
    const kernels = new Map<string, { kernel: CudaKernel; compiled: CudaCompiled }>();
    for (const s of shapes()) {
      const row = await cudaRow(rt, s, kernels);
      rows.push(row);
      checkpoint(report, rows);
      process.stderr.write(`cuda ${row.kernel} ${row.label}: ${row.passed ? "ok" : `FAIL ${row.error ?? ""}`} ${row.timing?.medianMs.toFixed(4) ?? ""} ms\n`);
    }
    report["clocksAfterCuda"] = clocks();
  } catch (e) {
    report["cudaError"] = message(e);
  } finally {
    rt?.destroy();
  }
}

// ---- Vulkan ------------------------------------------------------------------------------

/** Expected GPU ms of a shape, when the device gives no timestamps: 3 TB/s or 20 TFLOP/s. */
const estimateMs = (c: KernelCase, s: Shape) => (s.flops ? s.flops / 2e10 : c.bytesMoved / 3e9) + 0.002;

async function vulkanRow(rt: VulkanRuntime, profile: ReturnType<typeof deviceProfile>, s: Shape, compiledBy: Map<string, ReturnType<typeof compileForDevice>>): Promise<Row> {
  const symbol = s.kernel.symbol;
  let label = "?";
  const created: VulkanBuffer[] = [];
  let vk: VulkanKernel | undefined;
  try {
    let compiled = compiledBy.get(symbol);
    if (!compiled) {
      const source = sourceOf(s.kernel);
      compiledBy.set(symbol, (compiled = compileForDevice(source.file, source.text, profile, symbol)));
    }
    if (!compiled.ok) throw new Error(compiled.diagnostics);
    const k = compiled.kernel;
    const c = s.make();
    label = c.label;
    vk = rt.createKernel(k.spirv, k.record, k.exportName);
    const { values, buffers, byName } = stageArguments(c.args, (n) => rt.createBuffer(Math.max(4, n)), (buffer) => vk!.bufferArgument(buffer), created);
    const argBlock = packArguments(k.slots, values, k.interface.argumentBlockBytes);
    const launch = k.launch(c.workload);
    const options = { workgroupCount: launch.workgroupCount as [number, number, number], argBlock, buffers };
    rt.dispatch(vk, options);
    const checks = Object.entries(c.reference()).map(([name, want]) => compareOutput(name, like(byName.get(name)!.data, byName.get(name)!.buffer.download()), want));
    const passed = checks.every((x) => x.mismatches === 0);
    // Sustained load: batches of ≈ 50 ms (one submission each, no host gap between dispatches).
    const firstMs = (rt.dispatch(vk, { ...options, timestamps: true }).gpuNs ?? estimateMs(c, s) * 1e6) / 1e6;
    const items = Array.from({ length: perGroup(firstMs) }, () => ({ kernel: vk!, ...options }));
    const warm = await sustain(() => {
      rt.submitBatch(items).wait();
      return items.length;
    });
    const timing = await timeRepeats(() => (rt.dispatch(vk!, { ...options, timestamps: true }).gpuNs ?? NaN) / 1e6);
    return { api: "vulkan", kernel: symbol, label, passed, checks, timing, warmupDispatches: warm, ...rates(c, s, timing) };
  } catch (e) {
    return { api: "vulkan", kernel: symbol, label, passed: false, error: message(e) };
  } finally {
    for (const b of created) b.destroy();
    vk?.destroy();
  }
}

/** bench/c/vulkan-dispatch.c built with the system's C compiler (Vulkan headers: LOOM_VULKAN_INCLUDE or /usr/include). */
function vulkanCBaseline(spirv: Uint8Array, entry: string, buffers: number, pushBytes: number, n: number): unknown {
  const dir = mkdtempSync(join(tmpdir(), "loom-h200-vk-"));
  const spv = join(dir, "noop.spv");
  writeFileSync(spv, spirv);
  const exe = join(dir, "vulkan-dispatch");
  const include = [process.env["LOOM_VULKAN_INCLUDE"], join(root, ".devbundle/include"), "/usr/include"].find((d) => d !== undefined && existsSync(join(d, "vulkan/vulkan_core.h")));
  if (!include) return { error: "no vulkan/vulkan_core.h (set LOOM_VULKAN_INCLUDE)" };
  const cc = ["cc", "gcc", "clang"].find((x) => spawnSync(x, ["--version"]).status === 0);
  if (!cc) return { error: "no C compiler (cc, gcc, clang) on PATH" };
  const build = spawnSync(cc, ["-O2", `-I${include}`, "-o", exe, join(root, "bench/c/vulkan-dispatch.c"), "-ldl"], { encoding: "utf8" });
  if (build.status !== 0) return { error: `${cc}: ${build.error?.message ?? build.stderr}` };
  const r = spawnSync(exe, [spv, entry, String(buffers), String(pushBytes), String(n)], { encoding: "utf8" });
  return r.status === 0 ? (JSON.parse(r.stdout) as unknown) : { error: r.stderr };
}

async function runVulkan(report: Record<string, unknown>, rows: Row[]): Promise<void> {
  let rt: VulkanRuntime | undefined;
  try {
    rt = VulkanRuntime.create();
    const info = rt.deviceInfo();
    report["vulkanDevice"] = { name: info.name, apiVersion: info.apiVersion, queueFamily: info.computeQueueFamily, subgroupSize: info.subgroupSize };
    report["clocksBeforeVulkan"] = clocks();
    const profile = deviceProfile(rt);
    const compiledBy = new Map<string, ReturnType<typeof compileForDevice>>();
    for (const s of shapes()) {
      const row = await vulkanRow(rt, profile, s, compiledBy);
      rows.push(row);
      checkpoint(report, rows);
      process.stderr.write(`vulkan ${row.kernel} ${row.label}: ${row.passed ? "ok" : `FAIL ${row.error ?? ""}`} ${row.timing?.medianMs.toFixed(4) ?? ""} ms\n`);
    }
    // A tiny dispatch end to end: record, submit, wait.
    const noop = compileForDevice("noop.loom", NOOP, profile, "noop");
    if (noop.ok) {
      const vk = rt.createKernel(noop.kernel.spirv, noop.kernel.record, noop.kernel.exportName);
      const x = rt.createBuffer(256);
      const argBlock = packArguments(noop.kernel.slots, [1, vk.bufferArgument(x)], noop.kernel.interface.argumentBlockBytes);
      const dispatch = () => void rt!.dispatch(vk, { workgroupCount: [1, 1, 1], argBlock, buffers: [x] });
      for (let i = 0; i < (QUICK ? 20 : 500); i++) dispatch();
      const n = QUICK ? 50 : 2000;
      report["vulkanTinyDispatchUs"] = perLaunchUs({ synchronize: () => undefined }, dispatch, n);
      // The same dispatch 1000 times in one submission (submitBatch): host µs per dispatch, and the GPU's.
      const items = Array.from({ length: 1000 }, () => ({ kernel: vk, workgroupCount: [1, 1, 1] as const, argBlock, buffers: [x] }));
      rt.submitBatch(items).wait();
      // host: validate + record + submit (submitBatch returns before the GPU finishes); endToEnd adds the wait.
      const batches = Array.from({ length: 5 }, () => {
        const t0 = performance.now();
        const batch = rt!.submitBatch(items, { timestamps: true });
        const t1 = performance.now();
        const r = batch.wait();
        return { hostUs: ((t1 - t0) * 1000) / items.length, endToEndUs: ((performance.now() - t0) * 1000) / items.length, gpuUs: (r.gpuNs ?? NaN) / 1000 / items.length };
      });
      report["vulkanBatchedPerDispatchUs"] = { host: timingOf(batches.map((b) => b.hostUs)), endToEnd: timingOf(batches.map((b) => b.endToEndUs)), gpu: timingOf(batches.map((b) => b.gpuUs)) };
      const bufferCount = vk.layout.addressing === "bindings" ? vk.layout.bufferOffsets.length : 0;
      x.destroy();
      vk.destroy();
      report["vulkanCBaseline"] = vulkanCBaseline(noop.kernel.spirv, noop.kernel.exportName, bufferCount, noop.kernel.interface.argumentBlockBytes, n);
    }
    report["clocksAfterVulkan"] = clocks();
  } catch (e) {
    report["vulkanError"] = message(e);
  } finally {
    rt?.destroy();
  }
}

// ---- WebGPU (Dawn) -------------------------------------------------------------------------

async function webgpuRow(rt: WebGpuRuntime, s: Shape, compiledBy: Map<string, WgslCompiled>): Promise<Row> {
  const symbol = s.kernel.symbol;
  let label = "?";
  const created: WebGpuBuffer[] = [];
  let kernel: WebGpuKernel | undefined;
  try {
    let compiled = compiledBy.get(symbol);
    if (!compiled) {
      const source = sourceOf(s.kernel);
      compiledBy.set(symbol, (compiled = compileWgsl(rt, source.file, source.text, symbol)));
    }
    const c = s.make();
    label = c.label;
    // WebGPU's ABI caps the workgroup count per dimension: the companion refuses a workload past
    // it (a launch-config error naming the limit), and that shape is skipped, not failed.
    let launch: ReturnType<typeof compiled.launch>;
    try {
      launch = compiled.launch(c.workload);
    } catch (e) {
      return { api: "webgpu", kernel: symbol, label, passed: true, skipped: `launch refused for this workload: ${message(e)}` };
    }
    const maxCount = rt.profileFacts().limits["maxComputeWorkgroupsPerDimension"] ?? 65535;
    if (launch.workgroupCount.some((n) => n > maxCount)) return { api: "webgpu", kernel: symbol, label, passed: true, skipped: `${launch.workgroupCount.join("x")} workgroups exceed maxComputeWorkgroupsPerDimension (${maxCount})` };
    kernel = await rt.createKernel(compiled.wgsl, compiled.record, compiled.entry.entryName);
    const { values: args, buffers, byName } = stageArguments(c.args, (n) => rt.createBuffer(Math.max(4, n)), (buffer) => kernel!.bufferArgument(buffer), created);
    const options = { workgroupCount: launch.workgroupCount, args, buffers };
    await rt.dispatch(kernel, options);
    const checks: OutputCheck[] = [];
    for (const [name, want] of Object.entries(c.reference())) checks.push(compareOutput(name, like(byName.get(name)!.data, await byName.get(name)!.buffer.download()), want));
    const passed = checks.every((x) => x.mismatches === 0);
    const firstMs = ((await rt.dispatch(kernel, { ...options, timestamps: true })).gpuNs ?? estimateMs(c, s) * 1e6) / 1e6;
    const perPass = perGroup(firstMs);
    const warm = await sustain(async () => {
      await rt.dispatch(kernel!, { ...options, repeat: perPass });
      return perPass;
    });
    const timing = await timeRepeats(async () => ((await rt.dispatch(kernel!, { ...options, timestamps: true })).gpuNs ?? NaN) / 1e6);
    return { api: "webgpu", kernel: symbol, label, passed, checks, timing, warmupDispatches: warm, ...rates(c, s, timing) };
  } catch (e) {
    return { api: "webgpu", kernel: symbol, label, passed: false, error: message(e) };
  } finally {
    for (const b of created) b.destroy();
    kernel?.destroy();
  }
}

const FAST_KERNELS = ["saxpy4", "reduce_sum4", "row_softmax4", "transpose32", "matmul_tiled"];

async function runWebGpu(report: Record<string, unknown>, rows: Row[]): Promise<void> {
  let rt: WebGpuRuntime | undefined;
  try {
    const mod = (await import("webgpu")) as unknown as { create(options: string[]): GpuEntry };
    // Dawn rounds timestamps to 100 µs (a fingerprinting guard) unless told not to.
    const gpu = mod.create(["disable-dawn-features=timestamp_quantization"]);
    const adapter = await gpu.requestAdapter({ powerPreference: "high-performance" });
    if (!adapter) throw new Error("Dawn found no adapter");
    rt = await WebGpuRuntime.create({ gpu, adapter });
    const facts = rt.profileFacts();
    report["webgpuDevice"] = { adapter: facts.adapter, features: facts.features, timestamps: rt.timestampsAvailable };
    report["clocksBeforeWebGpu"] = clocks();
    const compiledBy = new Map<string, WgslCompiled>();
    // The fast kernels only: the simple ones' figures on CUDA and Vulkan say what they are.
    for (const s of shapes().filter((x) => FAST_KERNELS.includes(x.kernel.symbol))) {
      const row = await webgpuRow(rt, s, compiledBy);
      rows.push(row);
      checkpoint(report, rows);
      process.stderr.write(`webgpu ${row.kernel} ${row.label}: ${row.skipped ? `skipped: ${row.skipped}` : row.passed ? "ok" : `FAIL ${row.error ?? ""}`} ${row.timing?.medianMs.toFixed(4) ?? ""} ms\n`);
    }
    report["clocksAfterWebGpu"] = clocks();
  } catch (e) {
    report["webgpuError"] = message(e);
  } finally {
    rt?.destroy();
  }
}

// ---- goals -------------------------------------------------------------------------------

function goals(rows: readonly Row[], anchors: Record<string, { gbPerS?: number; tflops?: number }> | undefined, report: Record<string, unknown>): unknown[] {
  const find = (api: string, kernel: string, labelPart = "") => rows.find((r) => r.api === api && r.kernel === kernel && r.label.includes(labelPart) && r.passed);
  const a = (k: string) => anchors?.[k];
  const out: unknown[] = [];
  const ratio = (what: string, got: number | undefined, anchorName: string, anchorValue: number | undefined, goal: number) =>
    out.push({ what, loom: got ?? null, anchor: anchorName, anchorValue: anchorValue ?? null, ratio: got && anchorValue ? got / anchorValue : null, goal, met: got && anchorValue ? got / anchorValue >= goal : null });
  const n = QUICK ? "4194304" : "268435456";
  const rowsLabel = QUICK ? "4096x1024" : "32768x1024";
  const edge = QUICK ? "2048x2048" : "8192x8192";
  const mm = QUICK ? 1024 : 4096;
  const saxpyAnchor = Math.max(a("triton_saxpy")?.gbPerS ?? 0, a("torch_add_saxpy")?.gbPerS ?? 0) || undefined;
  for (const api of ["cuda", "vulkan", ...(rows.some((r) => r.api === "webgpu") ? ["webgpu"] : [])]) {
    ratio(`${api} saxpy4 2^28 GB/s vs max(Triton, torch add_)`, find(api, "saxpy4", n)?.gbPerS, "triton_saxpy|torch_add_saxpy", saxpyAnchor, 0.97);
    ratio(`${api} reduce_sum4 2^28 GB/s vs torch.sum (f32)`, find(api, "reduce_sum4", n)?.gbPerS, "torch_sum", a("torch_sum")?.gbPerS, 0.95);
    ratio(`${api} row_softmax4 ${rowsLabel} GB/s vs Triton softmax`, find(api, "row_softmax4", rowsLabel)?.gbPerS, `triton_softmax_${rowsLabel}`, a(`triton_softmax_${rowsLabel}`)?.gbPerS, 0.9);
    ratio(`${api} transpose32 ${edge} GB/s vs device copy`, find(api, "transpose32", edge)?.gbPerS, `torch_copy_${edge}`, a(`torch_copy_${edge}`)?.gbPerS, 0.9);
  }
  ratio(`cuda matmul_tiled ${mm}³ TFLOP/s vs Triton f32 ieee`, find("cuda", "matmul_tiled")?.tflops, `triton_mm_f32_ieee_${mm}`, a(`triton_mm_f32_ieee_${mm}`)?.tflops, 0.8);
  const vkMm = find("vulkan", "matmul_tiled")?.tflops;
  out.push({ what: `vulkan matmul_tiled ${mm}³ TFLOP/s (goal ≥ 25)`, loom: vkMm ?? null, goal: 25, met: vkMm !== undefined ? vkMm >= 25 : null, torchMm: a(`torch_mm_f32_${mm}`)?.tflops ?? null });
  const o = report["cudaOverhead"] as { jsLaunchUs?: Timing; cLaunchUs?: Timing; launchRatio?: Timing; graphPerNodeUs?: Timing } | undefined;
  const launchRatio = o?.launchRatio?.medianMs;
  out.push({
    what: "cuda host µs per launch (launch eval + packing + cuLaunchKernel) vs C cuLaunchKernel, median of the rounds' ratios",
    loom: o?.jsLaunchUs?.medianMs ?? null,
    anchorValue: o?.cLaunchUs?.medianMs ?? null,
    ratio: launchRatio ?? null,
    goal: "≤ 1.3",
    met: launchRatio !== undefined ? launchRatio <= 1.3 : null,
  });
  const tiny = report["vulkanTinyDispatchUs"] as Timing | undefined;
  const cVk = (report["vulkanCBaseline"] as { dispatchUs?: { median: number } } | undefined)?.dispatchUs?.median;
  out.push({ what: "vulkan tiny dispatch µs (record + submit + wait) vs C (bench/c/vulkan-dispatch.c)", loom: tiny?.medianMs ?? null, anchorValue: cVk ?? null, ratio: tiny && cVk ? tiny.medianMs / cVk : null, goal: "≤ 1.2", met: tiny && cVk ? tiny.medianMs / cVk <= 1.2 : null });
  const batched = report["vulkanBatchedPerDispatchUs"] as { host: Timing } | undefined;
  out.push({ what: "vulkan batched µs per dispatch (host)", loom: batched?.host.medianMs ?? null, goal: "≤ 5", met: batched ? batched.host.medianMs <= 5 : null });
  out.push({ what: "cuda graph replay µs per node", loom: o?.graphPerNodeUs?.medianMs ?? null, goal: "≤ 1", met: o?.graphPerNodeUs ? o.graphPerNodeUs.medianMs <= 1 : null });
  return out;
}

/** Writes what is known so far to --out (a run cut short still leaves its rows). */
function checkpoint(report: Record<string, unknown>, rows: readonly Row[]): void {
  if (opts.out) writeFileSync(opts.out, JSON.stringify({ ...report, rows, partial: true }, (_k, v: unknown) => (typeof v === "bigint" ? String(v) : v), 1));
}

async function main(): Promise<number> {
  const report: Record<string, unknown> = { date: new Date().toISOString(), node: process.version, mode: QUICK ? "quick" : "full", repeat: REPEAT, warmupMs: WARMUP_MS };
  const rows: Row[] = [];
  if (opts.only !== "vulkan" && opts.only !== "webgpu") await runCuda(report, rows);
  if (opts.only !== "cuda" && opts.only !== "webgpu") await runVulkan(report, rows);
  if (opts.webgpu === true || opts.only === "webgpu") await runWebGpu(report, rows);
  let anchors: Record<string, { gbPerS?: number; tflops?: number }> | undefined;
  if (opts.anchors && existsSync(opts.anchors)) {
    try {
      const parsed = JSON.parse(readFileSync(opts.anchors, "utf8")) as { anchors?: Record<string, { gbPerS?: number; tflops?: number }> };
      anchors = parsed.anchors;
      report["anchors"] = parsed;
    } catch (e) {
      report["anchorsError"] = message(e);
    }
  }
  report["goals"] = goals(rows, anchors, report);
  report["rows"] = rows;
  const passed = rows.every((r) => r.passed) && report["cudaError"] === undefined && report["vulkanError"] === undefined && report["webgpuError"] === undefined;
  report["passed"] = passed;
  const text = JSON.stringify(report, (_k, v: unknown) => (typeof v === "bigint" ? String(v) : typeof v === "number" && !Number.isFinite(v) ? String(v) : v), 1);
  process.stdout.write(`${text}\n`);
  if (opts.out) writeFileSync(opts.out, text);
  return passed ? 0 : 1;
}

process.exitCode = await main();
