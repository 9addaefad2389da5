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
 * results, loop-carried values) also join the controlling condition. SSA values are
 * defined before their uses except around a loop, so one walk in program order suffices
 * when each loop iterates its own body until its carried values settle (levels only rise,
 * so that terminates).
 *
 * The control level of an op is the join of the conditions of every enclosing `scf.if`,
 * the bounds of every enclosing `scf.for`, and the condition of every enclosing
 * `scf.while`. A collective must sit under control at least as uniform as its scope:
 * `kernel.barrier scope(s)` → s; `kernel.subgroup.*` → subgroup; `workgroup.reduce` →
 * workgroup. A call to a function containing a collective counts as that collective.
 *
 * A kernel pinned to a target record that fixes `subgroup_size` and launching a static
 * workgroup no larger than one subgroup has a single subgroup, so there subgroup-uniform
 * control is uniform and a workgroup barrier under, e.g., a test of `subgroup.id` is accepted
 * (as the reference does). Only the check relaxes: the levels (`UniformityInfo.of`, which
 * back ends read) stay as they are, since a record's `subgroup_size` is not checked against
 * the device's.
 */
import type { Op, Region, Value } from "../../ir/core.js";
import { forEachNonOperandUse } from "../../ir/walk.js";
import { nextMarkEpoch } from "./marks.js";
import { D } from "../../core/diag/catalog.js";
import { topLevelOf, type VerifyContext } from "./context.js";
import type { Uniformity } from "../../core/prepared.js";
import { isCallOp, opFacts } from "./ops.js";
import { calleeBodies } from "./callgraph.js";
import { isOp, propOf } from "../../dialects/registry.js";
import { recordAttrs } from "../../core/target-records.js";

const LEVELS = ["uniform", "subgroup", "varying"] as const satisfies readonly Uniformity[];
type Level = 0 | 1 | 2;

function max(a: Level, b: Level): Level {
  return a > b ? a : b;
}

/** The uniformity of values and the control level of ops, for one module. */
export class UniformityInfo {
  /** The raised values and their levels, in the order first raised: mapped when first read (only some back ends read them). */
  #raised: readonly Value[] = [];
  #levels: readonly Level[] = [];
  #values: Map<Value, Level> | undefined;
  /** Ops under non-uniform control only: an op missing here is under uniform control (most ops are). */
  readonly control = new Map<Op, Level>();

  /** Set once, by the analysis when it ends. */
  setRaised(raised: readonly Value[], levels: readonly Level[]): void {
    this.#raised = raised;
    this.#levels = levels;
    this.#values = undefined;
  }

