/**
 * Code object v5/v6 metadata (AMDGPUUsage "Code Object V5 Metadata"): a MessagePack map in
 * an `NT_AMDGPU_METADATA` note. Keys are written sorted, as LLVM writes them, so that the
 * note equals LLVM's byte for byte for the same kernels.
 */
import type { ArgSlot } from "../../core/prepared.js";
import type { KernelDescriptor } from "./descriptor.js";
import { MsgpackWriter, packed } from "./elf/msgpack.js";
import type { AmdgpuTargetInfo } from "./profile.js";
import { amdhsaTarget } from "./target-id.js";

export const NT_AMDGPU_METADATA = 32;
/** amdhsa.version for code object v5 and v6 (v6 changed no metadata; LLVM keeps 1.2). */
export const AMDHSA_METADATA_VERSION: readonly [number, number] = [1, 2];

export interface KernelMetadataInput {
  readonly name: string;
  readonly args: readonly ArgSlot[];
  /** Code object v5 hidden arguments the code reads, after the explicit block. */
  readonly hiddenArguments?: readonly { readonly kind: string; readonly offset: number; readonly size: number }[];
  readonly kernargSize: number;
  readonly wavefrontSize: number;
  readonly maxFlatWorkgroupSize: number;
  readonly requiredWorkgroupSize?: readonly [number, number, number];
  readonly descriptor: KernelDescriptor;
}

/** The note is built in one scratch buffer per process (compiles are synchronous). */
const noteScratch = new MsgpackWriter();
const NOTE_NAME = "AMDGPU\0";
/** Elf64_Nhdr (12 bytes) then the name padded to 4 bytes. */
const NOTE_HEADER_SIZE = 12 + 8;

/** The fixed strings of the metadata, in MessagePack form once per process. */
const K_ADDRESS_SPACE = packed(".address_space");
const K_AGPR_COUNT = packed(".agpr_count");
const K_ARGS = packed(".args");
const K_GROUP_SEGMENT_FIXED_SIZE = packed(".group_segment_fixed_size");
const K_KERNARG_SEGMENT_ALIGN = packed(".kernarg_segment_align");
const K_KERNARG_SEGMENT_SIZE = packed(".kernarg_segment_size");
const K_MAX_FLAT_WORKGROUP_SIZE = packed(".max_flat_workgroup_size");
const K_NAME = packed(".name");
const K_OFFSET = packed(".offset");
const K_PRIVATE_SEGMENT_FIXED_SIZE = packed(".private_segment_fixed_size");
const K_REQD_WORKGROUP_SIZE = packed(".reqd_workgroup_size");
const K_SGPR_COUNT = packed(".sgpr_count");
const K_SGPR_SPILL_COUNT = packed(".sgpr_spill_count");
const K_SIZE = packed(".size");
const K_SYMBOL = packed(".symbol");
const K_USES_DYNAMIC_STACK = packed(".uses_dynamic_stack");
const K_VALUE_KIND = packed(".value_kind");
const K_VGPR_COUNT = packed(".vgpr_count");
const K_VGPR_SPILL_COUNT = packed(".vgpr_spill_count");
const K_WAVEFRONT_SIZE = packed(".wavefront_size");
const K_WORKGROUP_PROCESSOR_MODE = packed(".workgroup_processor_mode");
const K_AMDHSA_KERNELS = packed("amdhsa.kernels");
const K_AMDHSA_TARGET = packed("amdhsa.target");
const K_AMDHSA_VERSION = packed("amdhsa.version");

const V_GLOBAL = packed("global");
const V_GLOBAL_BUFFER = packed("global_buffer");
const V_BY_VALUE = packed("by_value");
/** `amdhsa.target` of each target, packed once. */
const packedTargets = new WeakMap<AmdgpuTargetInfo, Uint8Array>();

function writeArg(w: MsgpackWriter, name: string, offset: number, size: number, kind: Uint8Array, addressSpace?: Uint8Array): void {
  w.map(addressSpace ? 5 : 4);
  if (addressSpace) {
    w.raw(K_ADDRESS_SPACE);
    w.raw(addressSpace);
  }
  w.raw(K_NAME);
  w.str(name);
  w.raw(K_OFFSET);
  w.int(offset);
  w.raw(K_SIZE);
  w.int(size);
  w.raw(K_VALUE_KIND);
  w.raw(kind);
}

