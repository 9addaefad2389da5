/**
 * `createPtxProfile`: validates the caller's identity options (an `sm_XX` name plus optional
 * feature and limit overrides, docs/ptx.md) and builds a deeply frozen `TargetProfile` whose
 * `ptx` field carries the facts the backend reads. Defaults are the CUDA facts of the named
 * architecture, so a profile made from a name alone promises only what every such GPU has.
 */
import { deepFreeze, describeValue as describe, invalidArgument as invalid, isRecord, positiveInteger, positiveTriple, profileOptions, readFlags, readLimits, rejectUnknownKeys } from "../../core/validate.js";
import type { TargetEnvironment, TargetFacts, TargetProfile } from "../../core/target.js";

export const PTX_ENVIRONMENT_NAME = "ptx";

/** Architectures this package emits for: `.target` name, PTX ISA version, SM number. */
export const PTX_TARGETS = {
  sm_80: { sm: 80, isa: "8.0" },
  sm_90: { sm: 90, isa: "8.0" },
  sm_90a: { sm: 90, isa: "8.0" },
} as const;
/** A PTX target this backend knows (e.g. `sm_80`, `sm_90`). */
export type PtxTargetName = keyof typeof PTX_TARGETS;
/** Every PTX target this backend knows. */
export const KNOWN_TARGETS = Object.keys(PTX_TARGETS) as readonly PtxTargetName[];

/** Boolean device features; defaults follow the architecture (all true on sm_80+ except bf16 arithmetic on sm_80). */
export const PTX_FEATURES = [
  /** f16 add/sub/mul/fma in hardware (sm_53+). */
  "f16Arithmetic",
  /** bf16 add/sub/mul in hardware (sm_90+); without it bf16 math runs in f32 (exact for these ops). */
  "bf16Arithmetic",
  /** bf16 conversions from and to integers and f64 (sm_90+). */
  "bf16Conversions",
  /** f64 arithmetic. */
  "f64",
  /** 64-bit integer atomics on global and shared memory. */
  "int64Atomics",
  /** f32 atomic add on global and shared memory. */
  "float32AtomicAdd",
] as const;
/** An optional PTX feature a profile may enable. */
export type PtxFeature = (typeof PTX_FEATURES)[number];
/** Which optional PTX features a profile has. */
export type PtxFeatures = { readonly [K in PtxFeature]: boolean };

/** Launch limits a PTX profile promises (threads, block/grid sizes; memory in bytes). */
export interface PtxLimits {
  readonly maxThreadsPerBlock: number;
  readonly maxBlockDim: readonly [number, number, number];
  readonly maxGridDim: readonly [number, number, number];
  /** Static shared memory per block (48 KiB; more needs dynamic shared memory and an opt-in). */
  readonly maxSharedMemoryPerBlock: number;
  /** Kernel parameter space (4096 bytes before CUDA 12.1's 32 KiB opt-in on sm_70+). */
  readonly maxParameterBytes: number;
}

/** Which PTX target (`sm_*`) a profile compiles for, with optional feature and limit overrides. */
export interface PtxIdentity {
  readonly target: PtxTargetName;
  readonly features?: Partial<PtxFeatures>;
  readonly limits?: Partial<PtxLimits>;
}

/** Options of {@link createPtxProfile}: the profile identifier and PTX identity. */
export interface PtxProfileOptions {
  readonly identifier: string;
  readonly identity: PtxIdentity;
}

/** What the PTX backend knows about one profile. */
export interface PtxTargetInfo {
  readonly target: PtxTargetName;
  /** SM number (80, 90). */
  readonly sm: number;
  /** `.version` of the emitted module. */
  readonly isa: string;
  readonly features: PtxFeatures;
  readonly limits: PtxLimits;
}

/** A target profile for the PTX environment, with the backend's target facts. */
export interface PtxProfile extends TargetProfile {
  readonly ptx: PtxTargetInfo;
}

