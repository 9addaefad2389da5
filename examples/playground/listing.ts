/**
 * A text listing of an AMDGPU code object for the playground: ELF header, sections, symbols
 * and each kernel's code bytes in hex (loom has no AMDGPU disassembler; `llvm-objdump-19 -d`
 * gives the instructions). Reads the ELF64 fields straight from the bytes.
 */
export function amdgpuListing(bytes: Uint8Array): string {
  const v = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (bytes.length < 64 || v.getUint32(0) !== 0x7f454c46) return `not an ELF file (${bytes.length} bytes)`;
  const u16 = (o: number) => v.getUint16(o, true), u32 = (o: number) => v.getUint32(o, true), u64 = (o: number) => Number(v.getBigUint64(o, true));
  const hex = (n: number) => `0x${n.toString(16)}`;
  const out = [`ELF64 ${bytes.length} bytes, machine ${u16(18)} (AMDGPU = 224), OS/ABI ${bytes[7]}, ABI version ${bytes[8]}, flags ${hex(u32(48))}`];
  const shoff = u64(40), shentsize = u16(58), shnum = u16(60), shstrndx = u16(62);
  const section = (i: number) => {
    const at = shoff + i * shentsize;
    return { name: u32(at), type: u32(at + 4), addr: u64(at + 16), offset: u64(at + 24), size: u64(at + 32), link: u32(at + 40), entsize: u64(at + 56) };
  };
  const names = section(shstrndx);
  const str = (table: { offset: number }, at: number) => {
    let end = table.offset + at;
    while (end < bytes.length && bytes[end] !== 0) end++;
    return new TextDecoder().decode(bytes.subarray(table.offset + at, end));
  };
  const sections = Array.from({ length: shnum }, (_, i) => section(i));
  out.push("sections:");
  for (const s of sections.slice(1)) out.push(`  ${str(names, s.name).padEnd(18)} type ${String(s.type).padStart(2)} addr ${hex(s.addr).padEnd(8)} size ${s.size}`);
  const text = sections.find((s) => str(names, s.name) === ".text");
  for (const symtab of sections.filter((s) => s.type === 11 /* DYNSYM */ || s.type === 2 /* SYMTAB */)) {
    const strtab = sections[symtab.link]!;
    out.push(`symbols (${str(names, symtab.name)}):`);
    for (let at = symtab.offset + symtab.entsize; at + 24 <= symtab.offset + symtab.size; at += 24) {
      const name = str(strtab, u32(at)), type = bytes[at + 4]! & 15, value = u64(at + 8), size = u64(at + 16);
      out.push(`  ${name.padEnd(28)} ${["NOTYPE", "OBJECT", "FUNC"][type] ?? type} value ${hex(value)} size ${size}`);
      if (type === 2 && text && value >= text.addr && value + size <= text.addr + text.size) {
        const start = text.offset + (value - text.addr);
        const words = [];
        for (let o = 0; o + 4 <= size; o += 4) words.push(u32(start + o).toString(16).padStart(8, "0"));
        for (let i = 0; i < words.length; i += 8) out.push(`    ${hex(value + i * 4).padStart(6)}: ${words.slice(i, i + 8).join(" ")}`);
      }
    }
  }
  return out.join("\n");
}
