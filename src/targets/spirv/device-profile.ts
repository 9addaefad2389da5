/**
 * `profileFromDevice`: the SPIR-V profile of a live Vulkan device. A runtime reports what its
 * device offers as plain data (`VulkanRuntime.profileFacts()` in loomc/runtime/vulkan); this
 * maps those facts onto `createSpirvProfile`, so a kernel compiled for it uses exactly the
 * features, limits and subgroup operations that device has. The runtime never imports the
 * compiler; the target reads the runtime's facts by their shape.
 */
import { LoomError } from "../../core/errors.js";
import { deviceFacts } from "../../core/validate.js";
import {
  BOOLEAN_FEATURES,
  KNOWN_ENVIRONMENTS,
  SUBGROUP_OPERATIONS,
  createSpirvProfile,
  type BooleanFeature,
  type SpirvAbi,
  type SpirvProfile,
  type SubgroupOperation,
} from "./profile.js";
import type { TargetEnvironment } from "../../core/target.js";

/** What a Vulkan runtime reports about its device (VulkanRuntime.profileFacts() has this shape). */
export interface VulkanDeviceFacts {
  /** "vulkan1.1" … "vulkan1.3". */
  readonly environment: string;
  readonly deviceName: string;
  /** The default subgroup width. */
  readonly subgroupSize: number;
  /** Widths selectable with subgroupSizeControl (min = max when the width cannot vary). */
  readonly subgroupSizeRange?: { readonly min: number; readonly max: number };
  readonly subgroupOperations: readonly string[];
  readonly limits: {
    readonly maxWorkgroupSize: readonly [number, number, number];
    readonly maxFlatWorkgroupSize: number;
    readonly maxWorkgroupCount: readonly [number, number, number];
    readonly maxWorkgroupStorageBytes: number;
    readonly maxArgumentBlockBytes: number;
  };
  /** Vulkan feature names → supported. */
  readonly features: Readonly<Record<string, boolean>>;
}

/** Options of deriving a SPIR-V profile from a Vulkan device. */
export interface DeviceProfileOptions {
  /** Profile identifier; default `vulkan:<device name>`. */
  readonly identifier?: string;
  /** Buffer passing (docs/abi.md); default "bindings". */
  readonly abi?: SpirvAbi;
}

/** What profileFromDevice reads from a runtime (a VulkanRuntime, or plain data in tests). */
export interface DeviceFactsSource {
  /** Device facts (limits, features, subgroup facts) of the runtime's device. */
  profileFacts(): VulkanDeviceFacts;
  /** Consulted for subgroupSizeRange when the facts leave it out. */
  deviceInfo?(): { readonly subgroupSizeRange: { readonly min: number; readonly max: number } };
}

/**
 * The SPIR-V profile of the runtime's device. Every BOOLEAN_FEATURES name is taken from the
 * runtime's REPORTED_FEATURES (the float-atomic adds come from VK_EXT_shader_atomic_float and
 * are false without it); a name the runtime does not report stays false, so the profile never
 * promises more than the device has. The subgroup size is fixed only when the device cannot
 * vary it (min = max): otherwise kernels read the builtin at run time.
 */
export function profileFromDevice(env: TargetEnvironment, runtime: DeviceFactsSource, options: DeviceProfileOptions = {}): SpirvProfile {
  const facts = deviceFacts(runtime, options, "VulkanRuntime");
  const range = facts.subgroupSizeRange ?? runtime.deviceInfo?.().subgroupSizeRange;
  if (!range) throw new LoomError("invalid-argument", "profileFromDevice: the device facts lack subgroupSizeRange");
  if (!(KNOWN_ENVIRONMENTS as readonly string[]).includes(facts.environment)) {
    throw new LoomError(
      "failed-precondition",
      `profileFromDevice: '${facts.deviceName}' offers ${facts.environment}; the SPIR-V target needs ${KNOWN_ENVIRONMENTS.join(" or ")}`,
    );
  }
  const reported: Readonly<Record<string, boolean | undefined>> = facts.features;
  const features: Partial<Record<BooleanFeature, boolean>> = {};
  for (const name of BOOLEAN_FEATURES) features[name] = reported[name] === true;
  const subgroupOperations = SUBGROUP_OPERATIONS.filter((op: SubgroupOperation) => facts.subgroupOperations.includes(op));
  const fixedSubgroup = range.min === range.max;
  const l = facts.limits;
  return createSpirvProfile(env, {
    identifier: options.identifier ?? `vulkan:${facts.deviceName}`,
    identity: {
      environment: facts.environment as (typeof KNOWN_ENVIRONMENTS)[number],
      features: { ...features, subgroupOperations },
      limits: {
        maxComputeWorkGroupSize: l.maxWorkgroupSize,
        maxComputeWorkGroupInvocations: l.maxFlatWorkgroupSize,
        maxComputeWorkGroupCount: l.maxWorkgroupCount,
        maxComputeSharedMemorySize: l.maxWorkgroupStorageBytes,
        maxPushConstantsSize: l.maxArgumentBlockBytes,
        subgroupSize: fixedSubgroup ? facts.subgroupSize : 0,
      },
    },
    ...(options.abi !== undefined ? { abi: options.abi } : {}),
  });
}
