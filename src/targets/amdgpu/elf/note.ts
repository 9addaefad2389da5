/** ELF note records (`Elf64_Nhdr` + name + descriptor, each padded to 4 bytes). */
import { ByteWriter } from "./byte-writer.js";

export function elfNote(name: string, type: number, desc: Uint8Array): Uint8Array {
  const nameBytes = new TextEncoder().encode(name + "\0");
  return new ByteWriter().u32(nameBytes.length).u32(desc.length).u32(type).bytes(nameBytes).align(4).bytes(desc).align(4).finish();
}
