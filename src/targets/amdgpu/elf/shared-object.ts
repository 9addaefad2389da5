/**
 * Writes a small ELF64 little-endian shared object with the layout `ld.lld -shared`
 * gives an AMDGPU code object (checked section by section against ld.lld-19 output in
 * test/amdgpu/llvm-agreement.test.ts):
 *
 *   ELF header, 8 program headers
 *   R   segment: .note .dynsym .gnu.hash .hash .dynstr .rodata   (address = file offset)
 *   RX  segment: .text                 (next page, same offset modulo the page size)
 *   RW  segment: .dynamic .relro_padding (GNU_RELRO up to the page end)
 *   not loaded : .symtab .shstrtab .strtab, then the section header table
 *
 * Every dynamic symbol is defined (there are no imports), so the hash tables cover all.
 */
import { ByteWriter, alignUp } from "./byte-writer.js";
import { gnuBucketCount, gnuHash, gnuHashSection, isAscii, sysvHashSection } from "./hash.js";

export interface ElfIdentity {
  readonly machine: number;
  readonly osabi: number;
  readonly abiVersion: number;
  readonly flags: number;
}

export interface DynamicSymbol {
  readonly name: string;
  readonly section: "text" | "rodata";
  /** Offset within that section. */
  readonly offset: number;
  readonly size: number;
  readonly type: "func" | "object";
  readonly visibility: "default" | "protected";
}

/** Virtual addresses of the sections whose contents depend on placement. */
export interface SectionAddresses {
  readonly text: number;
  readonly rodata: number;
}

export interface SharedObjectSpec {
  readonly identity: ElfIdentity;
  /** Contents of `.note` (complete note records). */
  readonly note: Uint8Array;
  /** `.rodata`: its size and alignment are fixed first; contents are built once addresses are known. */
  readonly rodata: { readonly size: number; readonly align: number; build(addresses: SectionAddresses): Uint8Array };
  readonly text: { readonly bytes: Uint8Array; readonly align: number };
  /** Exported symbols in definition order. */
  readonly symbols: readonly DynamicSymbol[];
}

const PAGE = 0x1000;
const EHDR_SIZE = 64;
const PHDR_SIZE = 56;
const SHDR_SIZE = 64;
const SYM_SIZE = 24;
const DYN_SIZE = 16;
const PHDR_COUNT = 8;

const ET_DYN = 3;
const EV_CURRENT = 1;

const PT_LOAD = 1;
const PT_DYNAMIC = 2;
const PT_NOTE = 4;
const PT_PHDR = 6;
const PT_GNU_STACK = 0x6474e551;
const PT_GNU_RELRO = 0x6474e552;
const PF_X = 1;
const PF_W = 2;
const PF_R = 4;

const SHT_PROGBITS = 1;
const SHT_SYMTAB = 2;
const SHT_STRTAB = 3;
const SHT_HASH = 5;
const SHT_DYNAMIC = 6;
const SHT_NOTE = 7;
const SHT_NOBITS = 8;
const SHT_DYNSYM = 11;
const SHT_GNU_HASH = 0x6ffffff6;
const SHF_WRITE = 1;
const SHF_ALLOC = 2;
const SHF_EXECINSTR = 4;

const DT_NULL = 0;
const DT_HASH = 4;
const DT_STRTAB = 5;
const DT_SYMTAB = 6;
const DT_STRSZ = 10;
const DT_SYMENT = 11;
const DT_GNU_HASH = 0x6ffffef5;

const STB_LOCAL = 0;
const STB_GLOBAL = 1;
const STT_NOTYPE = 0;
const STT_OBJECT = 1;
const STT_FUNC = 2;
const STV_DEFAULT = 0;
const STV_HIDDEN = 2;
const STV_PROTECTED = 3;

/** Section indices, in header order. */
const enum Sec {
  Null,
  Note,
  Dynsym,
  GnuHash,
  Hash,
  Dynstr,
  Rodata,
  Text,
  Dynamic,
  RelroPadding,
  Symtab,
  Shstrtab,
  Strtab,
  Count,
}

