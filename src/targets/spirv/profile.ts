/**
 * `createSpirvProfile`: validates the caller's identity options (Vulkan feature and limit
 * names, see docs/abi.md) and builds a deeply frozen `TargetProfile` whose `spirv` field
 * carries the facts the backend reads. Absent features are false and absent limits take
 * the Vulkan 1.3 guaranteed minimum, so a profile never promises more than the device has.
 */
import { deepFreeze, describeValue as describe, invalidArgument as invalid, isRecord, positiveInteger, positiveTriple as triple, profileOptions, readFlags, readLimits, rejectUnknownKeys } from "../../core/validate.js";
import type { TargetEnvironment, TargetFacts, TargetProfile } from "../../core/target.js";

export const SPIRV_ENVIRONMENT_NAME = "spirv";

/** Every Vulkan subgroup operation class, in VkSubgroupFeatureFlagBits order. */
export const SUBGROUP_OPERATIONS = ["basic", "vote", "arithmetic", "ballot", "shuffle", "shuffle-relative", "clustered", "quad"] as const;
/** A Vulkan subgroup operation class (VkSubgroupFeatureFlagBits). */
export type SubgroupOperation = (typeof SUBGROUP_OPERATIONS)[number];

/** Boolean device features, by their Vulkan names. */
export const BOOLEAN_FEATURES = [
  "shaderInt64",
  "shaderFloat64",
  "shaderFloat16",
  "shaderInt8",
  "shaderInt16",
  "storageBuffer8BitAccess",
  "storageBuffer16BitAccess",
  "storagePushConstant8",
  "storagePushConstant16",
  "shaderSubgroupExtendedTypes",
  "bufferDeviceAddress",
  "shaderBufferInt64Atomics",
  "shaderSharedInt64Atomics",
  "shaderBufferFloat32AtomicAdd",
  "shaderSharedFloat32AtomicAdd",
  // VkPhysicalDeviceFloatControlsProperties (Vulkan 1.2): the device honours the
  // SignedZeroInfNanPreserve execution mode for floats of that width.
  "shaderSignedZeroInfNanPreserveFloat16",
  "shaderSignedZeroInfNanPreserveFloat32",
  "shaderSignedZeroInfNanPreserveFloat64",
] as const;
/** A yes/no device feature a SPIR-V profile may have. */
export type BooleanFeature = (typeof BOOLEAN_FEATURES)[number];

/** The features of a SPIR-V profile: yes/no features plus the supported subgroup operations. */
export type SpirvFeatures = { readonly [K in BooleanFeature]: boolean } & {
  readonly subgroupOperations: readonly SubgroupOperation[];
};

/** Vulkan compute limits a SPIR-V profile promises (workgroup sizes; memory in bytes). */
export interface SpirvLimits {
  readonly maxComputeWorkGroupSize: readonly [number, number, number];
  readonly maxComputeWorkGroupInvocations: number;
  readonly maxComputeWorkGroupCount: readonly [number, number, number];
  readonly maxComputeSharedMemorySize: number;
  readonly maxPushConstantsSize: number;
  /** Fixed subgroup width; 0 = not fixed (the kernel reads the builtin). */
  readonly subgroupSize: number;
}

/** Every Vulkan environment the SPIR-V backend can target. */
export const KNOWN_ENVIRONMENTS = ["vulkan1.3"] as const;
export type SpirvEnvironmentName = (typeof KNOWN_ENVIRONMENTS)[number];
export const ABIS = ["bindings", "device-address"] as const;
/** How a SPIR-V kernel receives buffers: descriptor `bindings` or buffer device addresses (`device-address`) (docs/abi.md). */
export type SpirvAbi = (typeof ABIS)[number];

/** Which Vulkan environment a SPIR-V profile compiles for, with optional feature and limit overrides. */
export interface SpirvIdentity {
  readonly environment: SpirvEnvironmentName;
  readonly features?: Partial<SpirvFeatures>;
  readonly limits?: Partial<SpirvLimits>;
}

/** Options of {@link createSpirvProfile}: identifier, identity and buffer-passing ABI. */
export interface SpirvProfileOptions {
  readonly identifier: string;
  readonly identity: SpirvIdentity;
  /** Buffer passing (docs/abi.md): descriptor bindings (default) or device addresses. */
  readonly abi?: SpirvAbi;
}

/** What the SPIR-V backend knows about one profile. */
export interface SpirvTargetInfo {
  readonly environment: SpirvEnvironmentName;
  /** SPIR-V version word (1.6 for Vulkan 1.3). */
  readonly spirvVersion: number;
  readonly abi: SpirvAbi;
  readonly features: SpirvFeatures;
  readonly limits: SpirvLimits;
}

/** A target profile for the SPIR-V environment, with the backend's target facts. */
export interface SpirvProfile extends TargetProfile {
  readonly spirv: SpirvTargetInfo;
}

/** Vulkan 1.3 guaranteed minimums (VkPhysicalDeviceLimits "Required Limits"). */
export const DEFAULT_LIMITS: SpirvLimits = {
  maxComputeWorkGroupSize: [128, 128, 64],
  maxComputeWorkGroupInvocations: 128,
  maxComputeWorkGroupCount: [65535, 65535, 65535],
  maxComputeSharedMemorySize: 16384,
  maxPushConstantsSize: 128,
  subgroupSize: 0,
};

