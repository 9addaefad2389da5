/** The explicit device-argument block (language.md §7): offsets, sizes, alignment. */
import type { Region } from "../ir/core.js";
import { bitWidth, type Type } from "../ir/types.js";
import type { ArgSlot } from "../core/prepared.js";

/** Size and alignment of one device argument in the block. */
export function argLayout(t: Type): { size: number; align: number } | undefined {
  if (t.kind !== "prim") return undefined; // vectors and views are not device args in v1
  switch (t.name) {
    case "buffer":
      return { size: 16, align: 8 };
    case "i1":
      return { size: 4, align: 4 };
    case "encoding<layout>":
      return undefined;
    default: {
      const bytes = bitWidth(t) / 8;
      return { size: bytes, align: bytes };
    }
  }
}

const alignUp = (x: number, a: number) => Math.ceil(x / a) * a;

/** Lays out the device args of a kernel body; returns undefined for an arg type v1 cannot pass. */
export function layoutArgs(body: Region): { slots: ArgSlot[]; size: number } | { unsupported: number } {
  const slots: ArgSlot[] = [];
  let end = 0;
  for (let i = 0; i < body.args.length; i++) {
    const v = body.args[i]!;
    const l = argLayout(v.type);
    if (!l) return { unsupported: i };
    const offset = alignUp(end, l.align);
    slots.push({ name: v.name, type: v.type, value: v, offset, size: l.size, align: l.align });
    end = offset + l.size;
  }
  return { slots, size: alignUp(end, 8) };
}
