/**
 * Copy coalescing before register allocation. Selection copies lanes into registers of
 * their own (a vector load's lanes become separate values; a vector store needs its lanes in
 * one tuple), so straight-line code often holds `v_mov_b32 d, t[i]` and `v_mov_b32 t[i], s`.
 * Two rewrites remove such copies where nothing between the copy and the other end can tell:
 *
 * - forward: `v_mov_b32 d, src` with d written only there — every read of d reads src
 *   instead, when src is not written and no label, branch, loop marker or EXEC write lies
 *   between the copy and d's last read;
 * - backward: `v_mov_b32 t[i], s` (or any VALU instruction writing t[i] from s) where s is
 *   written once by a VALU instruction X and read only there — X writes t[i] directly, when
 *   nothing between X and the reader touches t (or EXEC) and no label, branch or loop marker
 *   lies between them. A chain `t1 = fma(a, b, p); …; p = fma(…, t7)` so becomes in-place
 *   updates of p.
 *
 * Both keep every lane's value (the same EXEC governs both ends) and run before allocation,
 * so the allocator sees fewer, longer intervals.
 *
 * Then tuple reuse (`reuseTuples`): a tuple t written part by part by VALU instructions
 * takes the place of a same-sized tuple l whose part i nobody reads after t[i] is written
 * (an elementwise `t[i] = f(l[i], …)` writes in place, as LLVM's allocator does), when l is
 * not written after t's first write and no loop marker lies between l's first write and
 * t's last (a loop would read l again through its back edge).
 */
import { formatOf } from "../isa/encoder.js";
import { definedCount } from "../machine/dce.js";
import type { Item, MInst, MOperand, VOperand, VReg } from "../machine/program.js";

const isV1 = (o: MOperand | undefined): o is VOperand => o?.k === "vreg" && o.r.cls === "v" && o.n === 1;

/** An item after which straight-line reasoning stops. */
function isBarrier(item: Item): boolean {
  if (item.kind !== "inst") return true;
  const m = item.inst.mnemonic;
  return item.inst.target !== undefined || m.startsWith("s_cbranch") || m === "s_branch" || m === "s_endpgm" || writesExec(item.inst);
}

function writesExec(inst: MInst): boolean {
  return inst.operands.slice(0, Math.max(1, definedCount(inst))).some((o) => o.k === "special" && o.name === "exec") || inst.mnemonic.includes("saveexec");
}

const defsOf = (inst: MInst) => inst.operands.slice(0, definedCount(inst));
const usesOf = (inst: MInst) => inst.operands.slice(definedCount(inst));

/** Per register: how many instructions write it and read it. */
function counts(items: readonly Item[]): { defs: Map<VReg, number>; uses: Map<VReg, number> } {
  const defs = new Map<VReg, number>(), uses = new Map<VReg, number>();
  for (const item of items) {
    if (item.kind !== "inst") continue;
    for (const o of defsOf(item.inst)) if (o.k === "vreg") defs.set(o.r, (defs.get(o.r) ?? 0) + 1);
    for (const o of usesOf(item.inst)) if (o.k === "vreg") uses.set(o.r, (uses.get(o.r) ?? 0) + 1);
  }
  return { defs, uses };
}

const touches = (inst: MInst, r: VReg) => inst.operands.some((o) => o.k === "vreg" && o.r === r);
const writes = (inst: MInst, r: VReg) => defsOf(inst).some((o) => o.k === "vreg" && o.r === r);

