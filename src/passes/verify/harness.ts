/**
 * The harness phase of the verifier: STRUCTURE/032 (a `where` predicate's subject, its first
 * argument, must be one of the signature's arguments, and every value it names too:
 * `where [eq(4, %v)]`, or bytecode and built IR naming a body value) on every signature, and
 * the check harness's rules (check.ts) on `check.case` and `check.benchmark` ops and on the
 * kernel launches of a `func.def` (a host program). Those rules
 * register themselves with the harness's syntax (api/check-dialect.ts): without that syntax no
 * module holds a check op (neither the parser nor the bytecode reader knows them), so a
 * compile-only bundle leaves both out.
 */
import type { Op, Region, Value } from "../../ir/core.js";
import { D } from "../../core/diag/catalog.js";
import { isOp } from "../../dialects/registry.js";
import type { VerifyContext } from "./context.js";

interface HarnessRules {
  checkCase(ctx: VerifyContext, op: Op): void;
  /** A function body's host launches (a launch program), checked against each kernel's contract. */
  checkHostLaunches(ctx: VerifyContext, op: Op): void;
  checkBenchmarks(ctx: VerifyContext): void;
}

let harness: HarnessRules | undefined;

export function registerHarnessRules(rules: HarnessRules): void {
  harness = rules;
}

/** A `where` predicate argument of a signature must be one of its arguments (STRUCTURE/032). */
function checkWhereOrigins(ctx: VerifyContext, op: Op): void {
  const lists: [string, Region | undefined][] = [];
  if (isOp(op, "kernel.def") || isOp(op, "kernel.decl")) lists.push(["workloadWhere", op.regions[0]], ["launchWhere", op.regions[1]]);
  else if (isOp(op, "func.def") || isOp(op, "func.decl") || isOp(op, "template.def") || isOp(op, "template.decl") || isOp(op, "config.decl")) lists.push(["where", op.regions[0]]);
  for (const [key, region] of lists) {
    const preds = op.props[key];
    if (!Array.isArray(preds) || preds.length === 0) continue;
    const args = new Set<Value>(region?.args ?? []);
    const origin = isOp(op, "config.decl") ? "the declared config value" : isOp(op, "func.def") || isOp(op, "func.decl") ? "a function argument or result" : "an argument of the signature";
    preds.forEach((p, i) => {
      const list = (p as { args?: readonly unknown[] }).args ?? [];
      list.forEach((a, j) => {
        // The first argument is the predicate's subject: a value, never a literal (`eq(4, %v)`).
        if (typeof a === "bigint" ? j > 0 : !a || args.has(a as Value)) return;
        ctx.report(D.valueOrigin, op.span, [op.name, `${key}[${i}].arg[${j}]`, origin]);
      });
    });
  }
}

export function checkHarness(ctx: VerifyContext): void {
  for (const op of ctx.module.ops) {
    checkWhereOrigins(ctx, op);
    if (harness && isOp(op, "check.case")) harness.checkCase(ctx, op);
    else if (harness && isOp(op, "func.def")) harness.checkHostLaunches(ctx, op);
  }
  harness?.checkBenchmarks(ctx);
}
