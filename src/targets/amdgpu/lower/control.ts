/**
 * Structured control flow. A uniform condition (an SGPR boolean) branches on SCC; a
 * varying one (a lane mask) runs both sides under EXEC masks:
 *
 *   uniform if   s_cmp_lg_u32 c, 0; s_cbranch_scc0 ELSE; then; s_branch END; ELSE: else; END:
 *   varying if   s_and_saveexec saved, m; s_cbranch_execz ELSE; then;
 *                ELSE: s_andn2 exec, saved, m; s_cbranch_execz END; else; END: s_mov exec, saved
 *   uniform for  iv = lo; HEAD: iv < hi ? : s_cbranch_scc0 EXIT; body; iv += step; s_branch HEAD; EXIT:
 *   varying for  saved = exec; HEAD: m = iv < hi; exec &= m; s_cbranch_execz EXIT; body; iv += step;
 *                s_branch HEAD; EXIT: exec = saved   (lanes leave the loop one by one)
 *
 * Values leaving a region get registers of their own that each side writes (VGPR writes
 * obey EXEC, so each lane keeps its own side's value; lane masks are merged with EXEC
 * explicitly because scalar writes do not). `scf.for ... unroll` with a constant trip count
 * of at most 64 is unrolled (its induction variable then folds into offsets).
 */
import type { Op, Region } from "../../../ir/core.js";
import { imm } from "../isa/operands.js";
import { part, type Item, type VReg } from "../machine/program.js";
import { add64, compareInt, select } from "./arith.js";
import { isPlainAccess, precomputeAddress } from "./memory.js";
import { operandOf, resultOf, type Carrier, type KernelLowering, type Lowered, type Rule, type Scalar } from "./context.js";

type Cx = KernelLowering;

const MAX_UNROLL = 64;

function capture(cx: Cx, region: Region | undefined, args: readonly Lowered[]): { items: Item[]; yielded: Lowered[] } {
  if (!region) return { items: [], yielded: [] };
  const start = cx.program.items.length;
  const term = cx.lowerRegion(region, args);
  const yielded = term.operands.map((v) => cx.get(v));
  return { items: cx.program.items.splice(start), yielded };
}

/** Lowers `region` where the program stands (no capture) and returns what it yields. */
function lowerInPlace(cx: Cx, region: Region, args: readonly Lowered[]): Lowered[] {
  const operands = cx.lowerRegion(region, args).operands;
  const yielded = new Array<Lowered>(operands.length);
  let i = 0;
  for (const v of operands) yielded[i++] = cx.get(v);
  return yielded;
}

function append(cx: Cx, items: readonly Item[]): void {
  cx.program.items.push(...items);
}

interface Slot {
  readonly value: Scalar;
  readonly cls: "s" | "v";
}

/** A register shaped for `template`'s type, in class `cls`. */
function slotFor(cx: Cx, template: Scalar, cls: "s" | "v", narrow: boolean, max?: bigint): Slot {
  if (template.t === "i1" && cls === "s" && template.mask) {
    return { value: cx.sval("i1", cx.vreg("s", cx.maskDwords), { mask: true, mutable: true }), cls };
  }
  const n = template.t === "i64" && !narrow ? 2 : 1;
  const reg = cx.vreg(cls, n);
  const extra: Partial<Scalar> = { mutable: true, ...(narrow ? { narrow: true } : {}), ...(max !== undefined ? { max } : {}), ...(template.t === "i1" && cls === "s" ? { max: 1n } : {}) };
  return { value: cx.sval(template.t, reg, extra), cls };
}