  of(v: Value): Uniformity {
    const levels = this.#levels;
    return LEVELS[(this.#values ??= new Map(this.#raised.map((r, i) => [r, levels[i] ?? 0]))).get(v) ?? 0];
  }
  controlOf(op: Op): Uniformity {
    return LEVELS[this.control.get(op) ?? 0];
  }
}

/**
 * Levels live in `Value.mark` while the analysis runs: `base + level` for a raised value
 * (a mark from any other walk or run reads as uniform), instead of a map read per use; the
 * raised values and their levels are handed to `UniformityInfo` when it ends, in the order
 * they were first raised.
 */
class Levels {
  readonly base = nextMarkEpoch(2);
  readonly raised: Value[] = [];
  level(v: Value): Level {
    const d = v.mark - this.base;
    return d === 1 || d === 2 ? d : 0;
  }
}

/** The level of the values an op uses (forEachUse's set), without a closure per call. */
class UseLevel {
  level: Level = 0;
  constructor(readonly levels: Levels) {}
  readonly visit = (v: Value): void => {
    const l = this.levels.level(v);
    if (l > this.level) this.level = l;
  };
}

class Analysis {
  readonly #uses: UseLevel;
  readonly #levels = new Levels();
  constructor(readonly info: UniformityInfo) {
    this.#uses = new UseLevel(this.#levels);
  }

  level(v: Value | undefined): Level {
    return v ? this.#levels.level(v) : 0;
  }
  /** Raises `v` to `l`; true when that changed its level. */
  set(v: Value, l: Level): boolean {
    const levels = this.#levels;
    const old = levels.level(v);
    if (l > old) {
      if (old === 0) levels.raised.push(v);
      v.mark = levels.base + l;
      return true;
    }
    return false;
  }

  /** Hands the levels to `info` (and gives the marks back). */
  finish(): void {
    const levels = this.#levels;
    this.info.setRaised(
      levels.raised,
      levels.raised.map((v) => {
        const l = levels.level(v);
        v.mark = 0;
        return l;
      }),
    );
  }
  uses(op: Op): Level {
    // Until some value is raised every level is uniform (a config region, a body's prologue).
    if (this.#levels.raised.length === 0) return 0;
    // Operands first: once one varies, the props and types cannot raise the level further.
    const operands = op.operands;
    let l: Level = 0;
    for (let i = 0; i < operands.length; i++) {
      const d = this.level(operands[i]);
      if (d > l) {
        if (d === 2) return 2;
        l = d;
      }
    }
    const u = this.#uses;
    u.level = l;
    forEachNonOperandUse(op, u.visit);
    return u.level;
  }

  /** What `scf.for` iter arg `i` (1-based: 0 is the induction variable) joins: bounds, its init and the yield. */
  carried(op: Op, bounds: Level, y: Op | undefined, i: number): Level {
    return max(bounds, max(this.level(op.operands[2 + i]), this.level(y?.operands[i - 1])));
  }

  region(region: Region, ctl: Level): void {
    const ops = region.ops;
    for (let i = 0; i < ops.length; i++) this.op(ops[i]!, ctl);
  }

  /** The `scf.for` iter args (from 1: 0 is the induction variable) take what they join. */
  #carry(op: Op, body: Region, bounds: Level, y: Op | undefined): void {
    const args = body.args;
    for (let i = 1; i < args.length; i++) this.set(args[i]!, this.carried(op, bounds, y, i));
  }

  op(op: Op, ctl: Level): void {
    const control = this.info.control;
    // Levels only rise, so a later visit (a loop body walked again) sees control at least as high: no read first.
    if (ctl > 0) control.set(op, ctl);
    switch (op.name) {
      case "scf.if": {
        const cond = this.level(op.operands[0]);
        const inner = max(ctl, cond);
        const regions = op.regions;
        for (let k = 0; k < regions.length; k++) this.region(regions[k]!, inner);
        const results = op.results;
        for (let i = 0; i < results.length; i++) {
          let l = cond;
          for (let k = 0; k < regions.length; k++) l = max(l, this.level(yieldOf(regions[k])?.operands[i]));
          this.set(results[i]!, l);
        }
        return;
      }
      case "scf.for": {
        const body = op.regions[0];
        const bounds = max(max(this.level(op.operands[0]), this.level(op.operands[1])), this.level(op.operands[2]));
        if (!body) return;
        const iv = body.args[0];
        if (iv) this.set(iv, bounds);
        // Loop-carried values join what the body yields back: iterate the body until they
        // settle (levels only rise, at most twice per value), so one walk of the module suffices.
        const args = body.args;
        for (;;) {
          this.#carry(op, body, bounds, yieldOf(body));
          this.region(body, max(ctl, bounds));
          const after = yieldOf(body);
          let stale = false;
          for (let i = 1; i < args.length; i++) if (this.carried(op, bounds, after, i) > this.level(args[i])) stale = true;
          if (!stale) break;
        }
        const results = op.results;
        for (let i = 0; i < results.length; i++) this.set(results[i]!, max(bounds, max(this.level(op.operands[3 + i]), this.level(yieldOf(body)?.operands[i]))));
        return;
      }
      case "scf.while": {
        const [before, after] = op.regions;
        if (!before || !after) return;
        const cond = before.ops[before.ops.length - 1];
        const condOp = isOp(cond, "scf.condition") ? cond : undefined;
        // The same settling as scf.for: `before` args join the inits and what `after` yields.
        for (;;) {
          const loopCtl = condOp ? this.level(condOp.operands[0]) : 2;
          const y = yieldOf(after);
          for (const [i, a] of before.args.entries()) this.set(a, max(loopCtl, max(this.level(op.operands[i]), this.level(y?.operands[i]))));
          this.region(before, max(ctl, loopCtl));
          const ctlAfter = condOp ? this.level(condOp.operands[0]) : 2;
          for (const [i, a] of after.args.entries()) this.set(a, max(ctlAfter, this.level(condOp?.operands[i + 1])));
          this.region(after, max(ctl, ctlAfter));
          const y2 = yieldOf(after);
          const settled = ctlAfter === loopCtl && before.args.every((a, i) => max(ctlAfter, max(this.level(op.operands[i]), this.level(y2?.operands[i]))) <= this.level(a));
          if (settled) break;
        }
        const loopCtl = condOp ? this.level(condOp.operands[0]) : 2;
        for (const [i, res] of op.results.entries()) this.set(res, max(loopCtl, this.level(condOp?.operands[i + 1])));
        return;
      }
    }
    // An op without results gives no value a level (its uses matter only through control).
    const results = op.results;
    if (results.length === 0) return;
    // Levels only rise: a result already varying (a loop body walked again) stays so.
    if (results.length === 1 && this.level(results[0]) === 2) return;
    const l = this.resultLevel(op);
    for (let i = 0; i < results.length; i++) this.set(results[i]!, l);
  }

  resultLevel(op: Op): Level {
    switch (op.name) {
      case "kernel.workitem.id":
      case "kernel.workitem.dispatch.id":
      case "kernel.subgroup.lane.id":
      case "view.atomic.rmw":
      case "view.atomic.cmpxchg":
        return 2;
      case "kernel.subgroup.id":
        return 1;
      case "kernel.workgroup.reduce":
        return 0;
      case "kernel.workgroup.scan":
        return 2; // one prefix per invocation
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
  return isOp(last, "scf.yield") ? last : undefined;
}

/** The scope an op needs uniform control at: 0 workgroup, 1 subgroup, undefined none. */
function requiredLevel(op: Op): Level | undefined {
  const facts = opFacts(op.name);
  if (!facts?.collective) return undefined;
  if (isOp(op, "kernel.barrier")) return op.props.scope === "subgroup" ? 1 : 0;
  return facts.collective === "subgroup" ? 1 : 0;
}

export function analyzeUniformity(ctx: VerifyContext): UniformityInfo {
  const info = new UniformityInfo();
  const a = new Analysis(info);
  // One walk: values flow forward in program order except around loops, which settle locally.
  for (const body of ctx.bodies) a.region(body.region, 0);
  a.finish();
  return info;
}

/** Whether `kernel`'s target record fixes a subgroup size its static workgroup size fits in. */
function runsAsOneSubgroup(ctx: VerifyContext, kernel: Op): boolean {
  const attrs = ctx.symbols.get(propOf(kernel, "target") ?? "")?.op.props.attrs;
  const config = kernel.regions[0]?.ops.find((o) => isOp(o, "kernel.launch.config"));
  const lanes = recordAttrs(attrs).find((a) => a.key === "subgroup_size")?.value;
  if (lanes?.kind !== "int" || !config) return false;
  // An unknown size counts as more than one subgroup.
  let invocations = 1n;
  for (const v of config.operands.slice(3, 6)) invocations *= ctx.folder.constant(v) ?? lanes.value + 1n;
  return invocations <= lanes.value;
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
  // Only calls under non-uniform control need the functions' requirements.
  let needs: Map<Op, Level | undefined> | undefined;
  info.control.forEach((ctl, op) => {
    const need = isCallOp(op.name) ? callRequirement(ctx, op, (needs ??= functionRequirements(ctx))) : requiredLevel(op);
    // Subgroup-uniform control is uniform in a kernel that runs as one subgroup.
    if (need === undefined || ctl <= need || (ctl === 1 && runsAsOneSubgroup(ctx, topLevelOf(op)))) return;
    const what = isCallOp(op.name) ? `call to '@${String(op.props.symbol ?? op.props.family)}' (which contains a barrier or collective)` : `'${op.name}'`;
    ctx.report(D.nonUniformBarrier, op.span, [what], { help: `move it out of control flow that depends on ${need === 1 ? "lane ids" : "workitem or lane ids"}` });
  });
}

