/** Target names on the command line (`amdgpu:gfx1100`, `spirv:vulkan1.3`) → environment and profile. */
import { TARGET_PACKAGES } from "../targets/registry.js";
import type { TargetEnvironment, TargetProfile } from "../core/target.js";
import { UsageError } from "./common.js";

export interface ResolvedTarget {
  environment: TargetEnvironment;
  profile: TargetProfile;
  format: string;
  extension: string;
}

/** Extra device facts from the command line (spirv only): Vulkan feature and limit names. */
export interface DeviceFacts {
  readonly features?: readonly string[];
  /** `NAME=VALUE`, VALUE a number or `X,Y,Z`. */
  readonly limits?: readonly string[];
}

function parseLimits(limits: readonly string[]): Record<string, number | number[]> {
  const out: Record<string, number | number[]> = {};
  for (const l of limits) {
    const m = /^([A-Za-z]+)=(\d+(?:,\d+,\d+)?)$/.exec(l);
    if (!m) throw new UsageError(`--limit must be NAME=N or NAME=X,Y,Z, got '${l}'`);
    const nums = m[2]!.split(",").map(Number);
    out[m[1]!] = nums.length === 1 ? nums[0]! : nums;
  }
  return out;
}

/** Profile options for a device name. */
function profileOptions(envName: string, device: string, facts: DeviceFacts): unknown {
  const features = facts.features ?? [], limits = facts.limits ?? [];
  if (envName === "spirv") {
    const identity = { environment: device, features: Object.fromEntries(features.map((f) => [f, true])), limits: parseLimits(limits) };
    return { identifier: `cli-${device}`, identity };
  }
  if (features.length || limits.length) throw new UsageError(`--feature and --limit apply to spirv targets only`);
  return { identifier: `cli-${device}`, identity: { target: device } };
}

export function resolveTarget(spec: string, facts: DeviceFacts = {}): ResolvedTarget {
  const colon = spec.indexOf(":");
  if (colon < 0) throw new UsageError(`--target must be ENV:DEVICE (e.g. amdgpu:gfx1100), got '${spec}'`);
  const envName = spec.slice(0, colon);
  const pkg = TARGET_PACKAGES[envName];
  if (!pkg) throw new UsageError(`unknown target environment '${envName}' (known: ${Object.keys(TARGET_PACKAGES).join(", ")})`);
  const environment = pkg.createEnvironment();
  const profile = pkg.createProfile(environment, profileOptions(envName, spec.slice(colon + 1), facts) as never);
  return { environment, profile, format: pkg.format, extension: pkg.extension };
}
