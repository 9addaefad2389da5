/**
 * The 64-byte AMDHSA kernel descriptor (AMDGPUUsage "Kernel Descriptor", code object v3+).
 *
 * `describeKernel` turns what the machine code needs (registers, which hardware-initialized
 * SGPRs/VGPRs it reads, segment sizes) into descriptor fields with the defaults LLVM uses
 * per family; `encodeKernelDescriptor` packs the fields into bytes. The fields are named
 * after the `.amdhsa_*` assembler directives so a test can write the same kernel as
 * assembly and compare.
 */
import type { AmdgpuTargetInfo } from "./profile.js";
import type { WavefrontSize } from "./profiles.js";

/** What a kernel's machine code uses; the lowering fills this in. */
export interface KernelResources {
  /** Highest VGPR index used + 1 (0 when none). */
  readonly vgprs: number;
  /** Accumulation VGPRs used (gfx90a/gfx94x only). */
  readonly agprs: number;
  /** Highest SGPR index used + 1, excluding VCC/flat scratch/xnack mask (0 when none). */
  readonly sgprs: number;
  readonly usesVcc: boolean;
  readonly usesFlatScratch: boolean;
  /** Workgroup id SGPRs needed; x is always enabled, as LLVM does. */
  readonly workgroupIdY: boolean;
  readonly workgroupIdZ: boolean;
  /** Highest workitem id dimension delivered in VGPRs: 0 = x, 1 = x,y, 2 = x,y,z. */
  readonly workitemIdDims: 0 | 1 | 2;
  readonly privateSegmentFixedSize: number;
  readonly usesDynamicStack: boolean;
}

export interface KernelDescriptorInput {
  readonly info: AmdgpuTargetInfo;
  readonly wavefrontSize: WavefrontSize;
  readonly groupSegmentFixedSize: number;
  readonly kernargSize: number;
  readonly resources: KernelResources;
}

/** Descriptor fields, named after their `.amdhsa_*` directives. */
export interface KernelDescriptor {
  readonly groupSegmentFixedSize: number;
  readonly privateSegmentFixedSize: number;
  readonly kernargSize: number;
  readonly computePgmRsrc1: number;
  readonly computePgmRsrc2: number;
  readonly computePgmRsrc3: number;
  readonly kernelCodeProperties: number;
  /** Facts reported in the metadata too. */
  readonly userSgprCount: number;
  readonly nextFreeVgpr: number;
  readonly accumOffset: number;
  /** SGPRs including VCC/flat scratch/xnack mask, as `.sgpr_count` reports. */
  readonly sgprCount: number;
  /** Total VGPRs (arch + acc), as `.vgpr_count` reports. */
  readonly vgprCount: number;
  /** Accumulation VGPRs, as `.agpr_count` reports (gfx90a/gfx94x). */
  readonly agprCount: number;
}

// kernel_code_properties bits
const KCP_PRIVATE_SEGMENT_BUFFER = 1 << 0;
const KCP_KERNARG_SEGMENT_PTR = 1 << 3;
const KCP_WAVEFRONT_SIZE32 = 1 << 10;
const KCP_USES_DYNAMIC_STACK = 1 << 11;

const alignTo = (x: number, a: number) => Math.ceil(x / a) * a;

/** Extra SGPRs the hardware reserves beyond those the code names (LLVM getNumExtraSGPRs). */
function extraSgprs(info: AmdgpuTargetInfo, r: KernelResources): number {
  const vcc = r.usesVcc ? 2 : 0;
  if (info.processor.family !== "gfx9") return vcc;
  if (r.usesFlatScratch || info.processor.architectedFlatScratch) return 6;
  const xnack = info.features.xnack === "on" || info.features.xnack === "any";
  return xnack ? 4 : vcc;
}

/**
 * Where the hardware puts the user and system SGPRs: the private segment buffer (gfx90a)
 * in s[0:3], the kernarg segment pointer next, padding for the gfx1100 wave32 bug, then
 * the workgroup ids x, y, z (the enabled ones, in order).
 */
export function sgprLayout(info: AmdgpuTargetInfo, wavefrontSize: WavefrontSize, kernargSize: number, workgroupIdY: boolean, workgroupIdZ: boolean) {
  const p = info.processor;
  const privateSegmentBuffer = p.family === "gfx9" && !p.architectedFlatScratch;
  const kernargPtr = kernargSize > 0;
  let userSgprCount = (privateSegmentBuffer ? 4 : 0) + (kernargPtr ? 2 : 0);
  const systemSgprs = 1 + (workgroupIdY ? 1 : 0) + (workgroupIdZ ? 1 : 0);
  if (p.userSgprInit16Bug && wavefrontSize === 32) userSgprCount = Math.max(userSgprCount, 16 - systemSgprs);
  const kernargSgpr = privateSegmentBuffer ? 4 : 0;
  const workgroupIdSgprs = [userSgprCount, userSgprCount + 1, userSgprCount + (workgroupIdY ? 2 : 1)];
  return { privateSegmentBuffer, kernargPtr, userSgprCount, systemSgprs, kernargSgpr, workgroupIdSgprs };
}

