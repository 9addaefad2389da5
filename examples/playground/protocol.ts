/**
 * Messages between the playground page and its compile worker (plain, structured-cloneable data).
 * No DOM and no Node: both halves and the tests import it.
 */

export const TARGETS = ["wgsl", "spirv", "ptx", "amdgpu"] as const;
export type TargetName = (typeof TARGETS)[number];

export interface PlainDiagnostic {
  readonly severity: string;
  readonly code: string;
  readonly message: string;
  readonly help?: string;
  /** 1-based; absent when the diagnostic has no location. */
  readonly line?: number;
  readonly column?: number;
  readonly endLine?: number;
  readonly endColumn?: number;
}

export interface PlainLaunch {
  readonly workgroupCount: readonly number[];
  readonly workgroupSize: readonly number[];
  readonly workgroupStorageBytes: number;
}

/** Adapter facts the page read from WebGPU (features and limits), for the WGSL profile. */
export interface AdapterFactsMessage {
  readonly features: readonly string[];
  readonly limits: Readonly<Record<string, number>>;
}

export interface CompileRequest {
  readonly kind: "compile";
  readonly id: number;
  readonly text: string;
  readonly target: TargetName;
  readonly kernel?: string;
  readonly workload: readonly number[];
}

export interface RunRequest {
  readonly kind: "prepare-run";
  readonly id: number;
  readonly text: string;
  readonly kernel?: string;
  readonly workload: readonly number[];
  /** Extra scalars by name (matmul16's k) and buffer element counts by buffer name. */
  readonly sizes: Readonly<Record<string, number>>;
  readonly seed: number;
}

/**
 * Times parse + compile + emit of each kernel in the worker: one warm-up of every kernel in
 * turn, at least `warmupMs` and 600 rounds, and on until the rounds stop getting faster (the
 * engine's tiers settled), then `repeats` rounds, each timing every kernel once (a batch sized
 * to ≥ 20 ticks of the clock) and the machine probe; a slow spell of the engine or the machine
 * spreads over all kernels instead of landing on one. (Until session 13 each kernel was warmed
 * up and sampled alone, which put such a spell on whichever kernel it met: docs/benchmarks.md.)
 */
export interface TimeRequest {
  readonly kind: "time-compiles";
  readonly id: number;
  readonly kernels: readonly { readonly file: string; readonly symbol: string; readonly text: string }[];
  readonly target: TargetName;
  /** The warm-up's shortest length (it also runs 600 rounds, and on until the times settle). */
  readonly warmupMs: number;
  readonly repeats: number;
}

export type WorkerRequest = CompileRequest | RunRequest | TimeRequest | { readonly kind: "adapter"; readonly facts: AdapterFactsMessage };

export interface CompileResponse {
  readonly kind: "compiled";
  readonly id: number;
  readonly ok: boolean;
  readonly diagnostics: readonly PlainDiagnostic[];
  readonly kernels: readonly string[];
  readonly kernel?: string;
  /** The emitted module as text: WGSL, SPIR-V disassembly, PTX, or the AMDGPU code-object listing. */
  readonly output?: string;
  readonly launch?: PlainLaunch;
  readonly launchError?: string;
  readonly compileMs: number;
}

export type ElementType = "f32" | "i32" | "u32";

export interface RunResponse {
  readonly kind: "run-ready";
  readonly id: number;
  readonly ok: boolean;
  readonly diagnostics: readonly PlainDiagnostic[];
  readonly error?: string;
  readonly kernel?: string;
  readonly wgsl?: string;
  /** The interface artifact's JSON text. */
  readonly record?: string;
  readonly launch?: PlainLaunch;
  /** One per device argument: a scalar's value, or the index of its buffer in `buffers`. */
  readonly args?: readonly ({ readonly scalar: number } | { readonly buffer: number })[];
  readonly buffers?: readonly { readonly name: string; readonly type: ElementType; readonly data: ArrayBuffer }[];
  /** What the reference interpreter left in each buffer, same order. */
  readonly expected?: readonly ArrayBuffer[];
  readonly interpreterMs?: number;
}

export interface KernelCompileTimes {
  readonly symbol: string;
  /** Of `samplesMs`: median, 90th percentile (nearest rank), mean and minimum, in ms per compile. */
  readonly p50Ms: number;
  readonly p90Ms: number;
  readonly meanMs: number;
  readonly minMs: number;
  /** Parse + compile + emit, ms per compile: each sample the mean of `batch` compiles, in the order taken. */
  readonly samplesMs: readonly number[];
  /** When each sample started, on the worker's clock (`performance.now()`), to line samples up with engine traces. */
  readonly startsMs: readonly number[];
  readonly batch: number;
  /** Untimed compiles of this kernel before its first sample. */
  readonly warmupCompiles: number;
  readonly error?: string;
}

export interface TimeResponse {
  readonly kind: "compile-times";
  readonly id: number;
  readonly target: TargetName;
  /** The smallest step of the clock seen (0.1 ms in a page that is not cross-origin isolated, 5 µs in one that is). */
  readonly clockResolutionMs: number;
  /** `self.crossOriginIsolated` where the code ran (absent in Node). */
  readonly crossOriginIsolated?: boolean;
  /** `performance.timeOrigin` where the code ran: `startsMs` + this is Unix time in ms. */
  readonly timeOriginMs: number;
  /** How long the untimed warm-up took (it runs past `warmupMs` until the times settle). */
  readonly warmupTookMs: number;
  /** Rounds of the warm-up (each kernel once, or one batch of it, a round). */
  readonly warmupRounds: number;
  readonly times: readonly KernelCompileTimes[];
  /** The machine-speed probe, timed once per sampling round. */
  readonly probe: MachineProbe;
}

/**
 * A fixed pointer chase through a 256 KB table (resident in a core's L2), timed beside the
 * compiles: it allocates nothing and runs no compiler code, so it moves only with the machine.
 * On the shared 2-vCPU VM of docs/benchmarks.md it reads 0.21–0.26 ms in Node when the host is
 * quiet and 2–5× that while something else contends for the core's caches, which slows the
 * compiles too; a run's figures are comparable with another's only at a like probe.
 */
export interface MachineProbe {
  readonly steps: number;
  readonly tableBytes: number;
  /** Of `samplesMs`, one per sampling round. */
  readonly p50Ms: number;
  readonly minMs: number;
  readonly samplesMs: readonly number[];
}

export type WorkerResponse = CompileResponse | RunResponse | TimeResponse | { readonly kind: "error"; readonly id: number; readonly message: string };
