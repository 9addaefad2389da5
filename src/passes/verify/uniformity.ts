/**
 * Uniformity analysis and STRUCTURE/038 (barriers and collectives under non-uniform
 * control, language.md §4.1, §5 UB list).
 *
 * Levels: `uniform` (same for every invocation of a workgroup), `subgroup` (same within a
 * subgroup), `varying`. v1's sources (as the task allows): workitem ids, dispatch ids and
 * lane ids vary; `subgroup.id` is subgroup-uniform; constants, workgroup ids/sizes/counts,
 * config values, kernel and function arguments are uniform. Other results join their
 * uses, except: atomics vary; `subgroup.reduce` (whole subgroup) and `subgroup.broadcast`
 * are subgroup-uniform; `workgroup.reduce` is uniform; values leaving a region (`scf.if`
 * results, loop-carried values) also join the controlling condition. A loop-carried value
 * needs a fixpoint, so the analysis iterates until nothing changes (levels only rise, so
 * it terminates).
 *
 * The control level of an op is the join of the conditions of every enclosing `scf.if`,
 * the bounds of every enclosing `scf.for`, and the condition of every enclosing
 * `scf.while`. A collective must sit under control at least as uniform as its scope:
 * `kernel.barrier scope(s)` → s; `kernel.subgroup.*` → subgroup; `workgroup.reduce` →
 * workgroup. A call to a function containing a collective counts as that collective.
 */
import type { Op, Region, Value } from "../../ir/core.js";
import { forEachUse } from "../../ir/walk.js";
import { D } from "../../core/diag/catalog.js";
import type { VerifyContext } from "./context.js";
import type { Uniformity } from "../../core/prepared.js";
import { isCallOp, opFacts } from "./ops.js";
import { calleeBodies } from "./callgraph.js";

const LEVELS: readonly Uniformity[] = ["uniform", "subgroup", "varying"];
type Level = 0 | 1 | 2;

const VARYING_SOURCES = new Set(["kernel.workitem.id", "kernel.workitem.dispatch.id", "kernel.subgroup.lane.id", "view.atomic.rmw", "view.atomic.cmpxchg"]);

function max(a: Level, b: Level): Level {
  return a > b ? a : b;
}

/** The uniformity of values and the control level of ops, for one module. */
export class UniformityInfo {
  readonly values = new Map<Value, Level>();
  readonly control = new Map<Op, Level>();

  of(v: Value): Uniformity {
    return LEVELS[this.values.get(v) ?? 0]!;
  }
  controlOf(op: Op): Uniformity {
    return LEVELS[this.control.get(op) ?? 0]!;
  }
}

class Analysis {
  changed = false;
  constructor(readonly info: UniformityInfo) {}

  level(v: Value): Level {
    return this.info.values.get(v) ?? 0;
  }
  set(v: Value, l: Level): void {
    if (l > this.level(v)) {
      this.info.values.set(v, l);
      this.changed = true;
    }
  }
  uses(op: Op): Level {
    let l: Level = 0;
    forEachUse(op, (v) => (l = max(l, this.level(v))));
    return l;
  }
  joinAll(vs: readonly (Value | undefined)[]): Level {
    let l: Level = 0;
    for (const v of vs) if (v) l = max(l, this.level(v));
    return l;
  }

  region(region: Region, ctl: Level): void {
    for (const op of region.ops) this.op(op, ctl);
  }

  op(op: Op, ctl: Level): void {
    this.info.control.set(op, max(this.info.control.get(op) ?? 0, ctl));
    switch (op.name) {
      case "scf.if": {
        const cond = this.joinAll([op.operands[0]]);
        const inner = max(ctl, cond);
        for (const r of op.regions) this.region(r, inner);
        op.results.forEach((res, i) => {
          const yields = op.regions.map((r) => yieldOf(r)?.operands[i]);
          this.set(res, max(cond, this.joinAll(yields)));
        });
        return;
      }
      case "scf.for": {
        const body = op.regions[0];
        const bounds = this.joinAll(op.operands.slice(0, 3));
        if (!body) return;
        const [iv, ...iter] = body.args;
        if (iv) this.set(iv, bounds);
        const y = yieldOf(body);
        iter.forEach((a, i) => this.set(a, max(bounds, this.joinAll([op.operands[3 + i], y?.operands[i]]))));
        this.region(body, max(ctl, bounds));
        op.results.forEach((res, i) => this.set(res, max(bounds, this.joinAll([op.operands[3 + i], yieldOf(body)?.operands[i]]))));
        return;
      }
      case "scf.while": {
        const [before, after] = op.regions;
        if (!before || !after) return;
        const cond = before.ops[before.ops.length - 1];
        const condOp = cond?.name === "scf.condition" ? cond : undefined;
        const loopCtl = condOp ? this.joinAll([condOp.operands[0]]) : 2;
        const y = yieldOf(after);
        before.args.forEach((a, i) => this.set(a, max(loopCtl, this.joinAll([op.operands[i], y?.operands[i]]))));
        this.region(before, max(ctl, loopCtl));
        const fwd = condOp?.operands.slice(1) ?? [];
        after.args.forEach((a, i) => this.set(a, max(loopCtl, this.joinAll([fwd[i]]))));
        this.region(after, max(ctl, loopCtl));
        op.results.forEach((res, i) => this.set(res, max(loopCtl, this.joinAll([fwd[i]]))));
        return;
      }
    }
    const l = this.resultLevel(op);
    for (const r of op.results) this.set(r, l);
  }

