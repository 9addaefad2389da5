/**
 * Combining kinds of `kernel.subgroup.reduce`, `kernel.workgroup.reduce` and
 * `vector.reduce` (language.md §4.1): each kind is the scalar op of the same name, bound
 * once through the shared exact semantics. Association order is a strict left fold in lane
 * (flat-id) order **(ours)**: the spec leaves it unspecified, so device comparisons of float
 * reductions need a tolerance.
 */
import { bindExactOp } from "../dialects/eval/exact.js";
import type { LType } from "../dialects/eval/types.js";
import { Undefined, type Outcome } from "../dialects/index/semantics.js";
import { PayloadNaN } from "../dialects/scalar/semantics.js";
import type { Lane } from "./state.js";

const KINDS = new Set(["addi", "muli", "minsi", "maxsi", "minui", "maxui", "andi", "ori", "xori", "addf", "mulf", "minimumf", "maximumf", "minnumf", "maxnumf"]);

export type Combine = (a: Lane, b: Lane) => Outcome<Lane>;

/** The binary combining function of `kind` on lanes of type `t`, or undefined for an unknown kind. */
export function combiner(kind: string, t: LType, flags = 0): Combine | undefined {
  if (!KINDS.has(kind)) return undefined;
  return arithmetic(bindExactOp(`scalar.${kind}`, t, [t, t], flags));
}

/** Arithmetic sees NaN for a `PayloadNaN` operand (its payload is not an arithmetic input). */
const num = (x: Lane): bigint | number => (x instanceof PayloadNaN ? NaN : x);

/** An exact op on lanes: `PayloadNaN` operands become NaN (arithmetic NaNs are canonical here). */
export function arithmetic(f: (...xs: (bigint | number)[]) => Outcome<bigint | number>): (...xs: Lane[]) => Outcome<bigint | number> {
  return (...xs) => {
    for (let i = 0; i < xs.length; i++) if (xs[i] instanceof PayloadNaN) return f(...xs.map(num));
    return f(...(xs as (bigint | number)[]));
  };
}

/** Left fold `((init ⊕ x₀) ⊕ x₁) …`; the first UB outcome stops it. */
export function fold(combine: Combine, init: Lane, xs: readonly Lane[]): Outcome<Lane> {
  let acc: Outcome<Lane> = num(init); // a reduction computes: even one lane's NaN is an arithmetic NaN
  for (const x of xs) {
    acc = combine(acc, x);
    if (acc instanceof Undefined) return acc;
  }
  return acc;
}
