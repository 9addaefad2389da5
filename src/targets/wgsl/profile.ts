/**
 * `createWgslProfile` and `profileFromAdapter`: WebGPU device facts under their WebGPU names
 * (`GPUSupportedLimits` keys, `GPUFeatureName`s), validated into a deeply frozen
 * `TargetProfile` whose `wgsl` field carries what the back end reads. Absent limits take the
 * WebGPU core defaults and absent features are off, so a profile made from the name `webgpu`
 * alone promises only what every WebGPU device has (docs/wgsl.md "Profiles").
 */
import { deepFreeze, describeValue as describe, invalidArgument as invalid, isRecord, positiveInteger, profileOptions, rejectUnknownKeys } from "../../core/validate.js";
import type { TargetEnvironment, TargetFacts, TargetProfile } from "../../core/target.js";

export const WGSL_ENVIRONMENT_NAME = "wgsl";

/** Device names a profile may carry: only the one WebGPU device class (limits and features say the rest). */
export const KNOWN_DEVICES = ["webgpu"] as const;
/** A device name `createWgslProfile` accepts (`KNOWN_DEVICES`). */
export type WgslDeviceName = (typeof KNOWN_DEVICES)[number];

/** The optional WebGPU features the WGSL back end can use (`GPUFeatureName`s). */
export const WGSL_FEATURES = ["shader-f16", "subgroups"] as const;
/** An optional WebGPU feature the WGSL back end can use (`WGSL_FEATURES`). */
export type WgslFeature = (typeof WGSL_FEATURES)[number];

/** The WebGPU limits the back end checks, by their `GPUSupportedLimits` names. */
export interface WgslLimits {
  readonly maxComputeInvocationsPerWorkgroup: number;
  readonly maxComputeWorkgroupSizeX: number;
  readonly maxComputeWorkgroupSizeY: number;
  readonly maxComputeWorkgroupSizeZ: number;
  readonly maxComputeWorkgroupsPerDimension: number;
  readonly maxComputeWorkgroupStorageSize: number;
  readonly maxStorageBuffersPerShaderStage: number;
  readonly maxUniformBufferBindingSize: number;
  readonly maxStorageBufferBindingSize: number;
  readonly maxBindingsPerBindGroup: number;
}

/** The WebGPU core defaults (the limits every adapter supports). */
export const DEFAULT_LIMITS: WgslLimits = Object.freeze({
  maxComputeInvocationsPerWorkgroup: 256,
  maxComputeWorkgroupSizeX: 256,
  maxComputeWorkgroupSizeY: 256,
  maxComputeWorkgroupSizeZ: 64,
  maxComputeWorkgroupsPerDimension: 65535,
  maxComputeWorkgroupStorageSize: 16384,
  maxStorageBuffersPerShaderStage: 8,
  maxUniformBufferBindingSize: 65536,
  maxStorageBufferBindingSize: 134217728,
  maxBindingsPerBindGroup: 1000,
});

const LIMIT_NAMES = Object.keys(DEFAULT_LIMITS) as (keyof WgslLimits)[];

/**
 * What a WGSL profile is made from: the device class, the optional features the device has and its
 * limits (absent ones take the WebGPU core defaults).
 */
export interface WgslIdentity {
  /** Default "webgpu". */
  readonly device?: WgslDeviceName;
  /** Feature names the device has (`["shader-f16", "subgroups"]`). */
  readonly features?: readonly WgslFeature[];
  readonly limits?: Partial<WgslLimits>;
}

/** Options of `createWgslProfile`: the profile's identifier (non-empty) and the device identity. */
export interface WgslProfileOptions {
  readonly identifier: string;
  readonly identity?: WgslIdentity;
}

/** What the WGSL back end knows about one profile. */
export interface WgslTargetInfo {
  readonly device: WgslDeviceName;
  /** In `WGSL_FEATURES` order. */
  readonly features: readonly WgslFeature[];
  readonly limits: WgslLimits;
}

export interface WgslProfile extends TargetProfile {
  readonly wgsl: WgslTargetInfo;
}

const wgslEnvironments = new WeakSet<TargetEnvironment>();

export function registerWgslEnvironment(env: TargetEnvironment): void {
  wgslEnvironments.add(env);
}

const infos = new WeakSet<WgslTargetInfo>();

/** The back-end facts of a profile made by `createWgslProfile`, else undefined. */
export function wgslInfoOf(profile: TargetProfile): WgslTargetInfo | undefined {
  if (profile.environment !== WGSL_ENVIRONMENT_NAME) return undefined;
  const info = (profile as Partial<WgslProfile>).wgsl;
  return info && infos.has(info) ? info : undefined;
}

const OPTION = "a WGSL profile option";

