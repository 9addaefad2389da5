/**
 * Wait states the hardware does not interlock, inserted after register allocation as
 * `s_nop`s (each instruction is one wait state, `s_nop k` is k + 1). gfx940/gfx942/gfx950
 * (LLVM `hasVDecCoExecHazard`): a VALU instruction reading an SGPR (VCC included) that a VALU
 * instruction wrote needs 2 wait states; `v_readfirstlane_b32` reading a VGPR a VALU
 * instruction wrote needs 1. Other families here interlock these (transcendental hazards
 * are handled at selection, arith.ts `transHazard`). At a label every predecessor's history
 * is joined (forward branches); a loop head assumes the worst.
 */
import { definedCount } from "./dce.js";
import type { PItem } from "./waitcnt.js";
import type { Instruction } from "../isa/encoder.js";
import type { Operand } from "../isa/operands.js";
import type { Label } from "./program.js";

interface Write {
  readonly reg: number;
  /** Wait states since the write. */
  readonly since: number;
}

/** SGPR n = n (VCC = 106, 107), VGPR n = 1024 + n. */
function regsOf(o: Operand, wave64: boolean): number[] {
  if (o.k === "s" || o.k === "v") {
    const base = (o.k === "v" ? 1024 : 0) + o.i;
    const out: number[] = [];
    for (let i = 0; i < o.n; i++) out.push(base + i);
    return out;
  }
  if (o.k === "special" && o.name === "vcc") return wave64 ? [106, 107] : [106];
  return [];
}

const isValu = (inst: Instruction) => inst.mnemonic.startsWith("v_");
const UNKNOWN = -1;

export function insertHazardNops(items: readonly PItem[], enabled: boolean, wave64: boolean): readonly PItem[] {
  if (!enabled) return items;
  const out: PItem[] = [];
  let history: Write[] = [];
  const pending = new Map<Label, Write[]>();
  let reachable = true;
  const age = (states: number) => {
    if (history.length === 0) return;
    const aged: Write[] = [];
    for (const w of history) if (w.since + states < 2) aged.push({ reg: w.reg, since: w.since + states });
    history = aged;
  };
  items.forEach((item, index) => {
    if (item.kind === "loop") return void out.push(item);
    if (item.kind === "label") {
      const preds = [...(pending.get(item.label) ?? []), ...(reachable ? history : [])];
      history = items[index - 1]?.kind === "loop" ? [{ reg: UNKNOWN, since: 0 }] : preds;
      reachable = true;
      return void out.push(item);
    }
    const inst = item.inst;
    if (isValu(inst)) {
      const d = definedCount(inst);
      const sources = inst.operands.slice(d);
      let need = 0;
      const unknown = history.find((w) => w.reg === UNKNOWN);
      for (const o of sources) {
        for (const r of regsOf(o, wave64)) {
          const sgpr = r < 1024;
          const limit = sgpr ? 2 : inst.mnemonic === "v_readfirstlane_b32" ? 1 : 0;
          if (limit === 0) continue;
          for (const w of history) if (w.reg === r || (unknown && sgpr && w === unknown)) need = Math.max(need, limit - w.since);
        }
      }
      if (need > 0) {
        out.push({ kind: "inst", inst: { mnemonic: "s_nop", operands: [], simm: need - 1 } });
        age(need);
      }
    }
    out.push(item);
    const states = inst.mnemonic === "s_nop" ? (inst.simm ?? 0) + 1 : 1;
    age(states);
    if (isValu(inst)) {
      for (const o of inst.operands.slice(0, definedCount(inst))) for (const r of regsOf(o, wave64)) history.push({ reg: r, since: 0 });
    }
    if (item.target) pending.set(item.target, [...(pending.get(item.target) ?? []), ...history]);
    if (inst.mnemonic === "s_branch" || inst.mnemonic === "s_endpgm") reachable = false;
  });
  return out;
}
