/** The WGSL target package as registry data (core/target.ts `TargetPackage`). */
import { ARTIFACT_FORMAT } from "../../core/artifact.js";
import type { TargetPackage } from "../../core/target.js";
import { invalidArgument } from "../../core/validate.js";
import { createWgslTargetEnvironment } from "./environment.js";
import { createWgslProfile, WGSL_ENVIRONMENT_NAME, WGSL_FEATURES } from "./profile.js";
import { WGSL_TARGET_RECORD } from "./record.js";

/** The WGSL target package: pass it to `Context.create({ targetPackages })` or use its `createEnvironment`. */
export const WGSL_PACKAGE: TargetPackage = Object.freeze<TargetPackage>({
  name: WGSL_ENVIRONMENT_NAME,
  record: WGSL_TARGET_RECORD,
  createEnvironment: createWgslTargetEnvironment,
  createProfile: createWgslProfile as TargetPackage["createProfile"],
  format: ARTIFACT_FORMAT.WGSL,
  extension: ".wgsl",
  /** `--feature shader-f16|subgroups` and `--limit NAME=N` take WebGPU feature and limit names. */
  commandLineProfile(device, facts) {
    for (const f of facts.features) {
      if (!(WGSL_FEATURES as readonly string[]).includes(f)) throw invalidArgument(`--feature ${f}: not a WebGPU feature the WGSL target uses (known: ${WGSL_FEATURES.join(", ")})`);
    }
    for (const [name, v] of Object.entries(facts.limits)) if (typeof v !== "number") throw invalidArgument(`--limit ${name}: WebGPU limits are single numbers`);
    return { identifier: `cli-${device}`, identity: { device, features: facts.features, limits: facts.limits } };
  },
});
