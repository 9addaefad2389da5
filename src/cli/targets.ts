/**
 * Target names on the command line → environment and profile (docs/cli.md "Targets"):
 * `ENV:DEVICE` through the target registry (`amdgpu:gfx1100`, `ptx:sm_90`, `spirv:vulkan1.3`),
 * named SPIR-V profiles of real device classes (`spirv:lavapipe`, `spirv:nvidia`, …), and
 * `spirv:device` / `cuda:device`, the live device's own profile.
 */
import { LoomError, type TargetEnvironment, type TargetProfile } from "../index.js";
import { findTargetPackage, targetPackageNames } from "../targets/registry.js";
import { BOOLEAN_FEATURES, KNOWN_ENVIRONMENTS, SUBGROUP_OPERATIONS, type BooleanFeature, type SubgroupOperation } from "../targets/spirv/index.js";
import { KNOWN_TARGETS as PTX_TARGETS } from "../targets/ptx/index.js";
import { knownProcessorNames } from "../targets/amdgpu/index.js";
import { findDeviceProvider } from "../harness/index.js";
import { UsageError } from "./common.js";
import { closestName } from "../index.js";

export interface ResolvedTarget {
  environment: TargetEnvironment;
  profile: TargetProfile;
  format: string;
  extension: string;
  /** The live device the profile came from (`spirv:device`), closed by `release`. */
  release(): void;
}

/** Extra device facts from the command line. */
export interface DeviceFacts {
  /** spirv: Vulkan feature names. */
  readonly features?: readonly string[];
  /** spirv: `NAME=VALUE`, VALUE a number or `X,Y,Z`. */
  readonly limits?: readonly string[];
  /** spirv: subgroup operation names (`--subgroup-ops`), or ["all"]. */
  readonly subgroupOps?: readonly string[];
}

interface NamedSpirvProfile {
  readonly summary: string;
  readonly features: readonly BooleanFeature[];
  readonly subgroupOperations: readonly SubgroupOperation[];
  readonly limits: Readonly<Record<string, number | readonly number[]>>;
}

const EVERY_FEATURE = BOOLEAN_FEATURES;
const EVERY_SUBGROUP_OP = SUBGROUP_OPERATIONS;

/**
 * SPIR-V profiles of real device classes, with the facts their drivers report (vulkaninfo;
 * gpuinfo.org for the discrete GPUs). `spirv:vulkan1.3` stays the guaranteed minimum; the
 * live device's own facts are `spirv:device`.
 */
export const NAMED_SPIRV_PROFILES: Readonly<Record<string, NamedSpirvProfile>> = {
  lavapipe: {
    summary: "Mesa lavapipe (llvmpipe), the CPU Vulkan driver; subgroup width follows the host's vectors, so it is left open",
    features: EVERY_FEATURE,
    subgroupOperations: EVERY_SUBGROUP_OP.filter((o) => o !== "clustered"),
    limits: { maxComputeWorkGroupSize: [1024, 1024, 1024], maxComputeWorkGroupInvocations: 1024, maxComputeSharedMemorySize: 32768, maxPushConstantsSize: 128 },
  },
  swiftshader: {
    summary: "Google SwiftShader (Subzero), Chromium's CPU Vulkan: no 64-bit integers, subgroups of 4",
    features: ["shaderSubgroupExtendedTypes", "bufferDeviceAddress"],
    subgroupOperations: EVERY_SUBGROUP_OP.filter((o) => o !== "clustered"),
    limits: { maxComputeWorkGroupSize: [256, 256, 64], maxComputeWorkGroupInvocations: 256, maxComputeSharedMemorySize: 32768, maxPushConstantsSize: 128, subgroupSize: 4 },
  },
  nvidia: {
    summary: "NVIDIA desktop GPUs (Turing and later, proprietary driver): warps of 32, 48 KiB shared memory",
    features: EVERY_FEATURE,
    subgroupOperations: EVERY_SUBGROUP_OP,
    limits: { maxComputeWorkGroupSize: [1024, 1024, 64], maxComputeWorkGroupInvocations: 1024, maxComputeWorkGroupCount: [2147483647, 65535, 65535], maxComputeSharedMemorySize: 49152, maxPushConstantsSize: 256, subgroupSize: 32 },
  },
  "amd-rdna": {
    summary: "AMD RDNA 2/3 GPUs (RADV): 64-wide subgroups by default, 64 KiB shared memory",
    features: EVERY_FEATURE,
    subgroupOperations: EVERY_SUBGROUP_OP,
    limits: { maxComputeWorkGroupSize: [1024, 1024, 1024], maxComputeWorkGroupInvocations: 1024, maxComputeWorkGroupCount: [4294967295, 65535, 65535], maxComputeSharedMemorySize: 65536, maxPushConstantsSize: 256, subgroupSize: 64 },
  },
};

/** Spellings of the live-device targets: environment → the harness device kind. */
const LIVE = { spirv: "vulkan", vulkan: "vulkan", ptx: "cuda", cuda: "cuda", wgsl: "webgpu", webgpu: "webgpu" } as const;