/** slot := value (under the current EXEC for VGPRs; masks merge with EXEC when `merge`). */
function assign(cx: Cx, slot: Slot, value: Scalar, merge: boolean): void {
  const to = slot.value;
  if (to.mask) {
    const m = value.mask ? part(value.reg!) : value.c !== undefined ? imm(value.c ? -1 : 0) : undefined;
    const src = m ?? (() => {
      const t = cx.vreg("s", cx.maskDwords);
      cx.emit("s_cmp_lg_u32", [cx.lo(value), imm(0)]);
      cx.emit(cx.maskOp("s_cselect"), [part(t), imm(-1), imm(0)]);
      return part(t);
    })();
    if (!merge) return cx.emit(cx.maskOp("s_mov"), [part(to.reg!), src]);
    const t = cx.vreg("s", cx.maskDwords);
    cx.emit(cx.maskOp("s_and"), [part(t), src, cx.exec]);
    cx.emit(cx.maskOp("s_or"), [part(to.reg!), part(to.reg!), part(t)]);
    return;
  }
  const mov = slot.cls === "s" ? "s_mov_b32" : "v_mov_b32";
  const reg = to.reg!;
  if (value.reg === reg) return;
  if (slot.cls === "s" && value.reg?.cls === "v") {
    // The analysis proved it uniform: every active lane holds the same value.
    for (let i = 0; i < reg.n; i++) cx.emit("v_readfirstlane_b32", [part(reg, i, 1), i === 0 ? cx.lo(value) : cx.hi(value)]);
    return;
  }
  cx.emit(mov, [part(reg, 0, 1), cx.lo(value.mask ? boolValue(cx, value) : value)]);
  if (reg.n === 2) cx.emit(mov, [part(reg, 1, 1), cx.hi(value)]);
}

function boolValue(cx: Cx, mask: Scalar): Scalar {
  const d = cx.vreg("v", 1);
  cx.emit("v_cndmask_b32_e64", [part(d), imm(0), imm(1), part(mask.reg!)]);
  return cx.sval("i32", d);
}

/** How a region's values flatten to scalars: a vector is carried as its lanes. */
type Shape = { readonly kind: "scalar" } | { readonly kind: "vector"; readonly n: number; readonly t: Carrier };

interface Flat {
  /** One list of scalars per region (or the inits), all of the same length. */
  readonly lists: Scalar[][];
  readonly shapes: readonly Shape[];
  /** The Loom value each flat scalar belongs to (its uniformity decides the register class). */
  readonly owners: readonly number[];
}

function flatYields(cx: Cx, op: Op, lists: readonly (readonly Lowered[])[]): Flat | undefined {
  const shapes: Shape[] = [];
  const owners: number[] = [];
  const out: Scalar[][] = [];
  for (let li = 0; li < lists.length; li++) {
    const l = lists[li]!;
    const flat: Scalar[] = [];
    for (let i = 0; i < l.length; i++) {
      const x = l[i]!;
      if (x.kind === "scalar") {
        flat.push(x);
        if (li === 0) { shapes.push({ kind: "scalar" }); owners.push(i); }
      } else if (x.kind === "vector") {
        flat.push(...x.lanes);
        if (li === 0) { shapes.push({ kind: "vector", n: x.lanes.length, t: x.t }); x.lanes.forEach(() => owners.push(i)); }
      } else {
        if (x.kind !== "invalid") cx.unsupported(op, `'${op.name}' yielding buffers or views`, "the AMDGPU back end merges scalars and vectors only so far");
        return undefined;
      }
    }
    out.push(flat);
  }
  if (out.some((f) => f.length !== owners.length)) {
    cx.unsupported(op, `'${op.name}' yielding vectors of different lengths`);
    return undefined;
  }
  return { lists: out, shapes, owners };
}

/** The flat scalars regrouped into the region's values. */
function unflatten(shapes: readonly Shape[], flat: readonly Scalar[]): Lowered[] {
  let k = 0;
  return shapes.map((s) => {
    if (s.kind === "scalar") return flat[k++]!;
    const lanes = flat.slice(k, k + s.n);
    k += s.n;
    return { kind: "vector", lanes, t: s.t };
  });
}

