/**
 * Index lists against ranks (SUBRANGE/001) and static subview bounds (SUBRANGE/004):
 *  - view accesses and `vector.load/store` take exactly one index per view dimension;
 *  - `vector.extract/insert` take 1..rank indices (they consume leading axes);
 *  - `encoding.layout.strided` has one stride per dimension of every view type using it
 *    (a count mismatch, STRUCTURE/013);
 *  - `view.subview %v[o…] : view<A> -> view<B>`: where `oᵢ`, `Bᵢ` and `Aᵢ` are all
 *    static, `0 ≤ oᵢ` and `oᵢ + Bᵢ ≤ Aᵢ`;
 *  - element accesses and vector footprints at constant indices into a static view lie
 *    inside it (SUBRANGE/004).
 */
import type { Op, Value } from "../../ir/core.js";
import { typeToString, type Type, type ViewType } from "../../ir/types.js";
import { D } from "../../core/diag/catalog.js";
import type { VerifyContext } from "./context.js";
import { isOp } from "../../dialects/registry.js";

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

function checkSubviewBounds(ctx: VerifyContext, op: Op): void {
  const src = op.operands[0]?.type;
  const dst = op.results[0]?.type;
  const indices = op.props.indices;
  if (src?.kind !== "view" || dst?.kind !== "view" || !Array.isArray(indices) || indices.length !== src.dims.length || dst.dims.length !== src.dims.length) return;
  for (let i = 0; i < src.dims.length; i++) {
    const o = indices[i];
    const origin = typeof o === "bigint" ? o : o && typeof o === "object" && "type" in o ? ctx.folder.constant(o as Value) : undefined;
    if (origin === undefined) continue;
    const a = src.dims[i]!, b = dst.dims[i]!;
    if (origin < 0n) return void ctx.report(D.subviewOutOfBounds, op.span, [`origin ${origin} of dimension ${i} is negative`]);
    if (a.kind === "static" && b.kind === "static" && origin + BigInt(b.size) > BigInt(a.size)) {
      return void ctx.report(D.subviewOutOfBounds, op.span, [`dimension ${i}: origin ${origin} + extent ${b.size} exceeds ${a.size} of ${typeToString(src as ViewType)}`]);
    }
  }
}

const ELEMENT_ACCESSES = new Set(["view.load", "view.store", "view.atomic.rmw", "view.atomic.reduce", "view.atomic.cmpxchg", "view.atomic.load", "view.atomic.store"]);

/**
 * An access whose index is a constant must lie inside a static view dimension (SUBRANGE/004 at
 * verify, as the reference checks it, rather than a fault at run time): an element access at
 * that index, a `vector.load/store` with its footprint from there (the vector's axes are the
 * view's trailing axes; a leading view axis has extent 1).
 */
function checkStaticAccessBounds(ctx: VerifyContext, op: Op): void {
  const slot = INDEXED_OPERAND[op.name];
  const view = slot === undefined ? undefined : op.operands[slot]?.type;
  const indices = op.props.indices;
  if (view?.kind !== "view" || !Array.isArray(indices) || indices.length !== view.dims.length) return;
  const vector = isOp(op, "vector.load") ? op.results[0]?.type : isOp(op, "vector.store") ? op.operands[0]?.type : undefined;
  const lanes = vector?.kind === "vector" && vector.shape.length <= view.dims.length ? vector.shape : [];
  const lead = view.dims.length - lanes.length;
  for (let i = 0; i < view.dims.length; i++) {
    const x = indices[i];
    const at = typeof x === "bigint" ? x : x && typeof x === "object" && "type" in x ? ctx.folder.constant(x as Value) : undefined;
    const dim = view.dims[i]!;
    // A literal outside the 64-bit index range is STRUCTURE/014 already (verify/literals.ts).
    if (at === undefined || dim.kind !== "static" || at < -(2n ** 63n) || at >= 2n ** 63n) continue;
    const extent = i < lead ? 1 : (lanes[i - lead] ?? 1);
    if (at < 0n || at + BigInt(extent) > BigInt(dim.size)) {
      const what = extent === 1 ? `index ${at}` : `lanes [${at}, ${at + BigInt(extent)})`;
      return void ctx.report(D.subviewOutOfBounds, op.span, [`${what} of dimension ${i} ${extent === 1 ? "is" : "are"} outside [0, ${dim.size}) of ${typeToString(view)}`]);
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
  return name === "encoding.layout.strided" || INDEXED_OPERAND[name] !== undefined || ELEMENT_ACCESSES.has(name);
}

/** The strided layouts seen so far by one walk, made on the first (most modules have none). */
export interface LayoutsSeen {
  layouts: Map<Value, Op> | undefined;
}

/** The subrange checks of `op`; layouts are the module's, in walk order. */
export function checkOpSubranges(ctx: VerifyContext, op: Op, seen: LayoutsSeen): void {
  if (isOp(op, "encoding.layout.strided") && op.results[0]) (seen.layouts ??= new Map()).set(op.results[0], op);
  checkIndexCount(ctx, op);
  if (isOp(op, "view.subview")) checkSubviewBounds(ctx, op);
  if (ELEMENT_ACCESSES.has(op.name) || isOp(op, "vector.load") || isOp(op, "vector.store")) checkStaticAccessBounds(ctx, op);
  if (seen.layouts) checkStrides(ctx, op, seen.layouts);
}
