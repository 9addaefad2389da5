/** ELF note records (`Elf64_Nhdr` + name + descriptor, each padded to 4 bytes). */
import { ByteWriter, alignUp } from "./byte-writer.js";

const utf8 = new TextEncoder();

export function elfNote(name: string, type: number, desc: Uint8Array): Uint8Array {
  const nameBytes = utf8.encode(name + "\0");
  return new ByteWriter(12 + alignUp(nameBytes.length, 4) + alignUp(desc.length, 4)).u32(nameBytes.length).u32(desc.length).u32(type).bytes(nameBytes).align(4).bytes(desc).align(4).finish();
}
