/**
 * The playground's compiler half, run in its Web Worker (and in Node by the tests): parse and
 * compile a `.loom` kernel for the chosen target, render the emitted module as text, evaluate
 * its launch for a workload, and prepare a WebGPU run — seeded inputs plus what the reference
 * interpreter computes from them. Only `loomc/browser` (and `loomc/browser/check` for the
 * interpreter); no DOM, no Node.
 */
import {
  Compiler,
  Context,
  LaunchConfigProgram,
  PassProgram,
  Source,
  Workspace,
  amdgpu,
  compileModule,
  emitModule,
  parseExecutableInterface,
  ptx,
  spirv,
  wgsl,
  type Diagnostic,
  type LaunchConfig,
  type ReferenceArgValue,
  type Result,
  type TargetEnvironment,
  type TargetProfile,
} from "loomc/browser";
import { disassembleSpirv, prepareReferenceKernel } from "loomc/browser/check";
import type { AdapterFactsMessage, CompileResponse, ElementType, KernelCompileTimes, MachineProbe, PlainDiagnostic, PlainLaunch, RunResponse, TargetName, TimeResponse } from "./protocol.js";
import { amdgpuListing } from "./listing.js";

const ENVIRONMENTS = {
  wgsl: wgsl.createWgslTargetEnvironment(),
  spirv: spirv.createSpirvTargetEnvironment(),
  ptx: ptx.createPtxTargetEnvironment(),
  amdgpu: amdgpu.createAmdgpuTargetEnvironment(),
} satisfies Record<TargetName, TargetEnvironment>;

const FORMATS: Record<TargetName, string> = { wgsl: "wgsl", spirv: "spirv", ptx: "ptx", amdgpu: "amdgpu-hsaco" };

const context = Context.create({ targetEnvironments: Object.values(ENVIRONMENTS) });
const compiler = Compiler.create(context);
const pipeline = PassProgram.fromTargetPipeline(context, { kind: "prepared-low" }).value!;

function defaultProfiles(): Record<TargetName, TargetProfile> {
  return {
    wgsl: wgsl.createWgslProfile(ENVIRONMENTS.wgsl, { identifier: "webgpu-core", identity: { device: "webgpu" } }),
    spirv: spirv.createSpirvProfile(ENVIRONMENTS.spirv, { identifier: "vulkan1.3-int64", identity: { environment: "vulkan1.3", features: { shaderInt64: true } } }),
    ptx: ptx.createPtxProfile(ENVIRONMENTS.ptx, { identifier: "sm_90", identity: { target: "sm_90" } }),
    amdgpu: amdgpu.createAmdgpuProfile(ENVIRONMENTS.amdgpu, { identifier: "gfx1100", identity: { target: "gfx1100" } }),
  };
}
let profiles = defaultProfiles();

/** Compile for the page's own adapter from now on (its features and limits). */
export function useAdapter(facts: AdapterFactsMessage): void {
  profiles = { ...profiles, wgsl: wgsl.createWgslProfile(ENVIRONMENTS.wgsl, wgsl.profileFromAdapter(facts, "page-adapter")) };
}

function plain(d: Diagnostic): PlainDiagnostic {
  const loc = d.location;
  return {
    severity: d.severity,
    code: d.code,
    message: d.message,
    ...(d.help ? { help: d.help } : {}),
    ...(loc ? { line: loc.line, column: loc.column, ...(loc.endLine !== undefined ? { endLine: loc.endLine } : {}), ...(loc.endColumn !== undefined ? { endColumn: loc.endColumn } : {}) } : {}),
  };
}

function launchBits(value: number, type: string): bigint {
  if (type === "f32" || type === "f64") {
    const view = new DataView(new ArrayBuffer(8));
    if (type === "f64") view.setFloat64(0, value, true);
    else view.setFloat32(0, value, true);
    return type === "f64" ? view.getBigUint64(0, true) : BigInt(view.getUint32(0, true));
  }
  return BigInt.asUintN(64, BigInt(Math.trunc(value)));
}

const plainLaunch = (l: LaunchConfig): PlainLaunch => ({ workgroupCount: [...l.workgroupCount], workgroupSize: [...l.workgroupSize], workgroupStorageBytes: l.workgroupStorageBytes });

