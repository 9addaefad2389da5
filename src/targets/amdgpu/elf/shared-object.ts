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
import { alignUp } from "./byte-writer.js";
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

/** A section the caller writes in place, into the one output buffer, once addresses are known. */
export interface SectionContents {
  readonly size: number;
  readonly align: number;
  /** Writes exactly `size` bytes at file offset `at` of `out` (`view` covers `out`). */
  write(out: Uint8Array, view: DataView, at: number, addresses: SectionAddresses): void;
}

export interface SharedObjectSpec {
  readonly identity: ElfIdentity;
  /** Contents of `.note` (complete note records; read only during the call). */
  readonly note: Uint8Array;
  readonly rodata: SectionContents;
  readonly text: SectionContents;
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
  bytes(): Uint8Array {
    const text = this.#parts.join("\0") + "\0";
    if (!isAscii(text)) return utf8.encode(text);
    const out = new Uint8Array(text.length);
    for (let i = 0; i < text.length; i++) out[i] = text.charCodeAt(i);
    return out;
  }
}

const utf8 = new TextEncoder();

/** `.shstrtab` is the same in every code object: its bytes and each section's name offset, once. */
const SECTION_NAMES = [".note", ".dynsym", ".gnu.hash", ".hash", ".dynstr", ".rodata", ".text", ".dynamic", ".relro_padding", ".symtab", ".shstrtab", ".strtab"] as const;
const shstrtab = new StringTable();
const SECTION_NAME_OFFSETS: readonly number[] = [0, ...SECTION_NAMES.map((n) => shstrtab.add(n))];
const SHSTRTAB_BYTES = shstrtab.bytes();

/**
 * Everything of the symbol tables that depends on the names alone (not on addresses):
 * the string tables, the hash tables and the dynamic symbol order. Kept per name set, so
 * recompiling a kernel (the JIT case) writes only addresses.
 */
interface SymbolTables {
  /** Definition index of dynamic symbol 1, 2, …: ld.lld orders them by GNU hash bucket, then name offset. */
  readonly dynamicOrder: readonly number[];
  /** `.dynstr` offset of each symbol's name, by definition index. */
  readonly dynstrOffsets: readonly number[];
  readonly dynstr: Uint8Array;
  readonly gnuHash: Uint8Array;
  readonly sysvHash: Uint8Array;
  /** `.strtab` offset of each symbol's name, by definition index. */
  readonly strtabOffsets: readonly number[];
  /** `.strtab` offset of the linker-defined `_DYNAMIC`. */
  readonly dynamicNameOffset: number;
  readonly strtab: Uint8Array;
}

function symbolTables(names: readonly string[]): SymbolTables {
  const dynstr = new StringTable();
  const buckets = gnuBucketCount(names.length);
  const byDefinition = names.map((name, i) => ({ i, strOffset: dynstr.add(name), bucket: gnuHash(name) % buckets }));
  const dynamicOrder = [...byDefinition].sort((a, b) => a.bucket - b.bucket || a.strOffset - b.strOffset).map((e) => e.i);
  const dynNames = dynamicOrder.map((i) => names[i]!);
  // As in ld.lld, the exports' names come first in .strtab, then the local _DYNAMIC.
  const strtab = new StringTable();
  for (const n of names) strtab.add(n);
  const dynamicNameOffset = strtab.add("_DYNAMIC");
  return {
    dynamicOrder,
    dynstrOffsets: byDefinition.map((e) => e.strOffset),
    dynstr: dynstr.bytes(),
    gnuHash: gnuHashSection(dynNames),
    sysvHash: sysvHashSection(dynNames),
    strtabOffsets: names.map((n) => strtab.add(n)),
    dynamicNameOffset,
    strtab: strtab.bytes(),
  };
}

/** Symbol tables by name set ("\0"-joined; names hold no NUL), bounded: cleared when full. */
const tablesByNames = new Map<string, SymbolTables>();
const TABLE_CACHE_LIMIT = 64;

