/**
 * Structured control flow → labels and branches. PTX registers are mutable, so a value that
 * leaves a region gets a register of its own that every path assigns:
 *
 *   scf.if     @!p bra ELSE; then…; mov results; bra END; ELSE: else…; mov results; END:
 *              (short regions without branches of their own are predicated instead: @p / @!p)
 *   scf.for    (full `unroll`, constant trip ≤ 64: the body once per iteration, iv immediate)
 *              mov iv, lo; mov carried, inits; HEAD: setp.ge iv, hi; @p bra EXIT; body…;
 *              mov carried, yields (through temporaries); add iv, step; bra.uni HEAD; EXIT:
 *   scf.while  mov carried, inits; HEAD: before…; @!k bra EXIT; after…; mov carried; bra.uni HEAD; EXIT:
 *
 * Buffers and views are register tuples too (address, length / base, strides), so they may
 * be chosen by control flow and carried through loops when both sides agree on the space.
 */
import type { Op } from "../../../ir/core.js";
import { b, type KernelLowering, type Lowered, type Rule, type Scalar } from "./context.js";
import { select } from "./lanes.js";

/** The scalars a lowered value is made of. */
export function partsOf(l: Lowered): Scalar[] {
  switch (l.kind) {
    case "scalar": return [l];
    case "vector": return [...l.lanes];
    case "buffer": return [l.addr, l.length];
    case "view": return [l.base, ...l.strides];
    case "layout": return l.strides ? [...l.strides] : [];
    case "invalid": return [];
  }
}

/** `template` with its scalars replaced by `parts` (same order as `partsOf`). */
export function withParts(template: Lowered, parts: readonly Scalar[]): Lowered {
  switch (template.kind) {
    case "scalar": return parts[0]!;
    case "vector": return { ...template, lanes: parts };
    case "buffer": return { ...template, addr: parts[0]!, length: parts[1]! };
    case "view": return { ...template, base: parts[0]!, strides: parts.slice(1) };
    case "layout": return template.strides ? { ...template, strides: parts } : template;
    case "invalid": return template;
  }
}

/** Whether two lowered values have the same shape (so one set of registers can hold either). */
function compatible(a: Lowered, x: Lowered): boolean {
  if (a.kind !== x.kind) return false;
  if (a.kind === "buffer") return a.space === (x as typeof a).space;
  if (a.kind === "view") {
    const v = x as typeof a;
    return a.space === v.space && a.element === v.element && a.strides.length === v.strides.length;
  }
  if (a.kind === "layout") return (a.strides === undefined) === ((x as typeof a).strides === undefined);
  return true;
}

/** The weakest facts of two compatible values (alignments), for a merged register tuple. */
function meet(a: Lowered, x: Lowered): Lowered {
  if (a.kind === "buffer" && x.kind === "buffer") return { ...a, align: Math.min(a.align, x.align) };
  if (a.kind === "view" && x.kind === "view") {
    return { ...a, align: Math.min(a.align, x.align), strideMultiples: a.strideMultiples.map((m, i) => Math.min(m, x.strideMultiples[i] ?? 1)) };
  }
  return a;
}

/** Fresh registers shaped like `l` (mutable slots for merges and loop-carried values). */
function slotsLike(cx: KernelLowering, l: Lowered): Lowered {
  return withParts(l, partsOf(l).map((p) => cx.reg(p.t)));
}

function move(cx: KernelLowering, to: Scalar, from: Scalar): void {
  if (to.r === from.r || to.r === "%invalid") return;
  cx.ins(`mov.${b(to.t)}`, to.r, from.r);
}

/** Assigns `values` to `slots` as a parallel copy (yields may permute the carried registers). */
function assign(cx: KernelLowering, slots: readonly Lowered[], values: readonly Lowered[]): void {
  const pairs: [Scalar, Scalar][] = [];
  slots.forEach((slot, i) => {
    const to = partsOf(slot), from = partsOf(values[i]!);
    to.forEach((t, k) => from[k] && pairs.push([t, from[k]]));
  });
  // A source that is also a target is read into a temporary before any slot is written.
  const targets = new Set(pairs.map(([t]) => t.r));
  const staged = pairs.map(([t, f]): [Scalar, Scalar] => {
    if (!targets.has(f.r) || f.r === t.r) return [t, f];
    const tmp = cx.reg(f.t);
    move(cx, tmp, f);
    return [t, tmp];
  });
  for (const [t, f] of staged) move(cx, t, f);
}