const maxOf = (xs: readonly Scalar[]) => (xs.every((x) => x.max !== undefined) ? xs.reduce((m, x) => (x.max! > m ? x.max! : m), 0n) : undefined);

function resultSlots(cx: Cx, op: Op, flat: Flat, uniform: boolean): Slot[] {
  return flat.owners.map((owner, i) => {
    const r = op.results[owner]!;
    const ys = flat.lists.map((y) => y[i]!);
    const t = ys[0]!;
    const allScalar = ys.every((y) => y.c !== undefined || (y.reg?.cls === "s" && !y.mask));
    const cls = uniform && cx.uniform(r) && allScalar && t.t !== "f32" ? "s" : "v";
    if (t.t === "i1" && cls === "v") return { value: cx.sval("i1", cx.vreg("s", cx.maskDwords), { mask: true, mutable: true }), cls: "s" };
    const narrow = t.t === "i64" && ys.every((y) => cx.hiZero(y));
    return slotFor(cx, t, cls, narrow, maxOf(ys));
  });
}

/**
 * Branches to `target` when the uniform boolean `cond` is false. When `cond` was just made
 * from SCC (`s_cselect_b32 d, 1, 0` or `0, 1` as the last instruction), the select is
 * dropped and the branch tests SCC itself.
 */
function branchUnless(cx: Cx, cond: Scalar, target: import("../machine/program.js").Label, onlyUse: boolean): void {
  const last = cx.program.items.at(-1);
  if (onlyUse && last?.kind === "inst" && last.inst.mnemonic === "s_cselect_b32") {
    const [d, t] = last.inst.operands;
    if (d?.k === "vreg" && d.r === cond.reg && t?.k === "imm") {
      cx.program.items.pop();
      return cx.branch(t.v === 1 ? "s_cbranch_scc0" : "s_cbranch_scc1", target);
    }
  }
  cx.emit("s_cmp_lg_u32", [cx.lo(cond), imm(0)]);
  cx.branch("s_cbranch_scc0", target);
}

/**
 * The address arithmetic of `region`'s plain accesses whose view and indices come from
 * outside it, computed before a varying branch into it: under the branch's EXEC mask it would
 * hold only the active lanes, so a guarded access per element (edge tiles, tails) would
 * repeat the shared parts (row · stride) in every branch; outside, the CSE memo shares them.
 */
function hoistAddresses(cx: Cx, region: Region): void {
  let inside: Set<Op | Region> | undefined;
  for (const access of region.ops) {
    if (!isPlainAccess(access)) continue;
    inside ??= new Set<Op | Region>(region.ops);
    const ops = inside;
    precomputeAddress(cx, access, (v) => !ops.has(v.owner));
  }
}

