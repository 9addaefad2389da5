/** The SPIR-V target package as registry data (core/target.ts `TargetPackage`). */
import { ARTIFACT_FORMAT } from "../../core/artifact.js";
import type { TargetPackage } from "../../core/target.js";
import { createSpirvTargetEnvironment } from "./environment.js";
import { createSpirvProfile, SPIRV_ENVIRONMENT_NAME } from "./profile.js";
import { SPIRV_TARGET_RECORD } from "./record.js";

/** The SPIR-V target package: pass it to `Context.create({ targetPackages })` or use its `createEnvironment`. */
export const SPIRV_PACKAGE: TargetPackage = Object.freeze<TargetPackage>({
  name: SPIRV_ENVIRONMENT_NAME,
  record: SPIRV_TARGET_RECORD,
  createEnvironment: createSpirvTargetEnvironment,
  createProfile: createSpirvProfile as TargetPackage["createProfile"],
  format: ARTIFACT_FORMAT.SPIRV,
  extension: ".spv",
  /** `--feature NAME` and `--limit NAME=N` are Vulkan feature and limit names of the device. */
  commandLineProfile(device, facts) {
    const identity = { environment: device, features: Object.fromEntries(facts.features.map((f) => [f, true])), limits: facts.limits };
    return { identifier: `cli-${device}`, identity };
  },
});
