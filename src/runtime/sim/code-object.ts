/**
 * An HSACO (AMDGPU code object v5 / v6) as the simulator needs it: the processor and ISA
 * family, and per kernel its metadata (the msgpack NT_AMDGPU_METADATA note), its 64-byte
 * kernel descriptor (`<name>.kd`) and where its code starts (AMDGPUUsage "Kernel Descriptor").
 */
import { decode } from "@msgpack/msgpack";
import { LoomError } from "../../core/errors.js";
import { bytesAtAddress, ELFOSABI_AMDGPU_HSA, readElf, type ElfFile, type ElfSection } from "./elf.js";

const NT_AMDGPU_METADATA = 32;
const STT_FUNC = 2;

/** The ISA families the simulator decodes: RDNA3 (gfx11, wave32 by default) and CDNA3-style gfx9 (gfx90a, gfx94x). */
export type IsaFamily = "gfx11" | "gfx9";

/** One `.args` entry of the metadata. */
export interface KernelArgMetadata {
  readonly name?: string;
  readonly offset: number;
  readonly size: number;
  readonly valueKind: string;
  readonly typeName?: string;
  readonly addressSpace?: string;
}

/** The fields of the 64-byte kernel descriptor the simulator reads. */
export interface KernelDescriptorFields {
  readonly groupSegmentFixedSize: number;
  readonly privateSegmentFixedSize: number;
  readonly kernargSize: number;
  readonly entryByteOffset: number;
  readonly rsrc1: number;
  readonly rsrc2: number;
  readonly rsrc3: number;
  readonly codeProperties: number;
  readonly kernargPreload: number;
}

/**
 * One kernel of a loaded code object: its metadata (segment sizes in bytes, wavefront width,
 * register counts) and where its machine code starts.
 */
export interface SimKernel {
  readonly name: string;
  readonly args: readonly KernelArgMetadata[];
  readonly kernargSegmentSize: number;
  readonly kernargSegmentAlign: number;
  readonly groupSegmentFixedSize: number;
  readonly privateSegmentFixedSize: number;
  readonly wavefrontSize: 32 | 64;
  readonly sgprCount: number;
  readonly vgprCount: number;
  readonly requiredWorkgroupSize?: readonly [number, number, number];
  readonly maxFlatWorkgroupSize: number;
  readonly descriptor: KernelDescriptorFields;
  /** Virtual address of the first instruction. */
  readonly entryAddress: number;
  /** The code section holding the entry and the address range of the kernel's function symbol (or the rest of the section). */
  readonly codeSection: ElfSection;
  readonly codeStart: number;
  readonly codeEnd: number;
}

/** An HSACO parsed for the simulator: the ELF, the processor and ISA family it targets, and its kernels. */
export interface CodeObject {
  readonly elf: ElfFile;
  /** The processor, e.g. "gfx1100", "gfx942", "gfx11-generic". */
  readonly processor: string;
  readonly family: IsaFamily;
  /** gfx90a, gfx94x and gfx11 pack the work-item ids into v0 (x [9:0], y [19:10], z [29:20]). */
  readonly packedWorkitemIds: boolean;
  /** gfx94x and gfx11 set up the wave's scratch base themselves (AMDGPUUsage "architected flat scratch"). */
  readonly architectedFlatScratch: boolean;
  readonly target: string;
  readonly kernels: readonly SimKernel[];
}

function bad(message: string): never {
  throw new LoomError("data-loss", `not a valid AMDGPU code object: ${message}`);
}

/** The ISA family of a processor name, or undefined when the simulator has no decoder for it. */
export function familyOfProcessor(processor: string): IsaFamily | undefined {
  if (/^gfx11(\d\d|-generic)$/.test(processor)) return "gfx11";
  if (/^gfx9(0a|4[0-2])$/.test(processor)) return "gfx9";
  return undefined;
}

const num = (v: unknown, what: string): number => {
  if (typeof v === "number" && Number.isFinite(v)) return v;
  if (typeof v === "bigint" && v <= BigInt(Number.MAX_SAFE_INTEGER)) return Number(v);
  return bad(`metadata field ${what} is not a number`);
};

function readDescriptor(elf: ElfFile, address: number, name: string): KernelDescriptorFields {
  const { bytes } = bytesAtAddress(elf, address, 64, `kernel descriptor ${name}.kd`);
  const v = new DataView(bytes.buffer, bytes.byteOffset, 64);
  const entry = v.getBigInt64(16, true);
  return {
    groupSegmentFixedSize: v.getUint32(0, true),
    privateSegmentFixedSize: v.getUint32(4, true),
    kernargSize: v.getUint32(8, true),
    entryByteOffset: Number(entry),
    rsrc3: v.getUint32(44, true),
    rsrc1: v.getUint32(48, true),
    rsrc2: v.getUint32(52, true),
    codeProperties: v.getUint16(56, true),
    kernargPreload: v.getUint16(58, true),
  };
}

function readArgs(raw: unknown, kernel: string): KernelArgMetadata[] {
  if (raw === undefined) return [];
  if (!Array.isArray(raw)) bad(`kernel ${kernel}: .args is not an array`);
  return raw.map((a: Record<string, unknown>, i) => {
    if (typeof a !== "object" || a === null) bad(`kernel ${kernel}: .args[${i}] is not a map`);
    const what = `kernel ${kernel} .args[${i}]`;
    const out: KernelArgMetadata = {
      offset: num(a[".offset"], `${what}.offset`),
      size: num(a[".size"], `${what}.size`),
      valueKind: String(a[".value_kind"] ?? bad(`${what} has no .value_kind`)),
      ...(typeof a[".name"] === "string" ? { name: a[".name"] } : {}),
      ...(typeof a[".type_name"] === "string" ? { typeName: a[".type_name"] } : {}),
      ...(typeof a[".address_space"] === "string" ? { addressSpace: a[".address_space"] } : {}),
    };
    return out;
  });
}

