/**
 * The number fast path without code generation (for pages whose Content-Security-Policy
 * forbids `new Function`): the decoded function becomes, once at load, a tree of closures
 * over a `Float64Array` register file. It has the contract of codegen-fast.ts — same number
 * representation, same return codes (DONE with the output written, BAIL, BUDGET), same
 * output writes — and takes its op, argument and predicate rules from the same description
 * (src/dialects/eval/fast.ts), calling the functions the code generator splices, so it bails
 * exactly where the generated code does and the exact path decides the rest.
 *
 * No allocation per call: the register file is allocated at load, constants are written
 * into it once, and the loop budget and yield temporaries live in extra slots of it. A
 * re-entrant call (an argument getter or an `out` getter that invokes the same function)
 * gets a fresh copy instead, so the outer call's registers stay intact.
 */
import { fastArgument, fastConstant, fastPredicate, fastRule, predicateLiteral, predicateRead, type FastTerm, type TermFn } from "../dialects/eval/fast.js";
import { FAST_BAIL, FAST_BUDGET, FAST_DONE, type FastFunction } from "./codegen-fast.js";
import type { LaunchConfig } from "./program.js";
import { LIMITS, type LOp, type LPredicate, type LType, type LaunchFunction } from "./model.js";

type Regs = Float64Array;
/** One op or region: 0 to go on, FAST_BAIL or FAST_BUDGET to stop. */
type Step = (R: Regs) => number;

const GO = 0;
const BAIL = FAST_BAIL;

const go: Step = () => GO;
const bail: Step = () => BAIL;

export function closeFast(fn: LaunchFunction): FastFunction {
  const types = fn.registerTypes;
  const BUDGET = types.length;
  const TEMPS = BUDGET + 1;
  let temps = 0;
  const constants: { reg: number; value: number }[] = [];
  let launchRegs: readonly number[] = [];

  const region = (ops: readonly LOp[]): { run: Step; yielded: readonly number[] } => {
    const steps: Step[] = [];
    let yielded: readonly number[] = [];
    for (const op of ops) {
      switch (op.kind) {
        case "constant": {
          const x = fastConstant(op.type, op.value);
          // Registers are single-assignment: a constant can be written once, at load.
          if (x === undefined) steps.push(bail);
          else constants.push({ reg: op.result, value: x });
          break;
        }
        case "simple":
          steps.push(simpleStep(op, types));
          break;
        case "assume":
          for (const p of op.predicates) steps.push(predicateStep(p, types));
          steps.push(copy(op.operands, op.results));
          break;
        case "select": {
          const [c, a, b] = op.operands, d = op.result;
          steps.push((R) => ((R[d] = R[c] === 1 ? R[a]! : R[b]!), GO));
          break;
        }
        case "if": {
          const c = op.cond;
          const t = region(op.then), e = op.hasElse ? region(op.else) : { run: go, yielded: [] };
          const takeThen = copy(t.yielded, op.results), takeElse = copy(e.yielded, op.results);
          steps.push((R) => {
            if (R[c] === 1) {
              const s = t.run(R);
              return s === GO ? takeThen(R) : s;
            }
            const s = e.run(R);
            return s === GO ? takeElse(R) : s;
          });
          break;
        }
        case "for": {
          const { lo, hi, step, iv } = op;
          const enter = copy(op.inits, op.iterArgs), leave = copy(op.iterArgs, op.results);
          const body = region(op.body);
          // Yielded values may be iteration args themselves: assign through temporaries.
          temps = Math.max(temps, body.yielded.length);
          const slots = body.yielded.map((_, i) => TEMPS + i);
          const toTemps = copy(body.yielded, slots), fromTemps = copy(slots, op.iterArgs);
          const run = body.run;
          steps.push((R) => {
            if (!(R[step]! > 0)) return BAIL;
            enter(R);
            for (let i = R[lo]!; i < R[hi]!; i += R[step]!) {
              if (++R[BUDGET]! > LIMITS.loopIterations) return FAST_BUDGET;
              R[iv] = i;
              const s = run(R);
              if (s !== GO) return s;
              toTemps(R);
              fromTemps(R);
            }
            return leave(R);
          });
          break;
        }
        case "yield":
          yielded = op.operands;
          break;
        case "launch":
          // Only ever the last op of the body: the driver checks and writes it.
          launchRegs = op.operands;
          break;
      }
    }
    return { run: sequence(steps), yielded };
  };

  const argSteps = fn.args.map((a, i) => argConversion(a.type, i));
  const where = fn.where.length ? sequence(fn.where.map((p) => predicateStep(p, types))) : undefined;
  const body = region(fn.body).run;

  const template = new Float64Array(TEMPS + temps);
  for (const c of constants) template[c.reg] = c.value;
  const shared = template.slice();
  const argCount = argSteps.length;
  const [l0, l1, l2, l3, l4, l5] = launchRegs as [number, number, number, number, number, number];
  const cluster = launchRegs.length === 9 ? (launchRegs.slice(6, 9) as [number, number, number]) : undefined;
  const { maxWorkgroupCount: mc, maxWorkgroupSize: ms, maxFlatWorkgroupSize: mf } = fn.limits;
  const mc0 = Math.min(mc[0], LIMITS.u32), mc1 = Math.min(mc[1], LIMITS.u32), mc2 = Math.min(mc[2], LIMITS.u32);
  const [ms0, ms1, ms2] = ms;
  const { subgroupSize, workgroupStorageBytes } = fn;

  const run = (R: Regs, a: ArrayLike<unknown>, out: LaunchConfig): number => {
    R[BUDGET] = 0;
    for (let i = 0; i < argCount; i++) if (!argSteps[i]!(R, a[i])) return BAIL;
    if (where) {
      const s = where(R);
      if (s !== GO) return s;
    }
    const s = body(R);
    if (s !== GO) return s;
    // The launch limits; the output is written only after they pass.
    const x = R[l0]!, y = R[l1]!, z = R[l2]!, sx = R[l3]!, sy = R[l4]!, sz = R[l5]!;
    if (!(x >= 0 && x <= mc0) || !(y >= 0 && y <= mc1) || !(z >= 0 && z <= mc2)) return BAIL;
    if (!(sx >= 1 && sx <= ms0) || !(sy >= 1 && sy <= ms1) || !(sz >= 1 && sz <= ms2)) return BAIL;
    if (sx * sy * sz > mf) return BAIL;
    if (cluster && (R[cluster[0]] !== 1 || R[cluster[1]] !== 1 || R[cluster[2]] !== 1)) return BAIL;
    const wc = out.workgroupCount, ws = out.workgroupSize, cs = out.workgroupClusterSize;
    wc[0] = x + 0; wc[1] = y + 0; wc[2] = z + 0;
    ws[0] = sx; ws[1] = sy; ws[2] = sz;
    cs[0] = 1; cs[1] = 1; cs[2] = 1;
    out.subgroupSize = subgroupSize; out.workgroupStorageBytes = workgroupStorageBytes;
    return FAST_DONE;
  };

  let busy = false;
  return (a, out) => {
    if (busy) return run(template.slice(), a, out);
    busy = true;
    try {
      return run(shared, a, out);
    } finally {
      busy = false;
    }
  };
}

