/**
 * The AMDGPU processors loom knows, as a table of facts (one row per processor).
 *
 * Each row states what later stages need and nothing they would have to derive from a
 * name: ISA family for the encoders, wave sizes, register files and granules, LDS, the
 * ELF `e_flags` machine value, which target features (xnack, sramecc) the processor
 * has, and the hardware quirks that change the kernel descriptor. Values follow LLVM 19
 * (AMDGPUUsage "Processors" and "ELF Header"; checked against llc-19 output by
 * test/amdgpu/llvm-agreement.test.ts), gfx950 LLVM 20.
 *
 * This table is the only list of AMDGPU processors: profiles, `--target amdgpu:NAME` and
 * the `amdgpu.target<NAME>` record op (record.ts) all read it.
 */

import { deepFreeze } from "../../core/validate.js";
import type { IsaFamily } from "./isa/family.js";

export type { IsaFamily };

/** Threads per AMDGPU wavefront. */
export type WavefrontSize = 32 | 64;

/** One known AMDGPU processor: LLVM name, ISA family, ELF mach value and its hardware facts. */
export interface AmdgpuProcessor {
  /** LLVM processor name, e.g. "gfx1100" or "gfx11-generic". */
  readonly name: string;
  readonly family: IsaFamily;
  /** EF_AMDGPU_MACH_* value (low byte of e_flags). */
  readonly mach: number;
  /** Generic code object version (EF_AMDGPU_GENERIC_VERSION); 0 for a specific processor. */
  readonly genericVersion: number;
  /** Whether the processor has the xnack / sramecc target features. */
  readonly supportsXnack: boolean;
  readonly supportsSramecc: boolean;
  /** Supported wave sizes; the first is the default. */
  /** The first is the default. */
  readonly wavefrontSizes: readonly [WavefrontSize, ...WavefrontSize[]];
  /** Workgroup-local memory (LDS) per workgroup, bytes. */
  readonly ldsBytes: number;
  readonly maxWorkgroupSize: number;
  readonly maxFlatWorkgroupSize: number;
  readonly maxWavesPerSimd: number;
  /** SGPRs a wave may address. */
  readonly addressableSgprs: number;
  /** VGPRs per lane in one SIMD's file, per wave size (gfx90a/gfx94x: arch + acc, unified). */
  readonly vgprFile: Readonly<Record<WavefrontSize, number>>;
  /** VGPR allocation granule per wave size. */
  readonly vgprAllocGranule: Readonly<Record<WavefrontSize, number>>;
  /** Accumulation registers with an `accum_offset` split (gfx90a, gfx94x). */
  readonly hasAccumOffset: boolean;
  /** Scratch addressed through architected flat scratch (no private segment buffer SGPRs). */
  readonly architectedFlatScratch: boolean;
  /**
   * gfx1100/gfx1102 (and gfx11-generic) hardware bug: in wave32, user + system SGPRs
   * must total 16, so the descriptor pads the user SGPR count (LLVM FeatureUserSGPRInit16Bug).
   */
  readonly userSgprInit16Bug: boolean;
}

const LDS_64K = 65536;

function gfx9(name: string, mach: number, architectedFlatScratch: boolean, ldsBytes = LDS_64K): AmdgpuProcessor {
  return {
    name,
    family: "gfx9",
    mach,
    genericVersion: 0,
    supportsXnack: true,
    supportsSramecc: true,
    wavefrontSizes: [64],
    ldsBytes,
    maxWorkgroupSize: 1024,
    maxFlatWorkgroupSize: 1024,
    maxWavesPerSimd: 8,
    addressableSgprs: 102,
    vgprFile: { 32: 512, 64: 512 },
    vgprAllocGranule: { 32: 8, 64: 8 },
    hasAccumOffset: true,
    architectedFlatScratch,
    userSgprInit16Bug: false,
  };
}

interface Rdna {
  readonly family: "gfx11" | "gfx12";
  readonly genericVersion?: number;
  /** 1536 VGPRs per lane in wave32 instead of 1024 (LLVM Feature1_5xVGPRs). */
  readonly extraVgprs: boolean;
  readonly userSgprInit16Bug?: boolean;
}

function rdna(name: string, mach: number, o: Rdna): AmdgpuProcessor {
  const file32 = o.extraVgprs ? 1536 : 1024;
  return {
    name,
    family: o.family,
    mach,
    genericVersion: o.genericVersion ?? 0,
    supportsXnack: false,
    supportsSramecc: false,
    wavefrontSizes: [32, 64],
    ldsBytes: LDS_64K,
    maxWorkgroupSize: 1024,
    maxFlatWorkgroupSize: 1024,
    maxWavesPerSimd: 16,
    addressableSgprs: 106,
    vgprFile: { 32: file32, 64: file32 / 2 },
    vgprAllocGranule: o.extraVgprs ? { 32: 24, 64: 12 } : { 32: 16, 64: 8 },
    hasAccumOffset: false,
    architectedFlatScratch: true,
    userSgprInit16Bug: o.userSgprInit16Bug ?? false,
  };
}

/** Every processor loom can target, by LLVM name. */
export const AMDGPU_PROCESSORS: ReadonlyMap<string, AmdgpuProcessor> = new Map(
  [
    gfx9("gfx90a", 0x3f, false),
    gfx9("gfx942", 0x4c, true),
    // CDNA4 (LLVM 20+; llc-19 does not know it, so test/amdgpu/llvm-agreement.test.ts skips
    // it): gfx942's register files, waves and architected flat scratch, EF_AMDGPU_MACH 0x04f,
    // and 160 KiB of LDS per workgroup (FeatureAddressableLocalMemorySize163840).
    gfx9("gfx950", 0x4f, true, 160 * 1024),
    rdna("gfx1100", 0x41, { family: "gfx11", extraVgprs: true, userSgprInit16Bug: true }),
    rdna("gfx1101", 0x46, { family: "gfx11", extraVgprs: true }),
    rdna("gfx1102", 0x47, { family: "gfx11", extraVgprs: false, userSgprInit16Bug: true }),
    rdna("gfx1103", 0x44, { family: "gfx11", extraVgprs: false }),
    rdna("gfx1150", 0x43, { family: "gfx11", extraVgprs: false }),
    rdna("gfx1151", 0x4a, { family: "gfx11", extraVgprs: true }),
    rdna("gfx1152", 0x55, { family: "gfx11", extraVgprs: false }),
    // A generic target runs on every member, so it takes the union of their quirks.
    rdna("gfx11-generic", 0x54, { family: "gfx11", genericVersion: 1, extraVgprs: false, userSgprInit16Bug: true }),
    rdna("gfx1200", 0x48, { family: "gfx12", extraVgprs: true }),
    rdna("gfx1201", 0x4e, { family: "gfx12", extraVgprs: true }),
    rdna("gfx12-generic", 0x59, { family: "gfx12", genericVersion: 1, extraVgprs: true }),
  ].map((p) => [p.name, deepFreeze(p)] as const),
);

/** Names of every AMDGPU processor this backend knows, in table order. */
export function knownProcessorNames(): string[] {
  return [...AMDGPU_PROCESSORS.keys()];
}
