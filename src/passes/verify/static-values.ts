/**
 * Checks that need compile-time values (constant folding, fold.ts):
 *  - STRUCTURE/035: an `scf.for` step that folds to a constant ≤ 0;
 *  - STRUCTURE/901: bare `unroll` (full unroll) needs bounds and step that fold to constants;
 *  - TARGET/062: v1 cluster sizes must be 1×1×1, i.e. every cluster operand folds to 1;
 *  - STRUCTURE/902: `buffer.alloca` sizes need a finite proven maximum.
 */
import type { Op } from "../../ir/core.js";
import { D } from "../../core/diag/catalog.js";
import type { VerifyContext } from "./context.js";

function checkFor(ctx: VerifyContext, op: Op): void {
  const [lo, hi, step] = op.operands;
  if (!lo || !hi || !step) return;
  const f = ctx.folder;
  const st = f.constant(step);
  if (st !== undefined && st <= 0n) ctx.report(D.nonPositiveStep, op.span, [String(st)]);
  if (op.props.unroll === "full" && (f.constant(lo) === undefined || f.constant(hi) === undefined || st === undefined)) {
    ctx.report(D.fullUnrollNotConstant, op.span, [], { help: "use unroll(%factor) for a partial unroll" });
  }
}

function checkLaunchConfig(ctx: VerifyContext, op: Op): void {
  if (op.props.cluster !== true) return;
  const cluster = op.operands.slice(6, 9);
  if (cluster.some((v) => ctx.folder.constant(v) !== 1n)) ctx.report(D.clusterNotOne, op.span);
}

function checkAlloca(ctx: VerifyContext, op: Op): void {
  const bytes = op.operands[0];
  if (bytes && ctx.folder.upperBound(bytes) === undefined) {
    ctx.report(D.unboundedAlloca, op.span, [], { help: "bound the size with index.assume [range(...)] or index.min, or use a constant" });
  }
}

export function checkStaticValues(ctx: VerifyContext, op: Op): void {
  switch (op.name) {
    case "scf.for":
      return checkFor(ctx, op);
    case "kernel.launch.config":
      return checkLaunchConfig(ctx, op);
    case "buffer.alloca":
      return checkAlloca(ctx, op);
  }
}
