/**
 * The checks both exact evaluators (the generated one in codegen-exact.ts and the closure
 * one in closure-exact.ts) share, so that they cannot drift apart: a `where`/`assume`
 * predicate with its error, and the final launch validation (language.md §6 steps 3–5).
 */
import { evaluatePredicate, type PredicateOperand } from "../dialects/scalar/semantics.js";
import type { ExactValue } from "../dialects/eval/exact.js";
import type { LaunchMessages, PredicateSite } from "./messages.js";
import { LIMITS, type LPredicate, type LType, type LaunchFunction } from "./model.js";

/** Throws the `out-of-range` error of `pred` when it is false; `values` are its register operands, in order. */
export function checkPredicate(pred: LPredicate, site: PredicateSite, values: readonly ExactValue[], types: readonly LType[], msg: LaunchMessages): void {
  let i = 0;
  const args: PredicateOperand[] = pred.args.map((a) => (typeof a === "number" ? { type: types[a]!, value: values[i++]! } : a));
  if (!evaluatePredicate(pred.kind, args)) throw msg.violated(pred, site, values, types);
}

/** Validates the launch operands (language.md §6 steps 3–5) and returns the nine numbers. */
export function finishLaunch(fn: LaunchFunction, msg: LaunchMessages, v: readonly bigint[]): number[] {
  const { maxWorkgroupCount, maxWorkgroupSize, maxFlatWorkgroupSize } = fn.limits;
  const count = v.slice(0, 3), size = v.slice(3, 6), cluster = v.length === 9 ? v.slice(6, 9) : [1n, 1n, 1n];
  for (let d = 0; d < 3; d++) {
    const max = Math.min(maxWorkgroupCount[d]!, LIMITS.u32);
    if (count[d]! < 0n || count[d]! > BigInt(max)) throw msg.count(d, count[d]!, max);
  }
  for (let d = 0; d < 3; d++) {
    if (size[d]! < 1n || size[d]! > BigInt(maxWorkgroupSize[d]!)) throw msg.size(d, size[d]!, maxWorkgroupSize[d]!);
  }
  if (size[0]! * size[1]! * size[2]! > BigInt(maxFlatWorkgroupSize)) throw msg.flat(size, maxFlatWorkgroupSize);
  if (cluster.some((c) => c !== 1n)) throw msg.cluster(cluster);
  return [...count, ...size, ...cluster].map(Number);
}