const ifRule: Rule = (cx, op) => {
  const cond = cx.scalar(operandOf(op, 0));
  if (cond.c !== undefined) {
    const taken = cond.c !== 0n ? op.regions[0] : op.regions[1];
    const yielded = taken ? lowerInPlace(cx, taken, []) : [];
    return op.results.forEach((res, i) => cx.set(res, yielded[i] ?? { kind: "invalid" }));
  }
  if (cond.mask) for (const region of op.regions) hoistAddresses(cx, region);
  const thenPart = capture(cx, op.regions[0], []);
  const elsePart = capture(cx, op.regions[1], []);
  let slots: Slot[] = [];
  let thenYields: Scalar[] = [], elseYields: Scalar[] = [];
  let shapes: readonly Shape[] = [];
  const uniform = !cond.mask;
  if (op.results.length > 0) {
    const flat = flatYields(cx, op, [thenPart.yielded, elsePart.yielded]);
    if (!flat) return cx.poison(op);
    slots = resultSlots(cx, op, flat, uniform);
    [thenYields, elseYields] = flat.lists as [Scalar[], Scalar[]];
    shapes = flat.shapes;
  }
  const masks = slots.filter((s) => s.value.mask);
  const end = cx.label(), otherwise = cx.label();
  const program = cx.program;
  if (uniform) {
    branchUnless(cx, cond, otherwise, cx.kernel.uses.get(operandOf(op, 0)) === 1);
    program.branch("then", false);
    append(cx, thenPart.items);
    slots.forEach((s, i) => assign(cx, s, thenYields[i]!, false));
    cx.branch("s_branch", end);
    program.branch("else", false);
    cx.place(otherwise);
    append(cx, elsePart.items);
    slots.forEach((s, i) => assign(cx, s, elseYields[i]!, false));
    program.branch("end", false);
    cx.place(end);
  } else {
    const saved = cx.vreg("s", cx.maskDwords);
    for (const m of masks) cx.emit(cx.maskOp("s_mov"), [part(m.value.reg!), imm(0)]);
    cx.emit(cx.maskOp("s_and_saveexec"), [part(saved), part(cond.reg!)]);
    cx.branch("s_cbranch_execz", otherwise);
    program.branch("then", true);
    append(cx, thenPart.items);
    slots.forEach((s, i) => assign(cx, s, thenYields[i]!, true));
    program.branch("else", true);
    cx.place(otherwise);
    const hasElse = elsePart.items.length > 0 || slots.length > 0;
    if (hasElse) {
      cx.emit(cx.maskOp("s_andn2"), [cx.exec, part(saved), part(cond.reg!)]);
      cx.branch("s_cbranch_execz", end);
      append(cx, elsePart.items);
      slots.forEach((s, i) => assign(cx, s, elseYields[i]!, true));
    }
    program.branch("end", true);
    cx.place(end);
    cx.emit(cx.maskOp("s_mov"), [cx.exec, part(saved)]);
  }
  const merged = unflatten(shapes, slots.map((s) => s.value));
  op.results.forEach((r, i) => cx.set(r, merged[i]!));
};

/** slots := yields as a parallel copy: yields that are carried registers are read before any is written. */
function parallelCopy(cx: Cx, slots: readonly Slot[], yields: readonly Scalar[]): void {
  const carriedRegs = new Set<VReg | undefined>(slots.map((s) => s.value.reg));
  const staged = yields.map((y, i) => {
    const slot = slots[i];
    if (!slot || !y.reg || !carriedRegs.has(y.reg) || y.reg === slot.value.reg) return y;
    const t = slotFor(cx, y, slot.cls, false);
    assign(cx, t, y, false);
    return t.value;
  });
  staged.forEach((y, i) => {
    const slot = slots[i];
    if (slot) assign(cx, slot, y, false);
  });
}

const isUniform = (x: Scalar) => x.c !== undefined || (x.reg?.cls === "s" && !x.mask);

function tripCount(lo: Scalar, hi: Scalar, step: Scalar): number | undefined {
  if (lo.c === undefined || hi.c === undefined || step.c === undefined) return undefined;
  const l = BigInt.asIntN(64, lo.c), h = BigInt.asIntN(64, hi.c), s = BigInt.asIntN(64, step.c);
  if (s <= 0n) return undefined;
  return h <= l ? 0 : Number((h - l + s - 1n) / s);
}

