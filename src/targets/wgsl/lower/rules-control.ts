/**
 * Structured control flow → WGSL's own structured statements. A value that leaves a region
 * gets a `var` per part (scalar, lane, view base and strides, buffer length), declared
 * before the statement from the result's type and assigned on every path. After the
 * statement nothing assigns those vars again, so the results are the vars themselves; a
 * `for` body reads its carried vars and its counter directly too (they change only after
 * the body's last statement), and the yields that read one of them are copied into `let`s
 * before the first assignment (a yield list that swaps two carried values stays right):
 *
 *   scf.if     var r…; if (c) { then…; r = …; } else { else…; r = …; }
 *   scf.for    var c… = inits; for (var i = lo; i < hi; i = i + step) { body…; c = yields; }
 *   scf.while  var c… = inits; var r…; loop { let a… = c…; before…; r = forwarded; if (!k) { break; } after…; c = yields; }
 *
 * Views and buffers may be chosen by control flow only over one storage root (WGSL has no
 * pointer selection); anything else is TARGET/001.
 */
import type { Op, Value } from "../../../ir/core.js";
import { scalarOf, type KernelLowering, type Lowered, type Rule, type Scalar, type WType } from "./context.js";
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

/** The part types of a value of Loom type `v.type` (undefined: not a carried shape). */
function partTypes(cx: KernelLowering, v: Value): WType[] | undefined {
  const t = v.type;
  if (t.kind === "prim") {
    if (t.name === "buffer") return ["u32"];
    const w = cx.scalarType(t);
    return w ? [w] : undefined;
  }
  if (t.kind === "vector") {
    const w = cx.scalarType(t);
    return w ? new Array<WType>(t.shape.reduce((a, x) => a * x, 1)).fill(w) : undefined;
  }
  if (t.kind === "view") return new Array<WType>(t.dims.length + 1).fill("i32");
  return undefined;
}

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

/** Fresh `var`s for the parts of each value (initialized from `inits` when given). */
function slots(cx: KernelLowering, op: Op, values: readonly Value[], inits?: readonly Lowered[]): Scalar[][] | undefined {
  const out: Scalar[][] = [];
  for (const [i, v] of values.entries()) {
    const types = partTypes(cx, v);
    if (!types) {
      cx.unsupported(op, `a value of type '${v.type.kind}' carried through control flow`);
      return undefined;
    }
    const init = inits?.[i];
    const initParts = init ? partsOf(init) : [];
    out.push(types.map((t, k) => cx.variable(t, initParts[k])));
  }
  return out;
}

function assignAll(cx: KernelLowering, to: readonly Scalar[][], from: readonly Lowered[]): void {
  for (let i = 0; i < to.length; i++) {
    const parts = to[i]!;
    const src = partsOf(from[i]!);
    for (let k = 0; k < parts.length; k++) if (src[k]) cx.assign(parts[k]!, src[k]!);
  }
}

/**
 * Assigns a loop's carried vars its yields, where the yields may read those very vars: a
 * yield that reads another carried var (or an expression over some var) is first copied into
 * a `let`, so an earlier assignment cannot change what a later one reads. Reads of other vars
 * (an inner loop's results) stay as they are: nothing here assigns them.
 */
function assignCarried(cx: KernelLowering, to: readonly Scalar[][], from: readonly Lowered[]): void {
  const carriedNames = new Set<string>();
  for (const parts of to) for (const p of parts) carriedNames.add(p.e);
  const sources: Scalar[][] = [];
  for (let i = 0; i < to.length; i++) {
    const parts = to[i]!;
    const src = partsOf(from[i]!);
    const settled: Scalar[] = [];
    for (let k = 0; k < parts.length; k++) {
      const x = src[k]!;
      const hazard = x !== undefined && x.m && x.e !== parts[k]!.e && (carriedNames.has(x.e) || x.e.includes("("));
      settled.push(hazard ? cx.let(x.t, x.e) : x);
    }
    sources.push(settled);
  }
  for (let i = 0; i < to.length; i++) {
    const parts = to[i]!, src = sources[i]!;
    for (let k = 0; k < parts.length; k++) if (src[k]) cx.assign(parts[k]!, src[k]!);
  }
}

