/**
 * The number fast path without code generation (for pages whose Content-Security-Policy
 * forbids `new Function`): the decoded function becomes, once at load, a tree of closures
 * over a `Float64Array` register file. It has the contract of codegen-fast.ts — same number
 * representation, same return codes (DONE with the output written, BAIL, BUDGET), same
 * output writes — and mirrors its op rules one for one, so it bails exactly where it cannot
 * be certain and the exact path decides the rest.
 *
 * No allocation per call: the register file is allocated at load, constants are written
 * into it once, and the loop budget and yield temporaries live in extra slots of it. A
 * re-entrant call (an argument getter or an `out` getter that invokes the same function)
 * gets a fresh copy instead, so the outer call's registers stay intact.
 */
import * as S from "../dialects/scalar/semantics.js";
import { FAST_BAIL, FAST_BUDGET, FAST_DONE, type FastFunction } from "./codegen-fast.js";
import type { LaunchConfig } from "./program.js";
import { FLAG_BITS, LIMITS, isFloatType, typeWidth, type LOp, type LPredicate, type LType, type LaunchFunction } from "./model.js";

type Regs = Float64Array;
/** One op or region: 0 to go on, FAST_BAIL or FAST_BUDGET to stop. */
type Step = (R: Regs) => number;
type Num = (x: number) => number;
type Cmp = (x: number, y: number) => boolean;

const GO = 0;
const BAIL = FAST_BAIL;
const MAXS = Number.MAX_SAFE_INTEGER;
const SAFE_N = BigInt(MAXS);
const P2 = Array.from({ length: 65 }, (_, i) => 2 ** i);

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
          const v = op.value;
          let x: number | undefined;
          if (typeof v === "number") x = v;
          else {
            const signed = op.type === "i64" ? BigInt.asIntN(64, v) : v;
            if (signed <= SAFE_N && signed >= -SAFE_N) x = Number(signed);
          }
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

/** The JS value of argument `i` into its fast representation, or false (bail). */
function argConversion(t: LType, i: number): (R: Regs, x: unknown) => boolean {
  if (isFloatType(t)) {
    const round = rounding(t);
    return (R, x) => typeof x === "number" && ((R[i] = round(x)), true);
  }
  switch (t) {
    case "index": case "i64": return (R, x) => Number.isSafeInteger(x) && ((R[i] = (x as number) + 0), true);
    case "offset": return (R, x) => Number.isSafeInteger(x) && (x as number) >= 0 && ((R[i] = (x as number) + 0), true);
    case "i32": return (R, x) => Number.isSafeInteger(x) && ((R[i] = (x as number) >>> 0), true);
  }
  const mask = 2 ** typeWidth(t) - 1;
  return (R, x) => Number.isSafeInteger(x) && ((R[i] = (x as number) & mask), true);
}

/** Rounding of a double to the float format `t`. */
function rounding(t: LType): Num {
  if (t === "f64") return (x) => x;
  if (t === "f32") return Math.fround;
  return (x) => S.roundToFormat(x, t as S.FloatName);
}

/** Signed reading of a small-int pattern; index/i64/offset are already their value. */
function signedOf(t: LType): Num {
  const w = typeWidth(t);
  if (w > 32) return (x) => x;
  const half = 2 ** (w - 1), full = 2 ** w;
  return (x) => (x >= half ? x - full : x);
}

/** The low `w` bits (w ≤ 32) of an integer-valued number, as a pattern. */
function patternOf(w: number): Num {
  if (w === 32) return (x) => x >>> 0;
  const mask = 2 ** w - 1;
  return (x) => x & mask;
}

/** An integer compare on the fast representation of `t` (codegen-fast.ts `compare`). */
function compare(pred: string, t: LType): Cmp {
  const sg = signedOf(t);
  const unsignedIsPlain = typeWidth(t) <= 32 || t === "offset";
  const ul = (eq: boolean): Cmp => {
    if (unsignedIsPlain) return eq ? (x, y) => x <= y : (x, y) => x < y;
    return eq ? (x, y) => ((x < 0) === (y < 0) ? x <= y : y < 0) : (x, y) => ((x < 0) === (y < 0) ? x < y : y < 0);
  };
  switch (pred) {
    case "eq": return (x, y) => x === y;
    case "ne": return (x, y) => x !== y;
    case "slt": return (x, y) => sg(x) < sg(y);
    case "sle": return (x, y) => sg(x) <= sg(y);
    case "sgt": return (x, y) => sg(x) > sg(y);
    case "sge": return (x, y) => sg(x) >= sg(y);
    case "ult": { const f = ul(false); return (x, y) => f(x, y); }
    case "ule": { const f = ul(true); return (x, y) => f(x, y); }
    case "ugt": { const f = ul(false); return (x, y) => f(y, x); }
    case "uge": { const f = ul(true); return (x, y) => f(y, x); }
  }
  throw new Error(`compare predicate ${pred}`);
}

