/** The AMDGPU target package as registry data (core/target.ts `TargetPackage`). */
import { ARTIFACT_FORMAT } from "../../core/artifact.js";
import type { TargetPackage } from "../../core/target.js";
import { invalidArgument } from "../../core/validate.js";
import { createAmdgpuTargetEnvironment } from "./environment.js";
import { AMDGPU_ENVIRONMENT_NAME, createAmdgpuProfile } from "./profile.js";
import { AMDGPU_TARGET_RECORD } from "./record.js";

/** The AMDGPU target package: pass it to `Context.create({ targetPackages })` or use its `createEnvironment`. */
export const AMDGPU_PACKAGE: TargetPackage = Object.freeze<TargetPackage>({
  name: AMDGPU_ENVIRONMENT_NAME,
  record: AMDGPU_TARGET_RECORD,
  createEnvironment: createAmdgpuTargetEnvironment,
  createProfile: createAmdgpuProfile as TargetPackage["createProfile"],
  format: ARTIFACT_FORMAT.AMDGPU_HSACO,
  extension: ".hsaco",
  commandLineProfile(device, facts) {
    // Processor features travel in the target ID (`gfx90a:xnack+`), not as device facts.
    if (facts.features.length > 0 || Object.keys(facts.limits).length > 0) throw invalidArgument(`--feature and --limit do not apply to ${AMDGPU_ENVIRONMENT_NAME} targets`);
    return { identifier: `cli-${device}`, identity: { target: device } };
  },
});
