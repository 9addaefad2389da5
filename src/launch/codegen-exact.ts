/**
 * The exact path: one JS function per launch-config function, generated once at load.
 *
 * Registers become local variables holding exact values (bigint for index/offset/integers,
 * numbers for floats); each op calls its pre-bound semantics closure and checks for an
 * `Undefined` outcome; structured control flow becomes JS `if`/`for`. It throws the
 * `LoomError` of the first failure (with values in the message) and otherwise returns the
 * nine validated launch numbers. This path decides every result and every error; the
 * number fast path only ever agrees with it or defers to it.
 */
import { Undefined } from "../dialects/index/semantics.js";
import { bindExactOp, type ExactOp, type ExactValue } from "../dialects/eval/exact.js";
import { LIMITS, type LOp, type LPredicate, type LaunchFunction } from "./model.js";
import { LaunchMessages, type PredicateSite } from "./messages.js";
import { checkPredicate, finishLaunch } from "./exact-checks.js";

export type ExactFunction = (args: readonly ExactValue[]) => number[];

interface Env {
  readonly U: typeof Undefined;
  readonly F: ExactOp[];
  readonly C: ExactValue[];
  readonly check: (id: number, values: ExactValue[]) => void;
  readonly ub: (k: number, u: Undefined) => never;
  readonly step: (k: number, s: ExactValue) => never;
  readonly budget: () => never;
  readonly finish: (v: bigint[]) => number[];
}

export function compileExact(fn: LaunchFunction): ExactFunction {
  const msg = new LaunchMessages(fn);
  const types = fn.registerTypes;
  const F: ExactOp[] = [], C: ExactValue[] = [], opNames: string[] = [];
  const checks: { pred: LPredicate; site: PredicateSite }[] = [];
  const lines: string[] = [];
  const emit = (s: string) => lines.push(s);
  const r = (i: number) => `r${i}`;

  const predicateCall = (p: LPredicate, site: PredicateSite): string => {
    const id = checks.push({ pred: p, site }) - 1;
    return `E.check(${id}, [${p.args.filter((a): a is number => typeof a === "number").map(r).join(", ")}]);`;
  };

  const region = (ops: readonly LOp[]): readonly number[] => {
    let yielded: readonly number[] = [];
    for (const op of ops) {
      const k = opNames.length;
      switch (op.kind) {
        case "constant":
          opNames.push(op.name);
          C[k] = op.value;
          emit(`${r(op.result)} = E.C[${k}];`);
          break;
        case "simple":
          opNames.push(op.name);
          F[k] = bindExactOp(op.name, op.type, op.operands.map((o) => types[o]!), op.flags, op.predicate);
          emit(`${r(op.result)} = E.F[${k}](${op.operands.map(r).join(", ")});`);
          emit(`if (${r(op.result)} instanceof E.U) E.ub(${k}, ${r(op.result)});`);
          break;
        case "assume":
          opNames.push(op.name);
          for (const p of op.predicates) emit(predicateCall(p, msg.assumeSite(op.name, k)));
          op.results.forEach((res, i) => emit(`${r(res)} = ${r(op.operands[i]!)};`));
          break;
        case "select":
          opNames.push("scf.select");
          emit(`${r(op.result)} = ${r(op.operands[0])} === 1n ? ${r(op.operands[1])} : ${r(op.operands[2])};`);
          break;
        case "if": {
          opNames.push("scf.if");
          emit(`if (${r(op.cond)} === 1n) {`);
          const t = region(op.then);
          op.results.forEach((res, i) => emit(`${r(res)} = ${r(t[i]!)};`));
          emit(`} else {`);
          const e = op.hasElse ? region(op.else) : [];
          op.results.forEach((res, i) => emit(`${r(res)} = ${r(e[i]!)};`));
          emit(`}`);
          break;
        }
        case "for": {
          opNames.push("scf.for");
          emit(`if (${r(op.step)} <= 0n) E.step(${k}, ${r(op.step)});`);
          op.iterArgs.forEach((a, i) => emit(`${r(a)} = ${r(op.inits[i]!)};`));
          emit(`for (let iv = ${r(op.lo)}; iv < ${r(op.hi)}; iv += ${r(op.step)}) {`);
          emit(`if (++budget > ${LIMITS.loopIterations}) E.budget();`);
          emit(`${r(op.iv)} = iv;`);
          const y = region(op.body);
          // Yielded values may be iteration args themselves: assign through temporaries.
          if (y.length) emit(`{ const t = [${y.map(r).join(", ")}]; ${op.iterArgs.map((a, i) => `${r(a)} = t[${i}];`).join(" ")} }`);
          emit(`}`);
          op.results.forEach((res, i) => emit(`${r(res)} = ${r(op.iterArgs[i]!)};`));
          break;
        }
        case "yield":
          yielded = op.operands;
          break;
        case "launch":
          opNames.push("kernel.launch.config");
          emit(`return E.finish([${op.operands.map(r).join(", ")}]);`);
          break;
      }
    }
    return yielded;
  };

  const prologue: string[] = [`let budget = 0;`];
  if (types.length) prologue.push(`let ${types.map((_, i) => r(i)).join(", ")};`);
  fn.args.forEach((_, i) => prologue.push(`${r(i)} = a[${i}];`));
  fn.where.forEach((p, i) => prologue.push(predicateCall(p, msg.workloadSite(i))));
  region(fn.body);

  const env: Env = {
    U: Undefined,
    F,
    C,
    check(id, values) {
      const { pred, site } = checks[id]!;
      checkPredicate(pred, site, values, types, msg);
    },
    ub(k, u) {
      throw msg.undefinedOp(opNames[k]!, k, u.reason);
    },
    step(k, s) {
      throw msg.nonPositiveStep(k, s);
    },
    budget() {
      throw msg.loopBudget(LIMITS.loopIterations);
    },
    finish: (v) => finishLaunch(fn, msg, v),
  };
  const source = `"use strict";\nreturn function exact(a) {\n${[...prologue, ...lines].join("\n")}\n};`;
  return new Function("E", source)(env) as ExactFunction;
}