/** The values whose parts are the statement's vars (nothing assigns them after it). */
function readVars(slotsOf: readonly Scalar[][], templates: readonly Lowered[]): Lowered[] {
  const out: Lowered[] = [];
  for (let i = 0; i < slotsOf.length; i++) out.push(withParts(templates[i]!, slotsOf[i]!));
  return out;
}

/** Reads slots back into `let`s, shaped like `templates`. */
function readBack(cx: KernelLowering, slotsOf: readonly Scalar[][], templates: readonly Lowered[]): Lowered[] {
  return slotsOf.map((parts, i) => withParts(templates[i]!, parts.map((p) => cx.let(p.t, p.e))));
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

/** Lowers region `index` of `op` one block deeper; returns what it yields. */
function region(cx: KernelLowering, op: Op, index: number, args: readonly Lowered[], after?: (yielded: Lowered[]) => void): Lowered[] {
  const r = op.regions[index];
  if (!r) return [];
  let yielded: Lowered[] = [];
  cx.nested(() => {
    const term = cx.lowerRegion(r, args);
    yielded = term.operands.map((v) => cx.get(v));
    after?.(yielded);
  });
  return yielded;
}

const ifRule: Rule = (cx, op) => {
  const c = cx.scalar(op.operands[0]!);
  const out = slots(cx, op, op.results);
  if (!out) return cx.poison(op);
  cx.line(`if (${c.e}) {`);
  const thenValues = region(cx, op, 0, [], (y) => assignAll(cx, out, y));
  let elseValues: Lowered[] = [];
  if ((op.regions[1] && op.regions[1].ops.length > 1) || op.results.length > 0) {
    cx.line("} else {");
    elseValues = region(cx, op, 1, [], (y) => assignAll(cx, out, y));
  }
  cx.line("}");
  if (op.results.length === 0) return;
  if (!mergeable(cx, op, thenValues, elseValues)) return cx.poison(op);
  readVars(out, thenValues).forEach((l, i) => cx.set(op.results[i]!, l));
};

const forRule: Rule = (cx, op) => {
  const [lo, hi, step, ...initValues] = op.operands;
  const inits = initValues.map((v) => cx.get(v));
  if (inits.some((l) => l.kind === "invalid")) return cx.poison(op);
  const carried = slots(cx, op, op.results, inits);
  if (!carried) return cx.poison(op);
  const t = cx.typeOf(lo!);
  const i = cx.fresh("i");
  cx.line(`for (var ${i}: ${t} = ${cx.scalar(lo!).e}; ${i} < ${cx.scalar(hi!).e}; ${i} = ${i} + ${cx.scalar(step!).e}) {`);
  const body = op.regions[0]!;
  const args = readVars(carried, inits);
  cx.nested(() => {
    // The counter is a var too; the body reads it directly (only the continuing step assigns it).
    const term = cx.lowerRegion(body, [scalarOf(i, t, undefined, true), ...args]);
    const yielded = term.operands.map((v) => cx.get(v));
    if (mergeable(cx, op, inits, yielded)) assignCarried(cx, carried, yielded);
  });
  cx.line("}");
  args.forEach((l, k) => cx.set(op.results[k]!, l));
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
    const args = readBack(cx, carried, inits);
    const condition = cx.lowerRegion(op.regions[0]!, args);
    const [k, ...rest] = condition.operands;
    forwarded = rest.map((v) => cx.get(v));
    assignAll(cx, results, forwarded);
    cx.line(`if (!${cx.scalar(k!).e}) { break; }`);
    const term = cx.lowerRegion(op.regions[1]!, forwarded);
    const yielded = term.operands.map((v) => cx.get(v));
    if (mergeable(cx, op, inits, yielded)) assignCarried(cx, carried, yielded);
  });
  cx.line("}");
  if (forwarded.some((l) => l.kind === "invalid")) return cx.poison(op);
  readVars(results, forwarded).forEach((l, i) => cx.set(op.results[i]!, l));
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