function cmpf(pred: string): Cmp {
  const uno = (x: number, y: number) => x !== x || y !== y;
  switch (pred) {
    case "ord": return (x, y) => !uno(x, y);
    case "uno": return uno;
    case "oeq": return (x, y) => x === y;
    case "ogt": return (x, y) => x > y;
    case "oge": return (x, y) => x >= y;
    case "olt": return (x, y) => x < y;
    case "ole": return (x, y) => x <= y;
    case "one": return (x, y) => !uno(x, y) && x !== y;
    case "ueq": return (x, y) => uno(x, y) || x === y;
    case "ugt": return (x, y) => !(x <= y);
    case "uge": return (x, y) => !(x < y);
    case "ult": return (x, y) => !(x >= y);
    case "ule": return (x, y) => !(x > y);
    case "une": return (x, y) => x !== y;
  }
  throw new Error(`cmpf predicate ${pred}`);
}

const isPow2 = (a: number) => Number.isInteger(a) && a >= 1 && a === 2 ** Math.round(Math.log2(a));

/** A `where`/`assume` predicate; false (or a literal beyond the safe range) bails. */
function predicateStep(p: LPredicate, types: readonly LType[]): Step {
  const getters: ((R: Regs) => number)[] = [];
  for (const a of p.args) {
    if (typeof a === "bigint") {
      if (a > SAFE_N || a < -SAFE_N) return bail; // the exact path decides
      const v = Number(a);
      getters.push(() => v);
    } else if (isFloatType(types[a]!)) getters.push((R) => R[a]!);
    else {
      const sg = signedOf(types[a]!);
      getters.push((R) => sg(R[a]!));
    }
  }
  const [ga, gb, gc] = getters as [(R: Regs) => number, (R: Regs) => number, (R: Regs) => number];
  const holds = ((): ((R: Regs) => boolean) | undefined => {
    switch (p.kind) {
      case "eq": return (R) => ga(R) === gb(R);
      case "ne": return (R) => ga(R) !== gb(R);
      case "lt": return (R) => ga(R) < gb(R);
      case "le": case "max": return (R) => ga(R) <= gb(R);
      case "gt": return (R) => ga(R) > gb(R);
      case "ge": case "min": return (R) => ga(R) >= gb(R);
      case "range": return (R) => gb(R) <= ga(R) && ga(R) <= gc(R);
      case "mul": return (R) => {
        const a = ga(R), b = gb(R);
        return Number.isInteger(a) && Number.isInteger(b) && b > 0 && a % b === 0;
      };
      case "pow2": return (R) => isPow2(ga(R));
      case "not_nan": return (R) => { const a = ga(R); return a === a; };
      case "not_inf": return (R) => { const a = ga(R); return a !== Infinity && a !== -Infinity; };
      case "finite": return (R) => Number.isFinite(ga(R));
    }
    return undefined;
  })();
  if (!holds) return bail;
  return (R) => (holds(R) ? GO : BAIL);
}

/** `d = f(a)` for a total unary op. */
const unary = (d: number, a: number, f: Num): Step => (R) => ((R[d] = f(R[a]!)), GO);
/** `d = f(a, b)` for a total binary op. */
const binary = (d: number, a: number, b: number, f: (x: number, y: number) => number): Step => (R) => ((R[d] = f(R[a]!, R[b]!)), GO);