/**
 * Runs the steps in order, stopping at the first that does not go on. A balanced tree of
 * pairs rather than a loop over an array: measurably faster in V8 on short regions, and
 * only log2(n) deep on long ones (a region may hold 65,536 ops).
 */
function sequence(steps: readonly Step[], from = 0, to = steps.length): Step {
  if (to - from === 0) return go;
  if (to - from === 1) return steps[from]!;
  const mid = (from + to) >>> 1;
  const first = sequence(steps, from, mid), rest = sequence(steps, mid, to);
  return (R) => {
    const s = first(R);
    return s === GO ? rest(R) : s;
  };
}

/** Copies registers `from[i]` into `to[i]`, in order. */
function copy(from: readonly number[], to: readonly number[]): Step {
  const n = Math.min(from.length, to.length);
  if (n === 0) return go;
  if (n === 1) {
    const f = from[0]!, t = to[0]!;
    return (R) => ((R[t] = R[f]!), GO);
  }
  const f = Int32Array.from(from.slice(0, n)), t = Int32Array.from(to.slice(0, n));
  return (R) => {
    for (let i = 0; i < n; i++) R[t[i]!] = R[f[i]!]!;
    return GO;
  };
}

/** The JS value of argument `i` into its fast representation by its fast rule, or false (bail). */
function argConversion(t: LType, i: number): (R: Regs, x: unknown) => boolean {
  const { guards, value } = fastArgument(t);
  const [guard] = guards as [FastTerm];
  const g = guard.fn as Fn, v = value.fn as Fn;
  const [v0, v1] = value.constants;
  return (R, x) => !g(x) && ((R[i] = v(x, v0, v1) as number), true);
}

