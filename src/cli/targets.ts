/** Target names on the command line (`amdgpu:gfx1100`, `spirv:vulkan1.3`) → environment and profile. */
import { TARGET_PACKAGES } from "../targets/registry.js";
import type { TargetEnvironment, TargetProfile } from "../targets/target.js";
import { UsageError } from "./common.js";

export interface ResolvedTarget {
  environment: TargetEnvironment;
  profile: TargetProfile;
  format: string;
  extension: string;
}

/** Profile options for a device name; `features` are Vulkan feature names (spirv only). */
function profileOptions(envName: string, device: string, features: readonly string[]): unknown {
  if (envName === "spirv") {
    return { identifier: `cli-${device}`, identity: { environment: device, features: Object.fromEntries(features.map((f) => [f, true])) } };
  }
  if (features.length) throw new UsageError(`--feature applies to spirv targets only`);
  return { identifier: `cli-${device}`, identity: { target: device } };
}

export function resolveTarget(spec: string, features: readonly string[] = []): ResolvedTarget {
  const colon = spec.indexOf(":");
  if (colon < 0) throw new UsageError(`--target must be ENV:DEVICE (e.g. amdgpu:gfx1100), got '${spec}'`);
  const envName = spec.slice(0, colon);
  const pkg = TARGET_PACKAGES[envName];
  if (!pkg) throw new UsageError(`unknown target environment '${envName}' (known: ${Object.keys(TARGET_PACKAGES).join(", ")})`);
  const environment = pkg.createEnvironment();
  const profile = pkg.createProfile(environment, profileOptions(envName, spec.slice(colon + 1), features) as never);
  return { environment, profile, format: pkg.format, extension: pkg.extension };
}
