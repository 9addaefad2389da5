/**
 * Where ops may appear (language.md §2, §4 C/D/F columns, §6 config region contents):
 *  - only top-level ops at top level (STRUCTURE/011), and never nested (STRUCTURE/029);
 *  - every other op only in the region kinds of its placement column (STRUCTURE/029);
 *  - calls are allowed in a launch-config region only when marked `pure` (STRUCTURE/052),
 *    and then the callee's body must itself obey the launch-config list (STRUCTURE/029,
 *    reported at the call, naming the offending op);
 *  - `buffer.alloca<workgroup>` only at the top level of a body (STRUCTURE/031).
 */
import type { Op } from "../../ir/core.js";
import { D } from "../../core/diag/catalog.js";
import { note } from "../../core/diag/diagnostic.js";
import { hasModifier, REGION_KIND_NAME, topLevelOf, type RegionKind, type VerifyContext } from "./context.js";
import { calleeBodies } from "./callgraph.js";
import { isCallOp, opFacts } from "./ops.js";
import { isOp } from "../../dialects/registry.js";

/**
 * For each function, the first op its body runs (directly or through calls) that is not
 * allowed in a launch-config region; computed bottom-up over the call graph.
 */
function nonConfigOps(ctx: VerifyContext): Map<Op, Op | undefined> {
  const out = new Map<Op, Op | undefined>();
  for (const fn of ctx.callGraph.postOrder) {
    let found: Op | undefined;
    const walk = (ops: readonly Op[]) => {
      for (const op of ops) {
        if (found) return;
        const facts = opFacts(op.name);
        if (!facts) continue;
        if (isCallOp(op.name)) {
          for (const e of ctx.callGraph.edges(fn)) if (e.call === op) found ??= out.get(e.callee);
        } else if (!facts.placement.includes("C") && !facts.terminator) {
          found = op;
          return;
        }
        for (const r of op.regions) walk(r.ops);
      }
    };
    for (const r of fn.regions) walk(r.ops);
    out.set(fn, found);
  }
  return out;
}

/** The summary of `nonConfigOps`, made on the first call in a launch-config region. */
function nonConfigOf(ctx: VerifyContext): Map<Op, Op | undefined> {
  return (ctx.nonConfig ??= nonConfigOps(ctx));
}

/**
 * Placement of a body op in a region of `kind` (undefined: none, nothing to check);
 * `atBodyTop`: the op sits directly in a body region (not nested in an `scf` region).
 */
export function checkOpPlacement(ctx: VerifyContext, op: Op, kind: RegionKind | undefined, atBodyTop: boolean): void {
  const facts = opFacts(op.name);
  if (!facts || !kind) return;
  const where = REGION_KIND_NAME[kind];
  if (facts.topLevel) {
    ctx.report(D.wrongRegion, op.span, [op.name, where], { help: "move it to the top level of the file" });
    return;
  }
  if (isCallOp(op.name) && kind === "C") {
    const bodies = [...calleeBodies(ctx.symbols, op)];
    // The reference accepts an unmarked template application (the legacy func.apply spelling among them) whose
    // every provider body is launch-config code, which has no effects; a func.call must still say 'pure'.
    const effectFree = isOp(op, "template.apply") && bodies.length > 0 && bodies.every((b) => nonConfigOf(ctx).get(b) === undefined);
    if (!hasModifier(op, "pure") && !effectFree) {
      // Anchored on the kernel, as the reference reports its launch-config effects: once per kernel, the calls as notes.
      const kernel = topLevelOf(op);
      const at = kernel.span;
      const earlier = ctx.diagnostics.find((d) => d.code === D.impureInLaunchConfig.code && d.location?.line === at?.line && d.location?.column === at?.column && d.location?.source === at?.source);
      if (earlier) (earlier.related ??= []).push(note(`the non-pure '${op.name}'`, op.span));
      else ctx.report(D.impureInLaunchConfig, kernel.span, [op.name], { help: "mark the call 'pure' (the callee must be pure)", related: [note(`the non-pure '${op.name}'`, op.span)] });
      return;
    }
    for (const callee of bodies) {
      const bad = nonConfigOf(ctx).get(callee);
      if (bad) {
        ctx.report(D.wrongRegion, op.span, [bad.name, `${where} (reached through the call to '@${callee.symbol ?? "?"}')`], { related: [note("the op", bad.span)] });
        break;
      }
    }
    return;
  }
  if (!facts.placement.includes(kind)) {
    if (kind === "F" && facts.placement.includes("D") && placementDeferred(topLevelOf(op))) return;
    ctx.report(D.wrongRegion, op.span, [op.name, where]);
    return;
  }
  if (isOp(op, "buffer.alloca") && op.props.space === "workgroup") {
    if (!atBodyTop) ctx.report(D.workgroupAllocaPlacement, op.span);
  }
}

/**
 * A kernel-only op in the body of a `func.def inline` or a `template.def` is placed where the
 * body is inlined, so its placement is checked there (as the reference does): such bodies only
 * ever run as part of a kernel. A plain or `noinline` function is checked as written.
 */
function placementDeferred(owner: Op): boolean {
  return isOp(owner, "template.def") || (isOp(owner, "func.def") && hasModifier(owner, "inline"));
}

/** Top-level placement: only top-level ops at top level (STRUCTURE/011). */
export function checkTopLevelPlacement(ctx: VerifyContext): void {
  for (const op of ctx.module.ops) {
    const facts = opFacts(op.name);
    if (facts && !facts.topLevel) ctx.report(D.notAllowedAtTopLevel, op.span, [op.name]);
  }
}
