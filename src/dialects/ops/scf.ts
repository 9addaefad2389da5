/** The `scf` dialect (language.md §4.4): structured control flow. */
import { op, type Annotated, type Value } from "../decl.js";

const custom = { form: "custom" } as const;

export const SCF_OPS = {
  /** operands [cond]; regions [then, else?]; results = yielded values */
  "scf.if": op({ placement: "CDF", pure: true, syntax: custom, doc: "two-way structured branch" }),
  /** operands [lo, hi, step, ...inits]; regions [body (args = [iv, ...iterArgs])] */
  "scf.for": op<Annotated & { readonly unroll?: "full" | Value; readonly schedule?: string; readonly unrollConflict?: boolean }>({ placement: "CDF", pure: true, syntax: custom, doc: "counted loop with iter-args" }),
  /** operands [...inits]; regions [before (args = carried), after (args = forwarded)] */
  "scf.while": op<Annotated & { readonly hasDoArgs: boolean }>({ placement: "DF", pure: true, syntax: custom, doc: "condition-first loop" }),
  "scf.yield": op({ placement: "CDF", pure: true, terminator: true, syntax: custom, doc: "forwards values out of an scf region" }),
  /** operands [cond, ...forwarded] */
  "scf.condition": op({ placement: "DF", pure: true, terminator: true, syntax: custom, doc: "scf.while before-region terminator" }),
  /** operands [c, a, b] */
  "scf.select": op({ placement: "CDF", pure: true, syntax: { form: "arith", arity: 3 }, doc: "whole-value select" }),
} as const;
