/**
 * Code object v5/v6 metadata (AMDGPUUsage "Code Object V5 Metadata"): a MessagePack map in
 * an `NT_AMDGPU_METADATA` note. Keys are written sorted, as LLVM writes them, so that the
 * note equals LLVM's byte for byte for the same kernels.
 */
import type { ArgSlot } from "../../core/prepared.js";
import type { KernelDescriptor } from "./descriptor.js";
import { encodeMsgpack, type MsgpackValue } from "./elf/msgpack.js";
import { elfNote } from "./elf/note.js";
import type { AmdgpuTargetInfo } from "./profile.js";
import { amdhsaTarget } from "./target-id.js";

export const NT_AMDGPU_METADATA = 32;
/** amdhsa.version for code object v5 and v6 (v6 changed no metadata; LLVM keeps 1.2). */
export const AMDHSA_METADATA_VERSION: readonly [number, number] = [1, 2];

export type ArgMetadata = Readonly<Record<string, string | number>>;

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

/**
 * `.args` per the device ABI (language.md §7): a scalar is one `by_value` entry; a buffer
 * is a `global_buffer` address (8 bytes) then a `by_value` length (8 bytes).
 */
export function argsMetadata(args: readonly ArgSlot[]): ArgMetadata[] {
  const out: ArgMetadata[] = [];
  for (const a of args) {
    if (a.type.kind === "prim" && a.type.name === "buffer") {
      out.push({ ".address_space": "global", ".name": a.name, ".offset": a.offset, ".size": 8, ".value_kind": "global_buffer" });
      out.push({ ".name": `${a.name}.length`, ".offset": a.offset + 8, ".size": 8, ".value_kind": "by_value" });
    } else {
      out.push({ ".name": a.name, ".offset": a.offset, ".size": a.size, ".value_kind": "by_value" });
    }
  }
  return out;
}

export function kernelMetadata(info: AmdgpuTargetInfo, k: KernelMetadataInput): Record<string, MsgpackValue> {
  const d = k.descriptor;
  const maxArgAlign = k.args.reduce((m, a) => Math.max(m, a.align), 4);
  const md: Record<string, MsgpackValue> = {
    ".args": [...argsMetadata(k.args), ...(k.hiddenArguments ?? []).map((h) => ({ ".offset": h.offset, ".size": h.size, ".value_kind": h.kind }))],
    ".group_segment_fixed_size": d.groupSegmentFixedSize,
    ".kernarg_segment_align": maxArgAlign,
    ".kernarg_segment_size": k.kernargSize,
    ".max_flat_workgroup_size": k.maxFlatWorkgroupSize,
    ".name": k.name,
    ".private_segment_fixed_size": d.privateSegmentFixedSize,
    ".sgpr_count": d.sgprCount,
    ".sgpr_spill_count": 0,
    ".symbol": `${k.name}.kd`,
    ".uses_dynamic_stack": (d.kernelCodeProperties & (1 << 11)) !== 0,
    ".vgpr_count": d.vgprCount,
    ".vgpr_spill_count": 0,
    ".wavefront_size": k.wavefrontSize,
  };
  if (info.processor.hasAccumOffset) md[".agpr_count"] = d.agprCount;
  if (k.requiredWorkgroupSize) md[".reqd_workgroup_size"] = [...k.requiredWorkgroupSize];
  if (info.processor.family !== "gfx9") md[".workgroup_processor_mode"] = 1;
  return md;
}

export function metadataMap(info: AmdgpuTargetInfo, kernels: readonly KernelMetadataInput[]): Record<string, MsgpackValue> {
  return {
    "amdhsa.kernels": kernels.map((k) => kernelMetadata(info, k)),
    "amdhsa.target": amdhsaTarget(info.processor, info.features),
    "amdhsa.version": [...AMDHSA_METADATA_VERSION],
  };
}

/** The `.note` section contents: one NT_AMDGPU_METADATA record named "AMDGPU". */
export function metadataNote(map: Record<string, MsgpackValue>): Uint8Array {
  return elfNote("AMDGPU", NT_AMDGPU_METADATA, encodeMsgpack(map));
}
