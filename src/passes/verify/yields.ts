/**
 * Values flowing across region boundaries (§4.4, §4.8, §4.9, §4.1):
 *  - `scf.yield` / `func.return` / `template.return` forward as many values
 *    as their parent expects (STRUCTURE/008) with the expected types (TYPE/009); an `scf.if`
 *    with results needs an `else` (STRUCTURE/013, as the reference); `scf.condition` forwards the
 *    while results (STRUCTURE/013 count, TYPE/001 types, at the condition);
 *  - loop-carried values: inits, region arguments and results agree in count
 *    (STRUCTURE/013) and type (TYPE/013 for region arguments, TYPE/001 for results);
 *  - identity ops (`*.assume`, `buffer.assume.*`) have one result per operand and launch
 *    configs 6 or 9 operands (STRUCTURE/013).
 */
import type { Op, Region, Value } from "../../ir/core.js";
import { typeEquals, typeToString, type Type } from "../../ir/types.js";
import { D } from "../../core/diag/catalog.js";
import { topLevelOf, type VerifyContext } from "./context.js";

function typeList(types: readonly Type[]): string {
  return `(${types.map(typeToString).join(", ")})`;
}

function terminatorOf(region: Region | undefined, name: string): Op | undefined {
  const last = region?.ops[region.ops.length - 1];
  return last?.name === name ? last : undefined;
}

/** Checks that `values` match `expected` in count (STRUCTURE/008) and types (TYPE/009). */
function checkForwarded(ctx: VerifyContext, at: Op, values: readonly Value[], expected: readonly Type[], what: string): void {
  if (values.length !== expected.length) {
    ctx.report(D.yieldCount, at.span, [`${at.name} forwards ${values.length} value(s), ${what} expects ${expected.length}`]);
    return;
  }
  let same = true;
  for (let i = 0; i < values.length && same; i++) same = typeEquals(values[i]!.type, expected[i]!);
  if (same) return;
  const got = values.map((v) => v.type);
  ctx.report(D.yieldType, at.span, [`${at.name} forwards ${typeList(got)}, ${what} expects ${typeList(expected)}`]);
}

/** Region arguments `args` take the types of `expected` (inits) in order. */
function checkArgs(ctx: VerifyContext, op: Op, args: readonly Value[], expected: readonly Value[], what: string): void {
  if (args.length !== expected.length) {
    ctx.report(D.countMismatch, op.span, [`${args.length} region argument(s) for ${expected.length} ${what}`]);
    return;
  }
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!, t = expected[i]!.type;
    if (!typeEquals(a.type, t)) ctx.report(D.blockArgType, a.span ?? op.span, [`'%${a.name}' has type ${typeToString(a.type)}, ${what} #${i} has type ${typeToString(t)}`]);
  }
}

const NO_TYPES: readonly Type[] = [];

function checkIf(ctx: VerifyContext, op: Op): void {
  const resultTypes = op.results.length === 0 ? NO_TYPES : op.results.map((r) => r.type);
  if (resultTypes.length > 0 && op.regions.length < 2) {
    ctx.report(D.countMismatch, op.span, [`scf.if with ${resultTypes.length} result(s) needs an else region (else_region present when scf.if has results)`]);
  }
  for (const region of op.regions) {
    const y = terminatorOf(region, "scf.yield");
    if (y) checkForwarded(ctx, y, y.operands, resultTypes, "scf.if");
  }
}

function checkFor(ctx: VerifyContext, op: Op): void {
  const inits = op.operands.slice(3);
  const body = op.regions[0];
  if (!body) return;
  const iv = body.args[0], iterArgs = body.args.slice(1);
  const lo = op.operands[0];
  if (iv && lo && !typeEquals(iv.type, lo.type)) ctx.report(D.blockArgType, iv.span ?? op.span, [`induction variable '%${iv.name}' has type ${typeToString(iv.type)}, the bounds have type ${typeToString(lo.type)}`]);
  if (inits.length !== op.results.length || iterArgs.length !== inits.length) {
    ctx.report(D.countMismatch, op.span, [`scf.for has ${inits.length} iter-arg init(s), ${iterArgs.length} iter-arg(s) and ${op.results.length} result(s)`]);
    return;
  }
  checkArgs(ctx, op, iterArgs, inits, "iter-arg init");
  op.results.forEach((r, i) => {
    const t = iterArgs[i]!.type;
    if (!typeEquals(r.type, t)) ctx.report(D.typeMismatch, r.span ?? op.span, [`result '%${r.name}' has type ${typeToString(r.type)}, its iter-arg has type ${typeToString(t)}`]);
  });
  const y = terminatorOf(body, "scf.yield");
  if (y) checkForwarded(ctx, y, y.operands, op.results.map((r) => r.type), "scf.for");
}

