/**
 * The contract between the compiler core and a target package (one folder under src/targets/).
 *
 * A target package creates a `TargetEnvironment` (registered with a `Context`) and
 * `TargetProfile`s (complete, immutable facts about one device kind). The core specializes
 * kernels against a profile's facts and hands the environment a `PreparedModule`; the
 * environment turns it into executable bytes. Backends consume only prepared-low IR.
 *
 * The package also declares its target-record op (`<environment>.target<...> @t {...}`,
 * language.md §4.11) as data, a `TargetRecordSpec`: the parser, printer, verifier, template
 * selection and linker learn every record op from the specs registered in
 * core/target-records.ts, so none of them names a target.
 */
import type { TargetKernelInterface } from "../abi/index.js";
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

/** The facts a target environment compiles against for one device class (identity, limits, features). */
export interface TargetProfile {
  /** Caller-chosen name for diagnostics and cache keys. */
  readonly identifier: string;
  /** Environment name: the package's name, also the prefix of its target-record op. */
  readonly environment: string;
  /** Device name within the environment (a processor, an API version). */
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
  /**
   * What only the target knows for each kernel's interface record (docs/abi.md), by entry
   * name; a kernel without one gets the "kernarg" addressing and no required features.
   */
  readonly kernelInterfaces?: readonly TargetKernelInterface[];
}

/** A code generator for one target family: emits specialized functions to artifacts. */
export interface TargetEnvironment {
  readonly name: string;
  /**
   * The package's target-record op. A `Context` created with this environment registers it
   * (core/target-records.ts), so modules compiled there may write `<name>.target<...>`.
   */
  readonly record?: TargetRecordSpec;
  /** Artifact formats this environment emits (ARTIFACT_FORMAT values). */
  readonly formats: readonly string[];
  /**
   * Compile-time checks of the prepared kernels against their profiles (unsupported ops or
   * types, target-specific limits), reading the facts the pipeline recorded; the generic
   * limits of `TargetFacts` are already checked. Runs during compileModule so that failures
   * are compile diagnostics. A target that can only tell by lowering lowers each kernel here,
   * once, and records the result in `module.lowered` under its own `LoweredFormKey`
   * (core/prepared.ts); `emit` receives the same `lowered` and reads it back.
   */
  check(module: PreparedModule): Diagnostic[];
  /** Emit executable bytes for every kernel of the prepared module specialized for this environment. */
  emit(module: PreparedModule, request: EmitRequest): EmitOutput;
}

/**
 * One attribute key of a target record (`{key = value}`). Integer-valued unless `values`
 * lists the identifiers it accepts (PARSE/017 for another one).
 */
export interface TargetRecordAttribute {
  readonly key: string;
  readonly values?: readonly string[];
  /** Why an integer value is out of range (STRUCTURE/014), or undefined when it is fine. */
  readonly check?: (value: bigint) => string | undefined;
}

/**
 * A target-record op as its package declares it. The op is
 * `<opName><param> @symbol {attributes}`; it stores `props[param.key]` (the parameter),
 * `props.symbol` and `props.attrs` (`{key, value}` in source order, printed in the order
 * of `attributes`).
 */
export interface TargetRecordSpec {
  /** `<environment>.target`. */
  readonly opName: string;
  /** The `TargetProfile.environment` of profiles this record can admit. */
  readonly environment: string;
  /** The angle-bracket parameter: the prop it is stored in, its name in messages, its values. */
  readonly param: { readonly key: string; readonly what: string; readonly values: readonly string[] };
  /**
   * Every attribute the record takes, in canonical (print) order: usually the shared
   * `COMMON_TARGET_ATTRIBUTES` of core/target-records.ts, then the package's own.
   */
  readonly attributes: readonly TargetRecordAttribute[];
  /**
   * Whether code written for a record with parameter `param` may run on `profile` (the
   * profile's environment is already known to be this record's). Template selection uses it
   * for `target(@T)` on providers and kernels.
   */
  admits(param: string, profile: TargetProfile): boolean;
}

/** Extra device facts written on the command line (`--feature NAME`, `--limit NAME=VALUE`). */
export interface CommandLineDeviceFacts {
  readonly features: readonly string[];
  readonly limits: Readonly<Record<string, number | readonly number[]>>;
}

/**
 * Everything a target contributes, for callers that describe targets as plain data (the
 * CLI, compile-pool workers, `Workspace`s): registered once in src/targets/registry.ts.
 */
export interface TargetPackage {
  /** The environment name (`--target NAME:DEVICE`). */
  readonly name: string;
  /** Its target-record op; a package without one is targeted through `target.decl` only. */
  readonly record?: TargetRecordSpec;
  /** Creates a fresh {@link TargetEnvironment} of this package. */
  readonly createEnvironment: () => TargetEnvironment;
  /** `options` as the package's own create*Profile takes them. */
  readonly createProfile: (env: TargetEnvironment, options: never) => TargetProfile;
  /** The executable format and its usual file extension. */
  readonly format: string;
  readonly extension: string;
  /**
   * Profile options for `--target NAME:DEVICE` plus command-line device facts; throws
   * `invalid-argument` for facts the package does not take.
   */
  readonly commandLineProfile: (device: string, facts: CommandLineDeviceFacts) => unknown;
}
