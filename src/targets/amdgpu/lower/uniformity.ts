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
import type { ModuleAnalyses } from "../../../core/prepared.js";
import { forEachUse } from "../../../ir/walk.js";

const VARYING_SOURCES = new Set(["kernel.workitem.id", "kernel.workitem.dispatch.id", "kernel.subgroup.lane.id", "kernel.subgroup.id", "view.atomic.rmw", "view.atomic.cmpxchg"]);

/** The body's varying values (region arguments and op results); every other value of the body is uniform. */
export function bodyVarying(body: Region, analyses: ModuleAnalyses | undefined): ReadonlySet<Value> {
  // Plain loops, no closures or slices per op: this runs on every compile.
  const varying = new Set<Value>();
  let changed = true;
  const mark = (v: Value | undefined) => {
    if (v && !varying.has(v)) {
      varying.add(v);
      changed = true;
    }
  };
  const markAll = (vs: readonly Value[]) => {
    for (let i = 0; i < vs.length; i++) mark(vs[i]);
  };
  const isVarying = (v: Value | undefined) => v !== undefined && varying.has(v);
  let anyVaryingUse = false;
  const noteUse = (v: Value) => {
    if (!anyVaryingUse && varying.has(v)) anyVaryingUse = true;
  };
  const region = (r: Region, control: boolean) => {
    for (const op of r.ops) visit(op, control);
  };
  const visit = (op: Op, control: boolean): void => {
    const results = op.results;
    let verifierSaysVarying = false;
    // The verifier's answers and the sources are fixed: marked once, on the first pass.
    if (analyses !== undefined && firstPass) {
      for (const v of results) if (analyses.uniformity.of(v) !== "uniform") {
        verifierSaysVarying = true;
        break;
      }
    }
    if (verifierSaysVarying || (firstPass && VARYING_SOURCES.has(op.name))) markAll(results);
    const regions = op.regions;
    if (regions.length === 0) {
      anyVaryingUse = false;
      forEachUse(op, noteUse);
      if (anyVaryingUse) markAll(results);
      return;
    }
    // scf.if / scf.for / scf.while: the control operands decide the inner control level.
    const name = op.name;
    const operands = op.operands;
    let inner = control;
    if (!inner && name === "scf.if") inner = operands[0] !== undefined && varying.has(operands[0]);
    if (!inner && name === "scf.for") for (let i = 0; i < 3 && !inner; i++) inner = isVarying(operands[i]);
    if (name === "scf.while") {
      const cond = regions[0]?.ops.at(-1)?.operands[0];
      inner ||= cond !== undefined && varying.has(cond);
    }
    if (name === "scf.for") {
      const args = regions[0]!.args;
      if (inner) markAll(args);
      for (let i = 3; i < operands.length; i++) if (isVarying(operands[i])) mark(args[i - 2]);
    }
    if (name === "scf.while") {
      const args = regions[0]!.args;
      if (inner) markAll(args);
      for (let i = 0; i < operands.length; i++) if (isVarying(operands[i])) mark(args[i]);
    }
    for (const r of regions) region(r, inner);
    // Yields flow to results (and loop-carried arguments).
    for (let ri = 0; ri < regions.length; ri++) {
      const term = regions[ri]?.ops.at(-1);
      if (!term) continue;
      const yielded = term.operands;
      const from = name === "scf.while" && ri === 0 ? 1 : 0;
      for (let j = from; j < yielded.length; j++) {
        const i = j - from;
        if (!isVarying(yielded[j]) && !inner) continue;
        mark(results[i]);
        if (name === "scf.for") mark(regions[0]!.args[i + 1]);
        if (name === "scf.while") mark(ri === 0 ? regions[1]!.args[i] : regions[0]!.args[i]);
      }
    }
    if (inner) markAll(results);
  };
  let firstPass = true;
  if (analyses !== undefined) for (const a of body.args) if (analyses.uniformity.of(a) !== "uniform") mark(a);
  while (changed) {
    changed = false;
    region(body, false);
    firstPass = false;
  }
  return varying;
}