interface Compiled {
  readonly ok: boolean;
  readonly diagnostics: PlainDiagnostic[];
  readonly kernels: string[];
  readonly kernel?: string;
  readonly emitted?: Result;
  readonly compiled?: Result;
  readonly module?: NonNullable<ReturnType<Workspace["parseModule"]>["value"]>;
  readonly workloadTypes?: readonly string[];
}

function compileFor(text: string, target: TargetName, kernel: string | undefined): Compiled {
  const workspace = new Workspace(context);
  const parsed = workspace.parseModule(Source.fromText("kernel.loom", text));
  const diagnostics = parsed.diagnostics.map(plain);
  if (!parsed.ok || !parsed.value) return { ok: false, diagnostics, kernels: [] };
  const module = parsed.value;
  const defined = module.kernels().filter((k) => k.defined);
  const kernels = defined.map((k) => k.symbol);
  const chosen = defined.find((k) => k.symbol === kernel) ?? defined[0];
  if (!chosen) return { ok: false, diagnostics: [...diagnostics, { severity: "error", code: "PLAYGROUND", message: "the module defines no kernel (kernel.def)" }], kernels };
  const compiled = compileModule(compiler, workspace, pipeline, module, { specializations: [{ functionSymbol: chosen.symbol, targetProfile: profiles[target] }], artifacts: { launchConfig: true } });
  diagnostics.push(...compiled.diagnostics.map(plain));
  const base = { kernels, kernel: chosen.symbol, module, workloadTypes: chosen.workload.map((w) => w.type) };
  if (!compiled.ok) return { ok: false, diagnostics, ...base, compiled };
  const emitted = emitModule(ENVIRONMENTS[target], workspace, module, { artifactFormat: FORMATS[target] });
  diagnostics.push(...emitted.diagnostics.map(plain));
  return { ok: emitted.ok, diagnostics, ...base, compiled, emitted };
}

function evaluateLaunch(c: Compiled, workload: readonly number[]): LaunchConfig {
  const artifact = c.compiled?.findArtifact("launch-config");
  if (!artifact || !c.kernel) throw new Error("no launch-config artifact");
  const program = LaunchConfigProgram.load(artifact);
  const fn = program.lookupFunction(exportNameOf(c));
  const types = c.workloadTypes ?? [];
  if (workload.length !== types.length) throw new Error(`@${c.kernel} takes ${types.length} workload value(s) (${types.join(", ") || "none"}), got ${workload.length}`);
  return program.invoke(fn, workload.map((v, i) => launchBits(v, types[i]!)));
}

function exportNameOf(c: Compiled): string {
  return c.module!.kernels().find((k) => k.symbol === c.kernel)!.exportName;
}

function render(target: TargetName, bytes: Uint8Array): string {
  if (target === "spirv") return disassembleSpirv(bytes);
  if (target === "amdgpu") return amdgpuListing(bytes);
  return new TextDecoder().decode(bytes);
}

export function compileRequest(id: number, text: string, target: TargetName, kernel: string | undefined, workload: readonly number[]): CompileResponse {
  const started = performance.now();
  const c = compileFor(text, target, kernel);
  const compileMs = performance.now() - started;
  const executable = c.emitted?.findArtifact("executable");
  const out: { -readonly [K in keyof CompileResponse]: CompileResponse[K] } = { kind: "compiled", id, ok: c.ok, diagnostics: c.diagnostics, kernels: c.kernels, compileMs };
  if (c.kernel) out.kernel = c.kernel;
  if (executable) out.output = render(target, executable.contents);
  if (c.compiled?.ok) {
    try {
      out.launch = plainLaunch(evaluateLaunch(c, workload));
    } catch (e) {
      out.launchError = (e as Error).message;
    }
  }
  return out;
}

/** Seeded xorshift32 in [0, 1). */
function random(seed: number): () => number {
  let s = seed >>> 0 || 0x9e3779b9;
  return () => {
    s ^= s << 13;
    s >>>= 0;
    s ^= s >>> 17;
    s ^= s << 5;
    s >>>= 0;
    return s / 2 ** 32;
  };
}

const MAX_ELEMENTS = 1 << 22;
/** A float scalar that is neither a workload argument nor in `sizes` (saxpy's alpha). */
const DEFAULT_FLOAT_SCALAR = 2.5;

