/**
 * Which values of a prepared body are uniform across the workgroup, deciding SGPR vs VGPR.
 * The verifier's analysis (ModuleAnalyses.uniformity) describes the module as verified; the
 * pipeline then inlined, specialized and folded, making values it never saw (for which it
 * answers "uniform"). So the body is walked again with the same rules (language.md §4.1:
 * workitem, dispatch and lane ids and atomics vary; results join their operands; region
 * results and loop-carried values also join the controlling condition or bounds; loops
 * iterate to a fixpoint), and a value is uniform only when both analyses say so.
 */
import type { Op, Region, Value } from "../../../ir/core.js";
import type { ModuleAnalyses, Uniformity } from "../../../core/prepared.js";
import { forEachUse } from "../../../ir/walk.js";

const VARYING_SOURCES = new Set(["kernel.workitem.id", "kernel.workitem.dispatch.id", "kernel.subgroup.lane.id", "kernel.subgroup.id", "view.atomic.rmw", "view.atomic.cmpxchg"]);

export function bodyUniformity(body: Region, analyses: ModuleAnalyses | undefined): Map<Value, Uniformity> {
  const varying = new Set<Value>();
  let changed = true;
  const mark = (v: Value | undefined) => {
    if (v && !varying.has(v)) {
      varying.add(v);
      changed = true;
    }
  };
  const anyVarying = (op: Op): boolean => {
    let any = false;
    forEachUse(op, (v) => (any ||= varying.has(v)));
    return any;
  };
  const region = (r: Region, control: boolean) => {
    for (const op of r.ops) visit(op, control);
  };
  const visit = (op: Op, control: boolean): void => {
    const verifierSaysVarying = op.results.some((v) => analyses !== undefined && analyses.uniformity.of(v) !== "uniform");
    if (VARYING_SOURCES.has(op.name) || verifierSaysVarying) op.results.forEach(mark);
    if (op.regions.length === 0) {
      if (anyVarying(op)) op.results.forEach(mark);
      return;
    }
    // scf.if / scf.for / scf.while: the control operands decide the inner control level.
    const condition = op.name === "scf.if" ? [op.operands[0]] : op.name === "scf.for" ? op.operands.slice(0, 3) : [];
    let inner = control || condition.some((v) => v !== undefined && varying.has(v));
    if (op.name === "scf.while") {
      const cond = op.regions[0]?.ops.at(-1)?.operands[0];
      inner ||= cond !== undefined && varying.has(cond);
    }
    if (op.name === "scf.for") {
      const args = op.regions[0]!.args;
      if (inner) args.forEach(mark);
      op.operands.slice(3).forEach((init, i) => varying.has(init) && mark(args[i + 1]));
    }
    if (op.name === "scf.while") {
      const args = op.regions[0]!.args;
      if (inner) args.forEach(mark);
      op.operands.forEach((init, i) => varying.has(init) && mark(args[i]));
    }
    op.regions.forEach((r) => region(r, inner));
    // Yields flow to results (and loop-carried arguments).
    op.regions.forEach((r, ri) => {
      const term = r.ops.at(-1);
      if (!term) return;
      const yielded = op.name === "scf.while" && ri === 0 ? term.operands.slice(1) : term.operands;
      yielded.forEach((v, i) => {
        if (!varying.has(v) && !inner) return;
        mark(op.results[i]);
        if (op.name === "scf.for") mark(op.regions[0]!.args[i + 1]);
        if (op.name === "scf.while") mark(ri === 0 ? op.regions[1]!.args[i] : op.regions[0]!.args[i]);
      });
    });
    if (inner) op.results.forEach(mark);
  };
  while (changed) {
    changed = false;
    body.args.forEach((a) => analyses !== undefined && analyses.uniformity.of(a) !== "uniform" && mark(a));
    region(body, false);
  }
  const out = new Map<Value, Uniformity>();
  const all = (r: Region) => {
    r.args.forEach((a) => out.set(a, varying.has(a) ? "varying" : "uniform"));
    for (const op of r.ops) {
      op.results.forEach((v) => out.set(v, varying.has(v) ? "varying" : "uniform"));
      op.regions.forEach(all);
    }
  };
  all(body);
  return out;
}