function tablesFor(symbols: readonly DynamicSymbol[]): SymbolTables {
  let key = "";
  for (let i = 0; i < symbols.length; i++) key += i === 0 ? symbols[i]!.name : `\0${symbols[i]!.name}`;
  let t = tablesByNames.get(key);
  if (!t) {
    if (tablesByNames.size >= TABLE_CACHE_LIMIT) tablesByNames.clear();
    t = symbolTables(symbols.map((s) => s.name));
    tablesByNames.set(key, t);
  }
  return t;
}

/** Smallest offset ≥ off that is congruent to addr modulo the page size. */
function congruentOffset(off: number, addr: number): number {
  return off + ((((addr - off) % PAGE) + PAGE) % PAGE);
}

/** Address of the first section of a new segment: next page, same in-page offset (ld.lld). */
function nextSegmentAddress(dot: number, align: number): number {
  return alignUp(alignUp(dot, PAGE) + (dot % PAGE), align);
}

/** A 64-bit little-endian field from a safe integer (negative values are two's complement). */
function u64(view: DataView, at: number, v: number): void {
  const hi = Math.floor(v / 0x100000000);
  view.setUint32(at, v - hi * 0x100000000, true);
  view.setUint32(at + 4, hi >>> 0, true);
}

function symbolAt(view: DataView, at: number, name: number, info: number, other: number, shndx: number, value: number, size: number): void {
  view.setUint32(at, name, true);
  view.setUint8(at + 4, info);
  view.setUint8(at + 5, other);
  view.setUint16(at + 6, shndx, true);
  u64(view, at + 8, value);
  u64(view, at + 16, size);
}

function programHeaderAt(view: DataView, at: number, type: number, flags: number, offset: number, addr: number, filesz: number, memsz: number, align: number): void {
  view.setUint32(at, type, true);
  view.setUint32(at + 4, flags, true);
  u64(view, at + 8, offset);
  u64(view, at + 16, addr);
  u64(view, at + 24, addr);
  u64(view, at + 32, filesz);
  u64(view, at + 40, memsz);
  u64(view, at + 48, align);
}

function sectionHeaderAt(view: DataView, shoff: number, index: Sec, type: number, flags: number, addr: number, offset: number, size: number, link: number, info: number, align: number, entsize: number): void {
  const at = shoff + index * SHDR_SIZE;
  view.setUint32(at, SECTION_NAME_OFFSETS[index]!, true);
  view.setUint32(at + 4, type, true);
  u64(view, at + 8, flags);
  u64(view, at + 16, addr);
  u64(view, at + 24, offset);
  u64(view, at + 32, size);
  view.setUint32(at + 40, link, true);
  view.setUint32(at + 44, info, true);
  u64(view, at + 48, align);
  u64(view, at + 56, entsize);
}

const infoOf = (s: DynamicSymbol) => (STB_GLOBAL << 4) | (s.type === "func" ? STT_FUNC : STT_OBJECT);
const otherOf = (s: DynamicSymbol) => (s.visibility === "protected" ? STV_PROTECTED : STV_DEFAULT);
const shndxOf = (s: DynamicSymbol) => (s.section === "text" ? Sec.Text : Sec.Rodata);

