/** The `scf` dialect (language.md §4.4): structured control flow. */
import { arith, op, shape, type Annotated, type Value } from "../decl.js";

const custom = { form: "custom" } as const;

export const SCF_OPS = {
  /** operands [cond]; regions [then, else?]; results = yielded values */
  "scf.if": op({ operands: 1, results: { min: 0 }, regions: { min: 1 }, placement: "CDF", pure: true, syntax: custom }),
  /** operands [lo, hi, step, ...inits]; regions [body (args = [iv, ...iterArgs])] */
  "scf.for": op({ props: shape<Annotated & { readonly unroll?: "full" | Value; readonly schedule?: string; readonly unrollConflict?: boolean }>(), operands: { min: 3 }, results: { min: 0 }, regions: 1, placement: "CDF", pure: true, syntax: custom }),
  /** operands [...inits]; regions [before (args = carried), after (args = forwarded)] */
  "scf.while": op({ props: shape<Annotated & { readonly hasDoArgs: boolean }>(), operands: { min: 0 }, results: { min: 0 }, regions: 2, placement: "DF", pure: true, syntax: custom }),
  "scf.yield": op({ operands: { min: 0 }, results: 0, placement: "CDF", pure: true, terminator: true, syntax: custom }),
  /** operands [cond, ...forwarded] */
  "scf.condition": op({ operands: { min: 1 }, results: 0, placement: "DF", pure: true, terminator: true, syntax: custom }),
  /** operands [c, a, b] */
  "scf.select": op({ operands: 3, results: 1, placement: "CDF", pure: true, syntax: arith(3) }),
} as const;