/** Steps computing one simple op into its register, bailing when not certainly exact (codegen-fast.ts `simple`). */
function simpleStep(op: Extract<LOp, { kind: "simple" }>, types: readonly LType[]): Step {
  const d = op.result, t = op.type;
  const [a, b, c] = op.operands as [number, number, number];
  const t0 = types[a]!;
  const w = typeWidth(t), small = w <= 32;
  const name = op.name.slice(op.name.indexOf(".") + 1);
  if (op.name.startsWith("index.")) return indexStep(name, d, a, b, c, t, t0, op.predicate);

  const sa = signedOf(t0), pat = small ? patternOf(w) : (x: number) => x;
  switch (name) {
    case "addi": case "subi": case "muli": {
      const f = name === "addi" ? (x: number, y: number) => x + y : name === "subi" ? (x: number, y: number) => x - y : (x: number, y: number) => x * y;
      if (!small) {
        if (op.flags & FLAG_BITS.nuw!) return bail;
        return (R) => {
          const v = f(R[a]!, R[b]!) + 0;
          if (v > MAXS || v < -MAXS) return BAIL;
          R[d] = v;
          return GO;
        };
      }
      if (op.flags === 0) return name === "muli" ? binary(d, a, b, (x, y) => pat(Math.imul(x, y))) : binary(d, a, b, (x, y) => pat(f(x, y)));
      if (name === "muli") return bail;
      const nsw = (op.flags & FLAG_BITS.nsw!) !== 0, nuw = (op.flags & FLAG_BITS.nuw!) !== 0;
      const lo = -(2 ** (w - 1)), hi = 2 ** (w - 1), full = 2 ** w;
      return (R) => {
        const x = R[a]!, y = R[b]!;
        if (nsw) {
          const v = f(sa(x), sa(y));
          if (v < lo || v >= hi) return BAIL;
        }
        if (nuw) {
          const v = f(x, y);
          if (v < 0 || v >= full) return BAIL;
        }
        R[d] = pat(f(x, y));
        return GO;
      };
    }
    case "divsi": case "ceildivsi": case "floordivsi": case "remsi": {
      if (!small) return bail;
      const q = name === "remsi" ? (x: number, y: number) => x % y : name === "divsi" ? (x: number, y: number) => Math.trunc(x / y) : name === "ceildivsi" ? (x: number, y: number) => Math.ceil(x / y) : (x: number, y: number) => Math.floor(x / y);
      const min = -(2 ** (w - 1));
      return (R) => {
        const x = R[a]!, y = R[b]!;
        const sx = sa(x), sy = sa(y);
        if (y === 0 || (sy === -1 && sx === min)) return BAIL;
        R[d] = pat(q(sx, sy));
        return GO;
      };
    }
    case "divui": case "ceildivui": case "remui": {
      if (!small) return bail;
      const q = name === "remui" ? (x: number, y: number) => x % y : name === "divui" ? (x: number, y: number) => Math.floor(x / y) : (x: number, y: number) => Math.ceil(x / y);
      return (R) => {
        const y = R[b]!;
        if (y === 0) return BAIL;
        R[d] = q(R[a]!, y);
        return GO;
      };
    }
    case "negi": return small ? unary(d, a, (x) => pat(-x)) : unary(d, a, (x) => 0 - x);
    case "absi": return small ? unary(d, a, (x) => pat(Math.abs(sa(x)))) : unary(d, a, Math.abs);
    case "minsi": return binary(d, a, b, (x, y) => (sa(x) <= sa(y) ? x : y));
    case "maxsi": return binary(d, a, b, (x, y) => (sa(x) >= sa(y) ? x : y));
    case "minui": { const le = compare("ule", t0); return binary(d, a, b, (x, y) => (le(x, y) ? x : y)); }
    case "maxui": { const ge = compare("uge", t0); return binary(d, a, b, (x, y) => (ge(x, y) ? x : y)); }
    case "andi": case "ori": case "xori": {
      const f = name === "andi" ? (x: number, y: number) => x & y : name === "ori" ? (x: number, y: number) => x | y : (x: number, y: number) => x ^ y;
      if (small) return binary(d, a, b, (x, y) => pat(f(x, y)));
      return int32Bitwise(d, a, b, f);
    }
    case "shli":
      if (!(small && op.flags === 0)) return bail;
      return (R) => {
        const y = R[b]!;
        if (y >= w) return BAIL;
        R[d] = pat(R[a]! << y);
        return GO;
      };
    case "shrsi":
      if (!small) return bail;
      return (R) => {
        const y = R[b]!;
        if (y >= w) return BAIL;
        R[d] = pat(sa(R[a]!) >> y);
        return GO;
      };
    case "shrui":
      if (!small) return bail;
      return (R) => {
        const y = R[b]!;
        if (y >= w) return BAIL;
        R[d] = R[a]! >>> y;
        return GO;
      };
    case "cmpi": { const f = compare(op.predicate!, t0); return binary(d, a, b, (x, y) => (f(x, y) ? 1 : 0)); }
  }
  return floatStep(name, op, types);
}

