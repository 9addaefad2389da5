/** The AMDGPU target environment: checks prepared kernels and emits HSA code objects. */
import { ARTIFACT_FORMAT } from "../../core/artifact.js";
import type { TargetEnvironment } from "../../core/target.js";
import { deepFreeze } from "../../core/validate.js";
import { checkModule } from "./check.js";
import { emitAmdgpu } from "./emit.js";
import { AMDGPU_ENVIRONMENT_NAME, registerAmdgpuEnvironment } from "./profile.js";
import { AMDGPU_TARGET_RECORD } from "./record.js";

export function createAmdgpuTargetEnvironment(): TargetEnvironment {
  const env: TargetEnvironment = {
    name: AMDGPU_ENVIRONMENT_NAME,
    record: AMDGPU_TARGET_RECORD,
    formats: [ARTIFACT_FORMAT.AMDGPU_HSACO],
    check: (module) => checkModule(module).diagnostics,
    emit: (module, request) => emitAmdgpu(module, request),
  };
  registerAmdgpuEnvironment(env);
  return deepFreeze(env);
}
