/**
 * `loom check` on a device (docs/harness.md "loom check"): every `check.case` of a file, each
 * parameter sample in plan order, with its launches run on a `HarnessDevice` — kernels
 * compiled for the device's own profile, the launch configuration evaluated for the case's
 * workload values, tensors uploaded, results downloaded — and its expectations judged by the
 * public `CheckProgram`. A `check.benchmark` first runs its case (a failing sample has no
 * score), then times the sample's launches: a warm-up of at least `warmupMs`, then
 * `repetitions` timed runs, reported as median, minimum and maximum.
 */
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, resolve } from "node:path";
import { CheckProgram, LoomError, type CheckBenchmarkInfo, type CheckLaunchRequest, type CheckSample, type LaunchConfig, type Module, type SampleOutcome } from "../index.js";
import { compileKernel, type DeviceKernel } from "./device.js";
import type { HarnessBuffer, HarnessDevice, LoadedKernel } from "./devices.js";
import { median } from "./compare.js";
import { CaseError } from "./errors.js";

/** A sample that could not run: its kernel did not compile, or the device failed. */
export interface SampleError {
  readonly case: string;
  readonly sample: CheckSample;
  readonly status: "error";
  readonly reason: string;
  /** Rendered compile diagnostics, when a kernel did not compile. */
  readonly diagnostics?: string;
  readonly launches: number;
  readonly expectations: readonly [];
}

/** A sample's outcome: judged by the check program, or an error before it could be. */
export type CheckSampleReport = SampleOutcome | SampleError;

/** The status of a sample, a case or a benchmark (the worst of its samples). */
export type CheckStatus = "pass" | "fail" | "unsupported" | "error";

/** One case of a file: its samples and their combined status. */
export interface CheckCaseReport {
  readonly case: string;
  readonly line: number;
  readonly status: CheckStatus;
  readonly samples: readonly CheckSampleReport[];
  /** Samples the plan has beyond the ones run (the sample limit). */
  readonly skippedSamples: number;
}

/** The timing of one benchmark sample (nanoseconds). */
export interface BenchmarkTiming {
  /** `gpu`: the device's timer over the launches; `wall`: host time around them (no device timer). */
  readonly clock: "gpu" | "wall";
  readonly runs: number;
  readonly warmupRuns: number;
  readonly medianNs: number;
  readonly minNs: number;
  readonly maxNs: number;
}

/** One `check.benchmark` record: correctness and timing per sample. */
export interface CheckBenchmarkReport {
  readonly name: string;
  readonly case: string;
  readonly line: number;
  readonly status: CheckStatus;
  /** One entry per sample of the benchmark: its correctness outcome and, when it passed, its timing. */
  readonly samples: readonly { readonly outcome: CheckSampleReport; readonly timing?: BenchmarkTiming }[];
}

/** Everything `loom check` found in one file on one device. */
export interface CheckReport {
  readonly file: string;
  readonly device: string;
  readonly cases: readonly CheckCaseReport[];
  readonly benchmarks: readonly CheckBenchmarkReport[];
  readonly passed: number;
  readonly failed: number;
  readonly unsupported: number;
  readonly errors: number;
}

/** What `runCheckModule` runs, and the benchmark policy. */
export interface CheckRunOptions {
  /** Run only this case (with or without '@'); benchmarks of other cases are skipped too. */
  readonly case?: string;
  /** Run the `check.benchmark` records (default true). */
  readonly benchmarks?: boolean;
  /** Samples per case at most (default 64). */
  readonly sampleLimit?: number;
  /** Benchmark warm-up: run the launches for at least this long first (default 100 ms). */
  readonly warmupMs?: number;
  /** Timed runs per benchmark sample (default 20). */
  readonly repetitions?: number;
  /** Called before each case and benchmark, for progress output. */
  readonly progress?: (what: string) => void;
}

class CompileFailure extends Error {
  constructor(
    message: string,
    readonly diagnostics: string,
  ) {
    super(message);
  }

  /**
   * Only TARGET diagnostics: the program is fine but this device cannot run it (a kernel
   * pinned to another target, a shuffle wider than the device's subgroup). The sample is
   * unsupported here, not an error of the program.
   */
  get targetOnly(): boolean {
    const codes = [...this.diagnostics.matchAll(/error \[([A-Z]+)\/\d+\]/g)].map((m) => m[1]);
    return codes.length > 0 && codes.every((c) => c === "TARGET");
  }
}

/** One launch as it ran, kept to be replayed by a benchmark. */
interface RecordedLaunch {
  readonly loaded: LoadedKernel;
  readonly launch: LaunchConfig;
  readonly values: readonly (HarnessBuffer | number | bigint)[];
}

