/** The explicit device-argument block (language.md §7), laid out by the shared ABI table (src/abi). */
import type { Region } from "../ir/core.js";
import type { Type } from "../ir/types.js";
import { isDeviceArgumentType, layoutArgumentBlock } from "../abi/index.js";
import type { ArgSlot } from "../core/prepared.js";

/** The ABI type name of a device argument ("" for vectors, views and encodings: not device args in v1). */
function abiTypeName(t: Type): string {
  return t.kind === "prim" && isDeviceArgumentType(t.name) ? t.name : "";
}

/** Lays out the device args of a kernel body; returns the index of an arg type v1 cannot pass. */
export function layoutArgs(body: Region): { slots: ArgSlot[]; size: number } | { unsupported: number } {
  const layout = layoutArgumentBlock(body.args.map((v) => abiTypeName(v.type)));
  if ("unsupported" in layout) return layout;
  const slots: ArgSlot[] = [];
  for (const [i, { offset, size, align }] of layout.slots.entries()) {
    const v = body.args[i];
    if (v) slots.push({ name: v.name, type: v.type, value: v, offset, size, align });
  }
  return { slots, size: layout.size };
}
