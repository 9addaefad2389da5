/**
 * Target features and how they appear in a code object: the target ID string of the
 * metadata (`gfx90a:sramecc+:xnack-`) and the ELF `e_flags` word (AMDGPUUsage "ELF Header",
 * code object v4+ encoding of xnack/sramecc, v6 generic version).
 */
import type { AmdgpuProcessor } from "./profiles.js";

/**
 * A feature setting: "any" (code runs with either device setting; written as no suffix),
 * "on" (`+`), "off" (`-`), or "unsupported" when the processor lacks the feature.
 */
export type FeatureSetting = "any" | "on" | "off" | "unsupported";

export const EF_AMDGPU_FEATURE_XNACK_ANY_V4 = 0x100;
export const EF_AMDGPU_FEATURE_XNACK_OFF_V4 = 0x200;
export const EF_AMDGPU_FEATURE_XNACK_ON_V4 = 0x300;
export const EF_AMDGPU_FEATURE_SRAMECC_ANY_V4 = 0x400;
export const EF_AMDGPU_FEATURE_SRAMECC_OFF_V4 = 0x800;
export const EF_AMDGPU_FEATURE_SRAMECC_ON_V4 = 0xc00;
export const EF_AMDGPU_GENERIC_VERSION_OFFSET = 24;

const XNACK_BITS: Record<FeatureSetting, number> = {
  unsupported: 0,
  any: EF_AMDGPU_FEATURE_XNACK_ANY_V4,
  off: EF_AMDGPU_FEATURE_XNACK_OFF_V4,
  on: EF_AMDGPU_FEATURE_XNACK_ON_V4,
};
const SRAMECC_BITS: Record<FeatureSetting, number> = {
  unsupported: 0,
  any: EF_AMDGPU_FEATURE_SRAMECC_ANY_V4,
  off: EF_AMDGPU_FEATURE_SRAMECC_OFF_V4,
  on: EF_AMDGPU_FEATURE_SRAMECC_ON_V4,
};

export interface TargetFeatures {
  readonly xnack: FeatureSetting;
  readonly sramecc: FeatureSetting;
}

/** `e_flags` of a code object for this processor and feature settings. */
export function elfFlags(p: AmdgpuProcessor, f: TargetFeatures): number {
  return (p.mach | XNACK_BITS[f.xnack] | SRAMECC_BITS[f.sramecc] | (p.genericVersion << EF_AMDGPU_GENERIC_VERSION_OFFSET)) >>> 0;
}

function suffix(feature: string, s: FeatureSetting): string {
  return s === "on" ? `:${feature}+` : s === "off" ? `:${feature}-` : "";
}

/** Target ID: processor then features in alphabetical order, "any" omitted (`gfx90a:sramecc+:xnack-`). */
export function targetId(p: AmdgpuProcessor, f: TargetFeatures): string {
  return p.name + suffix("sramecc", f.sramecc) + suffix("xnack", f.xnack);
}

/** The `amdhsa.target` metadata string. */
export function amdhsaTarget(p: AmdgpuProcessor, f: TargetFeatures): string {
  return `amdgcn-amd-amdhsa--${targetId(p, f)}`;
}
