/**
 * Implementation limits the verifier owns (src/passes/budgets.ts, docs/language.md "Limits"):
 *  - STRUCTURE/906: vector types wider than MAX_VECTOR_LANES lanes; export names longer
 *    than MAX_EXPORT_NAME_LENGTH;
 *  - STRUCTURE/014: integer literals of index lists, strides and predicates outside the
 *    signed 64-bit range (what `index.constant` accepts);
 *  - SUBRANGE/004 (the reference's code): a literal `vector.extract`/`vector.insert` position
 *    outside its vector.
 * Nothing later may truncate such a literal, so it is refused here, at the op.
 */
import type { Op, Predicate, Region, Span, Value } from "../../ir/core.js";
import type { Type } from "../../ir/types.js";
import { D } from "../../core/diag/diagnostic.js";
import { I64_MAX, I64_MIN } from "../../dialects/index/semantics.js";
import { MAX_EXPORT_NAME_LENGTH, MAX_VECTOR_LANES } from "../budgets.js";
import type { VerifyContext } from "./context.js";

function lanesOf(t: Type): number {
  if (t.kind !== "vector") return 0;
  let lanes = 1;
  for (let i = 0; i < t.shape.length; i++) lanes *= t.shape[i]!;
  return lanes;
}

function checkVectorType(ctx: VerifyContext, v: Value, span: Span | undefined): void {
  const lanes = lanesOf(v.type);
  if (lanes > MAX_VECTOR_LANES) ctx.report(D.limitExceeded, span ?? v.span, [`a vector of ${lanes} lanes ('%${v.name}')`, `${MAX_VECTOR_LANES} lanes`]);
}

function checkRegionArgs(ctx: VerifyContext, regions: readonly Region[]): void {
  for (let k = 0; k < regions.length; k++) {
    const args = regions[k]!.args;
    for (let i = 0; i < args.length; i++) checkVectorType(ctx, args[i]!, args[i]!.span);
  }
}

function checkLiteral(ctx: VerifyContext, op: Op, what: string, value: bigint, span?: Span): void {
  if (value < I64_MIN || value > I64_MAX) ctx.report(D.valueOutOfRange, span ?? op.span, [`${what} ${value} is outside the signed 64-bit range [${I64_MIN}, ${I64_MAX}]`]);
}

function checkPredicates(ctx: VerifyContext, op: Op, list: unknown): void {
  if (!Array.isArray(list)) return; // malformed props are other checks' to report
  for (const p of list as readonly Predicate[]) {
    if (!Array.isArray(p?.args)) continue;
    for (const a of p.args) if (typeof a === "bigint") checkLiteral(ctx, op, "predicate literal", a, p.span);
  }
}

/** Per-op limits of a body op (`indices`: its `indices` prop). */
export function checkOpLimits(ctx: VerifyContext, op: Op, indices: unknown): void {
  const results = op.results;
  for (let i = 0; i < results.length; i++) checkVectorType(ctx, results[i]!, op.span);
  checkRegionArgs(ctx, op.regions);
  const props = op.props;
  if (Array.isArray(indices)) {
    for (let k = 0; k < indices.length; k++) {
      const i: unknown = indices[k];
      if (typeof i === "bigint") checkLiteral(ctx, op, "index literal", i);
    }
  }
  const strides = props.strides;
  if (Array.isArray(strides)) {
    for (const s of strides) if (typeof s === "bigint") checkLiteral(ctx, op, "stride literal", s);
  }
  const predicates = props.predicates;
  if (predicates !== undefined) checkPredicates(ctx, op, predicates);
  if ((op.name === "vector.extract" || op.name === "vector.insert") && Array.isArray(indices)) {
    const vector = op.operands[op.name === "vector.extract" ? 0 : 1]?.type;
    if (vector?.kind !== "vector") return;
    for (let d = 0; d < indices.length; d++) {
      const i: unknown = indices[d];
      const extent = vector.shape[d];
      if (typeof i !== "bigint" || extent === undefined) continue;
      // A BigInt compares with a number exactly (no BigInt made per position).
      if (i < 0n || i >= extent) ctx.report(D.staticOutOfBounds, op.span, [`position ${i} of '${op.name}' is outside dimension ${d} of vector<${vector.shape.join("x")}x${vector.element.name}> (valid: 0 to ${extent - 1})`]);
    }
  }
}

const WHERE_KEYS = ["where", "workloadWhere", "launchWhere"] as const;

/** Limits of a top-level op: its signature regions, export name and `where` predicates. */
export function checkTopLevelLimits(ctx: VerifyContext, op: Op): void {
  checkRegionArgs(ctx, op.regions);
  const exportName = op.props.exportName;
  if (typeof exportName === "string" && exportName.length > MAX_EXPORT_NAME_LENGTH) {
    ctx.report(D.limitExceeded, op.span, [`an export name of ${exportName.length} characters`, `${MAX_EXPORT_NAME_LENGTH} characters`]);
  }
  for (const key of WHERE_KEYS) checkPredicates(ctx, op, op.props[key]);
}
