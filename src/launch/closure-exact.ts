/**
 * The exact path without code generation (for pages whose Content-Security-Policy forbids
 * `new Function`): the decoded function is turned, once at load, into a tree of closures
 * over a register array, with every op pre-bound to its semantics by `bindExactOp`. No op
 * name is looked at per call.
 *
 * It mirrors codegen-exact.ts step for step — same op numbering in messages, same check
 * order, same shared predicate and launch checks (exact-checks.ts) — so both throw the same
 * `LoomError` for the same arguments and otherwise return the same nine launch numbers.
 * Each call allocates its register array (the exact path allocates bigints anyway).
 */
import { Undefined } from "../dialects/index/semantics.js";
import { checkPredicate, finishLaunch } from "./exact-checks.js";
import { bindExactOp, type ExactValue } from "../dialects/eval/exact.js";
import type { ExactFunction } from "./codegen-exact.js";
import { LaunchMessages, type PredicateSite } from "./messages.js";
import { LIMITS, type LOp, type LPredicate, type LaunchFunction } from "./model.js";

/** One op (or region) over the register array; errors are thrown. */
type Step = (R: ExactValue[]) => void;

export function closeExact(fn: LaunchFunction): ExactFunction {
  const msg = new LaunchMessages(fn);
  const types = fn.registerTypes;
  const argCount = fn.args.length;
  // Registers, then the loop budget counter, then shared yield temporaries.
  const BUDGET = types.length;
  const TEMPS = BUDGET + 1;
  let temps = 0;
  /** Constants live in the template, copied into each call's registers. */
  const template: ExactValue[] = new Array<ExactValue>(types.length).fill(0n);
  let opIndex = 0;
  let launch: readonly number[] = [];

  const predicateStep = (p: LPredicate, site: PredicateSite): Step => {
    const regs = p.args.filter((a): a is number => typeof a === "number");
    return (R) => checkPredicate(p, site, regs.map((r) => R[r]!), types, msg);
  };

  const region = (ops: readonly LOp[]): { run: Step; yielded: readonly number[] } => {
    const steps: Step[] = [];
    let yielded: readonly number[] = [];
    for (const op of ops) {
      if (op.kind === "yield") {
        yielded = op.operands;
        continue;
      }
      const k = opIndex++;
      switch (op.kind) {
        case "constant":
          template[op.result] = op.value;
          break;
        case "simple":
          steps.push(simpleStep(op, k));
          break;
        case "assume": {
          for (const p of op.predicates) steps.push(predicateStep(p, msg.assumeSite(op.name, k)));
          steps.push(copy(op.operands, op.results));
          break;
        }
        case "select": {
          const [c, a, b] = op.operands, d = op.result;
          steps.push((R) => void (R[d] = R[c] === 1n ? R[a]! : R[b]!));
          break;
        }
        case "if": {
          const c = op.cond;
          const t = region(op.then), e = op.hasElse ? region(op.else) : { run: nothing, yielded: [] };
          const takeThen = copy(t.yielded, op.results), takeElse = copy(e.yielded, op.results);
          steps.push((R) => {
            if (R[c] === 1n) {
              t.run(R);
              takeThen(R);
            } else {
              e.run(R);
              takeElse(R);
            }
          });
          break;
        }
        case "for":
          steps.push(forStep(op, k));
          break;
        case "launch":
          launch = op.operands;
          break;
      }
    }
    return { run: sequence(steps), yielded };
  };

  const simpleStep = (op: Extract<LOp, { kind: "simple" }>, k: number): Step => {
    const f = bindExactOp(op.name, op.type, op.operands.map((o) => types[o]!), op.flags, op.predicate);
    const d = op.result, name = op.name;
    const [a, b, c] = op.operands as [number, number, number];
    const set = (R: ExactValue[], v: ExactValue | Undefined) => {
      if (v instanceof Undefined) throw msg.undefinedOp(name, k, v.reason);
      R[d] = v;
    };
    switch (op.operands.length) {
      case 1: return (R) => set(R, f(R[a]!));
      case 2: return (R) => set(R, f(R[a]!, R[b]!));
      default: return (R) => set(R, f(R[a]!, R[b]!, R[c]!));
    }
  };

  const forStep = (op: Extract<LOp, { kind: "for" }>, k: number): Step => {
    const { lo, hi, step, iv } = op;
    const enter = copy(op.inits, op.iterArgs), leave = copy(op.iterArgs, op.results);
    const body = region(op.body);
    // Yielded values may be iteration args themselves: assign through temporaries.
    const n = body.yielded.length;
    temps = Math.max(temps, n);
    const toTemps = copy(body.yielded, body.yielded.map((_, i) => TEMPS + i));
    const fromTemps = copy(body.yielded.map((_, i) => TEMPS + i), op.iterArgs.slice(0, n));
    return (R) => {
      const s = R[step] as bigint;
      if (s <= 0n) throw msg.nonPositiveStep(k, s);
      enter(R);
      for (let i = R[lo] as bigint; i < (R[hi] as bigint); i += s) {
        const spent = (R[BUDGET] as number) + 1;
        R[BUDGET] = spent;
        if (spent > LIMITS.loopIterations) throw msg.loopBudget(LIMITS.loopIterations);
        R[iv] = i;
        body.run(R);
        toTemps(R);
        fromTemps(R);
      }
      leave(R);
    };
  };

  const where = sequence(fn.where.map((p, i) => predicateStep(p, msg.workloadSite(i))));
  const body = region(fn.body).run;
  for (let i = 0; i < temps + 1; i++) template.push(0);
  const launchRegs = launch;

  return (args) => {
    const R = template.slice();
    for (let i = 0; i < argCount; i++) R[i] = args[i]!;
    where(R);
    body(R);
    return finishLaunch(fn, msg, launchRegs.map((r) => R[r] as bigint));
  };
}

const nothing: Step = () => {};

/** Runs the steps in order. */
function sequence(steps: readonly Step[]): Step {
  if (steps.length === 0) return nothing;
  if (steps.length === 1) return steps[0]!;
  return (R) => {
    for (let i = 0; i < steps.length; i++) steps[i]!(R);
  };
}

/** Copies registers `from[i]` into `to[i]`, in order. */
function copy(from: readonly number[], to: readonly number[]): Step {
  const n = Math.min(from.length, to.length);
  if (n === 0) return nothing;
  return (R) => {
    for (let i = 0; i < n; i++) R[to[i]!] = R[from[i]!]!;
  };
}