function checkWhile(ctx: VerifyContext, op: Op): void {
  const [before, after] = op.regions;
  if (!before || !after) return;
  checkArgs(ctx, op, before.args, op.operands, "init value");
  const cond = terminatorOf(before, "scf.condition");
  if (cond) {
    // As the reference: the condition's forwarded values are checked at the condition
    // (STRUCTURE/013 count, TYPE/001 types); the after-region arguments against the results,
    // at the while (TYPE/013).
    const forwarded = cond.operands.slice(1);
    // The after-region arguments equal the results (TYPE/013 below), so one comparison
    // against the results reports each mistake once.
    const afterTypes = op.results.map((r) => r.type);
    if (forwarded.length !== afterTypes.length) {
      ctx.report(D.countMismatch, cond.span, [`scf.condition forwards ${forwarded.length} value(s), the after block args are ${afterTypes.length}`]);
    } else {
      forwarded.forEach((v, i) => {
        if (!typeEquals(v.type, afterTypes[i]!)) ctx.report(D.typeMismatch, cond.span, [`forwarded[${i}] '%${v.name}' has type ${typeToString(v.type)}, after[${i}] has type ${typeToString(afterTypes[i]!)}`]);
      });
    }
    if (after.args.length === op.results.length) {
      after.args.forEach((a, i) => {
        const r = op.results[i]!;
        if (!typeEquals(a.type, r.type)) ctx.report(D.blockArgType, op.span, [`after-region argument '%${a.name}' has type ${typeToString(a.type)}, result #${i} has type ${typeToString(r.type)}`]);
      });
    } else if (op.props.hasDoArgs !== false || after.args.length > 0) {
      ctx.report(D.countMismatch, op.span, [`${after.args.length} after-region argument(s) for ${op.results.length} result(s)`]);
    }
  }
  const y = terminatorOf(after, "scf.yield");
  if (y) checkForwarded(ctx, y, y.operands, before.args.map((a) => a.type), "the scf.while before-region");
}

function checkReturn(ctx: VerifyContext, op: Op): void {
  const fn = topLevelOf(op);
  if (fn === op || !Array.isArray(fn.props.resultTypes)) return;
  checkForwarded(ctx, op, op.operands, fn.props.resultTypes, `'@${fn.symbol ?? "?"}'`);
}

const IDENTITY_OPS = new Set(["index.assume", "scalar.assume", "buffer.assume.noalias", "buffer.assume.alignment"]);

/** Ops `checkOpYields` checks. */
export function hasYieldChecks(name: string): boolean {
  switch (name) {
    case "scf.if":
    case "scf.for":
    case "scf.while":
    case "func.return":
    case "template.return":
    case "kernel.launch.config":
      return true;
    default:
      return IDENTITY_OPS.has(name);
  }
}

/** The values `op` forwards across region boundaries, and its identity/launch-config counts. */
export function checkOpYields(ctx: VerifyContext, op: Op): void {
  switch (op.name) {
    case "scf.if":
      return checkIf(ctx, op);
    case "scf.for":
      return checkFor(ctx, op);
    case "scf.while":
      return checkWhile(ctx, op);
    case "func.return":
    case "template.return":
      return checkReturn(ctx, op);
    case "kernel.launch.config": {
      const want = op.props.cluster === true ? 9 : 6;
      if (op.operands.length !== want) ctx.report(D.countMismatch, op.span, [`kernel.launch.config takes ${want} operands, got ${op.operands.length}`]);
      return;
    }
  }
  if (IDENTITY_OPS.has(op.name) && op.operands.length !== op.results.length) {
    ctx.report(D.countMismatch, op.span, [`${op.name} has ${op.operands.length} value(s) but ${op.results.length} result(s)`]);
  }
}