  resultLevel(op: Op): Level {
    if (VARYING_SOURCES.has(op.name)) return 2;
    switch (op.name) {
      case "kernel.subgroup.id":
        return 1;
      case "kernel.workgroup.reduce":
        return 0;
      case "kernel.subgroup.reduce":
        return op.props.clusterSize === undefined ? (this.uses(op) === 0 ? 0 : 1) : this.uses(op);
      case "kernel.subgroup.broadcast":
        return this.uses(op) === 0 ? 0 : 1;
      default:
        return this.uses(op);
    }
  }
}

function yieldOf(region: Region | undefined): Op | undefined {
  const last = region?.ops[region.ops.length - 1];
  return last?.name === "scf.yield" ? last : undefined;
}

/** The scope an op needs uniform control at: 0 workgroup, 1 subgroup, undefined none. */
function requiredLevel(op: Op): Level | undefined {
  const facts = opFacts(op.name);
  if (!facts?.collective) return undefined;
  if (op.name === "kernel.barrier") return op.props.scope === "subgroup" ? 1 : 0;
  return facts.collective === "subgroup" ? 1 : 0;
}

export function analyzeUniformity(ctx: VerifyContext): UniformityInfo {
  const info = new UniformityInfo();
  const a = new Analysis(info);
  // Each round that changes something raises at least one value (at most twice each), so
  // this terminates; typical code settles in two or three rounds.
  for (;;) {
    a.changed = false;
    for (const body of ctx.bodies) a.region(body.region, 0);
    if (!a.changed) break;
  }
  return info;
}

function stricter(a: Level | undefined, b: Level | undefined): Level | undefined {
  if (a === undefined) return b;
  if (b === undefined) return a;
  return a < b ? a : b;
}

/** The strictest scope of the collectives each function (transitively) contains, bottom-up. */
function functionRequirements(ctx: VerifyContext): Map<Op, Level | undefined> {
  const out = new Map<Op, Level | undefined>();
  for (const fn of ctx.callGraph.postOrder) {
    let need: Level | undefined;
    const walk = (ops: readonly Op[]) => {
      for (const op of ops) {
        need = stricter(need, requiredLevel(op));
        for (const r of op.regions) walk(r.ops);
      }
    };
    for (const r of fn.regions) walk(r.ops);
    for (const e of ctx.callGraph.edges(fn)) need = stricter(need, out.get(e.callee));
    out.set(fn, need);
  }
  return out;
}

function callRequirement(ctx: VerifyContext, call: Op, needs: Map<Op, Level | undefined>): Level | undefined {
  let need: Level | undefined;
  for (const callee of calleeBodies(ctx.symbols, call)) need = stricter(need, needs.get(callee));
  return need;
}

export function checkUniformControl(ctx: VerifyContext, info: UniformityInfo): void {
  const needs = functionRequirements(ctx);
  for (const [op, ctl] of info.control) {
    const need = isCallOp(op.name) ? callRequirement(ctx, op, needs) : requiredLevel(op);
    if (need === undefined || ctl <= need) continue;
    const what = isCallOp(op.name) ? `call to '@${String(op.props.symbol ?? op.props.family)}' (which contains a barrier or collective)` : `'${op.name}'`;
    ctx.report(D.nonUniformBarrier, op.span, [what], { help: `move it out of control flow that depends on ${need === 1 ? "lane ids" : "workitem or lane ids"}` });
  }
}
