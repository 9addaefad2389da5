/** The explicit device-argument block (language.md §7), laid out by the shared ABI table (src/abi). */
import type { Region } from "../ir/core.js";
import { ARGUMENT_BLOCK_ALIGN, ARGUMENT_ENCODINGS, alignUp, isDeviceArgumentType } from "../abi/index.js";
import type { ArgSlot } from "../core/prepared.js";

/**
 * Lays out the device args of a kernel body; returns the index of an arg type v1 cannot pass
 * (vectors, views and encodings are not device args in v1). The same rule as the table's
 * `layoutArgumentBlock`, walked once over the args themselves (every compile runs it).
 */
export function layoutArgs(body: Region): { slots: ArgSlot[]; size: number } | { unsupported: number } {
  const slots: ArgSlot[] = [];
  let end = 0;
  let i = 0;
  for (const v of body.args) {
    const t = v.type;
    if (t.kind !== "prim" || !isDeviceArgumentType(t.name)) return { unsupported: i };
    i++;
    const { size, align } = ARGUMENT_ENCODINGS[t.name];
    const offset = alignUp(end, align);
    slots.push({ name: v.name, type: t, value: v, offset, size, align });
    end = offset + size;
  }
  return { slots, size: alignUp(end, ARGUMENT_BLOCK_ALIGN) };
}
