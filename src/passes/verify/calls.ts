/**
 * The call graph and what depends on it (§4.8, §4.9):
 *  - recursion (STRUCTURE/903): v1 inlines every callee, so any cycle through `func.call`,
 *    `template.call` or `template.apply` (to any provider of the family) is an error,
 *    reported once per cycle at the call that closes it;
 *  - callee `where` contracts provably false at a call site (STRUCTURE/014);
 *  - purity: a `pure` body has no effects (STRUCTURE/017), counting calls that are not
 *    marked `pure` to impure callees; a call marked `pure` must target a `pure` callee
 *    (STRUCTURE/034; for `template.apply`, the family declaration).
 */
import type { Op, Predicate, Value } from "../../ir/core.js";
import { callsIn } from "./callgraph.js";
import { evaluatePredicate, predicateText } from "./config.js";
import { D } from "../../core/diag/catalog.js";
import { hasModifier, type VerifyContext } from "./context.js";
import { isCallOp, opFacts } from "./ops.js";
import { isOp } from "../../dialects/registry.js";

/** The top-level op a call names (for purity): the callee symbol, or the applied family. */
function declaredCallee(ctx: VerifyContext, call: Op): Op | undefined {
  const name = isOp(call, "template.apply") ? call.props.family : call.props.symbol;
  return typeof name === "string" ? ctx.symbols.get(name)?.op : undefined;
}

function checkRecursion(ctx: VerifyContext): void {
  const reported = new Set<Op>();
  for (const { call, callee } of ctx.callGraph.backEdges) {
    if (reported.has(callee)) continue;
    reported.add(callee);
    ctx.report(D.recursion, call.span, [callee.symbol ?? "?"]);
  }
}

/** Whether a call may have effects: not `pure`-marked and its callee is not declared pure. */
function callHasEffects(ctx: VerifyContext, call: Op): boolean {
  if (hasModifier(call, "pure")) return false;
  const callee = declaredCallee(ctx, call);
  return !callee || !hasModifier(callee, "pure");
}

function firstEffect(ctx: VerifyContext, fn: Op): Op | undefined {
  let found: Op | undefined;
  const walk = (ops: readonly Op[]) => {
    for (const op of ops) {
      if (found) return;
      if (isCallOp(op.name) ? callHasEffects(ctx, op) : opFacts(op.name)?.effects) {
        found = op;
        return;
      }
      for (const r of op.regions) walk(r.ops);
    }
  };
  for (const r of fn.regions) walk(r.ops);
  return found;
}

function checkPurity(ctx: VerifyContext, hasCalls: boolean): void {
  for (const fn of ctx.module.ops) {
    if ((isOp(fn, "func.def") || isOp(fn, "template.def")) && hasModifier(fn, "pure")) {
      const bad = firstEffect(ctx, fn);
      if (bad) ctx.report(D.pureHasEffects, bad.span, [isCallOp(bad.name) ? `call to impure '@${String(bad.props.symbol ?? bad.props.family)}'` : `'${bad.name}'`]);
    }
    if (!hasCalls) continue;
    const walk = (ops: readonly Op[]) => {
      for (const op of ops) {
        if (isCallOp(op.name) && hasModifier(op, "pure")) {
          const callee = declaredCallee(ctx, op);
          if (callee && !hasModifier(callee, "pure")) ctx.report(D.pureCallImpure, op.span, [callee.symbol ?? "?"]);
        }
        for (const r of op.regions) walk(r.ops);
      }
    };
    for (const r of fn.regions) walk(r.ops);
  }
}

/**
 * `where` contracts of the callee at call sites (§5): a predicate that is provably false
 * once the callee's arguments are bound to the call's constant operands → STRUCTURE/014.
 * Unknown predicates are assumed (the author's promise). `template.apply` predicates take
 * part in provider selection instead.
 */
function checkCallContracts(ctx: VerifyContext, call: Op): void {
  if (!isOp(call, "func.call") && !isOp(call, "template.call")) return;
  const callee = declaredCallee(ctx, call);
  const preds = callee?.props.where;
  if (!callee || !Array.isArray(preds) || preds.length === 0) return;
  const params = callee.regions[0]?.args ?? [];
  const valueOf = (v: Value) => {
    const i = params.indexOf(v);
    const operand = i >= 0 ? call.operands[i] : undefined;
    return operand ? ctx.folder.constant(operand) : undefined;
  };
  for (const p of preds as Predicate[]) {
    if (evaluatePredicate(p, valueOf) === false) {
      ctx.report(D.valueOutOfRange, call.span, [`the call violates the contract ${predicateText(p)} of '@${callee.symbol ?? "?"}'`]);
      return;
    }
  }
}

/** The call checks; `hasCalls`: whether the module holds any call (none: no call graph to build or walk). */
export function checkCalls(ctx: VerifyContext, hasCalls: boolean): void {
  if (hasCalls) checkRecursion(ctx);
  checkPurity(ctx, hasCalls);
  if (!hasCalls) return;
  for (const fn of ctx.callGraph.postOrder) for (const call of callsIn(fn)) checkCallContracts(ctx, call);
}