/** One kernel's map, written key by key in sorted order: the bytes of `kernelMetadata` (test/amdgpu/metadata-map.ts) through `encodeMsgpack`. */
function writeKernel(w: MsgpackWriter, info: AmdgpuTargetInfo, k: KernelMetadataInput): void {
  const d = k.descriptor;
  const agpr = info.processor.hasAccumOffset;
  const reqd = k.requiredWorkgroupSize;
  const wgp = info.processor.family !== "gfx9";
  w.map(14 + (agpr ? 1 : 0) + (reqd ? 1 : 0) + (wgp ? 1 : 0));
  if (agpr) {
    w.raw(K_AGPR_COUNT);
    w.int(d.agprCount);
  }
  const hidden = k.hiddenArguments ?? [];
  let entries = hidden.length;
  let maxArgAlign = 4;
  for (const a of k.args) {
    entries += a.type.kind === "prim" && a.type.name === "buffer" ? 2 : 1;
    if (a.align > maxArgAlign) maxArgAlign = a.align;
  }
  w.raw(K_ARGS);
  w.array(entries);
  for (const a of k.args) {
    if (a.type.kind === "prim" && a.type.name === "buffer") {
      writeArg(w, a.name, a.offset, 8, V_GLOBAL_BUFFER, V_GLOBAL);
      writeArg(w, `${a.name}.length`, a.offset + 8, 8, V_BY_VALUE);
    } else writeArg(w, a.name, a.offset, a.size, V_BY_VALUE);
  }
  for (const h of hidden) {
    w.map(3);
    w.raw(K_OFFSET);
    w.int(h.offset);
    w.raw(K_SIZE);
    w.int(h.size);
    w.raw(K_VALUE_KIND);
    w.str(h.kind);
  }
  w.raw(K_GROUP_SEGMENT_FIXED_SIZE);
  w.int(d.groupSegmentFixedSize);
  w.raw(K_KERNARG_SEGMENT_ALIGN);
  w.int(maxArgAlign);
  w.raw(K_KERNARG_SEGMENT_SIZE);
  w.int(k.kernargSize);
  w.raw(K_MAX_FLAT_WORKGROUP_SIZE);
  w.int(k.maxFlatWorkgroupSize);
  w.raw(K_NAME);
  w.str(k.name);
  w.raw(K_PRIVATE_SEGMENT_FIXED_SIZE);
  w.int(d.privateSegmentFixedSize);
  if (reqd) {
    w.raw(K_REQD_WORKGROUP_SIZE);
    w.array(reqd.length);
    for (const x of reqd) w.int(x);
  }
  w.raw(K_SGPR_COUNT);
  w.int(d.sgprCount);
  w.raw(K_SGPR_SPILL_COUNT);
  w.int(0);
  w.raw(K_SYMBOL);
  w.str(`${k.name}.kd`);
  w.raw(K_USES_DYNAMIC_STACK);
  w.bool((d.kernelCodeProperties & (1 << 11)) !== 0);
  w.raw(K_VGPR_COUNT);
  w.int(d.vgprCount);
  w.raw(K_VGPR_SPILL_COUNT);
  w.int(0);
  w.raw(K_WAVEFRONT_SIZE);
  w.int(k.wavefrontSize);
  if (wgp) {
    w.raw(K_WORKGROUP_PROCESSOR_MODE);
    w.int(1);
  }
}

/**
 * The `.note` section contents: one NT_AMDGPU_METADATA record named "AMDGPU" holding the
 * MessagePack of `metadataMap(info, kernels)` (test/amdgpu/metadata-map.ts), written directly (no intermediate objects).
 * The result is a view of a scratch buffer, valid until the next call.
 */
export function metadataNote(info: AmdgpuTargetInfo, kernels: readonly KernelMetadataInput[]): Uint8Array {
  const w = noteScratch;
  w.length = 0;
  w.reserve(NOTE_HEADER_SIZE);
  w.map(3);
  w.raw(K_AMDHSA_KERNELS);
  w.array(kernels.length);
  for (const k of kernels) writeKernel(w, info, k);
  w.raw(K_AMDHSA_TARGET);
  let target = packedTargets.get(info);
  if (!target) packedTargets.set(info, (target = packed(amdhsaTarget(info.processor, info.features))));
  w.raw(target);
  w.raw(K_AMDHSA_VERSION);
  w.array(AMDHSA_METADATA_VERSION.length);
  for (const x of AMDHSA_METADATA_VERSION) w.int(x);
  const descSize = w.length - NOTE_HEADER_SIZE;
  const end = w.reserve((4 - (descSize % 4)) % 4) + ((4 - (descSize % 4)) % 4);
  w.bytes.fill(0, NOTE_HEADER_SIZE + descSize, end);
  w.view.setUint32(0, NOTE_NAME.length, true);
  w.view.setUint32(4, descSize, true);
  w.view.setUint32(8, NT_AMDGPU_METADATA, true);
  for (let i = 0; i < 8; i++) w.bytes[12 + i] = i < NOTE_NAME.length ? NOTE_NAME.charCodeAt(i) : 0;
  return w.bytes.subarray(0, end);
}
