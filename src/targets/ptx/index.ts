/**
 * `loomc/target/ptx`: the PTX (NVIDIA, ISA 8.0) target package. Create the environment once,
 * register it with a `Context`, and make profiles for `sm_80`, `sm_90` or `sm_90a`; the
 * device ABI a runtime must follow (one `.param` argument block, `cuLaunchKernel`'s
 * `kernelParams`) is docs/abi.md "PTX".
 */
export { createPtxTargetEnvironment } from "./environment.js";
export { PTX_PACKAGE } from "./package.js";
export { profileFromDevice, ptxTargetFor, type CudaDeviceFacts, type CudaFactsSource } from "./device-profile.js";
export {
  createPtxProfile,
  ptxInfoOf,
  DEFAULT_LIMITS,
  KNOWN_TARGETS,
  PTX_FEATURES,
  WARP_SIZE,
  type PtxProfile,
  type PtxProfileOptions,
  type PtxIdentity,
  type PtxFeature,
  type PtxFeatures,
  type PtxLimits,
  type PtxTargetInfo,
  type PtxTargetName,
} from "./profile.js";
