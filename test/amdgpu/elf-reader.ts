/**
 * A minimal ELF64 little-endian reader for tests (headers, sections, symbols), written
 * from the ELF specification and independent of src/targets/amdgpu/elf.
 */
export interface ElfSection {
  index: number;
  name: string;
  type: number;
  flags: bigint;
  addr: bigint;
  offset: bigint;
  size: bigint;
  link: number;
  info: number;
  align: bigint;
  entsize: bigint;
  /** File bytes (empty for NOBITS). */
  data: Uint8Array;
}

export interface ElfSymbol {
  name: string;
  value: bigint;
  size: bigint;
  bind: number;
  type: number;
  other: number;
  shndx: number;
}

export interface ElfFile {
  bytes: Uint8Array;
  ident: Uint8Array;
  type: number;
  machine: number;
  flags: number;
  phoff: bigint;
  shoff: bigint;
  phnum: number;
  shnum: number;
  shstrndx: number;
  sections: ElfSection[];
}

export function readElf(bytes: Uint8Array): ElfFile {
  const v = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (v.getUint32(0, false) !== 0x7f454c46) throw new Error("not an ELF file");
  if (bytes[4] !== 2 || bytes[5] !== 1) throw new Error("not ELF64 little-endian");
  const shoff = v.getBigUint64(0x28, true);
  const shnum = v.getUint16(0x3c, true);
  const shstrndx = v.getUint16(0x3e, true);
  const raw = Array.from({ length: shnum }, (_, i) => {
    const at = Number(shoff) + i * 64;
    return {
      index: i,
      nameOff: v.getUint32(at, true),
      type: v.getUint32(at + 4, true),
      flags: v.getBigUint64(at + 8, true),
      addr: v.getBigUint64(at + 16, true),
      offset: v.getBigUint64(at + 24, true),
      size: v.getBigUint64(at + 32, true),
      link: v.getUint32(at + 40, true),
      info: v.getUint32(at + 44, true),
      align: v.getBigUint64(at + 48, true),
      entsize: v.getBigUint64(at + 56, true),
    };
  });
  const data = (s: { type: number; offset: bigint; size: bigint }) => (s.type === 8 ? new Uint8Array(0) : bytes.subarray(Number(s.offset), Number(s.offset + s.size)));
  const shstr = data(raw[shstrndx]!);
  const sections = raw.map((s) => ({ ...s, name: cString(shstr, s.nameOff), data: data(s) }));
  return {
    bytes,
    ident: bytes.subarray(0, 16),
    type: v.getUint16(0x10, true),
    machine: v.getUint16(0x12, true),
    flags: v.getUint32(0x30, true),
    phoff: v.getBigUint64(0x20, true),
    shoff,
    phnum: v.getUint16(0x38, true),
    shnum,
    shstrndx,
    sections,
  };
}

export function cString(table: Uint8Array, at: number): string {
  let end = at;
  while (end < table.length && table[end] !== 0) end++;
  return new TextDecoder().decode(table.subarray(at, end));
}

export function section(elf: ElfFile, name: string): ElfSection {
  const s = elf.sections.find((x) => x.name === name);
  if (!s) throw new Error(`no section ${name}`);
  return s;
}

export function symbols(elf: ElfFile, tableName: ".symtab" | ".dynsym"): ElfSymbol[] {
  const tab = section(elf, tableName);
  const strs = elf.sections[tab.link]!.data;
  const v = new DataView(tab.data.buffer, tab.data.byteOffset, tab.data.byteLength);
  const out: ElfSymbol[] = [];
  for (let at = 0; at < tab.data.length; at += 24) {
    const info = v.getUint8(at + 4);
    out.push({
      name: cString(strs, v.getUint32(at, true)),
      bind: info >> 4,
      type: info & 15,
      other: v.getUint8(at + 5),
      shndx: v.getUint16(at + 6, true),
      value: v.getBigUint64(at + 8, true),
      size: v.getBigUint64(at + 16, true),
    });
  }
  return out;
}

/** Program header table bytes. */
export function programHeaders(elf: ElfFile): Uint8Array {
  return elf.bytes.subarray(Number(elf.phoff), Number(elf.phoff) + elf.phnum * 56);
}

/** Bytes at a virtual address of an allocated section. */
export function bytesAt(elf: ElfFile, addr: bigint, length: number): Uint8Array {
  for (const s of elf.sections) {
    if ((s.flags & 2n) !== 0n && s.type !== 8 && addr >= s.addr && addr + BigInt(length) <= s.addr + s.size) {
      const at = Number(addr - s.addr);
      return s.data.subarray(at, at + length);
    }
  }
  throw new Error(`address 0x${addr.toString(16)} is not in an allocated section`);
}
