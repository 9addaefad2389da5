/**
 * The contract between the compiler core and a target package (amdgpu, spirv, ptx, wgsl).
 *
 * A target package creates a `TargetEnvironment` (registered with a `Context`) and
 * `TargetProfile`s (complete, immutable facts about one device kind). The core specializes
 * kernels against a profile's facts and hands the environment a `PreparedModule`; the
 * environment turns it into executable bytes. Backends consume only prepared-low IR.
 */
import type { Diagnostic } from "./diag/diagnostic.js";
import type { PreparedModule } from "./prepared.js";

/** Facts the target-independent passes need; every field is a plain number. */
export interface TargetFacts {
  /** Fixed subgroup (wave) width; 0 when the target has none. */
  readonly subgroupSize: number;
  readonly maxWorkgroupSize: readonly [number, number, number];
  readonly maxFlatWorkgroupSize: number;
  readonly maxWorkgroupCount: readonly [number, number, number];
  readonly maxWorkgroupStorageBytes: number;
  /** Largest explicit device-argument block the target accepts (bytes). */
  readonly maxArgumentBlockBytes: number;
}

export interface TargetProfile {
  /** Caller-chosen name for diagnostics and cache keys. */
  readonly identifier: string;
  /** Environment name: "amdgpu", "spirv", "ptx", "wgsl". */
  readonly environment: string;
  /** Device name within the environment, e.g. "gfx1100", "vulkan1.3", "sm_90". */
  readonly target: string;
  readonly facts: TargetFacts;
}

export interface EmitRequest {
  readonly artifactFormat: string;
  readonly identifier: string;
  readonly primary: boolean;
  /** Target-specific emit options, validated by the environment. */
  readonly target?: Readonly<Record<string, unknown>>;
}

export interface EmitOutput {
  readonly diagnostics: Diagnostic[];
  readonly contents?: Uint8Array;
}

export interface TargetEnvironment {
  readonly name: string;
  /** Artifact formats this environment emits (ARTIFACT_FORMAT values). */
  readonly formats: readonly string[];
  /**
   * Compile-time checks of the prepared kernels against their profiles (unsupported ops or
   * types, target-specific limits), reading the facts the pipeline recorded; the generic
   * limits of `TargetFacts` are already checked. Runs during compileModule so that failures
   * are compile diagnostics. A target that can only tell by lowering lowers each kernel here,
   * once, and keeps the result for `emit`.
   */
  check(module: PreparedModule): Diagnostic[];
  /** Emit executable bytes for every kernel of the prepared module specialized for this environment. */
  emit(module: PreparedModule, request: EmitRequest): EmitOutput;
}
