/**
 * What the HSA handoff reads from an HSACO itself: the kernels' metadata (the msgpack
 * NT_AMDGPU_METADATA note), for the kernarg segment size and the hidden arguments' offsets.
 */
import { decode } from "@msgpack/msgpack";
import { LoomError } from "../../core/errors.js";

/** A code object v5 hidden kernel argument (`hidden_*` value kind) with its kernarg offset and size in bytes. */
export interface HiddenArgument {
  readonly valueKind: string;
  readonly offset: number;
  readonly size: number;
}

/**
 * One kernel of an HSACO's AMDGPU metadata note: segment sizes in bytes, wavefront width and its
 * `.args` layout.
 */
export interface HsacoKernelMetadata {
  readonly name: string;
  /** The kernel descriptor symbol (`<name>.kd`), what hsa_executable_get_symbol_by_name takes. */
  readonly symbol: string;
  readonly kernargSegmentSize: number;
  readonly kernargSegmentAlign: number;
  readonly groupSegmentFixedSize: number;
  readonly privateSegmentFixedSize: number;
  readonly wavefrontSize: number;
  /** Every `.args` entry as written: explicit ones and the code object v5 hidden ones. */
  readonly args: readonly { readonly name?: string; readonly offset: number; readonly size: number; readonly valueKind: string }[];
  readonly hidden: readonly HiddenArgument[];
}

/** The AMDGPU metadata note of an HSACO: its target ISA name and its kernels. */
export interface HsacoMetadata {
  readonly target: string;
  readonly kernels: readonly HsacoKernelMetadata[];
}

const bad = (why: string): never => {
  throw new LoomError("data-loss", `not a valid AMDGPU code object: ${why}`);
};

/** The metadata note of an HSACO (ELF64 little-endian, EM_AMDGPU). */
export function readHsacoMetadata(bytes: Uint8Array): HsacoMetadata {
  if (bytes.length < 64 || bytes[0] !== 0x7f || bytes[1] !== 0x45 || bytes[2] !== 0x4c || bytes[3] !== 0x46 || bytes[4] !== 2 || bytes[5] !== 1) bad("not an ELF64 little-endian file");
  const v = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (v.getUint16(18, true) !== 224) bad("e_machine is not EM_AMDGPU");
  const shoff = Number(v.getBigUint64(40, true));
  const shnum = v.getUint16(60, true);
  if (shoff + shnum * 64 > bytes.length) bad("section headers outside the file");
  for (let i = 0; i < shnum; i++) {
    const at = shoff + i * 64;
    if (v.getUint32(at + 4, true) !== 7 /* SHT_NOTE */) continue;
    const off = Number(v.getBigUint64(at + 24, true));
    const size = Number(v.getBigUint64(at + 32, true));
    if (off + size > bytes.length) bad("a note section outside the file");
    for (let p = off; p + 12 <= off + size; ) {
      const nameSize = v.getUint32(p, true);
      const descSize = v.getUint32(p + 4, true);
      const type = v.getUint32(p + 8, true);
      const descAt = p + 12 + ((nameSize + 3) & ~3);
      if (descAt + descSize > off + size) bad("a note outside its section");
      const name = new TextDecoder().decode(bytes.subarray(p + 12, p + 12 + nameSize)).replace(/\0+$/, "");
      if (name === "AMDGPU" && type === 32) return parse(bytes.subarray(descAt, descAt + descSize));
      p = descAt + ((descSize + 3) & ~3);
    }
  }
  return bad("no NT_AMDGPU_METADATA note");
}

function parse(desc: Uint8Array): HsacoMetadata {
  let md: Record<string, unknown>;
  try {
    md = decode(desc) as Record<string, unknown>;
  } catch (e) {
    return bad(`the metadata note is not MessagePack (${(e as Error).message})`);
  }
  const n = (x: unknown, what: string): number => (typeof x === "number" ? x : bad(`metadata ${what} is not a number`));
  const kernels = (Array.isArray(md["amdhsa.kernels"]) ? md["amdhsa.kernels"] : bad("no amdhsa.kernels")) as Record<string, unknown>[];
  return {
    target: String(md["amdhsa.target"] ?? ""),
    kernels: kernels.map((k) => {
      const name = String(k[".name"] ?? bad("a kernel without .name"));
      const args = ((k[".args"] as Record<string, unknown>[] | undefined) ?? []).map((a, i) => ({
        ...(typeof a[".name"] === "string" ? { name: a[".name"] } : {}),
        offset: n(a[".offset"], `${name}.args[${i}].offset`),
        size: n(a[".size"], `${name}.args[${i}].size`),
        valueKind: String(a[".value_kind"] ?? bad(`${name}.args[${i}] has no .value_kind`)),
      }));
      return {
        name,
        symbol: String(k[".symbol"] ?? `${name}.kd`),
        kernargSegmentSize: n(k[".kernarg_segment_size"] ?? 0, `${name}.kernarg_segment_size`),
        kernargSegmentAlign: n(k[".kernarg_segment_align"] ?? 8, `${name}.kernarg_segment_align`),
        groupSegmentFixedSize: n(k[".group_segment_fixed_size"] ?? 0, `${name}.group_segment_fixed_size`),
        privateSegmentFixedSize: n(k[".private_segment_fixed_size"] ?? 0, `${name}.private_segment_fixed_size`),
        wavefrontSize: n(k[".wavefront_size"] ?? 64, `${name}.wavefront_size`),
        args,
        hidden: args.filter((a) => a.valueKind.startsWith("hidden_")),
      };
    }),
  };
}