/** The whole file, laid out first and then written into one buffer of its exact size. */
export function writeSharedObject(spec: SharedObjectSpec): Uint8Array {
  const symbols = spec.symbols;
  const tables = tablesFor(symbols);
  const dynsymSize = (symbols.length + 1) * SYM_SIZE;
  const dynamicSize = 7 * DYN_SIZE;
  const noteSize = spec.note.length;
  const textSize = spec.text.size;

  // Read-only segment: addresses equal file offsets.
  const noteAt = alignUp(EHDR_SIZE + PHDR_COUNT * PHDR_SIZE, 4);
  const dynsymAt = alignUp(noteAt + noteSize, 8);
  const gnuHashAt = alignUp(dynsymAt + dynsymSize, 8);
  const hashAt = alignUp(gnuHashAt + tables.gnuHash.length, 4);
  const dynstrAt = hashAt + tables.sysvHash.length;
  const rodataAt = alignUp(dynstrAt + tables.dynstr.length, spec.rodata.align);
  const readOnlyEnd = rodataAt + spec.rodata.size;

  const textAddr = nextSegmentAddress(readOnlyEnd, spec.text.align);
  const textOff = congruentOffset(readOnlyEnd, textAddr);
  const textEnd = textAddr + textSize;

  const dynamicAddr = nextSegmentAddress(textEnd, 8);
  const dynamicOff = congruentOffset(textOff + textSize, dynamicAddr);
  const relroAddr = dynamicAddr + dynamicSize;
  const relroEnd = alignUp(relroAddr, PAGE);

  // Not loaded: .symtab (null, _DYNAMIC, the exports), .shstrtab, .strtab, then the headers.
  const symtabAt = alignUp(dynamicOff + dynamicSize, 8);
  const symtabSize = (symbols.length + 2) * SYM_SIZE;
  const shstrtabAt = symtabAt + symtabSize;
  const strtabAt = shstrtabAt + SHSTRTAB_BYTES.length;
  const shoff = alignUp(strtabAt + tables.strtab.length, 8);

  const out = new Uint8Array(shoff + Sec.Count * SHDR_SIZE);
  const view = new DataView(out.buffer);
  const addresses: SectionAddresses = { text: textAddr, rodata: rodataAt };
  const addrOf = (s: DynamicSymbol) => (s.section === "text" ? textAddr : rodataAt) + s.offset;

  // ELF header.
  out[0] = 0x7f;
  out[1] = 0x45;
  out[2] = 0x4c;
  out[3] = 0x46;
  out[4] = 2; // ELFCLASS64
  out[5] = 1; // ELFDATA2LSB
  out[6] = EV_CURRENT;
  out[7] = spec.identity.osabi;
  out[8] = spec.identity.abiVersion;
  view.setUint16(16, ET_DYN, true);
  view.setUint16(18, spec.identity.machine, true);
  view.setUint32(20, EV_CURRENT, true);
  u64(view, 24, 0); // entry
  u64(view, 32, EHDR_SIZE);
  u64(view, 40, shoff);
  view.setUint32(48, spec.identity.flags >>> 0, true);
  view.setUint16(52, EHDR_SIZE, true);
  view.setUint16(54, PHDR_SIZE, true);
  view.setUint16(56, PHDR_COUNT, true);
  view.setUint16(58, SHDR_SIZE, true);
  view.setUint16(60, Sec.Count, true);
  view.setUint16(62, Sec.Shstrtab, true);

  const phdrsSize = PHDR_COUNT * PHDR_SIZE;
  let ph = EHDR_SIZE;
  const phdr = (type: number, flags: number, offset: number, addr: number, filesz: number, memsz: number, align: number) => {
    programHeaderAt(view, ph, type, flags, offset, addr, filesz, memsz, align);
    ph += PHDR_SIZE;
  };
  phdr(PT_PHDR, PF_R, EHDR_SIZE, EHDR_SIZE, phdrsSize, phdrsSize, 8);
  phdr(PT_LOAD, PF_R, 0, 0, readOnlyEnd, readOnlyEnd, PAGE);
  phdr(PT_LOAD, PF_R | PF_X, textOff, textAddr, textSize, textSize, PAGE);
  phdr(PT_LOAD, PF_R | PF_W, dynamicOff, dynamicAddr, dynamicSize, relroEnd - dynamicAddr, PAGE);
  phdr(PT_DYNAMIC, PF_R | PF_W, dynamicOff, dynamicAddr, dynamicSize, dynamicSize, 8);
  phdr(PT_GNU_RELRO, PF_R, dynamicOff, dynamicAddr, dynamicSize, relroEnd - dynamicAddr, 1);
  phdr(PT_GNU_STACK, PF_R | PF_W, 0, 0, 0, 0, 0);
  phdr(PT_NOTE, PF_R, noteAt, noteAt, noteSize, noteSize, 4);

  // Section contents (a fresh buffer is zero: gaps and the null symbols need no writes).
  out.set(spec.note, noteAt);
  for (let k = 0; k < tables.dynamicOrder.length; k++) {
    const i = tables.dynamicOrder[k]!;
    const s = symbols[i]!;
    symbolAt(view, dynsymAt + (k + 1) * SYM_SIZE, tables.dynstrOffsets[i]!, infoOf(s), otherOf(s), shndxOf(s), addrOf(s), s.size);
  }
  out.set(tables.gnuHash, gnuHashAt);
  out.set(tables.sysvHash, hashAt);
  out.set(tables.dynstr, dynstrAt);
  spec.rodata.write(out, view, rodataAt, addresses);
  spec.text.write(out, view, textOff, addresses);
  let dyn = dynamicOff;
  for (const [tag, value] of [
    [DT_SYMTAB, dynsymAt],
    [DT_SYMENT, SYM_SIZE],
    [DT_STRTAB, dynstrAt],
    [DT_STRSZ, tables.dynstr.length],
    [DT_GNU_HASH, gnuHashAt],
    [DT_HASH, hashAt],
    [DT_NULL, 0],
  ] as const) {
    u64(view, dyn, tag);
    u64(view, dyn + 8, value);
    dyn += DYN_SIZE;
  }
  symbolAt(view, symtabAt + SYM_SIZE, tables.dynamicNameOffset, (STB_LOCAL << 4) | STT_NOTYPE, STV_HIDDEN, Sec.Dynamic, dynamicAddr, 0);
  for (let i = 0; i < symbols.length; i++) {
    const s = symbols[i]!;
    symbolAt(view, symtabAt + (i + 2) * SYM_SIZE, tables.strtabOffsets[i]!, infoOf(s), otherOf(s), shndxOf(s), addrOf(s), s.size);
  }
  out.set(SHSTRTAB_BYTES, shstrtabAt);
  out.set(tables.strtab, strtabAt);

  // Section headers (entry 0 stays zero).
  const A = SHF_ALLOC;
  const sh = (index: Sec, type: number, flags: number, addr: number, offset: number, size: number, link: number, info: number, align: number, entsize: number) =>
    sectionHeaderAt(view, shoff, index, type, flags, addr, offset, size, link, info, align, entsize);
  sh(Sec.Note, SHT_NOTE, A, noteAt, noteAt, noteSize, 0, 0, 4, 0);
  sh(Sec.Dynsym, SHT_DYNSYM, A, dynsymAt, dynsymAt, dynsymSize, Sec.Dynstr, 1, 8, SYM_SIZE);
  sh(Sec.GnuHash, SHT_GNU_HASH, A, gnuHashAt, gnuHashAt, tables.gnuHash.length, Sec.Dynsym, 0, 8, 0);
  sh(Sec.Hash, SHT_HASH, A, hashAt, hashAt, tables.sysvHash.length, Sec.Dynsym, 0, 4, 4);
  sh(Sec.Dynstr, SHT_STRTAB, A, dynstrAt, dynstrAt, tables.dynstr.length, 0, 0, 1, 0);
  sh(Sec.Rodata, SHT_PROGBITS, A, rodataAt, rodataAt, spec.rodata.size, 0, 0, spec.rodata.align, 0);
  sh(Sec.Text, SHT_PROGBITS, A | SHF_EXECINSTR, textAddr, textOff, textSize, 0, 0, spec.text.align, 0);
  sh(Sec.Dynamic, SHT_DYNAMIC, A | SHF_WRITE, dynamicAddr, dynamicOff, dynamicSize, Sec.Dynstr, 0, 8, DYN_SIZE);
  sh(Sec.RelroPadding, SHT_NOBITS, A | SHF_WRITE, relroAddr, dynamicOff + dynamicSize, relroEnd - relroAddr, 0, 0, 1, 0);
  sh(Sec.Symtab, SHT_SYMTAB, 0, 0, symtabAt, symtabSize, Sec.Strtab, 2, 8, SYM_SIZE);
  sh(Sec.Shstrtab, SHT_STRTAB, 0, 0, shstrtabAt, SHSTRTAB_BYTES.length, 0, 0, 1, 0);
  sh(Sec.Strtab, SHT_STRTAB, 0, 0, strtabAt, tables.strtab.length, 0, 0, 1, 0);
  return out;
}