/** Reads of d between the copy and the first barrier must be all of them (`reads`); src may not be written before the last. */
function forward(items: Item[], at: number, d: VReg, src: VOperand, reads: number): boolean {
  let seen = 0;
  let last = at;
  for (let j = at + 1; j < items.length && seen < reads; j++) {
    const item = items[j];
    if (item === undefined || isBarrier(item) || item.kind !== "inst") return false;
    const n = usesOf(item.inst).filter((o) => o.k === "vreg" && o.r === d).length;
    // The last reader may also write src (`v_add v, v, x` reads before it writes).
    if (n === 0 && writes(item.inst, src.r)) return false;
    if (n > 0) {
      seen += 1;
      last = j;
      if (seen < reads && writes(item.inst, src.r)) return false;
    }
  }
  if (seen < reads) return false;
  for (let j = at + 1; j <= last; j++) {
    const item = items[j];
    if (item?.kind !== "inst") continue;
    const inst = item.inst;
    const d0 = definedCount(inst);
    if (!inst.operands.some((o, k) => k >= d0 && o.k === "vreg" && o.r === d)) continue;
    items[j] = { kind: "inst", inst: { ...inst, operands: inst.operands.map((o, k) => (k >= d0 && o.k === "vreg" && o.r === d ? src : o)) } };
  }
  items.splice(at, 1);
  return true;
}

const VALU = new Set(["VOP1", "VOP2", "VOP3"]);

/**
 * X writes s, read only by Y (at `at`), which writes `target`: X writes target instead and Y
 * reads it (a copy Y disappears). Nothing between X and Y may touch target's register; X
 * itself may read it (it reads before it writes).
 */
/** Returns X's index, or -1. */
function backward(items: Item[], at: number, target: VOperand, s: VReg): number {
  for (let j = at - 1; j >= 0; j--) {
    const item = items[j];
    if (item === undefined || isBarrier(item)) return -1;
    if (item.kind !== "inst") return -1;
    const inst = item.inst;
    if (!writes(inst, s)) {
      if (touches(inst, target.r)) return -1;
      continue;
    }
    const def = inst.operands[0];
    if (!VALU.has(formatOf(inst.mnemonic)) || definedCount(inst) !== 1 || !isV1(def) || def.r !== s) return -1;
    items[j] = { kind: "inst", inst: { ...inst, operands: [target, ...inst.operands.slice(1)] } };
    const y = items[at];
    if (y?.kind !== "inst") return -1;
    if (y.inst.mnemonic === "v_mov_b32") items.splice(at, 1);
    else items[at] = { kind: "inst", inst: { ...y.inst, operands: y.inst.operands.map((o, k) => (k > 0 && o.k === "vreg" && o.r === s ? target : o)) } };
    return j;
  }
  return -1;
}

/** Removes the copies the two rewrites allow (one pass; counts are kept up to date). */
export function coalesceCopies(items: Item[]): void {
  const { defs, uses } = counts(items);
  const single = (r: VReg) => r.fixed === undefined && defs.get(r) === 1;
  for (let i = 0; i < items.length; i++) {
    const item = items[i];
    if (item?.kind !== "inst") continue;
    if (item.inst.mnemonic !== "v_mov_b32") {
      // Chains (t1 = f(x); p = g(t1)): the producer writes p directly.
      const inst = item.inst;
      const def = inst.operands[0];
      if (!VALU.has(formatOf(inst.mnemonic)) || definedCount(inst) !== 1 || !isV1(def)) continue;
      const reads = inst.operands.slice(1).filter((o): o is VOperand => isV1(o) && o.r !== def.r && o.r.n === 1 && single(o.r) && uses.get(o.r) === 1);
      const once = reads.filter((o) => inst.operands.filter((x) => x.k === "vreg" && x.r === o.r).length === 1);
      const first = once[0];
      const x = first && !inst.operands.slice(1).some((o) => o.k === "vreg" && o.r === def.r) ? backward(items, i, def, first.r) : -1;
      if (first && x >= 0) {
        uses.delete(first.r);
        defs.delete(first.r);
        // X now writes p: continue the chain from it.
        i = x - 1;
      }
      continue;
    }
    const [dst, src] = item.inst.operands;
    if (!isV1(dst) || !isV1(src) || dst.r === src.r) continue;
    const reads = uses.get(dst.r) ?? 0;
    if (dst.r.n === 1 && reads > 0 && single(dst.r) && forward(items, i, dst.r, src, reads)) {
      // Instructions that read d (counted once each in `reads`) now read src instead.
      uses.set(src.r, (uses.get(src.r) ?? 0) - 1 + reads);
      uses.delete(dst.r);
      defs.delete(dst.r);
      i--;
      continue;
    }
    const x = src.r.n === 1 && single(src.r) && uses.get(src.r) === 1 ? backward(items, i, dst, src.r) : -1;
    if (x >= 0) {
      uses.delete(src.r);
      defs.delete(src.r);
      i = x - 1;
    }
  }
}