/** Vulkan 1.3 requires basic subgroup operations in compute shaders and bufferDeviceAddress. */
function defaultFeatures(): Record<BooleanFeature, boolean> & { subgroupOperations: SubgroupOperation[] } {
  const f = Object.fromEntries(BOOLEAN_FEATURES.map((k) => [k, false])) as Record<BooleanFeature, boolean>;
  return { ...f, bufferDeviceAddress: true, subgroupOperations: ["basic"] };
}

const spirvEnvironments = new WeakSet<TargetEnvironment>();

export function registerSpirvEnvironment(env: TargetEnvironment): void {
  spirvEnvironments.add(env);
}

const infos = new WeakSet<SpirvTargetInfo>();

/** The backend facts of a profile made by `createSpirvProfile`, else undefined. */
export function spirvInfoOf(profile: TargetProfile): SpirvTargetInfo | undefined {
  if (profile.environment !== SPIRV_ENVIRONMENT_NAME) return undefined;
  const info = (profile as Partial<SpirvProfile>).spirv;
  return info && infos.has(info) ? info : undefined;
}

const OPTION = "a SPIR-V profile option";

function readFeatures(raw: unknown): SpirvFeatures {
  const f = defaultFeatures();
  if (raw === undefined) return f;
  rejectUnknownKeys(raw, [...BOOLEAN_FEATURES, "subgroupOperations"], "options.identity.features", OPTION);
  readFlags(raw, BOOLEAN_FEATURES, "options.identity.features", f);
  const ops = raw.subgroupOperations;
  if (ops !== undefined) {
    if (!Array.isArray(ops)) throw invalid(`options.identity.features.subgroupOperations must be an array, got ${describe(ops)}`);
    const chosen = new Set<SubgroupOperation>();
    for (const op of ops) {
      if (!(SUBGROUP_OPERATIONS as readonly unknown[]).includes(op)) {
        throw invalid(`options.identity.features.subgroupOperations: unknown operation ${describe(op)} (known: ${SUBGROUP_OPERATIONS.join(", ")})`);
      }
      chosen.add(op as SubgroupOperation);
    }
    f.subgroupOperations = SUBGROUP_OPERATIONS.filter((o) => chosen.has(o));
  }
  return f;
}

const nonNegative = (v: unknown, where: string) => positiveInteger(v, where, true);
const LIMIT_READERS = {
  maxComputeWorkGroupSize: triple,
  maxComputeWorkGroupInvocations: positiveInteger,
  maxComputeWorkGroupCount: triple,
  maxComputeSharedMemorySize: nonNegative,
  maxPushConstantsSize: nonNegative,
  subgroupSize: (v: unknown, where: string) => {
    const size = nonNegative(v, where);
    if (size !== 0 && (size & (size - 1)) !== 0) throw invalid(`${where} must be 0 or a power of two, got ${size}`);
    return size;
  },
};

/** Creates a SPIR-V target profile for `env`. Throws `LoomError("invalid-argument")` for a foreign environment, unknown keys, an unknown environment name or out-of-range limits. */
export function createSpirvProfile(env: TargetEnvironment, options: SpirvProfileOptions): SpirvProfile {
  const { identifier, identity, options: given } = profileOptions(env, spirvEnvironments, "createSpirvTargetEnvironment", options, ["identifier", "identity", "abi"], ["environment", "features", "limits"], OPTION);
  const abi = given.abi ?? "bindings";
  if (!(ABIS as readonly unknown[]).includes(abi)) throw invalid(`options.abi: unknown ABI ${describe(abi)} (known: ${ABIS.join(", ")})`);
  const environment = identity.environment;
  if (!(KNOWN_ENVIRONMENTS as readonly unknown[]).includes(environment)) {
    throw invalid(`options.identity.environment: unknown SPIR-V environment ${describe(environment)} (known: ${KNOWN_ENVIRONMENTS.join(", ")})`);
  }
  const features = readFeatures(identity.features);
  const limits = readLimits(identity.limits, DEFAULT_LIMITS, LIMIT_READERS, OPTION);
  if (abi === "device-address" && !features.bufferDeviceAddress) {
    throw invalid(`options.abi "device-address" needs options.identity.features.bufferDeviceAddress`);
  }

  const facts: TargetFacts = {
    subgroupSize: limits.subgroupSize,
    maxWorkgroupSize: limits.maxComputeWorkGroupSize,
    maxFlatWorkgroupSize: limits.maxComputeWorkGroupInvocations,
    maxWorkgroupCount: limits.maxComputeWorkGroupCount,
    maxWorkgroupStorageBytes: limits.maxComputeSharedMemorySize,
    maxArgumentBlockBytes: limits.maxPushConstantsSize,
  };
  const spirv: SpirvTargetInfo = {
    environment: environment as SpirvEnvironmentName,
    spirvVersion: 0x00010600,
    abi: abi as SpirvAbi,
    features,
    limits,
  };
  infos.add(spirv);
  return deepFreeze({ identifier, environment: SPIRV_ENVIRONMENT_NAME, target: environment as string, facts, spirv });
}