const forRule: Rule = (cx, op) => {
  const lo = cx.scalar(operandOf(op, 0)), hi = cx.scalar(operandOf(op, 1)), step = cx.scalar(operandOf(op, 2));
  const inits: Lowered[] = [];
  for (let i = 3; i < op.operands.length; i++) inits.push(cx.get(op.operands[i]!));
  const initFlat = flatYields(cx, op, [inits]);
  if (!initFlat) return cx.poison(op);
  const initScalars = initFlat.lists;
  const body = op.regions[0]!;
  const trips = tripCount(lo, hi, step);
  if (trips !== undefined && (trips === 0 || (op.props.unroll !== undefined && op.props.unroll !== false && trips <= MAX_UNROLL))) {
    let carried: Lowered[] = inits;
    const first = BigInt.asIntN(64, lo.c!), stride = BigInt.asIntN(64, step.c!);
    // One argument array serves every iteration (the region lowering only reads it).
    const args = new Array<Lowered>(inits.length + 1);
    for (let k = 0, at = first; k < trips; k++, at += stride) {
      args[0] = cx.const("i64", at);
      let i = 1;
      for (const c of carried) args[i++] = c;
      // Iterations are straight-line code one after another: address parts computed once serve all.
      cx.shareNextScope = true;
      carried = lowerInPlace(cx, body, args);
    }
    return op.results.forEach((res, i) => cx.set(res, carried[i]!));
  }
  const uniformLoop = isUniform(lo) && isUniform(hi) && isUniform(step);
  if (initScalars[0]!.some((x) => x.t === "i1")) {
    cx.unsupported(op, "an i1 loop-carried value", "carry an i32 instead");
    return cx.poison(op);
  }
  if (step.c === undefined || BigInt.asIntN(64, step.c) <= 0n) {
    if (!(step.max !== undefined)) {
      cx.unsupported(op, "'scf.for' with a step not known to be positive", "the AMDGPU back end selects loops with positive steps");
      return cx.poison(op);
    }
  }
  const narrow = cx.hiZero(lo) && cx.hiZero(step) && hi.max !== undefined && step.max !== undefined && hi.max + step.max < 1n << 31n;
  const ivCls = uniformLoop ? "s" : "v";
  const ivSlot = slotFor(cx, { kind: "scalar", t: "i64" }, ivCls, narrow, narrow ? hi.max : undefined);
  assign(cx, ivSlot, lo, false);
  const slots = initScalars[0]!.map((init, i) => {
    const arg = body.args[initFlat.owners[i]! + 1]!;
    const cls = uniformLoop && cx.uniform(arg) && isUniform(init) && init.t !== "f32" ? "s" : "v";
    const s = slotFor(cx, init, cls, false);
    assign(cx, s, init, false);
    return s;
  });
  const saved = uniformLoop ? undefined : cx.vreg("s", cx.maskDwords);
  if (saved) cx.emit(cx.maskOp("s_mov"), [part(saved), cx.exec]);
  const head = cx.label(), exit = cx.label();
  cx.program.loop("begin");
  cx.place(head);
  const iv = ivSlot.value;
  const more = compareInt(cx, "slt", iv, hi, 64);
  if (uniformLoop) {
    if (more.mask) {
      cx.emit(cx.wave === 64 ? "s_cmp_lg_u64" : "s_cmp_lg_u32", [part(more.reg!), imm(0)]);
      cx.branch("s_cbranch_scc0", exit);
    } else branchUnless(cx, more, exit, true);
  } else {
    const m = more.mask ? part(more.reg!) : undefined;
    if (!m) {
      cx.emit("s_cmp_lg_u32", [cx.lo(more), imm(0)]);
      cx.branch("s_cbranch_scc0", exit);
    } else {
      cx.emit(cx.maskOp("s_and"), [cx.exec, cx.exec, m]);
      cx.branch("s_cbranch_execz", exit);
    }
  }
  const r = capture(cx, body, [iv, ...unflatten(initFlat.shapes, slots.map((s) => s.value))]);
  append(cx, r.items);
  const yields = flatYields(cx, op, [r.yielded])?.lists[0];
  if (yields) parallelCopy(cx, slots, yields);
  assign(cx, ivSlot, add64(cx, iv, step), false);
  cx.branch("s_branch", head);
  cx.program.loop("end");
  cx.place(exit);
  if (saved) cx.emit(cx.maskOp("s_mov"), [cx.exec, part(saved)]);
  const carried = unflatten(initFlat.shapes, slots.map((s) => s.value));
  op.results.forEach((res, i) => cx.set(res, carried[i]!));
};

