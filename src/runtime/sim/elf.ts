/**
 * A small reader for the ELF64 little-endian shared objects that AMDGPU code objects are:
 * header, sections, symbols and notes. Every offset is bounds-checked; a malformed file is a
 * LoomError ("data-loss"), never an exception from a typed array.
 */
import { LoomError } from "../../core/errors.js";

export const EM_AMDGPU = 224;
export const ELFOSABI_AMDGPU_HSA = 64;
const SHT_SYMTAB = 2;
const SHT_NOTE = 7;
const SHT_DYNSYM = 11;

export interface ElfSection {
  readonly name: string;
  readonly type: number;
  readonly flags: number;
  readonly address: number;
  readonly offset: number;
  readonly size: number;
  readonly link: number;
  readonly entrySize: number;
}

export interface ElfSymbol {
  readonly name: string;
  readonly value: number;
  readonly size: number;
  /** STT_* (low nibble of st_info). */
  readonly type: number;
  readonly sectionIndex: number;
}

export interface ElfNote {
  readonly name: string;
  readonly type: number;
  readonly desc: Uint8Array;
}

export interface ElfFile {
  readonly bytes: Uint8Array;
  readonly osAbi: number;
  readonly abiVersion: number;
  readonly machine: number;
  readonly flags: number;
  readonly sections: readonly ElfSection[];
  readonly symbols: readonly ElfSymbol[];
  readonly notes: readonly ElfNote[];
}

function fail(message: string): never {
  throw new LoomError("data-loss", `not a valid AMDGPU code object: ${message}`);
}

/** Bytes [offset, offset + size) of the file, or a LoomError. */
function slice(bytes: Uint8Array, offset: number, size: number, what: string): Uint8Array {
  if (!Number.isSafeInteger(offset) || !Number.isSafeInteger(size) || offset < 0 || size < 0 || offset + size > bytes.length) {
    fail(`${what} (bytes ${offset}..${offset + size}) lies outside the ${bytes.length}-byte file`);
  }
  return bytes.subarray(offset, offset + size);
}

function u64(view: DataView, at: number): number {
  const v = view.getBigUint64(at, true);
  if (v > BigInt(Number.MAX_SAFE_INTEGER)) fail(`a 64-bit field at ${at} is too large`);
  return Number(v);
}

function cString(table: Uint8Array, at: number): string {
  if (at >= table.length) fail(`string offset ${at} outside its table`);
  let end = at;
  while (end < table.length && table[end] !== 0) end++;
  return new TextDecoder().decode(table.subarray(at, end));
}

export function readElf(bytes: Uint8Array): ElfFile {
  if (!(bytes instanceof Uint8Array)) throw new LoomError("invalid-argument", "a code object must be a Uint8Array");
  if (bytes.length < 64 || bytes[0] !== 0x7f || bytes[1] !== 0x45 || bytes[2] !== 0x4c || bytes[3] !== 0x46) fail("no ELF magic");
  if (bytes[4] !== 2 || bytes[5] !== 1) fail("not ELF64 little-endian");
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const machine = view.getUint16(18, true);
  if (machine !== EM_AMDGPU) fail(`e_machine is ${machine}, not EM_AMDGPU (224)`);
  const shoff = u64(view, 40);
  const shentsize = view.getUint16(58, true);
  const shnum = view.getUint16(60, true);
  const shstrndx = view.getUint16(62, true);
  if (shentsize !== 64) fail(`section header size ${shentsize}`);
  const headers = slice(bytes, shoff, shnum * 64, "the section headers");
  const hv = new DataView(headers.buffer, headers.byteOffset, headers.byteLength);
  const raw = Array.from({ length: shnum }, (_, i) => {
    const at = i * 64;
    return {
      nameOffset: hv.getUint32(at, true),
      type: hv.getUint32(at + 4, true),
      flags: u64(hv, at + 8),
      address: u64(hv, at + 16),
      offset: u64(hv, at + 24),
      size: u64(hv, at + 32),
      link: hv.getUint32(at + 40, true),
      entrySize: u64(hv, at + 56),
    };
  });
  const shstr = raw[shstrndx];
  if (!shstr) fail("no section name table");
  const names = slice(bytes, shstr.offset, shstr.size, "the section name table");
  const sections: ElfSection[] = raw.map((s) => ({ ...s, name: cString(names, s.nameOffset) }));

  // Prefer .symtab (all symbols); a stripped object still has .dynsym with the kernels.
  const symtab = sections.find((s) => s.type === SHT_SYMTAB) ?? sections.find((s) => s.type === SHT_DYNSYM);
  const symbols: ElfSymbol[] = [];
  if (symtab) {
    const strtab = sections[symtab.link];
    if (!strtab) fail("symbol table without a string table");
    const strings = slice(bytes, strtab.offset, strtab.size, "the symbol string table");
    const table = slice(bytes, symtab.offset, symtab.size, "the symbol table");
    const tv = new DataView(table.buffer, table.byteOffset, table.byteLength);
    for (let at = 24; at + 24 <= table.length; at += 24) {
      symbols.push({
        name: cString(strings, tv.getUint32(at, true)),
        type: tv.getUint8(at + 4) & 0xf,
        sectionIndex: tv.getUint16(at + 6, true),
        value: u64(tv, at + 8),
        size: u64(tv, at + 16),
      });
    }
  }

  const notes: ElfNote[] = [];
  for (const s of sections) {
    if (s.type !== SHT_NOTE) continue;
    const data = slice(bytes, s.offset, s.size, `section ${s.name}`);
    const nv = new DataView(data.buffer, data.byteOffset, data.byteLength);
    let at = 0;
    while (at + 12 <= data.length) {
      const nameSize = nv.getUint32(at, true);
      const descSize = nv.getUint32(at + 4, true);
      const type = nv.getUint32(at + 8, true);
      const nameAt = at + 12;
      const descAt = nameAt + ((nameSize + 3) & ~3);
      const name = new TextDecoder().decode(slice(data, nameAt, nameSize, "a note name")).replace(/\0+$/, "");
      notes.push({ name, type, desc: slice(data, descAt, descSize, "a note descriptor") });
      at = descAt + ((descSize + 3) & ~3);
    }
  }
  return { bytes, osAbi: bytes[7]!, abiVersion: bytes[8]!, machine, flags: view.getUint32(48, true), sections, symbols, notes };
}

/** File bytes of a virtual address range inside one section, or a LoomError. */
export function bytesAtAddress(elf: ElfFile, address: number, size: number, what: string): { readonly bytes: Uint8Array; readonly section: ElfSection } {
  const section = elf.sections.find((s) => s.type !== 8 /* NOBITS */ && s.address <= address && address + size <= s.address + s.size && s.size > 0);
  if (!section) fail(`${what} at address 0x${address.toString(16)} (${size} bytes) is in no section`);
  return { bytes: slice(elf.bytes, section.offset + (address - section.address), size, what), section };
}
