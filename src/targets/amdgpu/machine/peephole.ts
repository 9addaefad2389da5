/**
 * Machine-level cleanups after selection and dead-code removal, before register allocation
 * (after dce.ts, which would take an `s_and_saveexec` whose saved mask no one reads for dead).
 *
 * An EXEC restore (`s_mov exec, saved`, the join of a varying `if` or the exit of a varying
 * loop) that only labels and liveness markers separate from `s_endpgm` changes nothing the
 * program can observe: the wave ends on every path through it. LLVM ends such kernels the
 * same way (no restore before `s_endpgm`).
 */
import type { Item } from "./program.js";

const EXEC_RESTORES = new Set(["s_mov_b32", "s_mov_b64"]);

function isExecRestore(item: Item): boolean {
  if (item.kind !== "inst" || !EXEC_RESTORES.has(item.inst.mnemonic)) return false;
  const d = item.inst.operands[0];
  return d !== undefined && d.k === "special" && d.name === "exec";
}

/** Removes the EXEC restores that run only just before `s_endpgm` (in place). */
export function removeExecRestoresBeforeEnd(items: Item[]): void {
  let w = 0;
  const keep = new Uint8Array(items.length).fill(1);
  // Walking back from each s_endpgm: markers and labels pass, EXEC restores go, anything else stops.
  for (let i = items.length - 1; i >= 0; i--) {
    const item = items[i]!;
    if (item.kind !== "inst" || item.inst.mnemonic !== "s_endpgm") continue;
    for (let j = i - 1; j >= 0; j--) {
      const before = items[j]!;
      if (before.kind !== "inst") continue;
      if (!isExecRestore(before)) break;
      keep[j] = 0;
    }
  }
  for (let i = 0; i < items.length; i++) if (keep[i]) items[w++] = items[i]!;
  items.length = w;
}
