/** The `config` dialect (language.md §4.10) and the compile-time target query (§4.11). */
import { INDEX_RESULT, op, shape, type Annotated, type Literal, type SymbolProps, type Type, type WhereProps } from "../decl.js";

const custom = { form: "custom" } as const;

export const CONFIG_OPS = {
  /** regions [] for `@key : T`, or [signature region with the one arg %value] */
  "config.decl": op({ props: shape<SymbolProps & WhereProps & { readonly type: Type }>(), operands: 0, results: 0, placement: "", pure: false, topLevel: true, syntax: custom }),
  "config.def": op({ props: shape<SymbolProps & { readonly value: Literal; readonly type: Type }>(), operands: 0, results: 0, placement: "", pure: false, topLevel: true, syntax: custom }),
  "config.get": op({ props: shape<SymbolProps & Annotated>(), operands: 0, results: 1, placement: "CDF", pure: true, syntax: custom }),
  "target.subgroup.size": op({ operands: 0, results: 1, placement: "CDF", pure: true, syntax: custom, types: INDEX_RESULT }),
} as const;
