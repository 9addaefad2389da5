/**
 * `profileFromDevice`: the SPIR-V profile of a live Vulkan device (issue 3, item 1). It maps
 * what the runtime read from the device (`profileFacts()`, `deviceInfo()`) onto
 * `createSpirvProfile`, so a kernel compiled for it uses exactly the features, limits and
 * subgroup operations that device has. This is the one place the runtime meets the SPIR-V
 * target, and it only passes plain data across.
 */
import { LoomError } from "../../core/errors.js";
import {
  BOOLEAN_FEATURES,
  KNOWN_ENVIRONMENTS,
  SUBGROUP_OPERATIONS,
  createSpirvProfile,
  type BooleanFeature,
  type SpirvAbi,
  type SpirvProfile,
  type SubgroupOperation,
} from "../../targets/spirv/profile.js";
import type { TargetEnvironment } from "../../core/target.js";
import type { VulkanDeviceInfo, VulkanProfileFacts } from "./device-info.js";

export interface DeviceProfileOptions {
  /** Profile identifier; default `vulkan:<device name>`. */
  readonly identifier?: string;
  /** Buffer passing (docs/abi.md); default "bindings". */
  readonly abi?: SpirvAbi;
}

/** What profileFromDevice reads from a runtime (a VulkanRuntime, or plain data in tests). */
export interface DeviceFactsSource {
  profileFacts(): VulkanProfileFacts;
  deviceInfo(): VulkanDeviceInfo;
}

/**
 * The SPIR-V profile of the runtime's device. Every BOOLEAN_FEATURES name is taken from the
 * runtime's REPORTED_FEATURES (the float-atomic adds come from VK_EXT_shader_atomic_float and
 * are false without it); a name the runtime does not report stays false, so the profile never
 * promises more than the device has. The subgroup size is fixed only when the device cannot
 * vary it (min = max): otherwise kernels read the builtin at run time.
 */
export function profileFromDevice(env: TargetEnvironment, runtime: DeviceFactsSource, options: DeviceProfileOptions = {}): SpirvProfile {
  if (runtime === null || typeof runtime !== "object" || typeof runtime.profileFacts !== "function" || typeof runtime.deviceInfo !== "function") {
    throw new LoomError("invalid-argument", "profileFromDevice: runtime must be a VulkanRuntime (profileFacts() and deviceInfo())");
  }
  if (options === null || typeof options !== "object") throw new LoomError("invalid-argument", "profileFromDevice: options must be an object");
  const facts = runtime.profileFacts();
  const info = runtime.deviceInfo();
  if (!(KNOWN_ENVIRONMENTS as readonly string[]).includes(facts.environment)) {
    throw new LoomError(
      "failed-precondition",
      `profileFromDevice: '${facts.deviceName}' offers ${facts.environment}; the SPIR-V target needs ${KNOWN_ENVIRONMENTS.join(" or ")}`,
    );
  }
  const reported = facts.features as Readonly<Record<string, boolean | undefined>>;
  const features: Partial<Record<BooleanFeature, boolean>> = {};
  for (const name of BOOLEAN_FEATURES) features[name] = reported[name] === true;
  const subgroupOperations = SUBGROUP_OPERATIONS.filter((op: SubgroupOperation) => facts.subgroupOperations.includes(op));
  const fixedSubgroup = info.subgroupSizeRange.min === info.subgroupSizeRange.max;
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