/**
 * Compiles for WGSL, evaluates the launch and builds the inputs: a scalar named like a workload
 * argument takes its value, others come from `sizes` (a float scalar defaults to 2.5); buffer NAME holds `sizes[NAME]` elements
 * (default: the larger of the launch's invocations and the product of every workload value and
 * size) of its first view's element type — f32 on a 2⁻¹² grid in [−4, 4), integers in [0, 1024).
 * The reference interpreter runs on copies; its buffers are the expected outputs.
 */
export function prepareRun(id: number, text: string, kernel: string | undefined, workload: readonly number[], sizes: Readonly<Record<string, number>>, seed: number): RunResponse {
  const c = compileFor(text, "wgsl", kernel);
  const fail = (error: string): RunResponse => ({ kind: "run-ready", id, ok: false, diagnostics: c.diagnostics, error, ...(c.kernel ? { kernel: c.kernel } : {}) });
  if (!c.ok || !c.emitted) return fail("the kernel does not compile to WGSL");
  const wgslText = new TextDecoder().decode(c.emitted.findArtifact("executable")!.contents);
  const recordText = new TextDecoder().decode(c.emitted.findArtifact("interface")!.contents);
  const record = parseExecutableInterface(recordText).kernels.find((k) => k.symbol === c.kernel)!;
  let launch: LaunchConfig;
  try {
    launch = evaluateLaunch(c, workload);
  } catch (e) {
    return fail(`launch: ${(e as Error).message}`);
  }
  const workloadNames = c.module!.kernels().find((k) => k.symbol === c.kernel)!.workload.map((w) => w.name);
  const invocations = [...launch.workgroupCount, ...launch.workgroupSize].reduce((a, b) => a * b, 1);
  const product = [...workload, ...Object.values(sizes)].reduce((a, b) => a * Math.max(1, b), 1);
  const defaultCount = Math.min(MAX_ELEMENTS, Math.max(1, invocations, product));
  const rng = random(seed);
  const buffers: { name: string; type: ElementType; data: ArrayBuffer }[] = [];
  const args: ({ scalar: number } | { buffer: number })[] = [];
  const refArgs: ReferenceArgValue[] = [];
  for (const [i, a] of record.arguments.entries()) {
    const name = a.name || `arg${i}`;
    if (a.type === "buffer") {
      const count = sizes[name] ?? defaultCount;
      if (!Number.isSafeInteger(count) || count < 0 || count > MAX_ELEMENTS) return fail(`buffer '${name}': ${count} elements is not a count up to ${MAX_ELEMENTS}`);
      const element = a.elementTypes?.[0];
      const type: ElementType = element === "f32" ? "f32" : element === "u32" ? "u32" : "i32";
      const data = type === "f32" ? Float32Array.from({ length: count }, () => Math.round((rng() * 8 - 4) * 4096) / 4096) : Int32Array.from({ length: count }, () => Math.floor(rng() * 1024));
      args.push({ buffer: buffers.length });
      buffers.push({ name, type, data: data.buffer });
      refArgs.push(new Uint8Array(data.buffer.slice(0)));
      continue;
    }
    const w = workloadNames.indexOf(name);
    const float = a.type === "f16" || a.type === "bf16" || a.type === "f32" || a.type === "f64";
    const value = w >= 0 ? workload[w] : (sizes[name] ?? (float ? DEFAULT_FLOAT_SCALAR : undefined));
    if (value === undefined) return fail(`scalar '${name}' is not a workload argument; give it in sizes as ${name}=VALUE`);
    args.push({ scalar: value });
    refArgs.push(float ? value : BigInt(Math.trunc(value)));
  }
  const started = performance.now();
  try {
    prepareReferenceKernel(c.module!, c.kernel!).run({ workgroupCount: launch.workgroupCount, workgroupSize: launch.workgroupSize, subgroupSize: launch.subgroupSize || 4, args: refArgs });
  } catch (e) {
    return fail(`reference interpreter: ${(e as Error).message}`);
  }
  const interpreterMs = performance.now() - started;
  const expected = refArgs.filter((a): a is Uint8Array => a instanceof Uint8Array).map((b) => b.buffer as ArrayBuffer);
  return { kind: "run-ready", id, ok: true, diagnostics: c.diagnostics, kernel: c.kernel!, wgsl: wgslText, record: recordText, launch: plainLaunch(launch), args, buffers, expected, interpreterMs };
}

type SuiteKernel = { readonly file: string; readonly symbol: string; readonly text: string };

