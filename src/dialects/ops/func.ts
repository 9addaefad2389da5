/** The `func` dialect (language.md §4.8): functions, inlined into kernels in v1. */
import { op, shape, type Annotated, type CallProps, type Type, type WhereProps } from "../decl.js";

const custom = { form: "custom" } as const;

/** Props of `func.*` / `template.*` definitions and declarations. */
export interface CallableProps extends CallProps, WhereProps {
  /** Grammar order: public retain host|device pure hot|cold inline|noinline. */
  readonly modifiers: readonly string[];
  readonly target?: string;
  readonly resultTypes: readonly Type[];
}

export const FUNC_OPS = {
  /** regions [body (args = params)] */
  "func.def": op({ props: shape<CallableProps>(), operands: 0, results: 0, regions: 1, placement: "", pure: false, topLevel: true, syntax: custom }),
  /** regions [signature region] */
  "func.decl": op({ props: shape<CallableProps>(), operands: 0, results: 0, regions: 1, placement: "", pure: false, topLevel: true, syntax: custom }),
  /** operands = args */
  "func.call": op({ props: shape<CallProps & Annotated>(), operands: { min: 0 }, results: { min: 0 }, placement: "CDF", pure: false, syntax: custom }),
  "func.return": op({ operands: { min: 0 }, results: 0, placement: "F", pure: true, terminator: true, syntax: custom }),
} as const;