/** `index.*` ops (codegen-fast.ts, the `index.` half of `simple`). */
function indexStep(name: string, d: number, a: number, b: number, c: number, t: LType, t0: LType, predicate: string | undefined): Step {
  switch (name) {
    case "add": case "sub": {
      const lo = t === "offset" ? 0 : -MAXS;
      const add = name === "add";
      return (R) => {
        const v = add ? R[a]! + R[b]! : R[a]! - R[b]!;
        if (v > MAXS || v < lo) return BAIL;
        R[d] = v;
        return GO;
      };
    }
    case "mul": case "scale": {
      const lo = name === "scale" ? 0 : -MAXS;
      return (R) => {
        const v = R[a]! * R[b]! + 0;
        if (v > MAXS || v < lo) return BAIL;
        R[d] = v;
        return GO;
      };
    }
    case "div": case "rem": {
      const div = name === "div";
      return (R) => {
        const x = R[a]!, y = R[b]!;
        if (!(x >= 0 && y > 0)) return BAIL;
        R[d] = div ? (x - (x % y)) / y : x % y;
        return GO;
      };
    }
    case "min": return binary(d, a, b, (x, y) => (x < y ? x : y));
    case "max": return binary(d, a, b, (x, y) => (x > y ? x : y));
    case "madd":
      return (R) => {
        let v = R[a]! * R[b]!;
        if (v > MAXS || v < -MAXS) return BAIL;
        v = v + R[c]! + 0;
        if (v > MAXS || v < -MAXS) return BAIL;
        R[d] = v;
        return GO;
      };
    case "andi": return int32Bitwise(d, a, b, (x, y) => x & y);
    case "ori": return int32Bitwise(d, a, b, (x, y) => x | y);
    case "xori": return int32Bitwise(d, a, b, (x, y) => x ^ y);
    case "shli":
      return (R) => {
        const y = R[b]!;
        if (!(y >= 0 && y <= 63)) return BAIL;
        const v = R[a]! * P2[y]!;
        if (v > MAXS || v < -MAXS) return BAIL;
        R[d] = v;
        return GO;
      };
    case "shrsi": case "shrui": {
      const unsigned = name === "shrui";
      return (R) => {
        const x = R[a]!, y = R[b]!;
        if (!(y >= 0 && y <= 63) || (unsigned && x < 0)) return BAIL;
        R[d] = Math.floor(x / P2[y]!);
        return GO;
      };
    }
    case "cmp": { const f = compare(predicate!, t0); return binary(d, a, b, (x, y) => (f(x, y) ? 1 : 0)); }
    case "cast": {
      if (t === "offset") {
        if (t0 === "index" || t0 === "i64") {
          return (R) => {
            const x = R[a]!;
            if (x < 0) return BAIL;
            R[d] = x;
            return GO;
          };
        }
        return unary(d, a, (x) => x);
      }
      if (t === "index") return unary(d, a, t0 === "i1" ? (x) => x : signedOf(t0));
      const w = typeWidth(t);
      return unary(d, a, w <= 32 ? patternOf(w) : (x) => x); // address → integer: low bits
    }
  }
  return bail; // rotations and bit counts: rare, left to the exact path
}

/** Bitwise ops on values that must be int32 (wider ones bail). */
function int32Bitwise(d: number, a: number, b: number, f: (x: number, y: number) => number): Step {
  return (R) => {
    const x = R[a]!, y = R[b]!;
    if (x !== (x | 0) || y !== (y | 0)) return BAIL;
    R[d] = f(x, y);
    return GO;
  };
}

