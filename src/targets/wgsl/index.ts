/**
 * `loomc/target/wgsl`: the WGSL (WebGPU) target package. Create the environment once,
 * register it with a `Context`, and make profiles from WebGPU limit and feature names (or
 * from an adapter with `profileFromAdapter`); the device ABI a WebGPU runtime must follow
 * (bindings, the uniform argument block, the 32-bit index domain) is docs/abi.md "WGSL".
 */
export { createWgslTargetEnvironment } from "./environment.js";
export { WGSL_TARGET_RECORD } from "./record.js";
export { WGSL_PACKAGE } from "./package.js";
export {
  createWgslProfile,
  profileFromAdapter,
  wgslInfoOf,
  DEFAULT_LIMITS,
  KNOWN_DEVICES,
  WGSL_FEATURES,
  type AdapterFacts,
  type WgslProfile,
  type WgslProfileOptions,
  type WgslIdentity,
  type WgslFeature,
  type WgslLimits,
  type WgslTargetInfo,
  type WgslDeviceName,
} from "./profile.js";
