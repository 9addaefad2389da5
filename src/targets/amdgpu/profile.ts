/**
 * `createAmdgpuProfile`: validates the caller's identity options and builds a deeply
 * frozen `TargetProfile` whose `amdgpu` field carries the facts the backend reads.
 */
import { deepFreeze, describeValue as describe, invalidArgument as invalid, profileOptions } from "../../core/validate.js";
import type { TargetEnvironment, TargetFacts, TargetProfile } from "../../core/target.js";
import { AMDGPU_PROCESSORS, knownProcessorNames, type AmdgpuProcessor, type WavefrontSize } from "./profiles.js";
import { targetId, type FeatureSetting, type TargetFeatures } from "./target-id.js";

export const AMDGPU_ENVIRONMENT_NAME = "amdgpu";

/** Which AMDGPU processor a profile compiles for, with its target-ID features (sramecc, xnack). */
export interface AmdgpuIdentity {
  /** Processor name (`gfx1100`), optionally a full target ID (`gfx90a:sramecc+:xnack-`). */
  readonly target: string;
  /** true = `sramecc+`, false = `sramecc-`, absent = either (only where supported). */
  readonly sramecc?: boolean;
  readonly xnack?: boolean;
  /** 32 or 64 on gfx10+ (default 32); gfx9 has only 64. */
  readonly wavefrontSize?: WavefrontSize;
}

/** Options of {@link createAmdgpuProfile}: the profile identifier and processor identity. */
export interface AmdgpuProfileOptions {
  readonly identifier: string;
  readonly identity: AmdgpuIdentity;
}

/** What the AMDGPU backend knows about one profile. */
export interface AmdgpuTargetInfo {
  readonly processor: AmdgpuProcessor;
  readonly features: TargetFeatures;
  readonly wavefrontSize: WavefrontSize;
  /** `gfx90a:sramecc+:xnack-` style target ID. */
  readonly targetId: string;
  /** Code object version: 5, or 6 for generic processors (ELF ABI version = version − 2). */
  readonly codeObjectVersion: 5 | 6;
}

/** A target profile for the AMDGPU environment, with the backend's processor facts. */
export interface AmdgpuProfile extends TargetProfile {
  readonly amdgpu: AmdgpuTargetInfo;
}

/** Largest kernarg block we promise the runtime can pass (HIP's 4 KiB limit). */
export const MAX_KERNARG_BYTES = 4096;
const U32_MAX = 0xffffffff;

/** Environments made by `createAmdgpuTargetEnvironment`, to reject foreign ones. */
const amdgpuEnvironments = new WeakSet<TargetEnvironment>();

export function registerAmdgpuEnvironment(env: TargetEnvironment): void {
  amdgpuEnvironments.add(env);
}

/** The backend facts of a profile made by `createAmdgpuProfile`, else undefined. */
export function amdgpuInfoOf(profile: TargetProfile): AmdgpuTargetInfo | undefined {
  if (profile.environment !== AMDGPU_ENVIRONMENT_NAME) return undefined;
  const info = (profile as Partial<AmdgpuProfile>).amdgpu;
  return info && AMDGPU_PROCESSORS.get(info.processor.name) === info.processor ? info : undefined;
}

const OPTION = "an AMDGPU profile option";

function optionalBoolean(identity: Record<string, unknown>, key: string): boolean | undefined {
  const v = identity[key];
  if (v === undefined || typeof v === "boolean") return v;
  throw invalid(`options.identity.${key} must be a boolean or absent, got ${describe(v)}`);
}

/** Splits `gfx90a:sramecc+:xnack-` into the processor and explicit feature settings. */
function parseTargetId(text: string): { processor: string; xnack?: boolean; sramecc?: boolean } {
  const [processor = "", ...features] = text.split(":");
  const out: { processor: string; xnack?: boolean; sramecc?: boolean } = { processor };
  for (const f of features) {
    const m = /^(xnack|sramecc)([+-])$/.exec(f);
    if (!m) throw invalid(`options.identity.target: bad target feature '${f}' in '${text}' (expected xnack+/- or sramecc+/-)`);
    const name = m[1] as "xnack" | "sramecc";
    if (out[name] !== undefined) throw invalid(`options.identity.target: feature '${name}' given twice in '${text}'`);
    out[name] = m[2] === "+";
  }
  return out;
}