function readFeatures(raw: unknown): WgslFeature[] {
  const out = new Set<string>();
  if (raw === undefined) return [];
  if (!Array.isArray(raw)) throw invalid(`options.identity.features must be an array of WebGPU feature names, got ${describe(raw)}`);
  for (const f of raw) {
    if (typeof f !== "string" || !(WGSL_FEATURES as readonly string[]).includes(f)) {
      throw invalid(`options.identity.features: ${describe(f)} is not a WebGPU feature the WGSL target uses (known: ${WGSL_FEATURES.join(", ")})`);
    }
    out.add(f);
  }
  return WGSL_FEATURES.filter((f) => out.has(f));
}

function readLimits(raw: unknown): WgslLimits {
  if (raw === undefined) return DEFAULT_LIMITS;
  rejectUnknownKeys(raw, LIMIT_NAMES, "options.identity.limits", OPTION);
  const out: Record<string, number> = {};
  for (const key of LIMIT_NAMES) out[key] = raw[key] === undefined ? DEFAULT_LIMITS[key] : positiveInteger(raw[key], `options.identity.limits.${key}`);
  return out as unknown as WgslLimits;
}

/**
 * A frozen WGSL target profile for `env` (made by `createWgslTargetEnvironment`). Throws
 * `LoomError("invalid-argument")` for an unknown key, device, feature or limit name, or a
 * limit that is not a positive integer.
 */
export function createWgslProfile(env: TargetEnvironment, options: WgslProfileOptions): WgslProfile {
  const { identifier, identity } = profileOptions(env, wgslEnvironments, "createWgslTargetEnvironment", options, ["identifier", "identity"], ["device", "features", "limits"], OPTION, {});
  const device = identity.device ?? "webgpu";
  if (typeof device !== "string" || !(KNOWN_DEVICES as readonly string[]).includes(device)) {
    throw invalid(`options.identity.device: unknown WGSL device ${describe(device)} (known: ${KNOWN_DEVICES.join(", ")})`);
  }
  const features = readFeatures(identity.features);
  const limits = readLimits(identity.limits);
  const perDimension = limits.maxComputeWorkgroupsPerDimension;
  const facts: TargetFacts = {
    // WebGPU fixes no subgroup width: kernels read `subgroup_size` at run time.
    subgroupSize: 0,
    maxWorkgroupSize: [limits.maxComputeWorkgroupSizeX, limits.maxComputeWorkgroupSizeY, limits.maxComputeWorkgroupSizeZ],
    maxFlatWorkgroupSize: limits.maxComputeInvocationsPerWorkgroup,
    maxWorkgroupCount: [perDimension, perDimension, perDimension],
    maxWorkgroupStorageBytes: limits.maxComputeWorkgroupStorageSize,
    maxArgumentBlockBytes: limits.maxUniformBufferBindingSize,
  };
  const wgsl: WgslTargetInfo = { device: device as WgslDeviceName, features, limits };
  infos.add(wgsl);
  return deepFreeze({ identifier, environment: WGSL_ENVIRONMENT_NAME, target: device, facts, wgsl });
}

/** What `profileFromAdapter` reads: a `GPUAdapter` or `GPUDevice`, or plain data of that shape. */
export interface AdapterFacts {
  /** `GPUSupportedLimits` (an object with limit-name properties). */
  readonly limits: object;
  /** `GPUSupportedFeatures` (a set-like of names) or a plain array of names. */
  readonly features:
    | Iterable<string>
    | {
        /** Whether the adapter has the feature of this name. */
        has(name: string): boolean;
      };
}

/**
 * The profile options of an adapter (or device): its limits under the names the back end
 * checks and the optional features it has. Pass them to `createWgslProfile`; request the
 * same features when creating the device. Reads plain properties only, so it works with
 * `navigator.gpu`, Node's `webgpu` package or a test's literal.
 */
export function profileFromAdapter(adapter: AdapterFacts, identifier = "webgpu-adapter"): WgslProfileOptions {
  if (!isRecord(adapter) || typeof adapter.limits !== "object" || adapter.limits === null || adapter.features === undefined) {
    throw invalid("profileFromAdapter: expected an adapter-like object with 'limits' and 'features'");
  }
  const source = adapter.limits as Record<string, unknown>;
  const limits: Record<string, number> = {};
  for (const key of LIMIT_NAMES) {
    const v = source[key];
    // Limits may be reported as large integers (maxStorageBufferBindingSize ≥ 2³²): clamp to what a kernel can address.
    if (typeof v === "number" && Number.isFinite(v) && v >= 1) limits[key] = Math.min(Math.floor(v), 2 ** 32 - 1);
  }
  const f = adapter.features as { has?: unknown };
  const has = typeof f.has === "function" ? (name: string) => (f.has as (n: string) => boolean).call(adapter.features, name) : (name: string) => [...(adapter.features as Iterable<string>)].includes(name);
  const features = WGSL_FEATURES.filter((name) => has(name));
  return { identifier, identity: { device: "webgpu", features, limits } };
}