/** Reads a code object from memory; a file that is not an HSA AMDGPU code object of a supported family is a LoomError. */
export function loadCodeObject(bytes: Uint8Array): CodeObject {
  const elf = readElf(bytes);
  if (elf.osAbi !== ELFOSABI_AMDGPU_HSA) bad(`OS/ABI ${elf.osAbi} is not AMDGPU HSA (64)`);
  if (elf.abiVersion !== 3 && elf.abiVersion !== 4) {
    throw new LoomError("unimplemented", `code object ABI version ${elf.abiVersion} is not v5 (3) or v6 (4); the simulator reads only those`);
  }
  const note = elf.notes.find((n) => n.name === "AMDGPU" && n.type === NT_AMDGPU_METADATA);
  if (!note) bad("no NT_AMDGPU_METADATA note");
  let md: Record<string, unknown>;
  try {
    md = decode(note.desc) as Record<string, unknown>;
  } catch (e) {
    bad(`the metadata note is not MessagePack (${(e as Error).message})`);
  }
  const target = String(md["amdhsa.target"] ?? bad("metadata has no amdhsa.target"));
  const processor = /--(gfx[0-9a-z-]+?)(?::|$)/.exec(target)?.[1] ?? bad(`amdhsa.target '${target}' names no processor`);
  const family = familyOfProcessor(processor);
  if (!family) throw new LoomError("unimplemented", `the simulator decodes gfx11 (RDNA3) and gfx90a/gfx94x (CDNA) code; this code object is for ${processor}`);
  const kernelsRaw = md["amdhsa.kernels"];
  if (!Array.isArray(kernelsRaw)) bad("metadata has no amdhsa.kernels array");

  const kernels = kernelsRaw.map((k: Record<string, unknown>): SimKernel => {
    if (typeof k !== "object" || k === null) bad("an amdhsa.kernels entry is not a map");
    const name = String(k[".name"] ?? bad("a kernel without .name"));
    const symbolName = String(k[".symbol"] ?? `${name}.kd`);
    const kd = elf.symbols.find((s) => s.name === symbolName);
    if (!kd) bad(`kernel ${name}: no symbol ${symbolName}`);
    const descriptor = readDescriptor(elf, kd.value, name);
    const entryAddress = kd.value + descriptor.entryByteOffset;
    const { section } = bytesAtAddress(elf, entryAddress, 4, `the entry of kernel ${name}`);
    if ((section.flags & 4) === 0) bad(`kernel ${name}: entry 0x${entryAddress.toString(16)} is not in an executable section`);
    const func = elf.symbols.find((s) => s.type === STT_FUNC && s.value === entryAddress && s.size > 0);
    const wave = num(k[".wavefront_size"] ?? (family === "gfx9" ? 64 : 32), `kernel ${name} .wavefront_size`);
    if (wave !== 32 && wave !== 64) bad(`kernel ${name}: wavefront size ${wave}`);
    const wave32 = (descriptor.codeProperties & (1 << 10)) !== 0;
    if ((wave === 32) !== wave32) bad(`kernel ${name}: metadata wavefront size ${wave} disagrees with the descriptor's ENABLE_WAVEFRONT_SIZE32 bit`);
    if (family === "gfx9" && wave32) bad(`kernel ${name}: wave32 on ${processor}`);
    const reqd = k[".reqd_workgroup_size"];
    return {
      name,
      args: readArgs(k[".args"], name),
      kernargSegmentSize: num(k[".kernarg_segment_size"] ?? descriptor.kernargSize, `kernel ${name} .kernarg_segment_size`),
      kernargSegmentAlign: num(k[".kernarg_segment_align"] ?? 8, `kernel ${name} .kernarg_segment_align`),
      groupSegmentFixedSize: descriptor.groupSegmentFixedSize,
      privateSegmentFixedSize: descriptor.privateSegmentFixedSize,
      wavefrontSize: wave,
      sgprCount: num(k[".sgpr_count"] ?? 0, `kernel ${name} .sgpr_count`),
      vgprCount: num(k[".vgpr_count"] ?? 0, `kernel ${name} .vgpr_count`),
      ...(Array.isArray(reqd) && reqd.length === 3 ? { requiredWorkgroupSize: reqd.map((x, i) => num(x, `kernel ${name} .reqd_workgroup_size[${i}]`)) as unknown as [number, number, number] } : {}),
      maxFlatWorkgroupSize: num(k[".max_flat_workgroup_size"] ?? 1024, `kernel ${name} .max_flat_workgroup_size`),
      descriptor,
      entryAddress,
      codeSection: section,
      codeStart: entryAddress,
      codeEnd: func ? entryAddress + func.size : section.address + section.size,
    };
  });
  return { elf, processor, family, packedWorkitemIds: family === "gfx11" || /^gfx9(0a|4)/.test(processor), architectedFlatScratch: family === "gfx11" || /^gfx9(4|50)/.test(processor), target, kernels };
}
