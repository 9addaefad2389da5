/**
 * Index lists against ranks (SUBRANGE/001) and static subview bounds (SUBRANGE/004):
 *  - view accesses and `vector.load/store` take exactly one index per view dimension;
 *  - `vector.extract/insert` take 1..rank indices (they consume leading axes);
 *  - `encoding.layout.strided` has one stride per dimension of every view type using it
 *    (a count mismatch, STRUCTURE/013);
 *  - constant indices are not negative, and with the positions they cover (an element, a
 *    vector's lanes, a subview's static extents) lie inside a static view (SUBRANGE/004).
 */
import type { Op, Value } from "../../ir/core.js";
import { typeToString, type Type, type ViewType } from "../../ir/types.js";
import { D } from "../../core/diag/catalog.js";
import type { VerifyContext } from "./context.js";
import { isOp } from "../../dialects/registry.js";
import { I64_MAX, I64_MIN } from "../../dialects/index/semantics.js";

/** Which operand is the indexed value, per op. */
const INDEXED_OPERAND: Readonly<Record<string, number>> = {
  "view.load": 0,
  "view.store": 1,
  "view.subview": 0,
  "view.atomic.rmw": 1,
  "view.atomic.reduce": 1,
  "view.atomic.cmpxchg": 2,
  "view.atomic.load": 0,
  "view.atomic.store": 1,
  "vector.load": 0,
  "vector.store": 1,
  "vector.extract": 0,
  "vector.insert": 1,
};

function rankOf(t: Type | undefined): number | undefined {
  if (t?.kind === "view") return t.dims.length;
  if (t?.kind === "vector") return t.shape.length;
  return undefined;
}

function checkIndexCount(ctx: VerifyContext, op: Op): void {
  const slot = INDEXED_OPERAND[op.name];
  const indices = op.props.indices;
  if (slot === undefined || !Array.isArray(indices)) return;
  const target = op.operands[slot];
  const rank = rankOf(target?.type);
  if (rank === undefined) return; // not a view/vector: TYPE/003
  const n = indices.length;
  const partial = isOp(op, "vector.extract") || isOp(op, "vector.insert");
  // More indices than a vector's rank is the reference's STRUCTURE/013.
  if (partial && n > rank) ctx.report(D.countMismatch, op.span, [`${n} indices for a rank-${rank} vector`]);
  else if (partial ? n < 1 : n !== rank) ctx.report(D.indexCount, op.span, [n, rank]);
}

/** Accesses at constant indices checked against their view's static extents. */
const BOUNDED_ACCESSES = new Set(["view.load", "view.store", "view.subview", "view.atomic.rmw", "view.atomic.reduce", "view.atomic.cmpxchg", "view.atomic.load", "view.atomic.store", "vector.load", "vector.store"]);

/**
 * A constant index and the positions it covers from there must lie inside a static view
 * dimension, and no constant index is negative (SUBRANGE/004 at verify, as the reference checks
 * it, rather than a fault at run time). An element access covers 1 position; a
 * `vector.load/store`, its lanes on the view's trailing axes (1 on the leading ones); a
 * `view.subview`, its result's static extents (0 where dynamic).
 */
function checkStaticAccessBounds(ctx: VerifyContext, op: Op): void {
  const slot = INDEXED_OPERAND[op.name];
  const view = slot === undefined ? undefined : op.operands[slot]?.type;
  const indices = op.props.indices;
  if (view?.kind !== "view" || !Array.isArray(indices) || indices.length !== view.dims.length) return;
  // The loaded, stored or sub-viewed value: a vector or a view only for vector.* and view.subview.
  const covered = (op.results[0] ?? op.operands[0])?.type;
  const extents = covered?.kind === "vector" ? covered.shape : covered?.kind === "view" ? covered.dims.map((d) => (d.kind === "static" ? d.size : 0)) : [];
  const lead = view.dims.length - extents.length;
  if (lead < 0 || (covered?.kind === "view" && lead > 0)) return; // a rank mismatch: TYPE/004
  for (let i = 0; i < view.dims.length; i++) {
    const x = indices[i];
    const at = typeof x === "bigint" ? x : x && typeof x === "object" && "type" in x ? ctx.folder.constant(x as Value) : undefined;
    const dim = view.dims[i]!;
    // A literal outside the 64-bit index range is STRUCTURE/014 already (verify/literals.ts).
    if (at === undefined || at < I64_MIN || at > I64_MAX) continue;
    const n = extents[i - lead] ?? 1;
    // A BigInt compares with a number exactly.
    if (at < 0n || (dim.kind === "static" && at > dim.size - n)) {
      return void ctx.report(D.staticOutOfBounds, op.span, [`${n === 1 ? "index" : `${n} positions from`} ${at} of dimension ${i} ${at < 0n ? "is negative" : `outside ${typeToString(view)}`}`]);
    }
  }
}

/** Strided layouts: the stride count equals the rank of each view type naming the layout. */
function checkStrides(ctx: VerifyContext, op: Op, layouts: Map<Value, Op>): void {
  if (layouts.size === 0) return;
  // Results first, then operands; the first mismatch is reported.
  for (const r of op.results) if (!stridesMatch(ctx, op, r.type, layouts)) return;
  for (const v of op.operands) if (!stridesMatch(ctx, op, v.type, layouts)) return;
}

/** False (after reporting at `op`) when `t` names a strided layout of another rank. */
function stridesMatch(ctx: VerifyContext, op: Op, t: Type, layouts: Map<Value, Op>): boolean {
  if (t.kind !== "view" || t.layout?.kind !== "value") return true;
  const def = layouts.get(t.layout.value);
  const strides = def?.props.strides;
  if (def && Array.isArray(strides) && strides.length !== t.dims.length) {
    ctx.report(D.countMismatch, op.span, [`layout '%${t.layout.value.name}' has ${strides.length} stride(s), used by the rank-${t.dims.length} ${typeToString(t)}`]);
    return false;
  }
  return true;
}

/** Whether `checkOpSubranges` checks ops of this name while no strided layout has been seen. */
export function hasSubrangeChecks(name: string): boolean {
  return name === "encoding.layout.strided" || INDEXED_OPERAND[name] !== undefined;
}

/** The strided layouts seen so far by one walk, made on the first (most modules have none). */
export interface LayoutsSeen {
  layouts: Map<Value, Op> | undefined;
}

/** The subrange checks of `op`; layouts are the module's, in walk order. */
export function checkOpSubranges(ctx: VerifyContext, op: Op, seen: LayoutsSeen): void {
  if (isOp(op, "encoding.layout.strided") && op.results[0]) (seen.layouts ??= new Map()).set(op.results[0], op);
  checkIndexCount(ctx, op);
  if (BOUNDED_ACCESSES.has(op.name)) checkStaticAccessBounds(ctx, op);
  if (seen.layouts) checkStrides(ctx, op, seen.layouts);
}