/** The smallest nonzero step of `performance.now()` over a few ticks. */
function clockResolutionMs(): number {
  let step = Infinity;
  for (let i = 0; i < 20; i++) {
    const first = performance.now();
    let next = first;
    while (next === first) next = performance.now();
    step = Math.min(step, next - first);
  }
  return step;
}

/** A sample lasts at least this many clock steps, so the clock's rounding stays within 5% of it. */
const MIN_SAMPLE_TICKS = 20;

/** Times `batch` compiles of one kernel: ms per compile, or the diagnostics if it does not compile. */
function timeBatch(kernel: SuiteKernel, target: TargetName, batch: number): number | string {
  const started = performance.now();
  for (let j = 0; j < batch; j++) {
    const c = compileFor(kernel.text, target, kernel.symbol);
    if (!c.ok) return c.diagnostics.map((d) => `${d.code}: ${d.message}`).join("; ");
  }
  return (performance.now() - started) / batch;
}

/** The batch that makes a sample last `sampleMs`, from one measured at `ms` per compile (a coarse clock may read 0). */
const batchFor = (sampleMs: number, ms: number, resolutionMs: number): number => Math.max(1, Math.ceil(sampleMs / Math.max(ms, resolutionMs / 2)));

/** Median, 90th percentile (nearest rank), mean and minimum of `samplesMs` (NaN for none). */
function statistics(samplesMs: readonly number[]): { p50Ms: number; p90Ms: number; meanMs: number; minMs: number } {
  const sorted = [...samplesMs].sort((a, b) => a - b);
  const n = sorted.length;
  if (n === 0) return { p50Ms: NaN, p90Ms: NaN, meanMs: NaN, minMs: NaN };
  const mid = n >> 1;
  const p50Ms = n % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
  return { p50Ms, p90Ms: sorted[Math.ceil(0.9 * n) - 1]!, meanMs: sorted.reduce((a, b) => a + b, 0) / n, minMs: sorted[0]! };
}

function summarize(symbol: string, samplesMs: number[], startsMs: number[], batch: number, warmupCompiles: number, error?: string): KernelCompileTimes {
  return { symbol, ...statistics(samplesMs), samplesMs, startsMs, batch, warmupCompiles, ...(error !== undefined ? { error } : {}) };
}

/**
 * Parse + compile + emit of each kernel, warmed up until the engine's optimizing tiers have
 * settled, then sampled round by round (`TimeRequest`). A page's clock
 * is coarsened (0.1 ms in Chromium unless the page is cross-origin isolated, then 5 µs), so a
 * sample is a batch of compiles lasting ≥ 20 clock steps, divided by its size.
 */
export function timeCompiles(id: number, kernels: readonly SuiteKernel[], target: TargetName, warmupMs: number, repeats: number): TimeResponse {
  const resolutionMs = clockResolutionMs();
  const isolated = (globalThis as { crossOriginIsolated?: boolean }).crossOriginIsolated;
  const { times, warmupTookMs, warmupRounds, probe } = roundRobin(kernels, target, resolutionMs, warmupMs, repeats);
  return { kind: "compile-times", id, target, clockResolutionMs: resolutionMs, timeOriginMs: performance.timeOrigin, warmupTookMs, warmupRounds, ...(isolated !== undefined ? { crossOriginIsolated: isolated } : {}), times, probe };
}

const PROBE_ENTRIES = 1 << 16;
const PROBE_STEPS = 20_000;
let probeTable: Int32Array | undefined;

/** One cycle through every entry in a fixed pseudo-random order (the same table in every run). */
function makeProbeTable(): Int32Array {
  const order = new Int32Array(PROBE_ENTRIES);
  for (let i = 0; i < PROBE_ENTRIES; i++) order[i] = i;
  let seed = 12345;
  for (let i = PROBE_ENTRIES - 1; i > 0; i--) {
    seed = (Math.imul(seed, 1103515245) + 12345) >>> 0;
    const j = seed % i;
    const t = order[i]!;
    order[i] = order[j]!;
    order[j] = t;
  }
  const next = new Int32Array(PROBE_ENTRIES);
  for (let i = 0; i < PROBE_ENTRIES; i++) next[order[i]!] = order[(i + 1) % PROBE_ENTRIES]!;
  return next;
}

