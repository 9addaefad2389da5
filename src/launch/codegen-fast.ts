/**
 * The number fast path: one specialized JS function per launch-config function, generated
 * once at load, over plain JS numbers and with no allocation.
 *
 * Representation: `index` and `i64` signed numbers, `offset` non-negative, `i1`…`i32` their
 * bit pattern in `[0, 2^N)`, floats their value. Every op is exact on these as long as its
 * operands and result stay safe integers; whenever that is not certain, or an op might be
 * undefined behaviour, a fact is violated or a launch limit is exceeded, the function
 * returns BAIL and the caller re-runs the exact bigint path, which computes the real result
 * or throws the real error. So the fast path never rounds and never invents an error.
 *
 * Return codes: 0 = done (the output was written), 1 = BAIL, 2 = loop budget exceeded.
 */
import * as S from "../dialects/scalar/semantics.js";
import { FLAG_BITS, LIMITS, isFloatType, type LOp, type LPredicate, type LType, type LaunchFunction } from "./model.js";
import type { LaunchConfig } from "./program.js";

export const FAST_DONE = 0;
export const FAST_BAIL = 1;
export const FAST_BUDGET = 2;

export type FastFunction = (args: ArrayLike<unknown>, out: LaunchConfig) => number;

const MAXS = Number.MAX_SAFE_INTEGER;
const SAFE_N = BigInt(MAXS);

/** Runtime helpers the generated code calls (rare ops only). */
const H = {
  round: S.roundToFormat,
  P2: Array.from({ length: 65 }, (_, i) => 2 ** i),
  isPow2: (a: number) => Number.isInteger(a) && a >= 1 && a === 2 ** Math.round(Math.log2(a)),
  fmaf: S.fmaf,
  copysignf: S.copysignf,
  minimumf: S.minimumf,
  maximumf: S.maximumf,
  minnumf: S.minnumf,
  maxnumf: S.maxnumf,
  roundf: S.roundf,
  roundevenf: S.roundevenf,
  /** Float ↔ same-width integer bits as numbers; undefined when not a safe i64. */
  floatToIntBits(x: number, from: S.FloatName, to: S.IntName): number | undefined {
    const bits = S.floatToBits(x, from);
    if (to !== "i64") return Number(bits);
    const v = BigInt.asIntN(64, bits);
    return v >= -SAFE_N && v <= SAFE_N ? Number(v) : undefined;
  },
  intBitsToFloat(v: number, _from: S.IntName, to: S.FloatName): number {
    return S.bitsToFloat(BigInt.asUintN(64, BigInt(v)), to);
  },
  floatToFloatBits(x: number, from: S.FloatName, to: S.FloatName): number {
    return S.bitsToFloat(S.floatToBits(x, from), to);
  },
};

/** A JS literal that reads back as exactly `x`. */
function numberLiteral(x: number): string {
  if (Object.is(x, -0)) return "-0";
  return x < 0 ? `(${x})` : String(x);
}

const width = (t: LType): number => (t === "i1" ? 1 : t === "index" || t === "offset" ? 64 : Number(t.replace(/^b?f|^i/, "")));