/**
 * `scf.while`: HEAD: before(carried) → cond, values; results := values; leave when no lane
 * continues (a uniform condition branches on SCC; a lane mask is ANDed into EXEC, lanes leave
 * one by one and keep the values of their last pass, since VGPR writes obey EXEC);
 * after(values) → carried; s_branch HEAD; EXIT: EXEC restored. Results live in VGPRs (lanes
 * may leave at different passes); carried values the analysis proves uniform in SGPRs.
 */
const whileRule: Rule = (cx, op) => {
  const inits = op.operands.map((v) => cx.get(v));
  const initFlat = flatYields(cx, op, [inits]);
  if (!initFlat) return cx.poison(op);
  const before = op.regions[0]!, after = op.regions[1]!;
  if (initFlat.lists[0]!.some((x) => x.t === "i1")) {
    cx.unsupported(op, "an i1 loop-carried value", "carry an i32 instead");
    return cx.poison(op);
  }
  const carriedSlots = initFlat.lists[0]!.map((init, i) => {
    // A carried value the analysis proves uniform stays scalar (lanes that left read the results, not it).
    const cls = cx.uniform(before.args[initFlat.owners[i]!]!) && isUniform(init) && init.t !== "f32" ? "s" : "v";
    const s = slotFor(cx, init, cls, false);
    assign(cx, s, init, false);
    return s;
  });
  const saved = cx.vreg("s", cx.maskDwords);
  cx.emit(cx.maskOp("s_mov"), [part(saved), cx.exec]);
  const head = cx.label(), exit = cx.label();
  cx.program.loop("begin");
  cx.place(head);
  const start = cx.program.items.length;
  const term = cx.lowerRegion(before, unflatten(initFlat.shapes, carriedSlots.map((s) => s.value)));
  const [condValue, ...valueOperands] = term.operands;
  const cond = cx.scalar(condValue!);
  const values = valueOperands.map((v) => cx.get(v));
  const valueFlat = flatYields(cx, op, [values]);
  if (!valueFlat || valueFlat.lists[0]!.some((x) => x.t === "i1")) {
    if (valueFlat) cx.unsupported(op, "an i1 loop-carried value", "carry an i32 instead");
    cx.program.items.splice(start);
    return cx.poison(op);
  }
  const resultSlots = valueFlat.lists[0]!.map((v) => slotFor(cx, v, "v", false));
  resultSlots.forEach((s, i) => assign(cx, s, valueFlat.lists[0]![i]!, false));
  if (cond.c !== undefined) {
    if (cond.c === 0n) cx.branch("s_branch", exit);
  } else if (cond.mask) {
    cx.emit(cx.maskOp("s_and"), [cx.exec, cx.exec, part(cond.reg!)]);
    cx.branch("s_cbranch_execz", exit);
  } else branchUnless(cx, cond, exit, false);
  const r = capture(cx, after, values);
  append(cx, r.items);
  const yields = flatYields(cx, op, [r.yielded])?.lists[0];
  if (yields) parallelCopy(cx, carriedSlots, yields);
  cx.branch("s_branch", head);
  cx.program.loop("end");
  cx.place(exit);
  cx.emit(cx.maskOp("s_mov"), [cx.exec, part(saved)]);
  const results = unflatten(valueFlat.shapes, resultSlots.map((s) => s.value));
  op.results.forEach((res, i) => cx.set(res, results[i]!));
};

const scfSelect: Rule = (cx, op) => {
  const [c, a, b] = op.operands.map((v) => cx.get(v));
  if (c?.kind !== "scalar" || a?.kind !== "scalar" || b?.kind !== "scalar") {
    cx.unsupported(op, "'scf.select' of non-scalars");
    return cx.poison(op);
  }
  cx.set(resultOf(op), select(cx, c, a, b));
};

export const CONTROL_RULES = {
  "scf.if": ifRule,
  "scf.for": forRule,
  "scf.while": whileRule,
  "scf.select": scfSelect,
} as const satisfies Record<string, Rule>;
