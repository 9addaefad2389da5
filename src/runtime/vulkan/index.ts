/**
 * loomc/runtime/vulkan: the Vulkan runtime handoff (api.md §7). Loads libvulkan lazily through
 * koffi, opens a device, loads SPIR-V kernels and dispatches them with the explicit argument
 * block of language.md §7, as each kernel's interface record (docs/abi.md) says. It never imports
 * the compiler; everything crossing in is plain data, and the device's facts go out as plain
 * data too (`profileFacts()`, which loomc/target/spirv's `profileFromDevice` turns into a profile).
 */
export { VulkanRuntime, FORCE_STAGING_ENV_VAR, type VulkanRuntimeOptions } from "./runtime.js";
export { VulkanBuffer, type BufferOptions, type BufferMemory } from "./buffer.js";
export { VulkanKernel, type KernelLayout, type Addressing } from "./kernel.js";
export {
  parseExecutableInterface,
  type ExecutableInterface,
  type KernelInterface,
  type InterfaceArgument,
  type BufferBinding,
} from "../../abi/index.js";
export type { DispatchOptions, DispatchResult } from "./dispatch.js";
export { VulkanBatch, type BatchItem, type BatchOptions, type BatchResult } from "./batch.js";
export type { VulkanDeviceInfo, VulkanLimits, VulkanProfileFacts, ReportedFeature } from "./device-info.js";
export { REPORTED_FEATURES } from "./device-info.js";
export {
  packArguments,
  argumentLayout,
  argSize,
  float16Bits,
  bfloat16Bits,
  type ArgType,
  type ArgSlotDescriptor,
  type ArgValue,
  type BufferArgument,
} from "./args.js";
export { selectDevice, DEVICE_ENV_VAR, type DeviceCandidate } from "./select.js";
export { VulkanError, vkResultName } from "./vk-result.js";
export { vulkanLibraryName, LIBRARY_ENV_VAR } from "./ffi.js";
