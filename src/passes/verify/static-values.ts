/**
 * Checks that need compile-time values (constant folding, fold.ts):
 *  - STRUCTURE/035: an `scf.for` step that folds to a constant ≤ 0;
 *  - STRUCTURE/901: bare `unroll` (full unroll) needs bounds and step that fold to constants;
 *    one computed from `config.get` or a target query, or one in a function or template body,
 *    waits for the compile, which binds, inlines and folds, then checks (`checkBoundFullUnrolls`);
 *  - TARGET/062: v1 cluster sizes must be 1×1×1, i.e. every cluster operand folds to 1;
 *  - STRUCTURE/902: `buffer.alloca` sizes need a finite proven maximum.
 */
import type { Op, Region } from "../../ir/core.js";
import { D } from "../../core/diag/catalog.js";
import type { DiagnosticSink } from "../../core/diag/diagnostic.js";
import { walkRegion } from "../../ir/walk.js";
import { isOp } from "../../dialects/registry.js";
import { ConstantFolder } from "./fold.js";
import type { RegionKind, VerifyContext } from "./context.js";

function checkFor(ctx: VerifyContext, op: Op, kind: RegionKind | undefined): void {
  const [lo, hi, step] = op.operands;
  if (!lo || !hi || !step) return;
  const f = ctx.folder;
  const st = f.constant(step);
  if (st !== undefined && st <= 0n) ctx.report(D.nonPositiveStep, op.span, [String(st)]);
  if (op.props.unroll !== "full") return;
  // In a function or template body the bounds may be arguments that inlining makes constant
  // (the reference accepts such loops), so only kernel code is checked here.
  if ((kind === "C" || kind === "D") && ![lo, hi, step].every((v) => f.constantOnceBound(v))) {
    ctx.report(D.fullUnrollNotConstant, op.span, [], { help: "use unroll(%factor) for a partial unroll" });
  }
}

/**
 * The compile's half of STRUCTURE/901: after config and target queries are bound and folded,
 * every full unroll in `region` must have constant bounds and step.
 */
export function checkBoundFullUnrolls(region: Region, sink: DiagnosticSink): void {
  const folder = new ConstantFolder(); // the region does not change while it is walked
  walkRegion(region, (op) => {
    if (!isOp(op, "scf.for") || op.props.unroll !== "full") return;
    if (op.operands.slice(0, 3).some((v) => folder.constant(v) === undefined)) {
      sink.report(D.fullUnrollNotConstant, op.span, [], { help: "the bound config values leave the trip count unknown; use unroll(%factor) for a partial unroll" });
    }
  });
}

function checkLaunchConfig(ctx: VerifyContext, op: Op): void {
  if (op.props.cluster !== true) return;
  const cluster = op.operands.slice(6, 9);
  if (cluster.some((v) => ctx.folder.constant(v) !== 1n)) ctx.report(D.clusterNotOne, op.span);
}

function checkAlloca(ctx: VerifyContext, op: Op, kind: RegionKind | undefined): void {
  // In a function or template body the size may be an argument that inlining bounds; the
  // compile's storage layout checks it there (as the reference defers it).
  if (kind === "F") return;
  const bytes = op.operands[0];
  if (bytes && ctx.folder.upperBound(bytes) === undefined) {
    ctx.report(D.unboundedAlloca, op.span, [], { help: "bound the size with index.assume [range(...)] or index.min, or use a constant" });
  }
}

/** Ops `checkStaticValues` checks. */
export function hasStaticValueChecks(name: string): boolean {
  return name === "scf.for" || name === "kernel.launch.config" || name === "buffer.alloca";
}

/** The static-value checks of `op`, placed in a region of `kind`. */
export function checkStaticValues(ctx: VerifyContext, op: Op, kind: RegionKind | undefined): void {
  switch (op.name) {
    case "scf.for":
      return checkFor(ctx, op, kind);
    case "kernel.launch.config":
      return checkLaunchConfig(ctx, op);
    case "buffer.alloca":
      return checkAlloca(ctx, op, kind);
  }
}

/**
 * Constant subgroup-size assumptions against a profile whose subgroup size is fixed
 * (`subgroupSize` > 0), after config, target queries and inlining are folded: a shuffle
 * width or a reduce cluster wider than the subgroup, or a broadcast from a lane past its
 * end, would read lanes that do not exist,
 * so it is TARGET/001 rather than a silently wrong result.
 */
export function checkSubgroupAssumptions(region: Region, subgroupSize: number, profile: string, sink: DiagnosticSink): void {
  if (subgroupSize <= 0) return;
  const where = `profile '${profile}' (its subgroup has ${subgroupSize} lanes)`;
  const folder = new ConstantFolder();
  walkRegion(region, (op) => {
    if (isOp(op, "kernel.subgroup.shuffle")) {
      const width = op.operands[2] ? folder.constant(op.operands[2]) : undefined;
      if (width !== undefined && width > BigInt(subgroupSize)) sink.report(D.unsupported, op.span, [`a shuffle width of ${width} lanes`, where]);
      return;
    }
    if (isOp(op, "kernel.subgroup.broadcast")) {
      const lane = op.operands[1] ? folder.constant(op.operands[1]) : undefined;
      if (lane !== undefined && lane >= BigInt(subgroupSize)) sink.report(D.unsupported, op.span, [`a broadcast from lane ${lane}`, where]);
      return;
    }
    const cluster = op.props.clusterSize;
    if (isOp(op, "kernel.subgroup.reduce") && typeof cluster === "number" && cluster > subgroupSize) {
      sink.report(D.unsupported, op.span, [`a cluster of ${cluster} lanes`, where]);
    }
  });
}