/** Checks that values can share registers; reports at `op` when they cannot. */
function mergeable(cx: KernelLowering, op: Op, first: readonly Lowered[], other: readonly Lowered[]): boolean {
  for (const [i, a] of first.entries()) {
    const x = other[i]!;
    if (a.kind === "invalid" || x.kind === "invalid") return false;
    if (!compatible(a, x)) {
      cx.unsupported(op, `a ${a.kind} in ${a.kind === "view" || a.kind === "buffer" ? `'${a.space}' and in '${(x as typeof a).space}' memory` : "two shapes"} chosen by control flow`, "PTX addresses each state space with its own instructions");
      return false;
    }
  }
  return true;
}

const MAX_PREDICATED = 8;

/** Lines of a lowered region, if they can run under a predicate instead of a branch. */
function predicable(lines: readonly string[]): boolean {
  return lines.length <= MAX_PREDICATED && lines.every((l) => l.startsWith("\t") && !l.startsWith("\t@") && !/^\t(bar|shfl)\./.test(l) && !l.startsWith("\t//"));
}

/** Lowers `region` into a separate line list; returns the lines and the yielded values. */
function capture(cx: KernelLowering, op: Op, index: number): { lines: string[]; yielded: Lowered[] } {
  const saved = cx.lines.length;
  const region = op.regions[index];
  if (!region) return { lines: [], yielded: [] };
  const term = cx.lowerRegion(region, []);
  const yielded = term.operands.map((v) => cx.get(v));
  return { lines: cx.lines.splice(saved), yielded };
}

const ifRule: Rule = (cx, op) => {
  const p = cx.inReg(cx.scalar(op.operands[0]!));
  const thenPart = capture(cx, op, 0);
  const elsePart = capture(cx, op, 1);
  let results: Lowered[] = [];
  let ok = true;
  if (op.results.length > 0) {
    ok = mergeable(cx, op, thenPart.yielded, elsePart.yielded);
    results = ok ? thenPart.yielded.map((l, i) => slotsLike(cx, meet(l, elsePart.yielded[i]!))) : [];
  }
  // The result moves belong to each side.
  const withMoves = (part: { lines: string[]; yielded: Lowered[] }): string[] => {
    if (!ok || results.length === 0) return part.lines;
    const saved = cx.lines.length;
    assign(cx, results, part.yielded);
    return [...part.lines, ...cx.lines.splice(saved)];
  };
  const thenLines = withMoves(thenPart);
  const elseLines = withMoves(elsePart);
  if (predicable(thenLines) && predicable(elseLines)) {
    for (const l of thenLines) cx.lines.push(`\t@${p.r} ${l.slice(1)}`);
    for (const l of elseLines) cx.lines.push(`\t@!${p.r} ${l.slice(1)}`);
  } else {
    const end = cx.label();
    const otherwise = elseLines.length > 0 ? cx.label() : end;
    cx.guarded(p, true, "bra", otherwise);
    cx.lines.push(...thenLines);
    if (elseLines.length > 0) {
      cx.ins("bra.uni", end);
      cx.place(otherwise);
      cx.lines.push(...elseLines);
    }
    cx.place(end);
  }
  if (!ok) return cx.poison(op);
  op.results.forEach((r, i) => cx.set(r, results[i]!));
};

/** Registers for loop-carried values, initialized from `inits`. */
function carried(cx: KernelLowering, op: Op, inits: readonly Lowered[]): Lowered[] | undefined {
  if (inits.some((l) => l.kind === "invalid")) return undefined;
  const slots = inits.map((l) => slotsLike(cx, l));
  assign(cx, slots, inits);
  void op;
  return slots;
}

/** Trip counts up to which a full `unroll` copies the body (the AMDGPU target's bound too). */
const MAX_FULL_UNROLL = 64;

