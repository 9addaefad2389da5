/**
 * Dead machine-instruction removal before register allocation: selection computes some
 * values eagerly (view strides, address parts) that no instruction reads. An ALU
 * instruction whose virtual-register results nobody reads is removed, unless it writes
 * EXEC, or writes SCC/VCC that the next instruction reads (a carry chain or a select).
 * Unused loads go too; stores, atomics and branches always stay. Repeats until nothing changes.
 */
import { defOf, dsDefines, globalDefines } from "../isa/encoder.js";
import type { Item, MInst, VReg } from "./program.js";
import { Scratch } from "./scratch.js";

const scratch = new Scratch();

const SCC_READERS = new Set(["s_addc_u32", "s_subb_u32", "s_cselect_b32", "s_cselect_b64", "s_cbranch_scc0", "s_cbranch_scc1"]);
const NO_SCC = new Set(["s_mov_b32", "s_mov_b64", "s_mul_i32", "s_mul_hi_u32", "s_cselect_b32", "s_cselect_b64"]);

/** How many leading operands an instruction writes. */
export function definedCount(inst: MInst): number {
  switch (defOf(inst).format) {
    case "SOPP": case "SOPK": case "SOPC": case "MUBUF": return 0;
    case "VOP3B": return 2;
    case "DS": return dsDefines(inst.mnemonic) ? 1 : 0;
    case "GLOBAL": return globalDefines(inst) ? 1 : 0;
    case "SCRATCH": return inst.mnemonic.startsWith("scratch_load") ? 1 : 0;
    case "VOP2": return inst.operands[1]?.k === "special" ? 2 : 1;
    default: return 1;
  }
}

const ALU = new Set(["SOP1", "SOP2", "VOP1", "VOP2", "VOP3", "VOP3B", "SMEM"]);

/** ALU instructions and plain loads (no atomics, stores or control). */
function removable(inst: MInst): boolean {
  return ALU.has(defOf(inst).format) || inst.mnemonic.startsWith("global_load") || inst.mnemonic.startsWith("ds_load") || inst.mnemonic.startsWith("scratch_load");
}

/** Whether a VALU instruction reads VCC among its sources. */
function readsVcc(inst: MInst): boolean {
  const o = inst.operands;
  for (let i = definedCount(inst); i < o.length; i++) {
    const x = o[i];
    if (x && x.k === "special" && x.name === "vcc") return true;
  }
  return false;
}

export function removeDeadInstructions(items: Item[]): void {
  // Reads of each virtual register (by id), kept up to date as instructions go, so a
  // chain of dead instructions goes in one backward pass; passes repeat only when a value
  // loses its last read after its definition was passed (loop-carried: defined later).
  let maxId = -1;
  // Scratch arrays (scratch.ts): indexed below items.length / maxId + 1 only, cleared where read first.
  const defined = scratch.u8(0, items.length);
  const candidate = scratch.u8(1, items.length);
  for (let i = 0; i < items.length; i++) {
    const item = items[i]!;
    if (item.kind !== "inst") continue;
    defined[i] = definedCount(item.inst);
    candidate[i] = removable(item.inst) ? 1 : 0;
    for (const o of item.inst.operands) if (o.k === "vreg" && o.r.id > maxId) maxId = o.r.id;
  }
  const uses = scratch.i32(0, maxId + 1).fill(0, 0, maxId + 1);
  /** The last item index that writes each register. */
  const lastDefinition = scratch.i32(1, maxId + 1).fill(-1, 0, maxId + 1);
  for (let i = 0; i < items.length; i++) {
    const item = items[i]!;
    if (item.kind !== "inst") continue;
    const o = item.inst.operands;
    const d = defined[i]!;
    for (let j = 0; j < o.length; j++) {
      const x = o[j]!;
      if (x.k !== "vreg") continue;
      if (j >= d) uses[x.r.id]!++;
      else lastDefinition[x.r.id] = i;
    }
  }
  const removed = scratch.u8(2, items.length).fill(0, 0, items.length);
  let any = false;
  for (let again = true; again; ) {
    again = false;
    let nextInst: MInst | undefined;
    for (let i = items.length - 1; i >= 0; i--) {
      const item = items[i];
      if (!item || item.kind !== "inst" || removed[i]) continue;
      const following = nextInst;
      nextInst = item.inst;
      const inst = item.inst;
      if (!candidate[i]) continue;
      const d = defined[i]!;
      const o = inst.operands;
      let keep = false;
      let writesVcc = false;
      for (let j = 0; j < d && !keep; j++) {
        const x = o[j];
        if (!x) continue;
        if (x.k === "vreg") keep = (uses[x.r.id] ?? 0) > 0;
        else if (x.k === "special" && x.name === "vcc") writesVcc = true;
        else keep = true;
      }
      if (keep) continue;
      const writesScc = inst.mnemonic.startsWith("s_") && !NO_SCC.has(inst.mnemonic);
      if (writesScc && following && SCC_READERS.has(following.mnemonic)) continue;
      const second = o[1];
      if (inst.mnemonic === "v_mad_u64_u32" && second?.k === "special" && second.name === "vcc") writesVcc = true;
      if (writesVcc && following && readsVcc(following)) continue;
      removed[i] = 1;
      for (let j = d; j < o.length; j++) {
        const x = o[j];
        if (x && x.k === "vreg" && --uses[x.r.id]! === 0 && lastDefinition[x.r.id]! > i) again = true;
      }
      nextInst = following;
      any = true;
    }
  }
  if (!any) return;
  let w = 0;
  for (let i = 0; i < items.length; i++) {
    const item = items[i];
    if (item && !removed[i]) items[w++] = item;
  }
  items.length = w;
}
