/**
 * The test oracle of the code object metadata note: the same metadata as plain objects, for
 * `@msgpack/msgpack` to encode with sorted keys (src/targets/amdgpu/metadata.ts writes the note
 * directly, key by key).
 */
import type { ArgSlot } from "../../src/core/prepared.js";
import type { MsgpackValue } from "../../src/targets/amdgpu/elf/msgpack.js";
import { AMDHSA_METADATA_VERSION, type KernelMetadataInput } from "../../src/targets/amdgpu/metadata.js";
import type { AmdgpuTargetInfo } from "../../src/targets/amdgpu/profile.js";
import { amdhsaTarget } from "../../src/targets/amdgpu/target-id.js";

type ArgMetadata = Readonly<Record<string, string | number>>;

/**
 * `.args` per the device ABI (language.md §7): a scalar is one `by_value` entry; a buffer
 * is a `global_buffer` address (8 bytes) then a `by_value` length (8 bytes).
 */
function argsMetadata(args: readonly ArgSlot[]): ArgMetadata[] {
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

function kernelMetadata(info: AmdgpuTargetInfo, k: KernelMetadataInput): Record<string, MsgpackValue> {
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