interface TupleFacts {
  firstDef: number;
  /** Index of the instruction writing each part, when each part is written once by one VALU instruction. */
  partDefs: (number | undefined)[];
  simple: boolean;
  defs: number[];
  /** Positions of reads per part. */
  reads: number[][];
}

function tupleFacts(items: readonly Item[]): Map<VReg, TupleFacts> {
  const facts = new Map<VReg, TupleFacts>();
  const of = (r: VReg) => {
    let f = facts.get(r);
    if (!f) facts.set(r, (f = { firstDef: -1, partDefs: new Array<number | undefined>(r.n).fill(undefined), simple: true, defs: [], reads: Array.from({ length: r.n }, () => []) }));
    return f;
  };
  items.forEach((item, j) => {
    if (item.kind !== "inst") return;
    const inst = item.inst;
    const d0 = definedCount(inst);
    inst.operands.forEach((o, k) => {
      if (o.k !== "vreg" || o.r.cls !== "v" || o.r.n < 2) return;
      const f = of(o.r);
      if (k < d0) {
        if (f.firstDef < 0) f.firstDef = j;
        f.defs.push(j);
        const alone = o.n === 1 && d0 === 1 && VALU.has(formatOf(inst.mnemonic)) && f.partDefs[o.sub] === undefined;
        if (alone) f.partDefs[o.sub] = j;
        else f.simple = false;
      } else for (let p = o.sub; p < o.sub + o.n; p++) f.reads[p]?.push(j);
    });
  });
  return facts;
}

/** Renames register `from` to `to` in every operand. */
function rename(items: Item[], from: VReg, to: VReg): void {
  items.forEach((item, j) => {
    if (item.kind !== "inst" || !item.inst.operands.some((o) => o.k === "vreg" && o.r === from)) return;
    items[j] = { kind: "inst", inst: { ...item.inst, operands: item.inst.operands.map((o) => (o.k === "vreg" && o.r === from ? { ...o, r: to } : o)) } };
  });
}

/** Tuple reuse (see the file comment). */
export function reuseTuples(items: Item[]): void {
  const facts = tupleFacts(items);
  const loops: number[] = [];
  items.forEach((item, j) => item.kind === "loop" && loops.push(j));
  const taken = new Set<VReg>();
  for (const [t, ft] of facts) {
    if (t.fixed !== undefined || !ft.simple || ft.partDefs.some((d) => d === undefined) || taken.has(t)) continue;
    const tDefs = ft.partDefs as number[];
    const lastDef = Math.max(...tDefs);
    // Candidates: tuples read by t's defining instructions.
    const candidates = new Set<VReg>();
    for (const j of tDefs) {
      const item = items[j];
      if (item?.kind === "inst") for (const o of usesOf(item.inst)) if (o.k === "vreg" && o.r !== t && o.r.n === t.n && o.r.cls === "v") candidates.add(o.r);
    }
    for (const l of candidates) {
      const fl = facts.get(l);
      if (!fl || l.fixed !== undefined || taken.has(l) || fl.firstDef < 0) continue;
      if (fl.defs.some((d) => d >= ft.firstDef)) continue;
      if (fl.reads.some((rs, i) => rs.some((p) => p > tDefs[i]!))) continue;
      if (loops.some((p) => p > fl.firstDef && p < lastDef)) continue;
      rename(items, t, l);
      taken.add(l);
      taken.add(t);
      break;
    }
  }
}
