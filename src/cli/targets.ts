/** Target names on the command line (`amdgpu:gfx1100`) → environment and profile. */
import { createAmdgpuProfile, createAmdgpuTargetEnvironment } from "../targets/amdgpu/index.js";
import { createSpirvProfile, createSpirvTargetEnvironment } from "../targets/spirv/index.js";
import type { TargetEnvironment, TargetProfile } from "../targets/target.js";
import { ARTIFACT_FORMAT } from "../api/result.js";
import { UsageError } from "./common.js";

interface TargetPackage {
  createEnvironment(): TargetEnvironment;
  createProfile(env: TargetEnvironment, device: string, features: readonly string[]): TargetProfile;
  format: string;
  extension: string;
}

const packages: Record<string, TargetPackage> = {
  amdgpu: {
    createEnvironment: createAmdgpuTargetEnvironment,
    createProfile: (env, device, features) => {
      if (features.length) throw new UsageError("--feature applies to spirv targets only");
      return createAmdgpuProfile(env, { identifier: `cli-${device}`, identity: { target: device } });
    },
    format: ARTIFACT_FORMAT.AMDGPU_HSACO,
    extension: ".hsaco",
  },
  spirv: {
    createEnvironment: createSpirvTargetEnvironment,
    createProfile: (env, device, features) =>
      createSpirvProfile(env, {
        identifier: `cli-${device}`,
        identity: { environment: device as "vulkan1.3", features: Object.fromEntries(features.map((f) => [f, true])) },
      }),
    format: ARTIFACT_FORMAT.SPIRV,
    extension: ".spv",
  },
};

export interface ResolvedTarget {
  environment: TargetEnvironment;
  profile: TargetProfile;
  format: string;
  extension: string;
}

export function resolveTarget(spec: string, features: readonly string[] = []): ResolvedTarget {
  const colon = spec.indexOf(":");
  if (colon < 0) throw new UsageError(`--target must be ENV:DEVICE (e.g. amdgpu:gfx1100), got '${spec}'`);
  const envName = spec.slice(0, colon);
  const pkg = packages[envName];
  if (!pkg) throw new UsageError(`unknown target environment '${envName}' (known: ${Object.keys(packages).join(", ")})`);
  const environment = pkg.createEnvironment();
  return { environment, profile: pkg.createProfile(environment, spec.slice(colon + 1), features), format: pkg.format, extension: pkg.extension };
}