export function describeKernel(input: KernelDescriptorInput): KernelDescriptor {
  const { info, resources: r, wavefrontSize } = input;
  const p = info.processor;
  const gfx9 = p.family === "gfx9";
  const wave32 = wavefrontSize === 32;

  const { privateSegmentBuffer, kernargPtr, userSgprCount } = sgprLayout(info, wavefrontSize, input.kernargSize, r.workgroupIdY, r.workgroupIdZ);

  // VGPRs: on gfx90a/gfx94x arch VGPRs come first, AGPRs from accum_offset (a multiple of 4).
  const accumOffset = p.hasAccumOffset ? alignTo(Math.max(1, r.vgprs), 4) : 0;
  const vgprCount = p.hasAccumOffset && r.agprs > 0 ? accumOffset + r.agprs : Math.max(r.vgprs, r.agprs);
  const nextFreeVgpr = Math.max(1, vgprCount);
  const vgprGranule = p.hasAccumOffset ? 8 : wave32 ? 8 : 4;
  const vgprBlocks = Math.ceil(nextFreeVgpr / vgprGranule) - 1;

  const sgprCount = r.sgprs + extraSgprs(info, r);
  // gfx10+ allocates SGPRs itself; the field must be 0 there.
  const sgprBlocks = gfx9 ? Math.ceil(Math.max(1, sgprCount) / 8) - 1 : 0;

  let rsrc1 = vgprBlocks | (sgprBlocks << 6);
  rsrc1 |= (3 << 16) | (3 << 18); // FLOAT_DENORM_MODE_32 / _16_64: flush none
  if (p.family !== "gfx12") rsrc1 |= (1 << 21) | (1 << 23); // ENABLE_DX10_CLAMP, ENABLE_IEEE_MODE
  if (!gfx9) rsrc1 |= (1 << 29) | (1 << 30); // WGP_MODE, MEM_ORDERED

  let rsrc2 = r.privateSegmentFixedSize > 0 || r.usesDynamicStack ? 1 : 0; // ENABLE_PRIVATE_SEGMENT
  rsrc2 |= userSgprCount << 1;
  rsrc2 |= 1 << 7; // ENABLE_SGPR_WORKGROUP_ID_X
  if (r.workgroupIdY) rsrc2 |= 1 << 8;
  if (r.workgroupIdZ) rsrc2 |= 1 << 9;
  rsrc2 |= r.workitemIdDims << 11;

  // gfx90a/gfx94x: ACCUM_OFFSET = accum_offset / 4 − 1, TG_SPLIT = 0. gfx10+: shared VGPRs 0.
  const rsrc3 = p.hasAccumOffset ? accumOffset / 4 - 1 : 0;

  let kcp = 0;
  if (privateSegmentBuffer) kcp |= KCP_PRIVATE_SEGMENT_BUFFER;
  if (kernargPtr) kcp |= KCP_KERNARG_SEGMENT_PTR;
  if (!gfx9 && wave32) kcp |= KCP_WAVEFRONT_SIZE32;
  if (r.usesDynamicStack) kcp |= KCP_USES_DYNAMIC_STACK;

  return {
    groupSegmentFixedSize: input.groupSegmentFixedSize,
    privateSegmentFixedSize: r.privateSegmentFixedSize,
    kernargSize: input.kernargSize,
    computePgmRsrc1: rsrc1 >>> 0,
    computePgmRsrc2: rsrc2 >>> 0,
    computePgmRsrc3: rsrc3 >>> 0,
    kernelCodeProperties: kcp,
    userSgprCount,
    nextFreeVgpr,
    accumOffset,
    sgprCount,
    vgprCount,
    agprCount: r.agprs,
  };
}

export const KERNEL_DESCRIPTOR_SIZE = 64;

/**
 * Writes the descriptor's 64 bytes at `at` of `view` (which holds zeros there: reserved
 * fields are not written). `entryOffset` = kernel code address − descriptor address
 * (KERNEL_CODE_ENTRY_BYTE_OFFSET, a signed 64-bit value).
 */
export function writeKernelDescriptor(view: DataView, at: number, d: KernelDescriptor, entryOffset: number): void {
  view.setUint32(at, d.groupSegmentFixedSize, true);
  view.setUint32(at + 4, d.privateSegmentFixedSize, true);
  view.setUint32(at + 8, d.kernargSize, true);
  // 12..15 reserved
  const hi = Math.floor(entryOffset / 0x100000000);
  view.setUint32(at + 16, entryOffset - hi * 0x100000000, true);
  view.setUint32(at + 20, hi >>> 0, true);
  // 24..43 reserved
  view.setUint32(at + 44, d.computePgmRsrc3, true);
  view.setUint32(at + 48, d.computePgmRsrc1, true);
  view.setUint32(at + 52, d.computePgmRsrc2, true);
  view.setUint16(at + 56, d.kernelCodeProperties, true);
  // 58..59 kernarg preload: none; 60..63 reserved
}
