/**
 * Module-level ops that belong to no value dialect (language.md §2, §4.11): provider imports,
 * attribute aliases and `target.decl`. Target-record ops (`<environment>.target`) are declared by
 * their target packages (core/target.ts `TargetRecordSpec`), not here.
 */
import { op, shape, type SymbolProps } from "../decl.js";

const custom = { form: "custom" } as const;

export const TOP_OPS = {
  "target.decl": op({ props: shape<SymbolProps>(), operands: 0, results: 0, placement: "", pure: false, topLevel: true, syntax: custom }),
  "module.import": op({ props: shape<{ readonly key: string; readonly symbols: readonly string[] }>(),
    operands: 0, results: 0, placement: "", pure: false, topLevel: true, syntax: custom,
  }),
  /** `#name = #encoding.layout.dense`; printed by the module printer, not an op syntax. */
  alias: op({ props: shape<{ readonly alias: string; readonly target: string }>(), operands: 0, results: 0, placement: "", pure: false, topLevel: true, syntax: custom }),
} as const;
