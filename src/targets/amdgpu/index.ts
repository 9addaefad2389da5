/**
 * `loomc/target/amdgpu`: the AMDGPU target environment and profiles (api.md §2, §6).
 *
 *   const env = createAmdgpuTargetEnvironment();
 *   const profile = createAmdgpuProfile(env, { identifier: "guide-amdgpu", identity: { target: "gfx1100" } });
 *
 * The environment checks prepared kernels against their profile and emits HSA code
 * objects (ELF, code object v5, or v6 for generic processors).
 */
export { createAmdgpuTargetEnvironment } from "./environment.js";
export { AMDGPU_PACKAGE } from "./package.js";

export { createAmdgpuProfile, amdgpuInfoOf } from "./profile.js";
export type { AmdgpuIdentity, AmdgpuProfile, AmdgpuProfileOptions, AmdgpuTargetInfo } from "./profile.js";
export { AMDGPU_PROCESSORS, knownProcessorNames } from "./profiles.js";
export type { AmdgpuProcessor, IsaFamily, WavefrontSize } from "./profiles.js";
export type { AmdgpuEmitOptions } from "./emit.js";
export { amdgpuListing, amdgpuListingOf } from "./emit.js";
export { AMDGPU_TARGET_RECORD } from "./record.js";
