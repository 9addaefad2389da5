/** The PTX target package as registry data (core/target.ts `TargetPackage`); it has no record op yet. */
import { ARTIFACT_FORMAT } from "../../core/artifact.js";
import type { TargetPackage } from "../../core/target.js";
import { invalidArgument } from "../../core/validate.js";
import { createPtxTargetEnvironment } from "./environment.js";
import { createPtxProfile, PTX_ENVIRONMENT_NAME } from "./profile.js";

/** The PTX target package: pass it to `Context.create({ targetPackages })` or use its `createEnvironment`. */
export const PTX_PACKAGE: TargetPackage = Object.freeze<TargetPackage>({
  name: PTX_ENVIRONMENT_NAME,
  createEnvironment: createPtxTargetEnvironment,
  createProfile: createPtxProfile as TargetPackage["createProfile"],
  format: ARTIFACT_FORMAT.PTX,
  extension: ".ptx",
  commandLineProfile(device, facts) {
    if (facts.features.length > 0 || Object.keys(facts.limits).length > 0) throw invalidArgument(`--feature and --limit do not apply to ${PTX_ENVIRONMENT_NAME} targets`);
    return { identifier: `cli-${device}`, identity: { target: device } };
  },
});
