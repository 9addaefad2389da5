/** What `loomc/target/spirv` exports but the disassembler: the compiler part, which `loomc/browser` bundles (the disassembler is a display tool, in `loomc/browser/check`). */
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
export { profileFromDevice, type DeviceProfileOptions, type DeviceFactsSource, type VulkanDeviceFacts } from "./device-profile.js";
