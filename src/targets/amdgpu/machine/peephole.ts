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

/** Removes the EXEC restores that run only just before the closing `s_endpgm` (in place). */
export function removeExecRestoresBeforeEnd(items: Item[]): void {
  let end = items.length - 1;
  while (end >= 0 && items[end]!.kind !== "inst") end--;
  const last = items[end];
  if (!last || last.kind !== "inst" || last.inst.mnemonic !== "s_endpgm") return;
  // Walking back: markers and labels pass, EXEC restores go (near the end: splice is cheap),
  // anything else stops.
  for (let j = end - 1; j >= 0; j--) {
    const before = items[j]!;
    if (before.kind !== "inst") continue;
    if (!isExecRestore(before)) break;
    items.splice(j, 1);
  }
}
