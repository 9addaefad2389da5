/** Target names on the command line (`amdgpu:gfx1100`, `spirv:vulkan1.3`) → environment and profile. */
import { LoomError, type TargetEnvironment, type TargetProfile } from "../index.js";
import { findTargetPackage, targetPackageNames } from "../targets/registry.js";
import { UsageError } from "./common.js";

export interface ResolvedTarget {
  environment: TargetEnvironment;
  profile: TargetProfile;
  format: string;
  extension: string;
}

/** Extra device facts from the command line (spirv: Vulkan feature and limit names); each package says which it takes. */
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

export function resolveTarget(spec: string, facts: DeviceFacts = {}): ResolvedTarget {
  const colon = spec.indexOf(":");
  if (colon < 0) throw new UsageError(`--target must be ENV:DEVICE (e.g. amdgpu:gfx1100), got '${spec}'`);
  const envName = spec.slice(0, colon);
  const pkg = findTargetPackage(envName);
  if (!pkg) throw new UsageError(`unknown target environment '${envName}' (known: ${targetPackageNames().join(", ")})`);
  const environment = pkg.createEnvironment();
  let options: unknown;
  try {
    options = pkg.commandLineProfile(spec.slice(colon + 1), { features: facts.features ?? [], limits: parseLimits(facts.limits ?? []) });
  } catch (e) {
    // A fact the package does not take is a command-line mistake.
    if (e instanceof LoomError && e.status === "invalid-argument") throw new UsageError(e.message);
    throw e;
  }
  const profile = pkg.createProfile(environment, options as never);
  return { environment, profile, format: pkg.format, extension: pkg.extension };
}