function setting(p: AmdgpuProcessor, feature: "xnack" | "sramecc", requested: boolean | undefined): FeatureSetting {
  const supported = feature === "xnack" ? p.supportsXnack : p.supportsSramecc;
  if (!supported) {
    if (requested !== undefined) throw invalid(`options.identity.${feature}: ${p.name} has no ${feature} feature`);
    return "unsupported";
  }
  return requested === undefined ? "any" : requested ? "on" : "off";
}

function merge(a: boolean | undefined, b: boolean | undefined, feature: string): boolean | undefined {
  if (a !== undefined && b !== undefined && a !== b) {
    throw invalid(`options.identity.${feature} contradicts the feature written in options.identity.target`);
  }
  return a ?? b;
}

/** Creates an AMDGPU target profile for `env` from a processor identity. Throws `LoomError("invalid-argument")` for a foreign environment, unknown keys, an unknown processor or unsupported target-ID features. */
export function createAmdgpuProfile(env: TargetEnvironment, options: AmdgpuProfileOptions): AmdgpuProfile {
  const { identifier, identity } = profileOptions(env, amdgpuEnvironments, "createAmdgpuTargetEnvironment", options, ["identifier", "identity"], ["target", "sramecc", "xnack", "wavefrontSize"], OPTION);
  if (typeof identity.target !== "string") {
    throw invalid(`options.identity.target must be a string, got ${describe(identity.target)}`);
  }

  const parsed = parseTargetId(identity.target);
  const processor = AMDGPU_PROCESSORS.get(parsed.processor);
  if (!processor) {
    throw invalid(`options.identity.target: unknown AMDGPU processor '${parsed.processor}' (known: ${knownProcessorNames().join(", ")})`);
  }
  const features: TargetFeatures = {
    xnack: setting(processor, "xnack", merge(optionalBoolean(identity, "xnack"), parsed.xnack, "xnack")),
    sramecc: setting(processor, "sramecc", merge(optionalBoolean(identity, "sramecc"), parsed.sramecc, "sramecc")),
  };

  const wave = identity.wavefrontSize;
  if (wave !== undefined && wave !== 32 && wave !== 64) {
    throw invalid(`options.identity.wavefrontSize must be 32 or 64, got ${describe(wave)}`);
  }
  if (wave !== undefined && !processor.wavefrontSizes.includes(wave)) {
    throw invalid(`options.identity.wavefrontSize: ${processor.name} supports wave ${processor.wavefrontSizes.join(" or ")}, not ${wave}`);
  }
  const wavefrontSize = wave ?? processor.wavefrontSizes[0];

  const facts: TargetFacts = {
    subgroupSize: wavefrontSize,
    maxWorkgroupSize: [processor.maxWorkgroupSize, processor.maxWorkgroupSize, processor.maxWorkgroupSize],
    maxFlatWorkgroupSize: processor.maxFlatWorkgroupSize,
    // The HSA dispatch packet holds grid sizes (count × size) as u32 per dimension.
    maxWorkgroupCount: [U32_MAX, U32_MAX, U32_MAX],
    maxWorkgroupStorageBytes: processor.ldsBytes,
    maxArgumentBlockBytes: MAX_KERNARG_BYTES,
  };
  const amdgpu: AmdgpuTargetInfo = {
    processor,
    features,
    wavefrontSize,
    targetId: targetId(processor, features),
    codeObjectVersion: processor.genericVersion > 0 ? 6 : 5,
  };
  return deepFreeze({ identifier, environment: AMDGPU_ENVIRONMENT_NAME, target: processor.name, facts, amdgpu });
}