/** ms of one run of the machine-speed probe (`MachineProbe`). */
function probeOnce(): number {
  const next = (probeTable ??= makeProbeTable());
  const started = performance.now();
  let p = 0;
  for (let i = 0; i < PROBE_STEPS; i++) p = next[p]!;
  const ms = performance.now() - started;
  // A cycle never reaches -1: the test only keeps the loop from being dropped.
  return p === -1 ? NaN : ms;
}

function summarizeProbe(samplesMs: number[]): MachineProbe {
  const { p50Ms, minMs } = statistics(samplesMs);
  return { steps: PROBE_STEPS, tableBytes: PROBE_ENTRIES * 4, p50Ms, minMs, samplesMs };
}

/** Warm-up rounds are judged in blocks of this many: the engine has settled when a block is no faster than the one before. */
const SETTLE_ROUNDS = 20;
/** "No faster": the block's median round time is within 2% of the previous block's, or above it. */
const SETTLED_RATIO = 0.98;
/**
 * Rounds the warm-up does at least, however long they take: V8's traces of the worker show
 * Turbofan jobs and deopts still landing for ≈ 600 rounds of the suite (11–15 s at load 7–9 on
 * the 2-core machine, where its background compiles wait for a core; ≈ 3–4 s idle, estimated).
 */
const MIN_WARMUP_ROUNDS = 600;
/** The warm-up stops at this multiple of `warmupMs` even if it is still getting faster. */
const MAX_WARMUP_FACTOR = 6;

function roundRobin(kernels: readonly SuiteKernel[], target: TargetName, resolutionMs: number, warmupMs: number, rounds: number): { times: KernelCompileTimes[]; warmupTookMs: number; warmupRounds: number; probe: MachineProbe } {
  const sampleMs = MIN_SAMPLE_TICKS * resolutionMs;
  const batches = kernels.map(() => 1);
  const warmups = kernels.map(() => 0);
  const errors: (string | undefined)[] = kernels.map(() => undefined);
  const warmupStarted = performance.now();
  // At least `warmupMs` and MIN_WARMUP_ROUNDS, then on until a block of rounds is no faster than
  // the one before: V8 keeps optimizing (and deoptimizing) for seconds, longer while its
  // background compiles wait for a core, and a sample taken meanwhile measures the tiers.
  const roundMs: number[] = [];
  const median = (xs: readonly number[]): number => [...xs].sort((a, b) => a - b)[xs.length >> 1]!;
  const settled = (): boolean => {
    const n = roundMs.length;
    if (n < 2 * SETTLE_ROUNDS || n % SETTLE_ROUNDS !== 0) return false;
    return median(roundMs.slice(n - SETTLE_ROUNDS)) >= SETTLED_RATIO * median(roundMs.slice(n - 2 * SETTLE_ROUNDS, n - SETTLE_ROUNDS));
  };
  for (;;) {
    let total = 0;
    kernels.forEach((k, i) => {
      if (errors[i] !== undefined) return;
      const ms = timeBatch(k, target, batches[i]!);
      if (typeof ms === "string") errors[i] = ms;
      else {
        warmups[i]! += batches[i]!;
        total += ms;
        batches[i] = Math.max(batches[i]!, batchFor(sampleMs, ms, resolutionMs));
      }
    });
    roundMs.push(total);
    const elapsed = performance.now() - warmupStarted;
    if (elapsed >= MAX_WARMUP_FACTOR * warmupMs || (elapsed >= warmupMs && roundMs.length >= MIN_WARMUP_ROUNDS && settled())) break;
  }
  const warmupTookMs = performance.now() - warmupStarted;
  const samples = kernels.map((): number[] => []);
  const starts = kernels.map((): number[] => []);
  const probeMs: number[] = [];
  // Its loop optimized before its first sample.
  for (let i = 0; i < 20; i++) probeOnce();
  for (let round = 0; round < rounds; round++) {
    kernels.forEach((k, i) => {
      if (errors[i] !== undefined) return;
      starts[i]!.push(performance.now());
      const ms = timeBatch(k, target, batches[i]!);
      if (typeof ms === "string") errors[i] = ms;
      else samples[i]!.push(ms);
    });
    probeMs.push(probeOnce());
  }
  return { times: kernels.map((k, i) => summarize(k.symbol, samples[i]!, starts[i]!, batches[i]!, warmups[i]!, errors[i])), warmupTookMs, warmupRounds: roundMs.length, probe: summarizeProbe(probeMs) };
}