/** The warp width of every NVIDIA GPU. */
export const WARP_SIZE = 32;

/** Limits used where a PTX identity gives none (values every supported NVIDIA device meets). */
export const DEFAULT_LIMITS: PtxLimits = {
  maxThreadsPerBlock: 1024,
  maxBlockDim: [1024, 1024, 64],
  maxGridDim: [2147483647, 65535, 65535],
  maxSharedMemoryPerBlock: 48 * 1024,
  maxParameterBytes: 4096,
};

function defaultFeatures(sm: number): Record<PtxFeature, boolean> {
  return { f16Arithmetic: true, bf16Arithmetic: sm >= 90, bf16Conversions: sm >= 90, f64: true, int64Atomics: true, float32AtomicAdd: true };
}

const ptxEnvironments = new WeakSet<TargetEnvironment>();

export function registerPtxEnvironment(env: TargetEnvironment): void {
  ptxEnvironments.add(env);
}

const infos = new WeakSet<PtxTargetInfo>();

/** The backend facts of a profile made by `createPtxProfile`, else undefined. */
export function ptxInfoOf(profile: TargetProfile): PtxTargetInfo | undefined {
  if (profile.environment !== PTX_ENVIRONMENT_NAME) return undefined;
  const info = (profile as Partial<PtxProfile>).ptx;
  return info && infos.has(info) ? info : undefined;
}

const OPTION = "a PTX profile option";

function readFeatures(raw: unknown, sm: number): PtxFeatures {
  const f = defaultFeatures(sm);
  if (raw === undefined) return f;
  rejectUnknownKeys(raw, PTX_FEATURES, "options.identity.features", OPTION);
  readFlags(raw, PTX_FEATURES, "options.identity.features", f);
  if (sm < 90 && (f.bf16Arithmetic || f.bf16Conversions)) throw invalid(`options.identity.features: bf16 arithmetic and conversions need sm_90 or newer`);
  return f;
}

const LIMIT_READERS = {
  maxThreadsPerBlock: positiveInteger,
  maxBlockDim: positiveTriple,
  maxGridDim: positiveTriple,
  maxSharedMemoryPerBlock: positiveInteger,
  maxParameterBytes: positiveInteger,
};

/** Creates a PTX target profile for `env`. Throws `LoomError("invalid-argument")` for a foreign environment, unknown keys, an unknown target or out-of-range limits. */
export function createPtxProfile(env: TargetEnvironment, options: PtxProfileOptions): PtxProfile {
  const { identifier, identity } = profileOptions(env, ptxEnvironments, "createPtxTargetEnvironment", options, ["identifier", "identity"], ["target", "features", "limits"], OPTION);
  const target = identity.target;
  if (typeof target !== "string" || !Object.hasOwn(PTX_TARGETS, target)) {
    throw invalid(`options.identity.target: unknown PTX target ${describe(target)} (known: ${KNOWN_TARGETS.join(", ")})`);
  }
  const { sm, isa } = PTX_TARGETS[target as PtxTargetName];
  const features = readFeatures(identity.features, sm);
  const limits = readLimits(identity.limits, DEFAULT_LIMITS, LIMIT_READERS, OPTION);
  const facts: TargetFacts = {
    subgroupSize: WARP_SIZE,
    maxWorkgroupSize: limits.maxBlockDim,
    maxFlatWorkgroupSize: limits.maxThreadsPerBlock,
    maxWorkgroupCount: limits.maxGridDim,
    maxWorkgroupStorageBytes: limits.maxSharedMemoryPerBlock,
    maxArgumentBlockBytes: limits.maxParameterBytes,
  };
  const ptx: PtxTargetInfo = { target: target as PtxTargetName, sm, isa, features, limits };
  infos.add(ptx);
  return deepFreeze({ identifier, environment: PTX_ENVIRONMENT_NAME, target, facts, ptx });
}
