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
import { fastArgument, fastConstant, fastPredicate, fastRule, predicateLiteral, predicateRead } from "../dialects/eval/fast.js";
import { LIMITS, type LOp, type LPredicate, type LaunchFunction } from "./model.js";
import { TermSplicer, numberLiteral } from "./splice.js";
import type { LaunchConfig } from "./program.js";

export const FAST_DONE = 0;
export const FAST_BAIL = 1;
export const FAST_BUDGET = 2;

export type FastFunction = (args: ArrayLike<unknown>, out: LaunchConfig) => number;

/** Emits the fast function of `fn` (ops it does not cover simply bail at run time). */
export function compileFast(fn: LaunchFunction): FastFunction {
  const types = fn.registerTypes;
  const lines: string[] = [];
  const emit = (s: string) => lines.push(s);
  const r = (i: number) => `r${i}`;
  const BAIL = `return ${FAST_BAIL};`;

  const splicer = new TermSplicer();

  /** Statements that bail unless the `where`/`assume` predicate holds (its fast rule, fast.ts). */
  const predicate = (p: LPredicate): string => {
    const holds = fastPredicate(p.kind);
    if (!holds) return BAIL;
    const reads: string[] = [], args: string[] = [];
    for (const a of p.args) {
      if (typeof a === "bigint") {
        const v = predicateLiteral(a);
        if (v === undefined) return BAIL; // beyond the safe range: the exact path decides
        args.push(numberLiteral(v));
      } else {
        const q = `q${args.length}`;
        reads.push(splicer.assign(q, predicateRead(types[a]!), [r(a)]));
        args.push(q);
      }
    }
    return [...reads, splicer.unless(holds, args, BAIL)].join(" ");
  };

  /** Statements computing one simple op into `d` by its fast rule, bailing when not certainly exact. */
  const simple = (op: Extract<LOp, { kind: "simple" }>): string => {
    const rule = fastRule(op.name, op.type, types[op.operands[0]!]!, op.flags, op.predicate);
    if (!rule) return BAIL; // no fast rule: the exact path decides
    const d = r(op.result), args = op.operands.map(r);
    const out = rule.guards.map((g) => splicer.guard(g, args, BAIL));
    out.push(splicer.assign(d, rule.value, args));
    if (rule.check) out.push(splicer.guard(rule.check, [d], BAIL));
    return out.join(" ");
  };

  const region = (ops: readonly LOp[]): readonly number[] => {
    let yielded: readonly number[] = [];
    for (const op of ops) {
      switch (op.kind) {
        case "constant": {
          const x = fastConstant(op.type, op.value);
          emit(x === undefined ? BAIL : `${r(op.result)} = ${numberLiteral(x)};`);
          break;
        }
        case "simple":
          emit(simple(op));
          break;
        case "assume":
          for (const p of op.predicates) emit(predicate(p));
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

  const prologue: string[] = [`let budget = 0, arg, q0, q1, q2;`];
  if (types.length) prologue.push(`let ${types.map((_, i) => r(i)).join(", ")};`);
  // Each argument is read once (a getter may have effects), then converted by its fast rule.
  fn.args.forEach((a, i) => {
    const { guards, value } = fastArgument(a.type);
    prologue.push(`arg = a[${i}];`, ...guards.map((g) => splicer.guard(g, ["arg"], BAIL)), splicer.assign(r(i), value, ["arg"]));
  });
  region(fn.body);
  for (let i = 0; i < maxTemps; i++) prologue.push(`let t${i};`);
  for (const p of fn.where) prologue.push(predicate(p));

  const source = `"use strict";\nreturn function fast(a, out) {\n${[...prologue, ...lines].join("\n")}\n};`;
  return new Function("K", source)(splicer.env) as FastFunction;
}
