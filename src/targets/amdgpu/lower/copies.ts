/**
 * Copy coalescing before register allocation. Selection copies lanes into registers of
 * their own (a vector load's lanes become separate values; a vector store needs its lanes in
 * one tuple), so straight-line code often holds `v_mov_b32 d, t[i]` and `v_mov_b32 t[i], s`.
 * Two rewrites remove such copies where nothing between the copy and the other end can tell:
 *
 * - forward: `v_mov_b32 d, src` with d written only there — every read of d reads src
 *   instead, when src is not written and no label, branch, loop marker or EXEC write lies
 *   between the copy and d's last read;
 * - backward: `v_mov_b32 t[i], s` where s is written once by a VALU instruction X and read
 *   only by the copy — X writes t[i] directly, when nothing between X and the copy touches
 *   t (or EXEC) and no label, branch or loop marker lies between them.
 *
 * Both keep every lane's value (the same EXEC governs both ends) and run before allocation,
 * so the allocator sees fewer, longer intervals.
 */
import { defOf } from "../isa/encoder.js";
import { definedCount } from "../machine/dce.js";
import { Scratch } from "../machine/scratch.js";

const scratch = new Scratch();
import type { Item, MInst, MOperand, VOperand, VReg } from "../machine/program.js";

const isV1 = (o: MOperand | undefined): o is VOperand => o?.k === "vreg" && o.r.cls === "v" && o.n === 1;

/** An item after which straight-line reasoning stops. */
function isBarrier(item: Item): boolean {
  if (item.kind !== "inst") return true;
  const m = item.inst.mnemonic;
  return item.inst.target !== undefined || m.startsWith("s_cbranch") || m === "s_branch" || m === "s_endpgm" || writesExec(item.inst);
}

function writesExec(inst: MInst): boolean {
  const o = inst.operands;
  const n = Math.min(o.length, Math.max(1, definedCount(inst)));
  for (let j = 0; j < n; j++) {
    const x = o[j];
    if (x && x.k === "special" && x.name === "exec") return true;
  }
  return inst.mnemonic.includes("saveexec");
}

/** Per register id: how many instructions write it and read it (scratch typed arrays, valid below maxId + 1: this runs on every compile). */
function counts(items: readonly Item[]): { defs: Int32Array; uses: Int32Array } {
  let maxId = -1;
  for (const item of items) {
    if (item.kind !== "inst") continue;
    for (const o of item.inst.operands) if (o.k === "vreg" && o.r.id > maxId) maxId = o.r.id;
  }
  const defs = scratch.i32(0, maxId + 1).fill(0, 0, maxId + 1), uses = scratch.i32(1, maxId + 1).fill(0, 0, maxId + 1);
  for (const item of items) {
    if (item.kind !== "inst") continue;
    const o = item.inst.operands;
    const d = definedCount(item.inst);
    let j = 0;
    for (const x of o) {
      if (x.k === "vreg") {
        const counted = j < d ? defs : uses;
        counted[x.r.id] = (counted[x.r.id] ?? 0) + 1;
      }
      j++;
    }
  }
  return { defs, uses };
}

function touches(inst: MInst, r: VReg): boolean {
  for (const o of inst.operands) if (o.k === "vreg" && o.r === r) return true;
  return false;
}

function writes(inst: MInst, r: VReg): boolean {
  const o = inst.operands;
  const d = Math.min(o.length, definedCount(inst));
  for (let j = 0; j < d; j++) {
    const x = o[j];
    if (x && x.k === "vreg" && x.r === r) return true;
  }
  return false;
}

/** How many source operands of inst name r. */
function readsOf(inst: MInst, r: VReg): number {
  const o = inst.operands;
  let n = 0;
  for (let j = definedCount(inst); j < o.length; j++) {
    const x = o[j];
    if (x && x.k === "vreg" && x.r === r) n++;
  }
  return n;
}

/** Reads of d between the copy and the first barrier must be all of them (`reads`); src may not be written before the last. */
function forward(items: Item[], at: number, d: VReg, src: VOperand, reads: number): boolean {
  let seen = 0;
  let last = at;
  for (let j = at + 1; j < items.length && seen < reads; j++) {
    const item = items[j];
    if (item === undefined || isBarrier(item) || item.kind !== "inst") return false;
    const n = readsOf(item.inst, d);
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

/** X writes s, read only by the copy at `at` into `target`: X writes target instead (X may read target: it reads before it writes). Returns X's index, or -1. */
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
    if (!VALU.has(defOf(inst).format) || definedCount(inst) !== 1 || !isV1(def) || def.r !== s) return -1;
    items[j] = { kind: "inst", inst: { ...inst, operands: [target, ...inst.operands.slice(1)] } };
    items.splice(at, 1);
    return j;
  }
  return -1;
}

/** Removes the copies the two rewrites allow (one pass; counts are kept up to date). */
export function coalesceCopies(items: Item[]): void {
  const { defs, uses } = counts(items);
  const single = (r: VReg) => r.fixed === undefined && defs[r.id] === 1;
  for (let i = 0; i < items.length; i++) {
    const item = items[i];
    if (item?.kind !== "inst") continue;
    if (item.inst.mnemonic !== "v_mov_b32") continue;
    const [dst, src] = item.inst.operands;
    if (!isV1(dst) || !isV1(src) || dst.r === src.r) continue;
    const reads = uses[dst.r.id] ?? 0;
    if (dst.r.n === 1 && reads > 0 && single(dst.r) && forward(items, i, dst.r, src, reads)) {
      // Instructions that read d (counted once each in `reads`) now read src instead.
      uses[src.r.id] = (uses[src.r.id] ?? 0) - 1 + reads;
      uses[dst.r.id] = 0;
      defs[dst.r.id] = 0;
      i--;
      continue;
    }
    const x = src.r.n === 1 && single(src.r) && uses[src.r.id] === 1 ? backward(items, i, dst, src.r) : -1;
    if (x >= 0) {
      uses[src.r.id] = 0;
      defs[src.r.id] = 0;
      i = x - 1;
    }
  }
}