interface Placed {
  name: string;
  type: number;
  flags: number;
  addr: number;
  offset: number;
  size: number;
  link: number;
  info: number;
  align: number;
  entsize: number;
  contents: Uint8Array | null; // null: NOBITS or the null section
}

/** A string table: "\0" then each added string, NUL-terminated, in order. */
class StringTable {
  readonly offsets = new Map<string, number>();
  #parts: string[] = [""];
  #size = 1;
  add(s: string): number {
    let at = this.offsets.get(s);
    if (at === undefined) {
      at = this.#size;
      this.offsets.set(s, at);
      this.#parts.push(s);
      this.#size += (isAscii(s) ? s.length : utf8.encode(s).length) + 1;
    }
    return at;
  }
  get size(): number {
    return this.#size;
  }
  bytes(): Uint8Array {
    const text = this.#parts.join("\0") + "\0";
    if (!isAscii(text)) return utf8.encode(text);
    const out = new Uint8Array(text.length);
    for (let i = 0; i < text.length; i++) out[i] = text.charCodeAt(i);
    return out;
  }
}

const utf8 = new TextEncoder();

/** Smallest offset ≥ off that is congruent to addr modulo the page size. */
function congruentOffset(off: number, addr: number): number {
  return off + ((((addr - off) % PAGE) + PAGE) % PAGE);
}

/** Address of the first section of a new segment: next page, same in-page offset (ld.lld). */
function nextSegmentAddress(dot: number, align: number): number {
  return alignUp(alignUp(dot, PAGE) + (dot % PAGE), align);
}

function symbolBytes(w: ByteWriter, name: number, info: number, other: number, shndx: number, value: number, size: number): void {
  w.u32(name).u8(info).u8(other).u16(shndx).u64(value).u64(size);
}