/** A `where`/`assume` predicate by its fast rule; false (or a literal beyond the safe range) bails. */
function predicateStep(p: LPredicate, types: readonly LType[]): Step {
  const holds = fastPredicate(p.kind);
  if (!holds) return bail;
  const getters: ((R: Regs) => number)[] = [];
  for (const a of p.args) {
    if (typeof a === "bigint") {
      const v = predicateLiteral(a);
      if (v === undefined) return bail; // the exact path decides
      getters.push(() => v);
    } else {
      const read = predicateRead(types[a]!), f = read.fn as Fn, [k0] = read.constants;
      getters.push(read.constants.length ? (R) => f(R[a], k0) as number : (R) => R[a]!);
    }
  }
  const h = holds.fn as Fn;
  const [ga, gb, gc] = getters as [(R: Regs) => number, (R: Regs) => number, (R: Regs) => number];
  switch (getters.length) {
    case 1: return (R) => (h(ga(R)) ? GO : BAIL);
    case 2: return (R) => (h(ga(R), gb(R)) ? GO : BAIL);
    default: return (R) => (h(ga(R), gb(R), gc(R)) ? GO : BAIL);
  }
}

type Fn = TermFn;

/**
 * The step of one simple op from its fast rule (src/dialects/eval/fast.ts), the same rule
 * codegen-fast.ts splices: guards, then the value, then the check, fused into one closure
 * per op (a guard beyond the first becomes a step of its own; only `nsw nuw` has two).
 */
function simpleStep(op: Extract<LOp, { kind: "simple" }>, types: readonly LType[]): Step {
  const rule = fastRule(op.name, op.type, types[op.operands[0]!]!, op.flags, op.predicate);
  if (!rule) return bail; // no fast rule: the exact path decides
  const { guards, value, check } = rule;
  const first = guards[guards.length - 1];
  const step = fused(op.result, op.operands, first, value, check);
  if (guards.length <= 1) return step;
  return sequence([...guards.slice(0, -1).map((g) => guardStep(op.operands, g)), step]);
}

const constantsOf = (t: FastTerm | undefined) => t?.constants ?? [];

/** A guard on its own: BAIL when it holds. */
function guardStep(operands: readonly number[], g: FastTerm): Step {
  const f = g.fn as Fn;
  const [a, b, c] = operands as [number, number, number];
  const [k0, k1, k2, k3] = constantsOf(g);
  switch (operands.length) {
    case 1: return (R) => (f(R[a], k0, k1, k2, k3) ? BAIL : GO);
    case 2: return (R) => (f(R[a], R[b], k0, k1, k2, k3) ? BAIL : GO);
    default: return (R) => (f(R[a], R[b], R[c], k0, k1, k2, k3) ? BAIL : GO);
  }
}

/** `d = value(operands)` between an optional guard and an optional check, in one closure. */
function fused(d: number, operands: readonly number[], guard: FastTerm | undefined, value: FastTerm, check: FastTerm | undefined): Step {
  const v = value.fn as Fn, g = guard?.fn as Fn | undefined, c = check?.fn as Fn | undefined;
  const [v0, v1, v2, v3] = value.constants, [g0, g1, g2, g3] = constantsOf(guard), [c0, c1, c2] = constantsOf(check);
  const [a, b, e] = operands as [number, number, number];
  switch (operands.length) {
    case 1:
      if (!g && !c) return (R) => ((R[d] = v(R[a], v0, v1, v2, v3) as number), GO);
      return (R) => {
        const x = R[a]!;
        if (g && g(x, g0, g1, g2, g3)) return BAIL;
        const r = v(x, v0, v1, v2, v3) as number;
        if (c && c(r, c0, c1, c2)) return BAIL;
        R[d] = r;
        return GO;
      };
    case 2:
      if (!g && !c) return (R) => ((R[d] = v(R[a], R[b], v0, v1, v2, v3) as number), GO);
      if (!g) {
        return (R) => {
          const r = v(R[a], R[b], v0, v1, v2, v3) as number;
          if (c!(r, c0, c1, c2)) return BAIL;
          R[d] = r;
          return GO;
        };
      }
      if (!c) {
        return (R) => {
          const x = R[a]!, y = R[b]!;
          if (g(x, y, g0, g1, g2, g3)) return BAIL;
          R[d] = v(x, y, v0, v1, v2, v3) as number;
          return GO;
        };
      }
      return (R) => {
        const x = R[a]!, y = R[b]!;
        if (g(x, y, g0, g1, g2, g3)) return BAIL;
        const r = v(x, y, v0, v1, v2, v3) as number;
        if (c(r, c0, c1, c2)) return BAIL;
        R[d] = r;
        return GO;
      };
    default:
      return (R) => {
        const x = R[a]!, y = R[b]!, z = R[e]!;
        if (g && g(x, y, z, g0, g1, g2, g3)) return BAIL;
        const r = v(x, y, z, v0, v1, v2, v3) as number;
        if (c && c(r, c0, c1, c2)) return BAIL;
        R[d] = r;
        return GO;
      };
  }
}