function parseLimits(limits: readonly string[]): Record<string, number | number[]> {
  const out: Record<string, number | number[]> = {};
  for (const l of limits) {
    const [, name, value] = /^([A-Za-z]+)=(\d+(?:,\d+,\d+)?)$/.exec(l) ?? [];
    if (name === undefined || value === undefined) throw new UsageError(`--limit must be NAME=N or NAME=X,Y,Z, got '${l}'`);
    const nums = value.split(",").map(Number);
    const [only] = nums;
    out[name] = nums.length === 1 && only !== undefined ? only : nums;
  }
  return out;
}

const didYouMean = (name: string, candidates: Iterable<string>) => {
  const near = closestName(name, candidates);
  return near === undefined ? "" : `; did you mean '${near}'?`;
};

/** Every DEVICE an environment takes on the command line (for suggestions and --help). */
export function targetDevices(env: string): string[] {
  if (env === "spirv") return [...KNOWN_ENVIRONMENTS, ...Object.keys(NAMED_SPIRV_PROFILES), "device"];
  if (env === "ptx") return [...PTX_TARGETS, "device"];
  if (env === "amdgpu") return knownProcessorNames();
  return [];
}

function checkFeatures(features: readonly string[]): void {
  for (const f of features) {
    if (f === "subgroupOperations") throw new UsageError("--feature subgroupOperations: subgroup operations are a list; pass --subgroup-ops OP[,OP...] (or all)");
    if (!(BOOLEAN_FEATURES as readonly string[]).includes(f)) throw new UsageError(`--feature: unknown Vulkan feature '${f}'${didYouMean(f, BOOLEAN_FEATURES)} (known: ${BOOLEAN_FEATURES.join(", ")})`);
  }
}

function subgroupOps(ops: readonly string[]): SubgroupOperation[] | undefined {
  if (ops.length === 0) return undefined;
  const names = ops.flatMap((o) => o.split(",")).map((o) => o.trim()).filter((o) => o !== "");
  if (names.includes("all")) return [...SUBGROUP_OPERATIONS];
  for (const n of names) {
    if (!(SUBGROUP_OPERATIONS as readonly string[]).includes(n)) throw new UsageError(`--subgroup-ops: unknown operation '${n}'${didYouMean(n, SUBGROUP_OPERATIONS)} (known: ${SUBGROUP_OPERATIONS.join(", ")}, all)`);
  }
  return names as SubgroupOperation[];
}

/** Resolves `--target SPEC` with the device facts of the command line. */
export function resolveTarget(spec: string, facts: DeviceFacts = {}): ResolvedTarget {
  const colon = spec.indexOf(":");
  if (colon < 0) throw new UsageError(`--target must be ENV:DEVICE (e.g. ptx:sm_90, spirv:vulkan1.3, amdgpu:gfx1100), got '${spec}'`);
  const envName = spec.slice(0, colon);
  const device = spec.slice(colon + 1);
  const features = facts.features ?? [];
  const limits = facts.limits ?? [];
  const ops = facts.subgroupOps ?? [];
  if (device === "device" && Object.hasOwn(LIVE, envName)) {
    if (features.length || limits.length || ops.length) throw new UsageError(`--target ${spec} takes the live device's own facts; --feature, --limit and --subgroup-ops do not apply`);
    const provider = findDeviceProvider(LIVE[envName as keyof typeof LIVE])!;
    const live = provider.open();
    const pkg = findTargetPackage(live.target.environment.name)!;
    return { environment: live.target.environment, profile: live.target.profile, format: live.target.artifactFormat, extension: pkg.extension, release: () => live.destroy() };
  }
  const pkg = findTargetPackage(envName);
  if (!pkg) throw new UsageError(`unknown target environment '${envName}'${didYouMean(envName, [...targetPackageNames(), "cuda", "vulkan"])} (known: ${targetPackageNames().join(", ")})`);
  const environment = pkg.createEnvironment();
  if (envName !== "spirv" && ops.length > 0) throw new UsageError(`--subgroup-ops applies to spirv targets (${envName} profiles know their subgroup operations)`);
  let options: unknown;
  try {
    if (envName === "spirv") {
      checkFeatures(features);
      const named = NAMED_SPIRV_PROFILES[device];
      const base = named ?? { features: [], subgroupOperations: undefined, limits: {} };
      if (!named && !(KNOWN_ENVIRONMENTS as readonly string[]).includes(device)) {
        throw new UsageError(`unknown SPIR-V device '${device}'${didYouMean(device, targetDevices("spirv"))} (known: ${targetDevices("spirv").join(", ")})`);
      }
      const chosen = subgroupOps(ops) ?? base.subgroupOperations;
      options = {
        identifier: `cli-${device}`,
        identity: {
          environment: named ? "vulkan1.3" : device,
          features: { ...Object.fromEntries([...base.features, ...features].map((f) => [f, true])), ...(chosen ? { subgroupOperations: chosen } : {}) },
          limits: { ...base.limits, ...parseLimits(limits) },
        },
      };
    } else {
      options = pkg.commandLineProfile(device, { features, limits: parseLimits(limits) });
    }
    const profile = pkg.createProfile(environment, options as never);
    return { environment, profile, format: pkg.format, extension: pkg.extension, release: () => {} };
  } catch (e) {
    // A device or fact the package does not take is a command-line mistake.
    if (e instanceof LoomError && (e.status === "invalid-argument" || e.status === "not-found")) {
      const known = targetDevices(envName);
      throw new UsageError(`--target ${spec}: ${e.message.replace(/^options\.identity\.\w+: /, "")}${didYouMean(device, known)}`);
    }
    throw e;
  }
}