export function writeSharedObject(spec: SharedObjectSpec): Uint8Array {
  // Dynamic symbols: ld.lld orders them by GNU hash bucket, then by name offset.
  const dynstr = new StringTable();
  const buckets = gnuBucketCount(spec.symbols.length);
  const byDefinition = spec.symbols.map((s) => ({ sym: s, strOffset: dynstr.add(s.name), bucket: gnuHash(s.name) % buckets }));
  const dynamicOrder = [...byDefinition].sort((a, b) => a.bucket - b.bucket || a.strOffset - b.strOffset);
  const dynNames = dynamicOrder.map((e) => e.sym.name);

  const gnuHashBytes = gnuHashSection(dynNames);
  const hashBytes = sysvHashSection(dynNames);
  const dynstrBytes = dynstr.bytes();
  const dynsymSize = (dynamicOrder.length + 1) * SYM_SIZE;
  const dynamicSize = 7 * DYN_SIZE;

  // Read-only segment: addresses equal file offsets.
  let dot = EHDR_SIZE + PHDR_COUNT * PHDR_SIZE;
  const place = (size: number, align: number): number => {
    const at = alignUp(dot, align);
    dot = at + size;
    return at;
  };
  const noteAt = place(spec.note.length, 4);
  const dynsymAt = place(dynsymSize, 8);
  const gnuHashAt = place(gnuHashBytes.length, 8);
  const hashAt = place(hashBytes.length, 4);
  const dynstrAt = place(dynstrBytes.length, 1);
  const rodataAt = place(spec.rodata.size, spec.rodata.align);
  const readOnlyEnd = dot;

  const textAddr = nextSegmentAddress(readOnlyEnd, spec.text.align);
  const textOff = congruentOffset(readOnlyEnd, textAddr);
  const textEnd = textAddr + spec.text.bytes.length;

  const dynamicAddr = nextSegmentAddress(textEnd, 8);
  const dynamicOff = congruentOffset(textOff + spec.text.bytes.length, dynamicAddr);
  const relroEnd = alignUp(dynamicAddr + dynamicSize, PAGE);

  const addrOf = (s: DynamicSymbol) => (s.section === "text" ? textAddr : rodataAt) + s.offset;
  const shndxOf = (s: DynamicSymbol) => (s.section === "text" ? Sec.Text : Sec.Rodata);
  const infoOf = (s: DynamicSymbol) => (STB_GLOBAL << 4) | (s.type === "func" ? STT_FUNC : STT_OBJECT);
  const otherOf = (s: DynamicSymbol) => (s.visibility === "protected" ? STV_PROTECTED : STV_DEFAULT);

  const rodataBytes = spec.rodata.build({ text: textAddr, rodata: rodataAt });
  if (rodataBytes.length !== spec.rodata.size) {
    throw new RangeError(`.rodata builder produced ${rodataBytes.length} bytes, declared ${spec.rodata.size}`);
  }

  const dynsym = new ByteWriter(dynsymSize).zeros(SYM_SIZE);
  for (const { sym, strOffset } of dynamicOrder) symbolBytes(dynsym, strOffset, infoOf(sym), otherOf(sym), shndxOf(sym), addrOf(sym), sym.size);

  const dynamic = new ByteWriter(dynamicSize);
  for (const [tag, value] of [
    [DT_SYMTAB, dynsymAt],
    [DT_SYMENT, SYM_SIZE],
    [DT_STRTAB, dynstrAt],
    [DT_STRSZ, dynstrBytes.length],
    [DT_GNU_HASH, gnuHashAt],
    [DT_HASH, hashAt],
    [DT_NULL, 0],
  ] as const) {
    dynamic.u64(tag).u64(value);
  }

  // Static symbol table: the linker-defined local _DYNAMIC, then the exports in definition
  // order; as in ld.lld, the exports' names come first in .strtab.
  const strtab = new StringTable();
  for (const s of spec.symbols) strtab.add(s.name);
  const symtab = new ByteWriter((spec.symbols.length + 2) * SYM_SIZE).zeros(SYM_SIZE);
  symbolBytes(symtab, strtab.add("_DYNAMIC"), (STB_LOCAL << 4) | STT_NOTYPE, STV_HIDDEN, Sec.Dynamic, dynamicAddr, 0);
  // `add` of a name already in the table returns its offset.
  for (const s of spec.symbols) symbolBytes(symtab, strtab.add(s.name), infoOf(s), otherOf(s), shndxOf(s), addrOf(s), s.size);
  const symtabBytes = symtab.finish();
  const strtabBytes = strtab.bytes();

  const sections: Placed[] = [];
  const shstrtab = new StringTable();
  const section = (name: string, p: Omit<Placed, "name">): void => {
    if (name) shstrtab.add(name);
    sections.push({ name, ...p });
  };
  const A = SHF_ALLOC;
  section("", { type: 0, flags: 0, addr: 0, offset: 0, size: 0, link: 0, info: 0, align: 0, entsize: 0, contents: null });
  section(".note", { type: SHT_NOTE, flags: A, addr: noteAt, offset: noteAt, size: spec.note.length, link: 0, info: 0, align: 4, entsize: 0, contents: spec.note });
  section(".dynsym", { type: SHT_DYNSYM, flags: A, addr: dynsymAt, offset: dynsymAt, size: dynsymSize, link: Sec.Dynstr, info: 1, align: 8, entsize: SYM_SIZE, contents: dynsym.finish() });
  section(".gnu.hash", { type: SHT_GNU_HASH, flags: A, addr: gnuHashAt, offset: gnuHashAt, size: gnuHashBytes.length, link: Sec.Dynsym, info: 0, align: 8, entsize: 0, contents: gnuHashBytes });
  section(".hash", { type: SHT_HASH, flags: A, addr: hashAt, offset: hashAt, size: hashBytes.length, link: Sec.Dynsym, info: 0, align: 4, entsize: 4, contents: hashBytes });
  section(".dynstr", { type: SHT_STRTAB, flags: A, addr: dynstrAt, offset: dynstrAt, size: dynstrBytes.length, link: 0, info: 0, align: 1, entsize: 0, contents: dynstrBytes });
  section(".rodata", { type: SHT_PROGBITS, flags: A, addr: rodataAt, offset: rodataAt, size: rodataBytes.length, link: 0, info: 0, align: spec.rodata.align, entsize: 0, contents: rodataBytes });
  section(".text", { type: SHT_PROGBITS, flags: A | SHF_EXECINSTR, addr: textAddr, offset: textOff, size: spec.text.bytes.length, link: 0, info: 0, align: spec.text.align, entsize: 0, contents: spec.text.bytes });
  section(".dynamic", { type: SHT_DYNAMIC, flags: A | SHF_WRITE, addr: dynamicAddr, offset: dynamicOff, size: dynamicSize, link: Sec.Dynstr, info: 0, align: 8, entsize: DYN_SIZE, contents: dynamic.finish() });
  const relroAddr = dynamicAddr + dynamicSize;
  section(".relro_padding", { type: SHT_NOBITS, flags: A | SHF_WRITE, addr: relroAddr, offset: dynamicOff + dynamicSize, size: relroEnd - relroAddr, link: 0, info: 0, align: 1, entsize: 0, contents: null });
  let fileDot = dynamicOff + dynamicSize;
  const unloaded = (name: string, type: number, bytes: Uint8Array, align: number, link: number, info: number, entsize: number): void => {
    const offset = alignUp(fileDot, align);
    fileDot = offset + bytes.length;
    section(name, { type, flags: 0, addr: 0, offset, size: bytes.length, link, info, align, entsize, contents: bytes });
  };
  unloaded(".symtab", SHT_SYMTAB, symtabBytes, 8, Sec.Strtab, 2, SYM_SIZE);
  shstrtab.add(".shstrtab");
  shstrtab.add(".strtab");
  unloaded(".shstrtab", SHT_STRTAB, shstrtab.bytes(), 1, 0, 0, 0);
  unloaded(".strtab", SHT_STRTAB, strtabBytes, 1, 0, 0, 0);
  const shoff = alignUp(fileDot, 8);

  const out = new ByteWriter(shoff + Sec.Count * SHDR_SIZE);
  // ELF header.
  out.bytes(new Uint8Array([0x7f, 0x45, 0x4c, 0x46, 2 /* ELFCLASS64 */, 1 /* ELFDATA2LSB */, EV_CURRENT, spec.identity.osabi, spec.identity.abiVersion]));
  out.padTo(16);
  out.u16(ET_DYN).u16(spec.identity.machine).u32(EV_CURRENT).u64(0 /* entry */).u64(EHDR_SIZE).u64(shoff);
  out.u32(spec.identity.flags).u16(EHDR_SIZE).u16(PHDR_SIZE).u16(PHDR_COUNT).u16(SHDR_SIZE).u16(Sec.Count).u16(Sec.Shstrtab);

  const phdr = (type: number, flags: number, offset: number, addr: number, filesz: number, memsz: number, align: number) =>
    out.u32(type).u32(flags).u64(offset).u64(addr).u64(addr).u64(filesz).u64(memsz).u64(align);
  const phdrsSize = PHDR_COUNT * PHDR_SIZE;
  const textSize = spec.text.bytes.length;
  phdr(PT_PHDR, PF_R, EHDR_SIZE, EHDR_SIZE, phdrsSize, phdrsSize, 8);
  phdr(PT_LOAD, PF_R, 0, 0, readOnlyEnd, readOnlyEnd, PAGE);
  phdr(PT_LOAD, PF_R | PF_X, textOff, textAddr, textSize, textSize, PAGE);
  phdr(PT_LOAD, PF_R | PF_W, dynamicOff, dynamicAddr, dynamicSize, relroEnd - dynamicAddr, PAGE);
  phdr(PT_DYNAMIC, PF_R | PF_W, dynamicOff, dynamicAddr, dynamicSize, dynamicSize, 8);
  phdr(PT_GNU_RELRO, PF_R, dynamicOff, dynamicAddr, dynamicSize, relroEnd - dynamicAddr, 1);
  phdr(PT_GNU_STACK, PF_R | PF_W, 0, 0, 0, 0, 0);
  phdr(PT_NOTE, PF_R, noteAt, noteAt, spec.note.length, spec.note.length, 4);

  for (const s of sections) {
    if (!s.contents) continue;
    out.padTo(s.offset).bytes(s.contents);
  }
  out.padTo(shoff);
  for (const s of sections) {
    out.u32(s.name ? shstrtab.offsets.get(s.name)! : 0).u32(s.type).u64(s.flags).u64(s.addr).u64(s.offset).u64(s.size);
    out.u32(s.link).u32(s.info).u64(s.align).u64(s.entsize);
  }
  return out.finish();
}