/** Float ops, conversions and bit casts (codegen-fast.ts, the rest of `simple`). */
function floatStep(name: string, op: Extract<LOp, { kind: "simple" }>, types: readonly LType[]): Step {
  const d = op.result, t = op.type;
  const [a, b, c] = op.operands as [number, number, number];
  const t0 = types[a]!;
  const w = typeWidth(t), small = w <= 32;
  const nnan = (op.flags & FLAG_BITS.nnan!) !== 0, ninf = (op.flags & FLAG_BITS.ninf!) !== 0;
  // A value a fast-math flag forbids: the exact path reports it.
  const banned = (x: number) => (nnan && x !== x) || (ninf && (x === Infinity || x === -Infinity));
  const fm = nnan || ninf;
  const round = isFloatType(t) ? rounding(t) : (x: number) => x;
  const flags: S.FloatFlags = { nnan, ninf };

  const fUnary = (f: Num): Step =>
    fm
      ? (R) => {
          const x = R[a]!;
          if (banned(x)) return BAIL;
          const v = f(x);
          if (banned(v)) return BAIL;
          R[d] = v;
          return GO;
        }
      : unary(d, a, f);
  const fBinary = (f: (x: number, y: number) => number): Step =>
    fm
      ? (R) => {
          const x = R[a]!, y = R[b]!;
          if (banned(x) || banned(y)) return BAIL;
          const v = f(x, y);
          if (banned(v)) return BAIL;
          R[d] = v;
          return GO;
        }
      : binary(d, a, b, f);
  /** A semantics helper whose `Undefined` outcome bails. */
  const helper = (f: (R: Regs) => S.Outcome<number>): Step => (R) => {
    const v = f(R);
    if (typeof v !== "number") return BAIL;
    R[d] = v;
    return GO;
  };
  const ft = t as S.FloatName;

  switch (name) {
    case "addf": return fBinary((x, y) => round(x + y));
    case "subf": return fBinary((x, y) => round(x - y));
    case "mulf": return fBinary((x, y) => round(x * y));
    case "divf": return fBinary((x, y) => round(x / y));
    case "remf": return fBinary((x, y) => x % y);
    case "negf": return fUnary((x) => -x);
    case "absf": return fUnary(Math.abs);
    case "ceilf": return fUnary(Math.ceil);
    case "floorf": return fUnary(Math.floor);
    case "truncf": return fUnary(Math.trunc);
    case "copysignf": case "minimumf": case "maximumf": case "minnumf": case "maxnumf": {
      const f = S[name];
      return helper((R) => f(ft, R[a]!, R[b]!, flags));
    }
    case "roundf": case "roundevenf": {
      const f = S[name];
      return helper((R) => f(ft, R[a]!, flags));
    }
    case "fmaf": return helper((R) => S.fmaf(ft, R[a]!, R[b]!, R[c]!, flags));
    case "cmpf": {
      const f = cmpf(op.predicate!);
      if (!fm) return binary(d, a, b, (x, y) => (f(x, y) ? 1 : 0));
      return (R) => {
        const x = R[a]!, y = R[b]!;
        if (banned(x) || banned(y)) return BAIL;
        R[d] = f(x, y) ? 1 : 0;
        return GO;
      };
    }
    case "sitofp": { const sg = signedOf(t0); return unary(d, a, (x) => round(sg(x))); }
    case "uitofp":
      if (typeWidth(t0) <= 32) return unary(d, a, round);
      return (R) => {
        const x = R[a]!;
        if (x < 0) return BAIL;
        R[d] = round(x);
        return GO;
      };
    case "fptosi": case "fptoui": {
      const lo = name === "fptosi" ? (small ? -(2 ** (w - 1)) : -MAXS) : 0;
      const hi = name === "fptosi" ? (small ? 2 ** (w - 1) - 1 : MAXS) : small ? 2 ** w - 1 : MAXS;
      const pat = small ? patternOf(w) : (x: number) => x + 0;
      return (R) => {
        const v = Math.trunc(R[a]!);
        if (!(v >= lo && v <= hi)) return BAIL;
        R[d] = pat(v);
        return GO;
      };
    }
    case "extf": return unary(d, a, (x) => x);
    case "fptrunc": return unary(d, a, round);
    case "extsi": { const sg = signedOf(t0), pat = small ? patternOf(w) : (x: number) => x; return unary(d, a, (x) => pat(sg(x))); }
    case "extui": return unary(d, a, (x) => x);
    case "trunci": return unary(d, a, patternOf(w));
    case "bitcast": {
      const tf = isFloatType(t), sf = isFloatType(t0);
      if (sf && tf) return unary(d, a, (x) => S.bitsToFloat(S.floatToBits(x, t0 as S.FloatName), ft));
      if (sf) {
        return (R) => {
          const bits = S.floatToBits(R[a]!, t0 as S.FloatName);
          if (t !== "i64") {
            R[d] = Number(bits);
            return GO;
          }
          const v = BigInt.asIntN(64, bits);
          if (v < -SAFE_N || v > SAFE_N) return BAIL;
          R[d] = Number(v);
          return GO;
        };
      }
      if (tf) return unary(d, a, (x) => S.bitsToFloat(BigInt.asUintN(64, BigInt(x)), ft));
      return unary(d, a, (x) => x);
    }
  }
  return bail;
}
