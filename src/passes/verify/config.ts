/**
 * Config bindings against their declarations (§4.10, STRUCTURE/904): a `config.def` value,
 * or any value bound to a key, must satisfy the `where` predicates of the key's
 * `config.decl @k : %value: T where [...]`. Predicates are evaluated exactly (§5):
 * integers on bigint, float class predicates on the double value.
 */
import type { Literal, Op, Predicate, Span, Value } from "../../ir/core.js";
import { D } from "../../core/diag/catalog.js";
import type { Diagnostic } from "../../core/diag/diagnostic.js";
import { makeDiagnostic } from "../../core/diag/diagnostic.js";
import type { VerifyContext } from "./context.js";
import { isOp, propOf } from "../../dialects/registry.js";

export type ConfigScalar = bigint | number | boolean;

function asBigint(x: ConfigScalar): bigint | undefined {
  if (typeof x === "number" && Number.isNaN(x)) return undefined;
  if (typeof x === "bigint") return x;
  if (typeof x === "boolean") return x ? 1n : 0n;
  return Number.isInteger(x) ? BigInt(x) : undefined;
}

/**
 * Evaluates one predicate (§5) with values bound by `valueOf`; undefined when it cannot be
 * decided (an argument without a known value, or an ill-formed predicate).
 */
export function evaluatePredicate(p: Predicate, valueOf: (v: Value) => ConfigScalar | undefined): boolean | undefined {
  const args = Array.isArray(p.args) ? p.args : [];
  if (p.kind === "not_nan" || p.kind === "not_inf" || p.kind === "finite") {
    const a = args[0];
    const value = a === undefined || typeof a === "bigint" ? undefined : valueOf(a);
    if (typeof value !== "number") return undefined;
    return p.kind === "not_nan" ? !Number.isNaN(value) : p.kind === "not_inf" ? Number.isNaN(value) || Number.isFinite(value) : Number.isFinite(value);
  }
  const ints: bigint[] = [];
  for (const a of args) {
    const b = typeof a === "bigint" ? a : a && typeof a === "object" ? asBigint(valueOf(a) ?? NaN) : undefined;
    if (b === undefined) return undefined;
    ints.push(b);
  }
  const [a, b, c] = ints;
  if (a === undefined) return undefined;
  switch (p.kind) {
    case "eq": return b === undefined ? undefined : a === b;
    case "ne": return b === undefined ? undefined : a !== b;
    case "lt": return b === undefined ? undefined : a < b;
    case "le": return b === undefined ? undefined : a <= b;
    case "gt": return b === undefined ? undefined : a > b;
    case "ge": return b === undefined ? undefined : a >= b;
    case "mul": return b === undefined || b <= 0n ? undefined : a % b === 0n;
    case "min": return b === undefined ? undefined : a >= b;
    case "max": return b === undefined ? undefined : a <= b;
    case "pow2": return a >= 1n && (a & (a - 1n)) === 0n;
    case "range": return b === undefined || c === undefined ? undefined : b <= a && a <= c;
    default: return undefined;
  }
}

export function predicateText(p: Predicate): string {
  const args = (Array.isArray(p.args) ? p.args : []).map((a) => (typeof a === "bigint" ? String(a) : `%${a?.name ?? "?"}`));
  return `${p.kind}(${args.join(", ")})`;
}

/**
 * The diagnostics of binding `value` to the key declared by `decl` (reusable by the compile
 * driver for bindings given through the API). `span` locates the binding.
 */
export function checkConfigValue(decl: Op, value: ConfigScalar, span: Span | undefined): Diagnostic[] {
  const subject = decl.regions[0]?.args[0];
  const preds = propOf(decl, "where") ?? [];
  const out: Diagnostic[] = [];
  for (const p of preds) {
    if (evaluatePredicate(p, (v) => (v === subject ? value : undefined)) === false) out.push(makeDiagnostic(D.configPredicate, span, [decl.symbol ?? "?", predicateText(p)]));
  }
  return out;
}

/** Each module `config.def` against the module's `config.decl` of the same key. */
export function checkConfigDefs(ctx: VerifyContext): void {
  for (const op of ctx.module.ops) {
    if (!isOp(op, "config.def") || op.symbol === undefined) continue;
    const decl = ctx.symbols.configDecl(op.symbol);
    const lit = propOf(op, "value");
    if (!decl || !lit || (lit.kind !== "int" && lit.kind !== "float" && lit.kind !== "bool")) continue;
    for (const d of checkConfigValue(decl, lit.value, op.span)) ctx.add(d);
  }
}
