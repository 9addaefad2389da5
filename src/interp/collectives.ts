/**
 * Combining kinds of `kernel.subgroup.reduce`, `kernel.workgroup.reduce` and
 * `vector.reduce` (language.md §4.1): each kind is the scalar op of the same name, bound
 * once through the shared exact semantics. Association order is a strict left fold in lane
 * (flat-id) order **(ours)**: the spec leaves it unspecified, so device comparisons of float
 * reductions need a tolerance.
 */
import { bindExactOp } from "../dialects/eval/exact.js";
import type { LType } from "../dialects/eval/types.js";
import type { Outcome } from "../dialects/index/semantics.js";
import type { Lane } from "./state.js";

const KINDS = new Set(["addi", "muli", "minsi", "maxsi", "minui", "maxui", "andi", "ori", "xori", "addf", "mulf", "minimumf", "maximumf", "minnumf", "maxnumf"]);

export type Combine = (a: Lane, b: Lane) => Outcome<Lane>;

/** The binary combining function of `kind` on lanes of type `t`, or undefined for an unknown kind. */
export function combiner(kind: string, t: LType, flags = 0): Combine | undefined {
  if (!KINDS.has(kind)) return undefined;
  const f = bindExactOp(`scalar.${kind}`, t, [t, t], flags);
  return (a, b) => f(a, b);
}

/** Left fold `((init ⊕ x₀) ⊕ x₁) …`; the first UB outcome stops it. */
export function fold(combine: Combine, init: Lane, xs: readonly Lane[]): Outcome<Lane> {
  let acc: Outcome<Lane> = init;
  for (const x of xs) {
    acc = combine(acc as Lane, x);
    if (typeof acc === "object") return acc;
  }
  return acc;
}
