/**
 * A text summary of an AMDGPU code object: ELF header, sections, dynamic symbols, each
 * kernel descriptor's fields, the code bytes of each kernel and the AMDGPU metadata note
 * (msgpack, printed as sorted JSON). Read with test/amdgpu/elf-reader.ts, which is written
 * from the ELF specification and shares nothing with the emitter.
 */
import { decode } from "@msgpack/msgpack";
import { bytesAt, readElf, symbols, type ElfFile } from "../amdgpu/elf-reader.js";

const hex = (n: number | bigint, width = 0) => `0x${n.toString(16).padStart(width, "0")}`;
const SECTION_TYPES: Readonly<Record<number, string>> = { 0: "NULL", 1: "PROGBITS", 2: "SYMTAB", 3: "STRTAB", 4: "RELA", 5: "HASH", 6: "DYNAMIC", 7: "NOTE", 8: "NOBITS", 11: "DYNSYM", 0x6ffffff6: "GNU_HASH" };
const SYMBOL_TYPES = ["NOTYPE", "OBJECT", "FUNC", "SECTION", "FILE"];
const SYMBOL_BINDS = ["LOCAL", "GLOBAL", "WEAK"];
const NT_AMDGPU_METADATA = 32;

function sorted(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sorted);
  if (value instanceof Uint8Array) return `<${value.length} bytes>`;
  if (value && typeof value === "object") return Object.fromEntries(Object.keys(value).sort().map((k) => [k, sorted((value as Record<string, unknown>)[k])]));
  return typeof value === "bigint" ? String(value) : value;
}

/** Every note of the file's NOTE sections: name, type and descriptor bytes. */
function notes(elf: ElfFile): { name: string; type: number; desc: Uint8Array }[] {
  const out: { name: string; type: number; desc: Uint8Array }[] = [];
  for (const s of elf.sections.filter((x) => x.type === 7)) {
    const v = new DataView(s.data.buffer, s.data.byteOffset, s.data.byteLength);
    for (let at = 0; at + 12 <= s.data.length; ) {
      const namesz = v.getUint32(at, true), descsz = v.getUint32(at + 4, true), type = v.getUint32(at + 8, true);
      const nameAt = at + 12, descAt = nameAt + Math.ceil(namesz / 4) * 4;
      const name = new TextDecoder().decode(s.data.subarray(nameAt, nameAt + Math.max(0, namesz - 1)));
      out.push({ name, type, desc: s.data.subarray(descAt, descAt + descsz) });
      at = descAt + Math.ceil(descsz / 4) * 4;
    }
  }
  return out;
}

export function hsacoSummary(bytes: Uint8Array): string {
  const elf = readElf(bytes);
  const out: string[] = [];
  out.push(`elf: type ${elf.type} machine ${elf.machine} os/abi ${elf.ident[7]} abi version ${elf.ident[8]} flags ${hex(elf.flags, 8)} (${bytes.length} bytes)`);
  out.push("sections:");
  for (const s of elf.sections.slice(1)) {
    out.push(`  ${s.name.padEnd(16)} ${(SECTION_TYPES[s.type] ?? String(s.type)).padEnd(8)} addr ${hex(s.addr, 4)} size ${hex(s.size, 4)} align ${s.align} flags ${hex(s.flags)}`);
  }
  const dynsym = symbols(elf, ".dynsym").slice(1);
  out.push("dynamic symbols:");
  for (const sym of dynsym) {
    out.push(`  ${sym.name.padEnd(24)} ${SYMBOL_TYPES[sym.type] ?? sym.type} ${SYMBOL_BINDS[sym.bind] ?? sym.bind} value ${hex(sym.value, 4)} size ${sym.size}`);
  }
  for (const kd of dynsym.filter((s) => s.name.endsWith(".kd"))) {
    const d = bytesAt(elf, kd.value, 64);
    const v = new DataView(d.buffer, d.byteOffset, 64);
    const entry = kd.value + v.getBigInt64(16, true);
    out.push(`kernel descriptor ${kd.name}:`);
    out.push(`  group segment ${v.getUint32(0, true)}, private segment ${v.getUint32(4, true)}, kernarg size ${v.getUint32(8, true)}, entry ${hex(entry, 4)}`);
    out.push(`  compute_pgm_rsrc3 ${hex(v.getUint32(44, true), 8)} rsrc1 ${hex(v.getUint32(48, true), 8)} rsrc2 ${hex(v.getUint32(52, true), 8)} kernel_code_properties ${hex(v.getUint16(56, true), 4)}`);
    const fn = dynsym.find((s) => s.name === kd.name.slice(0, -3));
    if (fn) out.push(`  code: ${[...bytesAt(elf, fn.value, Number(fn.size))].map((b) => b.toString(16).padStart(2, "0")).join(" ")}`);
  }
  for (const note of notes(elf)) {
    if (note.name === "AMDGPU" && note.type === NT_AMDGPU_METADATA) out.push(`metadata:\n${JSON.stringify(sorted(decode(note.desc)), null, 2)}`);
    else out.push(`note ${JSON.stringify(note.name)} type ${note.type}: ${note.desc.length} bytes`);
  }
  return `${out.join("\n")}\n`;
}