/** Emits the fast function of `fn` (ops it does not cover simply bail at run time). */
export function compileFast(fn: LaunchFunction): FastFunction {
  const types = fn.registerTypes;
  const lines: string[] = [];
  const emit = (s: string) => lines.push(s);
  const r = (i: number) => `r${i}`;
  const BAIL = `return ${FAST_BAIL};`;
  const unsafe = (x: string, lo = `-${MAXS}`) => `(${x} > ${MAXS} || ${x} < ${lo})`;

  /** Signed reading of a small-int pattern; index/i64/offset are already their value. */
  const signedOf = (x: string, t: LType): string => {
    const w = width(t);
    if (w > 32) return x;
    return `(${x} >= ${2 ** (w - 1)} ? ${x} - ${2 ** w} : ${x})`;
  };
  /** The low `w` bits (w ≤ 32) of an integer-valued number, as a pattern. */
  const patternOf = (x: string, w: number): string => (w === 32 ? `((${x}) >>> 0)` : `((${x}) & ${2 ** w - 1})`);

  const predicate = (p: LPredicate): string => {
    const v: string[] = [];
    for (const a of p.args) {
      if (typeof a === "bigint") {
        if (a > SAFE_N || a < -SAFE_N) return "false"; // bail: the exact path decides
        v.push(numberLiteral(Number(a)));
      } else v.push(isFloatType(types[a]!) ? r(a) : signedOf(r(a), types[a]!));
    }
    const [a, b, c] = v;
    switch (p.kind) {
      case "eq": return `${a} === ${b}`;
      case "ne": return `${a} !== ${b}`;
      case "lt": return `${a} < ${b}`;
      case "le": case "max": return `${a} <= ${b}`;
      case "gt": return `${a} > ${b}`;
      case "ge": case "min": return `${a} >= ${b}`;
      case "range": return `(${b} <= ${a} && ${a} <= ${c})`;
      case "mul": return `(Number.isInteger(${a}) && Number.isInteger(${b}) && ${b} > 0 && ${a} % ${b} === 0)`;
      case "pow2": return `H.isPow2(${a})`;
      case "not_nan": return `${a} === ${a}`;
      case "not_inf": return `(${a} !== Infinity && ${a} !== -Infinity)`;
      case "finite": return `Number.isFinite(${a})`;
    }
    return "false";
  };

  const unsignedLess = (a: string, b: string, orEqual: boolean) => `((${a} < 0) === (${b} < 0) ? ${a} ${orEqual ? "<=" : "<"} ${b} : ${b} < 0)`;

  const compare = (pred: string, a: string, b: string, t: LType): string => {
    const sa = signedOf(a, t), sb = signedOf(b, t);
    const unsignedIsPlain = width(t) <= 32 || t === "offset";
    const ul = (x: string, y: string, eq: boolean) => (unsignedIsPlain ? `${x} ${eq ? "<=" : "<"} ${y}` : unsignedLess(x, y, eq));
    switch (pred) {
      case "eq": return `${a} === ${b}`;
      case "ne": return `${a} !== ${b}`;
      case "slt": return `${sa} < ${sb}`;
      case "sle": return `${sa} <= ${sb}`;
      case "sgt": return `${sa} > ${sb}`;
      case "sge": return `${sa} >= ${sb}`;
      case "ult": return ul(a, b, false);
      case "ule": return ul(a, b, true);
      case "ugt": return ul(b, a, false);
      case "uge": return ul(b, a, true);
    }
    throw new Error(`compare predicate ${pred}`);
  };

  const cmpf = (pred: string, a: string, b: string): string => {
    const uno = `(${a} !== ${a} || ${b} !== ${b})`;
    switch (pred) {
      case "ord": return `!${uno}`;
      case "uno": return uno;
      case "oeq": return `${a} === ${b}`;
      case "ogt": return `${a} > ${b}`;
      case "oge": return `${a} >= ${b}`;
      case "olt": return `${a} < ${b}`;
      case "ole": return `${a} <= ${b}`;
      case "one": return `(!${uno} && ${a} !== ${b})`;
      case "ueq": return `(${uno} || ${a} === ${b})`;
      case "ugt": return `!(${a} <= ${b})`;
      case "uge": return `!(${a} < ${b})`;
      case "ult": return `!(${a} >= ${b})`;
      case "ule": return `!(${a} > ${b})`;
      case "une": return `${a} !== ${b}`;
    }
    throw new Error(`cmpf predicate ${pred}`);
  };

  const rounded = (x: string, t: LType): string => (t === "f64" ? x : t === "f32" ? `Math.fround(${x})` : `H.round(${x}, "${t}")`);

  /** Statements computing one simple op into `d`, bailing when not certainly exact. */
  const simple = (op: Extract<LOp, { kind: "simple" }>): string => {
    const d = r(op.result), t = op.type;
    const [o0, o1, o2] = op.operands.map(r) as [string, string, string];
    const t0 = types[op.operands[0]!]!;
    const w = width(t), small = w <= 32;
    const name = op.name.slice(op.name.indexOf(".") + 1);
    const fm = op.flags & (FLAG_BITS.nnan! | FLAG_BITS.ninf!);
    if (op.name.startsWith("index.")) {
      switch (name) {
        case "add": return `${d} = ${o0} + ${o1}; if ${unsafe(d, t === "offset" ? "0" : undefined)} ${BAIL}`;
        case "sub": return `${d} = ${o0} - ${o1}; if ${unsafe(d, t === "offset" ? "0" : undefined)} ${BAIL}`;
        case "mul": return `${d} = ${o0} * ${o1} + 0; if ${unsafe(d)} ${BAIL}`;
        case "div": return `if (!(${o0} >= 0 && ${o1} > 0)) ${BAIL} ${d} = (${o0} - ${o0} % ${o1}) / ${o1};`;
        case "rem": return `if (!(${o0} >= 0 && ${o1} > 0)) ${BAIL} ${d} = ${o0} % ${o1};`;
        case "min": return `${d} = ${o0} < ${o1} ? ${o0} : ${o1};`;
        case "max": return `${d} = ${o0} > ${o1} ? ${o0} : ${o1};`;
        case "madd": return `${d} = ${o0} * ${o1}; if ${unsafe(d)} ${BAIL} ${d} = ${d} + ${o2} + 0; if ${unsafe(d)} ${BAIL}`;
        case "scale": return `${d} = ${o0} * ${o1} + 0; if ${unsafe(d, "0")} ${BAIL}`;
        case "andi": case "ori": case "xori": {
          const js = name === "andi" ? "&" : name === "ori" ? "|" : "^";
          return `if (${o0} !== (${o0} | 0) || ${o1} !== (${o1} | 0)) ${BAIL} ${d} = ${o0} ${js} ${o1};`;
        }
        case "shli": return `if (!(${o1} >= 0 && ${o1} <= 63)) ${BAIL} ${d} = ${o0} * H.P2[${o1}]; if ${unsafe(d)} ${BAIL}`;
        case "shrsi": return `if (!(${o1} >= 0 && ${o1} <= 63)) ${BAIL} ${d} = Math.floor(${o0} / H.P2[${o1}]);`;
        case "shrui": return `if (!(${o1} >= 0 && ${o1} <= 63) || ${o0} < 0) ${BAIL} ${d} = Math.floor(${o0} / H.P2[${o1}]);`;
        case "cmp": return `${d} = ${compare(op.predicate!, o0, o1, t0)} ? 1 : 0;`;
        case "cast": {
          if (t === "offset") return t0 === "index" || t0 === "i64" ? `if (${o0} < 0) ${BAIL} ${d} = ${o0};` : `${d} = ${o0};`;
          if (t === "index") return `${d} = ${t0 === "i1" ? o0 : signedOf(o0, t0)};`;
          return `${d} = ${small ? patternOf(o0, w) : o0};`; // address → integer: low bits
        }
      }
      return BAIL; // rotations and bit counts: rare, left to the exact path
    }
    const sa = signedOf(o0, t0), sb = signedOf(o1, t0);
    const guardFm = fm ? ` if (${fm & FLAG_BITS.nnan! ? `${d} !== ${d} || ` : ""}${fm & FLAG_BITS.ninf! ? `${d} === Infinity || ${d} === -Infinity || ` : ""}false) ${BAIL}` : "";
    const fmOperands = fm ? `if (${op.operands.map((o) => `${fm & FLAG_BITS.nnan! ? `${r(o)} !== ${r(o)} || ` : ""}${fm & FLAG_BITS.ninf! ? `${r(o)} === Infinity || ${r(o)} === -Infinity || ` : ""}`).join("")}false) ${BAIL} ` : "";
    switch (name) {
      case "addi": case "subi": case "muli": {
        const js = name === "addi" ? "+" : name === "subi" ? "-" : "*";
        if (!small) return op.flags & FLAG_BITS.nuw! ? BAIL : `${d} = ${o0} ${js} ${o1} + 0; if ${unsafe(d)} ${BAIL}`;
        if (op.flags === 0) return `${d} = ${patternOf(name === "muli" ? `Math.imul(${o0}, ${o1})` : `${o0} ${js} ${o1}`, w)};`;
        if (name === "muli") return BAIL;
        const nsw = op.flags & FLAG_BITS.nsw! ? `${d} = ${sa} ${js} ${sb}; if (${d} < ${-(2 ** (w - 1))} || ${d} >= ${2 ** (w - 1)}) ${BAIL} ` : "";
        const nuw = op.flags & FLAG_BITS.nuw! ? `${d} = ${o0} ${js} ${o1}; if (${d} < 0 || ${d} >= ${2 ** w}) ${BAIL} ` : "";
        return `${nsw}${nuw}${d} = ${patternOf(`${o0} ${js} ${o1}`, w)};`;
      }
      case "divsi": case "ceildivsi": case "floordivsi": case "remsi": {
        if (!small) return BAIL;
        const q = name === "remsi" ? `${sa} % ${sb}` : `Math.${name === "divsi" ? "trunc" : name === "ceildivsi" ? "ceil" : "floor"}(${sa} / ${sb})`;
        return `if (${o1} === 0 || (${sb} === -1 && ${sa} === ${-(2 ** (w - 1))})) ${BAIL} ${d} = ${patternOf(q, w)};`;
      }
      case "divui": case "ceildivui": case "remui": {
        if (!small) return BAIL;
        const q = name === "remui" ? `${o0} % ${o1}` : `Math.${name === "divui" ? "floor" : "ceil"}(${o0} / ${o1})`;
        return `if (${o1} === 0) ${BAIL} ${d} = ${q};`;
      }
      case "negi": return small ? `${d} = ${patternOf(`-${o0}`, w)};` : `${d} = 0 - ${o0};`;
      case "absi": return small ? `${d} = ${patternOf(`Math.abs(${sa})`, w)};` : `${d} = Math.abs(${o0});`;
      case "minsi": return `${d} = ${sa} <= ${sb} ? ${o0} : ${o1};`;
      case "maxsi": return `${d} = ${sa} >= ${sb} ? ${o0} : ${o1};`;
      case "minui": return `${d} = ${compare("ule", o0, o1, t0)} ? ${o0} : ${o1};`;
      case "maxui": return `${d} = ${compare("uge", o0, o1, t0)} ? ${o0} : ${o1};`;
      case "andi": case "ori": case "xori": {
        const js = name === "andi" ? "&" : name === "ori" ? "|" : "^";
        if (small) return `${d} = ${patternOf(`${o0} ${js} ${o1}`, w)};`;
        return `if (${o0} !== (${o0} | 0) || ${o1} !== (${o1} | 0)) ${BAIL} ${d} = ${o0} ${js} ${o1};`;
      }
      case "shli": return small && op.flags === 0 ? `if (${o1} >= ${w}) ${BAIL} ${d} = ${patternOf(`${o0} << ${o1}`, w)};` : BAIL;
      case "shrsi": return small ? `if (${o1} >= ${w}) ${BAIL} ${d} = ${patternOf(`${sa} >> ${o1}`, w)};` : BAIL;
      case "shrui": return small ? `if (${o1} >= ${w}) ${BAIL} ${d} = ${o0} >>> ${o1};` : BAIL;
      case "cmpi": return `${d} = ${compare(op.predicate!, o0, o1, t0)} ? 1 : 0;`;
      case "addf": return `${fmOperands}${d} = ${rounded(`${o0} + ${o1}`, t)};${guardFm}`;
      case "subf": return `${fmOperands}${d} = ${rounded(`${o0} - ${o1}`, t)};${guardFm}`;
      case "mulf": return `${fmOperands}${d} = ${rounded(`${o0} * ${o1}`, t)};${guardFm}`;
      case "divf": return `${fmOperands}${d} = ${rounded(`${o0} / ${o1}`, t)};${guardFm}`;
      case "remf": return `${fmOperands}${d} = ${o0} % ${o1};${guardFm}`;
      case "negf": return `${fmOperands}${d} = -${o0};${guardFm}`;
      case "absf": return `${fmOperands}${d} = Math.abs(${o0});${guardFm}`;
      case "ceilf": return `${fmOperands}${d} = Math.ceil(${o0});${guardFm}`;
      case "floorf": return `${fmOperands}${d} = Math.floor(${o0});${guardFm}`;
      case "truncf": return `${fmOperands}${d} = Math.trunc(${o0});${guardFm}`;
      case "copysignf": case "minimumf": case "maximumf": case "minnumf": case "maxnumf":
        return `${d} = H.${name}("${t}", ${o0}, ${o1}, F${op.result}); if (typeof ${d} !== "number") ${BAIL}`;
      case "roundf": case "roundevenf":
        return `${d} = H.${name}("${t}", ${o0}, F${op.result}); if (typeof ${d} !== "number") ${BAIL}`;
      case "fmaf": return `${d} = H.fmaf("${t}", ${o0}, ${o1}, ${o2}, F${op.result}); if (typeof ${d} !== "number") ${BAIL}`;
      case "cmpf": return `${fmOperands}${d} = ${cmpf(op.predicate!, o0, o1)} ? 1 : 0;`;
      case "sitofp": return `${d} = ${rounded(signedOf(o0, t0), t)};`;
      case "uitofp": return width(t0) <= 32 ? `${d} = ${rounded(o0, t)};` : `if (${o0} < 0) ${BAIL} ${d} = ${rounded(o0, t)};`;
      case "fptosi": case "fptoui": {
        const lo = name === "fptosi" ? (small ? -(2 ** (w - 1)) : -MAXS) : 0;
        const hi = name === "fptosi" ? (small ? 2 ** (w - 1) - 1 : MAXS) : small ? 2 ** w - 1 : MAXS;
        const v = `Math.trunc(${o0})`;
        return `${d} = ${v}; if (!(${d} >= ${lo} && ${d} <= ${hi})) ${BAIL} ${d} = ${small ? patternOf(d, w) : `${d} + 0`};`;
      }
      case "extf": return `${d} = ${o0};`;
      case "fptrunc": return `${d} = ${rounded(o0, t)};`;
      case "extsi": return `${d} = ${small ? patternOf(signedOf(o0, t0), w) : signedOf(o0, t0)};`;
      case "extui": return `${d} = ${o0};`;
      case "trunci": return `${d} = ${patternOf(o0, w)};`;
      case "bitcast": {
        const tf = isFloatType(t), sf = isFloatType(t0);
        if (sf && tf) return `${d} = H.floatToFloatBits(${o0}, "${t0}", "${t}");`;
        if (sf) return `${d} = H.floatToIntBits(${o0}, "${t0}", "${t}"); if (${d} === undefined) ${BAIL}`;
        if (tf) return `${d} = H.intBitsToFloat(${o0}, "${t0}", "${t}");`;
        return `${d} = ${o0};`;
      }
    }
    return BAIL;
  };

  /** Constants for the float flag objects the rare helpers take. */
  const flagConsts: string[] = [];

  const region = (ops: readonly LOp[]): readonly number[] => {
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
          emit(x === undefined ? BAIL : `${r(op.result)} = ${numberLiteral(x)};`);
          break;
        }
        case "simple":
          if (isFloatType(op.type)) flagConsts.push(`const F${op.result} = { nnan: ${(op.flags & FLAG_BITS.nnan!) !== 0}, ninf: ${(op.flags & FLAG_BITS.ninf!) !== 0} };`);
          emit(simple(op));
          break;
        case "assume":
          for (const p of op.predicates) emit(`if (!(${predicate(p)})) ${BAIL}`);
          op.results.forEach((res, i) => emit(`${r(res)} = ${r(op.operands[i]!)};`));
          break;
        case "select":
          emit(`${r(op.result)} = ${r(op.operands[0])} === 1 ? ${r(op.operands[1])} : ${r(op.operands[2])};`);
          break;
        case "if": {
          emit(`if (${r(op.cond)} === 1) {`);
          const t = region(op.then);
          op.results.forEach((res, i) => emit(`${r(res)} = ${r(t[i]!)};`));
          emit(`} else {`);
          const e = op.hasElse ? region(op.else) : [];
          op.results.forEach((res, i) => emit(`${r(res)} = ${r(e[i]!)};`));
          emit(`}`);
          break;
        }
        case "for": {
          emit(`if (!(${r(op.step)} > 0)) ${BAIL}`);
          op.iterArgs.forEach((a, i) => emit(`${r(a)} = ${r(op.inits[i]!)};`));
          emit(`for (let iv = ${r(op.lo)}; iv < ${r(op.hi)}; iv += ${r(op.step)}) {`);
          emit(`if (++budget > ${LIMITS.loopIterations}) return ${FAST_BUDGET};`);
          emit(`${r(op.iv)} = iv;`);
          const y = region(op.body);
          y.forEach((v, i) => emit(`t${i} = ${r(v)};`));
          op.iterArgs.forEach((a, i) => emit(`${r(a)} = t${i};`));
          maxTemps = Math.max(maxTemps, y.length);
          emit(`}`);
          op.results.forEach((res, i) => emit(`${r(res)} = ${r(op.iterArgs[i]!)};`));
          break;
        }
        case "yield":
          yielded = op.operands;
          break;
        case "launch":
          emitLaunch(op.operands.map(r));
          break;
      }
    }
    return yielded;
  };
  let maxTemps = 0;

  const emitLaunch = (v: string[]) => {
    const { maxWorkgroupCount: mc, maxWorkgroupSize: ms, maxFlatWorkgroupSize: mf } = fn.limits;
    for (let i = 0; i < 3; i++) emit(`if (!(${v[i]} >= 0 && ${v[i]} <= ${Math.min(mc[i]!, LIMITS.u32)})) ${BAIL}`);
    for (let i = 0; i < 3; i++) emit(`if (!(${v[3 + i]} >= 1 && ${v[3 + i]} <= ${ms[i]})) ${BAIL}`);
    emit(`if (${v[3]} * ${v[4]} * ${v[5]} > ${mf}) ${BAIL}`);
    if (v.length === 9) emit(`if (${v[6]} !== 1 || ${v[7]} !== 1 || ${v[8]} !== 1) ${BAIL}`);
    emit(`const wc = out.workgroupCount, ws = out.workgroupSize, cs = out.workgroupClusterSize;`);
    emit(`wc[0] = ${v[0]} + 0; wc[1] = ${v[1]} + 0; wc[2] = ${v[2]} + 0;`);
    emit(`ws[0] = ${v[3]}; ws[1] = ${v[4]}; ws[2] = ${v[5]};`);
    emit(`cs[0] = 1; cs[1] = 1; cs[2] = 1;`);
    emit(`out.subgroupSize = ${fn.subgroupSize}; out.workgroupStorageBytes = ${fn.workgroupStorageBytes};`);
    emit(`return ${FAST_DONE};`);
  };

  const prologue: string[] = [`let budget = 0, x;`];
  if (types.length) prologue.push(`let ${types.map((_, i) => r(i)).join(", ")};`);
  fn.args.forEach((a, i) => {
    prologue.push(`x = a[${i}];`);
    prologue.push(argConversion(a.type, r(i), BAIL));
  });
  region(fn.body);
  for (let i = 0; i < maxTemps; i++) prologue.push(`let t${i};`);
  for (const p of fn.where) prologue.push(`if (!(${predicate(p)})) ${BAIL}`);

  const source = `"use strict";\n${flagConsts.join("\n")}\nreturn function fast(a, out) {\n${[...prologue, ...lines].join("\n")}\n};`;
  return new Function("H", source)(H) as FastFunction;
}

/** Statements turning the JS value `x` into the fast representation of `t` in `d`, or bailing. */
function argConversion(t: LType, d: string, bail: string): string {
  if (isFloatType(t)) return `if (typeof x !== "number") ${bail} ${d} = ${t === "f64" ? "x" : t === "f32" ? "Math.fround(x)" : `H.round(x, "${t}")`};`;
  const check = `if (!Number.isSafeInteger(x)) ${bail}`;
  switch (t) {
    case "index": case "i64": return `${check} ${d} = x + 0;`;
    case "offset": return `${check} if (x < 0) ${bail} ${d} = x + 0;`;
    case "i32": return `${check} ${d} = x >>> 0;`;
    default: return `${check} ${d} = x & ${2 ** width(t) - 1};`;
  }
}
