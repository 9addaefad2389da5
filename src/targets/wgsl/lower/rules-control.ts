/**
 * Structured control flow → WGSL's own structured statements. A value that leaves a region
 * gets a `var` per part (scalar, lane, view base and strides, buffer length), declared
 * before the statement from the result's type and assigned on every path. After the
 * statement nothing assigns those vars again, so the results are the vars themselves; a
 * loop body reads its carried vars (and a `for` its counter) directly too (they change only
 * after the body's last statement), and the yields that read one of them are copied into
 * `let`s before the first assignment (a yield list that swaps two carried values stays right):
 *
 *   scf.if     var r…; if (c) { then…; r = …; } else { else…; r = …; }
 *   scf.for    var c… = inits; for (var i = lo; i < hi; i = i + step) { body…; c = yields; }
 *   scf.while  var c… = inits; var r…; loop { before…; r = forwarded; if (!k) { break; } after…; c = yields; }
 *
 * Views and buffers may be chosen by control flow only over one storage root (WGSL has no
 * pointer selection); anything else is TARGET/001.
 */
import type { Op, Region, Value } from "../../../ir/core.js";
import type { Type } from "../../../ir/types.js";
import { isVariableName, scalarOf, type KernelLowering, type Lowered, type Rule, type Scalar, type WType } from "./context.js";
import { select } from "./lanes.js";

/** The scalars a lowered value is made of. */
function partsOf(l: Lowered): readonly Scalar[] {
  switch (l.kind) {
    case "scalar": return [l];
    case "vector": return l.lanes;
    case "buffer": return [l.length];
    case "view": return [l.base, ...l.strides];
    case "layout": case "invalid": return [];
  }
}

/** `template` with its scalars replaced by `parts` (same order as `partsOf`). */
function withParts(template: Lowered, parts: readonly Scalar[]): Lowered {
  switch (template.kind) {
    case "scalar": return parts[0]!;
    case "vector": return { ...template, lanes: parts };
    case "buffer": return { ...template, length: parts[0]! };
    case "view": return { ...template, base: parts[0]!, strides: parts.slice(1) };
    case "layout": case "invalid": return template;
  }
}

/** The type of every part of a value of Loom type `t` (undefined: not a carried shape). */
function partType(cx: KernelLowering, t: Type): WType | undefined {
  if (t.kind === "view") return "i32";
  if (t.kind === "prim" && t.name === "buffer") return "u32";
  return t.kind === "prim" || t.kind === "vector" ? cx.scalarType(t) : undefined;
}

/** How many parts a value of a carried type has (one per lane, per view stride and the base). */
const partCount = (t: Type): number => (t.kind === "vector" ? t.shape.reduce((a, x) => a * x, 1) : t.kind === "view" ? t.dims.length + 1 : 1);

/** Whether `x` can live in the slots of `template` (same shape, same root). */
function compatible(a: Lowered, x: Lowered): boolean {
  if (a.kind !== x.kind) return false;
  if (a.kind === "buffer") return a.root === (x as typeof a).root;
  if (a.kind === "view") {
    const v = x as typeof a;
    return a.root === v.root && a.element === v.element && a.strides.length === v.strides.length;
  }
  return a.kind !== "layout";
}

/**
 * Fresh `var`s for the parts of each value (initialized from `inits` when given), except where
 * `lent(i)`: there the init's own vars serve.
 */
function slots(cx: KernelLowering, op: Op, values: readonly Value[], inits?: readonly Lowered[], lent?: (i: number) => boolean): (readonly Scalar[])[] | undefined {
  const out: (readonly Scalar[])[] = [];
  for (let i = 0; i < values.length; i++) {
    const type = values[i]!.type, t = partType(cx, type);
    if (!t) {
      cx.unsupported(op, `a value of type '${type.kind}' carried through control flow`);
      return undefined;
    }
    const init = inits?.[i];
    const initParts = init ? partsOf(init) : [];
    if (lent?.(i)) {
      out.push(initParts);
      continue;
    }
    // Sized once: a push onto an empty array reserves room for many more.
    const parts = new Array<Scalar>(partCount(type));
    for (let k = 0; k < parts.length; k++) parts[k] = cx.variable(t, initParts[k]);
    out.push(parts);
  }
  return out;
}

/**
 * Assigns the vars `to` their values `from`, which may read those very vars (a loop's yields):
 * a value that is another of them, or an expression (which may read one), is first copied into
 * a `let`, so an earlier assignment cannot change what a later one reads. Other names (lets,
 * an inner loop's result vars) stay as they are: nothing here assigns them.
 */
function assignAll(cx: KernelLowering, to: readonly (readonly Scalar[])[], from: readonly Lowered[]): void {
  const names = new Set<string>();
  let count = 0;
  for (const parts of to) {
    for (const p of parts) names.add(p.e);
    count += parts.length;
  }
  // Every value is read (and copied where it must be) before the first assignment: one flat list, in part order.
  const sources = new Array<Scalar | undefined>(count);
  let j = 0;
  for (let i = 0; i < to.length; i++) {
    const parts = to[i]!, src = partsOf(from[i]!);
    for (let k = 0; k < parts.length; k++) {
      const x = src[k];
      sources[j++] = x && x.e !== parts[k]!.e && x.c === undefined && (x.form !== "atom" || names.has(x.e)) ? cx.let(x.t, x.e) : x;
    }
  }
  j = 0;
  for (const parts of to) for (const p of parts) {
    const x = sources[j++];
    if (x) cx.assign(p, x);
  }
}