/**
 * A full `unroll` with constant bounds: the body once per iteration with the induction variable
 * an immediate, so its address arithmetic folds (ptxas then sees constant offsets) and the
 * carried values pass from one copy to the next without moves.
 */
function unrolled(cx: KernelLowering, op: Op): boolean {
  if (op.props.unroll !== "full") return false;
  const [lo, hi, step, ...initValues] = op.operands;
  const [l, h, s] = [cx.scalar(lo!).c, cx.scalar(hi!).c, cx.scalar(step!).c];
  if (l === undefined || h === undefined || s === undefined || s <= 0n) return false;
  const trips = h > l ? (h - l + s - 1n) / s : 0n;
  if (trips > BigInt(MAX_FULL_UNROLL)) return false;
  let values = initValues.map((v) => cx.get(v));
  if (values.some((x) => x.kind === "invalid")) return false;
  for (let iv = l; iv < h; iv += s) {
    const term = cx.lowerRegion(op.regions[0]!, [cx.i64(iv), ...values]);
    values = term.operands.map((v) => cx.get(v));
  }
  op.results.forEach((r, i) => cx.set(r, values[i]!));
  return true;
}

const forRule: Rule = (cx, op) => {
  if (unrolled(cx, op)) return;
  const [lo, hi, step, ...initValues] = op.operands;
  const unsigned = lo!.type.kind === "prim" && lo!.type.name === "offset";
  const slots = carried(cx, op, initValues.map((v) => cx.get(v)));
  if (!slots) return cx.poison(op);
  const iv = cx.reg("i64");
  move(cx, iv, cx.scalar(lo!));
  const head = cx.label(), exit = cx.label();
  cx.place(head);
  const done = cx.op(`setp.ge.${unsigned ? "u64" : "s64"}`, "pred", iv, cx.scalar(hi!));
  cx.guarded(done, false, "bra", exit);
  const term = cx.lowerRegion(op.regions[0]!, [iv, ...slots]);
  const yielded = term.operands.map((v) => cx.get(v));
  if (mergeable(cx, op, slots, yielded)) assign(cx, slots, yielded);
  cx.ins("add.s64", iv.r, iv.r, cx.scalar(step!).r);
  cx.ins("bra.uni", head);
  cx.place(exit);
  op.results.forEach((r, i) => cx.set(r, slots[i]!));
};

const whileRule: Rule = (cx, op) => {
  const slots = carried(cx, op, op.operands.map((v) => cx.get(v)));
  if (!slots) return cx.poison(op);
  const head = cx.label(), exit = cx.label();
  cx.place(head);
  const condition = cx.lowerRegion(op.regions[0]!, slots);
  const [k, ...forwardedValues] = condition.operands;
  // The forwarded registers were written in this iteration's before-region: they are the
  // after-region's arguments and, on exit, the results.
  const forwarded = forwardedValues.map((v) => cx.get(v));
  cx.guarded(cx.inReg(cx.scalar(k!)), true, "bra", exit);
  const term = cx.lowerRegion(op.regions[1]!, forwarded);
  const yielded = term.operands.map((v) => cx.get(v));
  if (mergeable(cx, op, slots, yielded)) assign(cx, slots, yielded);
  cx.ins("bra.uni", head);
  cx.place(exit);
  forwarded.forEach((l, i) => cx.set(op.results[i]!, l));
};

const scfSelect: Rule = (cx, op) => {
  const [c, a, x] = op.operands.map((v) => cx.get(v));
  if (!mergeable(cx, op, [a!], [x!]) || c!.kind !== "scalar") return cx.poison(op);
  const pa = partsOf(a!), px = partsOf(x!);
  const cond = cx.inReg(c!);
  cx.set(op.results[0]!, withParts(meet(a!, x!), pa.map((p, i) => (p.r === px[i]!.r ? p : select(cx, cond, p, px[i]!)))));
};

export const CONTROL_RULES = {
  "scf.if": ifRule,
  "scf.for": forRule,
  "scf.while": whileRule,
  "scf.select": scfSelect,
} as const satisfies Record<string, Rule>;
