/**
 * `loomc/target/amdgpu`: the AMDGPU target environment and profiles (api.md §2, §6).
 *
 *   const env = createAmdgpuTargetEnvironment();
 *   const profile = createAmdgpuProfile(env, { identifier: "guide-amdgpu", identity: { target: "gfx1100" } });
 *
 * The environment checks prepared kernels against their profile and emits HSA code
 * objects (ELF, code object v5, or v6 for generic processors).
 */
import { ARTIFACT_FORMAT } from "../../core/artifact.js";
import type { TargetEnvironment } from "../../core/target.js";
import { checkModule } from "./check.js";
import { emitAmdgpu } from "./emit.js";
import { AMDGPU_ENVIRONMENT_NAME, registerAmdgpuEnvironment } from "./profile.js";
import { deepFreeze } from "../../core/validate.js";

export { createAmdgpuProfile, amdgpuInfoOf } from "./profile.js";
export type { AmdgpuIdentity, AmdgpuProfile, AmdgpuProfileOptions, AmdgpuTargetInfo } from "./profile.js";
export { AMDGPU_PROCESSORS, knownProcessorNames } from "./profiles.js";
export type { AmdgpuProcessor, IsaFamily, WavefrontSize } from "./profiles.js";
export type { AmdgpuEmitOptions } from "./emit.js";
export { AMDGPU_TARGET_RECORD } from "./record.js";

export function createAmdgpuTargetEnvironment(): TargetEnvironment {
  const env: TargetEnvironment = {
    name: AMDGPU_ENVIRONMENT_NAME,
    formats: [ARTIFACT_FORMAT.AMDGPU_HSACO],
    check: (module) => checkModule(module),
    emit: (module, request) => emitAmdgpu(module, request),
  };
  registerAmdgpuEnvironment(env);
  return deepFreeze(env);
}