/** The values whose parts are the statement's vars (nothing assigns them after it). */
function readVars(slotsOf: readonly (readonly Scalar[])[], templates: readonly Lowered[]): Lowered[] {
  return slotsOf.map((parts, i) => withParts(templates[i]!, parts));
}

/** Checks that `others` fit the slots shaped by `first`; reports at `op` when not. */
function mergeable(cx: KernelLowering, op: Op, first: readonly Lowered[], others: readonly Lowered[]): boolean {
  for (const [i, a] of first.entries()) {
    const x = others[i];
    if (!x || a.kind === "invalid" || x.kind === "invalid") return false;
    if (!compatible(a, x)) {
      cx.unsupported(op, `a ${a.kind} chosen by control flow between two storage roots or shapes`, "WGSL cannot select between bindings; keep one buffer and choose the offset instead");
      return false;
    }
  }
  return true;
}

/** What region `r` yields, lowered with `args` at the current depth. */
const yieldsOf = (cx: KernelLowering, r: Region, args: readonly Lowered[]): Lowered[] => cx.lowerRegion(r, args).operands.map((v) => cx.get(v));

const setResults = (cx: KernelLowering, op: Op, values: readonly Lowered[]) => values.forEach((l, i) => cx.set(op.results[i]!, l));

const ifRule: Rule = (cx, op) => {
  const c = cx.scalar(op.operands[0]!);
  const out = slots(cx, op, op.results);
  if (!out) return cx.poison(op);
  const [then, otherwise] = op.regions;
  let thenValues: Lowered[] = [], elseValues: Lowered[] = [];
  cx.line(`if (${c.e}) {`);
  cx.nested(() => assignAll(cx, out, (thenValues = yieldsOf(cx, then!, []))));
  if (otherwise && (otherwise.ops.length > 1 || op.results.length > 0)) {
    cx.line("} else {");
    cx.nested(() => assignAll(cx, out, (elseValues = yieldsOf(cx, otherwise, []))));
  }
  cx.line("}");
  if (op.results.length === 0) return;
  if (!mergeable(cx, op, thenValues, elseValues)) return cx.poison(op);
  setResults(cx, op, readVars(out, thenValues));
};

const forRule: Rule = (cx, op) => {
  const [lo, hi, step, ...initValues] = op.operands;
  const inits = initValues.map((v) => cx.get(v));
  if (inits.some((l) => l.kind === "invalid")) return cx.poison(op);
  // An init read by nothing else whose parts are vars nothing assigns before this loop ends lends
  // them to it (no var, no copy in or out): a carried argument of the enclosing for (whose body
  // assigns its vars only at its end) or the result of an earlier if, for or while of this region
  // (an op with regions: only these rules lower regions, and they make every result a var, which
  // is checked: an init that is not all `var`s gets its own).
  const around = op.parent!;
  const lent = (j: number) => {
    const v = initValues[j]!, owner = v.owner;
    if (cx.kernel.uses.get(v) !== 1) return false;
    const borrowable = owner === around ? v !== around.args[0] && around.parent?.name === "scf.for" : owner.parent === around && (owner as Op).regions.length > 0;
    return borrowable && partsOf(inits[j]!).every((p) => isVariableName(p.e));
  };
  const carried = slots(cx, op, op.results, inits, lent);
  if (!carried) return cx.poison(op);
  const t = cx.typeOf(lo!);
  const i = cx.fresh("i");
  cx.line(`for (var ${i}: ${t} = ${cx.scalar(lo!).e}; ${i} < ${cx.scalar(hi!).e}; ${i} = ${i} + ${cx.scalar(step!).e}) {`);
  const args = readVars(carried, inits);
  cx.nested(() => {
    // The counter is a var too; the body reads it directly (only the continuing step assigns it).
    const yielded = yieldsOf(cx, op.regions[0]!, [scalarOf(i, t), ...args]);
    if (mergeable(cx, op, inits, yielded)) assignAll(cx, carried, yielded);
  });
  cx.line("}");
  setResults(cx, op, args);
};

const whileRule: Rule = (cx, op) => {
  const inits = op.operands.map((v) => cx.get(v));
  if (inits.some((l) => l.kind === "invalid")) return cx.poison(op);
  const carried = slots(cx, op, op.operands, inits);
  const results = slots(cx, op, op.results);
  if (!carried || !results) return cx.poison(op);
  let forwarded: Lowered[] = [];
  cx.line("loop {");
  cx.nested(() => {
    const [k, ...rest] = cx.lowerRegion(op.regions[0]!, readVars(carried, inits)).operands;
    forwarded = rest.map((v) => cx.get(v));
    assignAll(cx, results, forwarded);
    cx.line(`if (!${cx.scalar(k!).e}) { break; }`);
    const yielded = yieldsOf(cx, op.regions[1]!, forwarded);
    if (mergeable(cx, op, inits, yielded)) assignAll(cx, carried, yielded);
  });
  cx.line("}");
  if (forwarded.some((l) => l.kind === "invalid")) return cx.poison(op);
  setResults(cx, op, readVars(results, forwarded));
};

const scfSelect: Rule = (cx, op) => {
  const [c, a, x] = op.operands.map((v) => cx.get(v));
  if (!mergeable(cx, op, [a!], [x!]) || c!.kind !== "scalar") return cx.poison(op);
  const pa = partsOf(a!), px = partsOf(x!);
  cx.set(op.results[0]!, withParts(a!, pa.map((p, i) => select(cx, c!, p, px[i]!))));
};

export const CONTROL_RULES = {
  "scf.if": ifRule,
  "scf.for": forRule,
  "scf.while": whileRule,
  "scf.select": scfSelect,
} as const satisfies Record<string, Rule>;
