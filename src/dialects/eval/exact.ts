/**
 * Binds one scalar op (a launch-config `simple` op, a folded or interpreted one) to its exact
 * semantics (src/dialects/*\/semantics.ts), once: the launch-config exact path, the constant
 * folder and the reference interpreter call the returned closure, so no op-name dispatch
 * happens per evaluation.
 */
import * as X from "../index/semantics.js";
import * as S from "../scalar/semantics.js";
import { FLAG_BITS, type LType } from "./types.js";

export type ExactValue = bigint | number;
export type ExactOp = (...operands: ExactValue[]) => X.Outcome<ExactValue>;

type Int = S.IntName;
type Flt = S.FloatName;

export function bindExactOp(name: string, result: LType, operands: readonly LType[], flags: number, predicate?: string): ExactOp {
  const t0 = operands[0]!;
  const intFlags: S.IntFlags = { nsw: (flags & FLAG_BITS.nsw!) !== 0, nuw: (flags & FLAG_BITS.nuw!) !== 0 };
  const fm: S.FloatFlags = { nnan: (flags & FLAG_BITS.nnan!) !== 0, ninf: (flags & FLAG_BITS.ninf!) !== 0 };
  const b = (f: (a: bigint, c: bigint) => X.Outcome<ExactValue>): ExactOp => (a, c) => f(a as bigint, c as bigint);
  const u = (f: (a: bigint) => X.Outcome<ExactValue>): ExactOp => (a) => f(a as bigint);
  const fb = (f: (a: number, c: number) => X.Outcome<ExactValue>): ExactOp => (a, c) => f(a as number, c as number);
  const fu = (f: (a: number) => X.Outcome<ExactValue>): ExactOp => (a) => f(a as number);

  const [dialect, op] = name.split(".") as [string, string];
  if (dialect === "index") {
    const binary = X.INDEX_BINARY[name];
    if (binary) return b((a, c) => binary(result as X.AddressType, a, c));
    const unary = X.INDEX_UNARY[name];
    if (unary) return u(unary);
    switch (op) {
      case "madd": return (a, c, d) => X.indexMadd(a as bigint, c as bigint, d as bigint);
      case "scale": return b(X.indexScale);
      case "cmp": return b((a, c) => X.indexCmp(predicate as X.ComparePredicate, a, c));
      case "cast": return u((a) => X.indexCast(t0 as X.AddressType, result as X.AddressType, a));
    }
  }
  const rt = result as Int & Flt, ft = result as Flt, it = result as Int;
  switch (op) {
    case "addi": return b((a, c) => S.addi(it, a, c, intFlags));
    case "subi": return b((a, c) => S.subi(it, a, c, intFlags));
    case "muli": return b((a, c) => S.muli(it, a, c, intFlags));
    case "shli": return b((a, c) => S.shli(it, a, c, intFlags));
    case "divsi": case "divui": case "remsi": case "remui": case "ceildivsi": case "ceildivui": case "floordivsi":
    case "minsi": case "maxsi": case "minui": case "maxui": case "andi": case "ori": case "xori": case "shrsi": case "shrui": {
      const f = S[op] as (t: Int, a: bigint, c: bigint) => X.Outcome<bigint>;
      return b((a, c) => f(rt, a, c));
    }
    case "negi": return u((a) => S.negi(it, a));
    case "absi": return u((a) => S.absi(it, a));
    case "addf": case "subf": case "mulf": case "divf": case "remf": case "copysignf": case "minimumf": case "maximumf": case "minnumf": case "maxnumf": {
      const f = S[op] as (t: Flt, a: number, c: number, fl: S.FloatFlags) => X.Outcome<number>;
      return fb((a, c) => f(ft, a, c, fm));
    }
    case "negf": case "absf": case "ceilf": case "floorf": case "roundf": case "roundevenf": case "truncf": {
      const f = S[op] as (t: Flt, a: number, fl: S.FloatFlags) => X.Outcome<number>;
      return fu((a) => f(ft, a, fm));
    }
    case "fmaf": return (a, c, d) => S.fmaf(ft, a as number, c as number, d as number, fm);
    case "cmpi": return b((a, c) => S.cmpi(predicate as X.ComparePredicate, t0 as Int, a, c));
    case "cmpf": return fb((a, c) => S.cmpf(predicate as S.CmpfPredicate, a, c, fm));
    case "sitofp": return u((a) => S.sitofp(t0 as Int, ft, a));
    case "uitofp": return u((a) => S.uitofp(t0 as Int, ft, a));
    case "fptosi": return fu((a) => S.fptosi(t0 as Flt, it, a));
    case "fptoui": return fu((a) => S.fptoui(t0 as Flt, it, a));
    case "extf": return fu((a) => S.extf(t0 as Flt, ft, a));
    case "fptrunc": return fu((a) => S.fptrunc(t0 as Flt, ft, a));
    case "extsi": return u((a) => S.extsi(t0 as Int, it, a));
    case "extui": return u((a) => S.extui(t0 as Int, it, a));
    case "trunci": return u((a) => S.trunci(t0 as Int, it, a));
    case "bitcast": return (a) => S.bitcast(t0 as Int | Flt, result as Int | Flt, a);
  }
  throw new Error(`no exact semantics bound for '${name}'`);
}
