/**
 * Dead machine-instruction removal before register allocation: selection computes some
 * values eagerly (view strides, address parts) that no instruction reads. An ALU
 * instruction whose virtual-register results nobody reads is removed, unless it writes
 * EXEC, or writes SCC/VCC that the next instruction reads (a carry chain or a select).
 * Unused loads go too; stores, atomics and branches always stay. Repeats until nothing changes.
 */
import { dsDefines, formatOf, globalDefines } from "../isa/encoder.js";
import type { Item, MInst, VReg } from "./program.js";

const SCC_READERS = new Set(["s_addc_u32", "s_subb_u32", "s_cselect_b32", "s_cselect_b64", "s_cbranch_scc0", "s_cbranch_scc1"]);
const NO_SCC = new Set(["s_mov_b32", "s_mov_b64", "s_mul_i32", "s_mul_hi_u32", "s_cselect_b32", "s_cselect_b64"]);

/** How many leading operands an instruction writes. */
export function definedCount(inst: MInst): number {
  switch (formatOf(inst.mnemonic)) {
    case "SOPP": case "SOPK": case "SOPC": case "MUBUF": return 0;
    case "VOP3B": return 2;
    case "DS": return dsDefines(inst.mnemonic) ? 1 : 0;
    case "GLOBAL": return globalDefines(inst) ? 1 : 0;
    case "VOP2": return inst.operands[1]?.k === "special" ? 2 : 1;
    default: return 1;
  }
}

const ALU = new Set(["SOP1", "SOP2", "VOP1", "VOP2", "VOP3", "VOP3B", "SMEM"]);

/** ALU instructions and plain loads (no atomics, stores or control). */
function removable(inst: MInst): boolean {
  return ALU.has(formatOf(inst.mnemonic)) || inst.mnemonic.startsWith("global_load") || inst.mnemonic.startsWith("ds_load");
}

export function removeDeadInstructions(items: Item[]): void {
  for (let changed = true; changed; ) {
    changed = false;
    const uses = new Map<VReg, number>();
    for (const item of items) {
      if (item.kind !== "inst") continue;
      const d = definedCount(item.inst);
      item.inst.operands.forEach((o, i) => {
        if (o.k === "vreg" && i >= d) uses.set(o.r, (uses.get(o.r) ?? 0) + 1);
      });
    }
    let nextInst: MInst | undefined;
    for (let i = items.length - 1; i >= 0; i--) {
      const item = items[i]!;
      if (item.kind !== "inst") continue;
      const following = nextInst;
      nextInst = item.inst;
      if (!removable(item.inst)) continue;
      const inst = item.inst;
      const defs = inst.operands.slice(0, definedCount(inst));
      if (defs.some((o) => o.k !== "vreg" && !(o.k === "special" && o.name === "vcc"))) continue;
      if (defs.some((o) => o.k === "vreg" && (uses.get(o.r) ?? 0) > 0)) continue;
      const writesScc = inst.mnemonic.startsWith("s_") && !NO_SCC.has(inst.mnemonic);
      if (writesScc && following && SCC_READERS.has(following.mnemonic)) continue;
      const writesVcc = defs.some((o) => o.k === "special") || (inst.mnemonic === "v_mad_u64_u32" && inst.operands[1]?.k === "special" && inst.operands[1].name === "vcc");
      const readsVcc = following?.operands.slice(definedCount(following)).some((o) => o.k === "special" && o.name === "vcc") ?? false;
      if (writesVcc && readsVcc) continue;
      items.splice(i, 1);
      nextInst = following;
      changed = true;
    }
  }
}
