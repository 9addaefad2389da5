/**
 * `loomc/target/spirv`: the SPIR-V (Vulkan 1.3) target package. Create the environment once,
 * register it with a `Context`, and make profiles from Vulkan feature/limit names; the device
 * ABI a runtime must follow is docs/abi.md "SPIR-V".
 */
export { createSpirvTargetEnvironment } from "./environment.js";
export { SPIRV_TARGET_RECORD } from "./record.js";
export { SPIRV_PACKAGE } from "./package.js";
export {
  createSpirvProfile,
  spirvInfoOf,
  DEFAULT_LIMITS,
  BOOLEAN_FEATURES,
  SUBGROUP_OPERATIONS,
  KNOWN_ENVIRONMENTS,
  type SpirvProfile,
  type SpirvProfileOptions,
  type SpirvIdentity,
  type SpirvFeatures,
  type SpirvLimits,
  type SpirvAbi,
  type SpirvTargetInfo,
  type SubgroupOperation,
  type BooleanFeature,
} from "./profile.js";
export { disassembleSpirv } from "./disassemble.js";
export { profileFromDevice, type DeviceProfileOptions, type DeviceFactsSource, type VulkanDeviceFacts } from "./device-profile.js";