/** The device side of a check file: compiled kernels (once each) and launches. */
class DeviceHost {
  readonly #kernels = new Map<string, { kernel: DeviceKernel; loaded: LoadedKernel }>();
  readonly #buffers: HarnessBuffer[] = [];
  recording: RecordedLaunch[] | undefined;

  constructor(
    readonly device: HarnessDevice,
    readonly fileName: string,
    readonly text: string,
  ) {}

  #kernel(symbol: string): { kernel: DeviceKernel; loaded: LoadedKernel } {
    let k = this.#kernels.get(symbol);
    if (!k) {
      const compiled = compileKernel(this.device.target, this.fileName, this.text, symbol);
      if (!compiled.ok) throw new CompileFailure(`@${symbol} does not compile for ${this.device.kind}`, compiled.diagnostics);
      k = { kernel: compiled.kernel, loaded: this.device.load(compiled.kernel) };
      this.#kernels.set(symbol, k);
    }
    return k;
  }

  /** Fixture paths are relative to the check file's folder, as the reference resolves them. */
  #path(path: string): string {
    return resolve(dirname(this.fileName), path);
  }

  readFile(path: string): Uint8Array {
    try {
      return new Uint8Array(readFileSync(this.#path(path)));
    } catch (e) {
      throw new CaseError(`cannot read fixture '${path}': ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}`);
    }
  }

  writeFile(path: string, bytes: Uint8Array): void {
    const to = this.#path(path);
    try {
      mkdirSync(dirname(to), { recursive: true });
      writeFileSync(to, bytes);
    } catch (e) {
      throw new CaseError(`cannot write '${path}': ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}`);
    }
  }

  launch(request: CheckLaunchRequest): void {
    const { kernel, loaded } = this.#kernel(request.kernel);
    let launch: LaunchConfig;
    if (request.op === "kernel.dispatch") {
      if (kernel.workload.length > 0) throw new CaseError(`line ${request.line}: kernel.dispatch of @${request.kernel}, whose launch configuration takes workload values: use kernel.launch`);
      const [x, y, z] = request.workgroupCount ?? [1, 1, 1];
      launch = { ...kernel.launch([]), workgroupCount: [x, y, z] };
    } else {
      if (request.workload.length !== kernel.workload.length) throw new CaseError(`line ${request.line}: @${request.kernel} takes ${kernel.workload.length} workload value(s), got ${request.workload.length}`);
      launch = kernel.launch(request.workload);
    }
    const values: (HarnessBuffer | number | bigint)[] = [];
    const outputs: [HarnessBuffer, Uint8Array][] = [];
    for (const a of request.args) {
      if (a.kind === "scalar") {
        values.push(a.value);
        continue;
      }
      // Zero-byte buffers are not portable; a tensor with no elements still gets one word.
      const buffer = this.device.createBuffer(Math.max(4, a.bytes.byteLength));
      this.#buffers.push(buffer);
      if (a.bytes.byteLength > 0) buffer.upload(a.bytes);
      values.push(buffer);
      outputs.push([buffer, a.bytes]);
    }
    loaded.dispatch(launch, values, false);
    for (const [buffer, bytes] of outputs) if (bytes.byteLength > 0) bytes.set(buffer.download().subarray(0, bytes.byteLength));
    this.recording?.push({ loaded, launch, values });
  }

  /** Frees the buffers of the sample that ran (not the compiled kernels). */
  releaseBuffers(): void {
    for (const b of this.#buffers.splice(0)) b.destroy();
  }

  destroy(): void {
    this.releaseBuffers();
    for (const k of this.#kernels.values()) k.loaded.destroy();
    this.#kernels.clear();
  }
}

function statusOf(samples: readonly CheckSampleReport[]): CheckStatus {
  if (samples.some((s) => s.status === "error")) return "error";
  if (samples.some((s) => s.status === "fail")) return "fail";
  if (samples.length > 0 && samples.every((s) => s.status === "unsupported")) return "unsupported";
  if (samples.some((s) => s.status === "unsupported")) return "unsupported";
  return "pass";
}

function runOne(program: CheckProgram, host: DeviceHost, caseSymbol: string, sample: CheckSample): CheckSampleReport {
  try {
    return program.runSample(caseSymbol, sample, host);
  } catch (e) {
    const base = { case: caseSymbol, sample, status: "error" as const, launches: 0, expectations: [] as const };
    if (e instanceof CompileFailure && e.targetOnly) {
      const first = /error \[[A-Z]+\/\d+\]: (.*)/.exec(e.diagnostics)?.[1] ?? e.message;
      return { case: caseSymbol, sample, status: "unsupported", reason: `${e.message}: ${first}`, launches: 0, expectations: [] };
    }
    if (e instanceof CompileFailure) return { ...base, reason: e.message, diagnostics: e.diagnostics };
    if (e instanceof LoomError || e instanceof CaseError) return { ...base, reason: e.message };
    throw e;
  }
}

function time(host: DeviceHost, recorded: readonly RecordedLaunch[], options: CheckRunOptions): BenchmarkTiming {
  const runOnce = (): { ns: number; gpu: boolean } => {
    let gpuNs = 0;
    let gpu = true;
    const start = process.hrtime.bigint();
    for (const r of recorded) {
      const out = r.loaded.dispatch(r.launch, r.values, true);
      if (out.gpuNs === undefined) gpu = false;
      else gpuNs += out.gpuNs;
    }
    const wall = Number(process.hrtime.bigint() - start);
    return gpu && recorded.length > 0 ? { ns: gpuNs, gpu } : { ns: wall, gpu: false };
  };
  const warmupMs = options.warmupMs ?? 100;
  const deadline = performance.now() + warmupMs;
  let warmupRuns = 0;
  do {
    runOnce();
    warmupRuns++;
  } while (performance.now() < deadline && warmupRuns < 10_000);
  const samples: number[] = [];
  let gpu = true;
  for (let i = 0; i < Math.max(1, options.repetitions ?? 20); i++) {
    const r = runOnce();
    gpu &&= r.gpu;
    samples.push(r.ns);
  }
  void host;
  return { clock: gpu ? "gpu" : "wall", runs: samples.length, warmupRuns, medianNs: median(samples), minNs: Math.min(...samples), maxNs: Math.max(...samples) };
}

function benchmarkName(b: CheckBenchmarkInfo): string {
  return b.symbol ?? `${b.case}@line${b.line}`;
}

/**
 * Runs the check cases (and benchmarks) of `module`, parsed from `text` under `fileName`, on
 * `device`. The module must have verified; each kernel compiles once for the device.
 */
export function runCheckModule(device: HarnessDevice, module: Module, fileName: string, text: string, options: CheckRunOptions = {}): CheckReport {
  const program = CheckProgram.fromModule(module);
  const only = options.case?.replace(/^@/, "");
  const cases = program.cases().filter((c) => only === undefined || c.symbol === only);
  if (only !== undefined && cases.length === 0) throw new CaseError(`no check.case @${only} in '${fileName}' (has: ${program.cases().map((c) => `@${c.symbol}`).join(", ") || "none"})`);
  const host = new DeviceHost(device, fileName, text);
  const limit = options.sampleLimit ?? 64;
  try {
    const caseReports: CheckCaseReport[] = [];
    for (const c of cases) {
      options.progress?.(`case @${c.symbol}`);
      const samples = program.samples(c.symbol, {}, limit);
      const outcomes = samples.map((s) => {
        try {
          return runOne(program, host, c.symbol, s);
        } finally {
          host.releaseBuffers();
        }
      });
      caseReports.push({ case: c.symbol, line: c.line, status: statusOf(outcomes), samples: outcomes, skippedSamples: Math.max(0, c.sampleCount - samples.length) });
    }
    const benchReports: CheckBenchmarkReport[] = [];
    if (options.benchmarks !== false) {
      for (const b of program.benchmarks().filter((x) => only === undefined || x.case === only)) {
        options.progress?.(`benchmark ${benchmarkName(b)}`);
        const samples = program.samples(b.case, b.assignments, limit);
        const rows = samples.map((s) => {
          host.recording = [];
          try {
            const outcome = runOne(program, host, b.case, s);
            if (outcome.status !== "pass") return { outcome };
            return { outcome, timing: time(host, host.recording, options) };
          } finally {
            host.recording = undefined;
            host.releaseBuffers();
          }
        });
        benchReports.push({ name: benchmarkName(b), case: b.case, line: b.line, status: statusOf(rows.map((r) => r.outcome)), samples: rows });
      }
    }
    const all = [...caseReports.map((c) => c.status), ...benchReports.map((b) => b.status)];
    const count = (s: CheckStatus) => all.filter((x) => x === s).length;
    return { file: fileName, device: device.kind, cases: caseReports, benchmarks: benchReports, passed: count("pass"), failed: count("fail"), unsupported: count("unsupported"), errors: count("error") };
  } finally {
    host.destroy();
  }
}
