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

export interface TimeRequest {
  readonly kind: "time-compiles";
  readonly id: number;
  readonly kernels: readonly { readonly file: string; readonly symbol: string; readonly text: string }[];
  readonly target: TargetName;
  /** Untimed compiles of each kernel for this long before the timed ones. */
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

export interface TimeResponse {
  readonly kind: "compile-times";
  readonly id: number;
  readonly target: TargetName;
  /** Per kernel: median and all samples of parse + compile + emit, in ms per compile (each sample the mean of `batch` compiles). */
  readonly times: readonly { readonly symbol: string; readonly p50Ms: number; readonly samplesMs: readonly number[]; readonly batch: number; readonly error?: string }[];
}

export type WorkerResponse = CompileResponse | RunResponse | TimeResponse | { readonly kind: "error"; readonly id: number; readonly message: string };
