/**
 * The check harness (language.md §11): `check.case` programs that materialize host values
 * (`tensor<…>`), launch kernels on them and state expectations, `check.benchmark` records
 * naming a case; the host-side launch ops they use (`kernel.launch` …) are launch.ts. None of
 * these reach a device: `loom check` runs them on the host (src/api/check.ts) and the back ends
 * never see them. Importing this module registers them (api/check-dialect.ts does, which
 * `loomc` and `loomc/browser/check` import; `loomc/browser` leaves them out).
 *
 * Placement `H` is the body of a `check.case` (and the regions nested in it); the verifier's
 * check-harness rules (passes/verify/check.ts) decide what else may appear there.
 */
import { op, shape, type Annotated, type Literal, type SymbolProps, type ValueOrInt } from "../decl.js";
import { registerOps } from "../registry.js";

const custom = { form: "custom" } as const;

/** A `{key = literal, …}` entry (benchmark assignments, provider attributes). */
export interface NamedLiteral {
  readonly key: string;
  readonly value: Literal;
}

/** A provider attribute `key = value`, where a value may itself be a `{…}` list (`tsan = {check = "data_race"}`). */
export type ProviderAttr = {
  readonly key: string;
  readonly value: Literal | { readonly kind: "dict"; readonly entries: readonly ProviderAttr[] };
};

/** `<provider>` with its optional `{…}` attributes: requirements, skip predicates, validators, events. */
export interface ProviderProps {
  readonly provider: string;
  readonly attrs?: readonly ProviderAttr[];
}

/** An optional `name("…")` clause: the stable key benchmarks and reports use. */
export interface ParamName {
  readonly paramName?: string;
}

export const CHECK_OPS = {
  /** regions [body] (isolated, no arguments) */
  "check.case": op({ props: shape<SymbolProps & { readonly modifiers: readonly string[] }>(),
    operands: 0, results: 0, regions: 1, placement: "", pure: false, topLevel: true, syntax: custom,
  }),
  "check.benchmark": op({ props: shape<{ readonly case: string; readonly symbol?: string; readonly assignments: readonly NamedLiteral[] }>(),
    operands: 0, results: 0, placement: "", pure: false, topLevel: true, syntax: custom,
  }),
  "check.return": op({ operands: 0, results: 0, placement: "H", pure: true, terminator: true, syntax: custom }),
  "check.param.seed": op({ props: shape<Annotated & ParamName & { readonly base: bigint; readonly count: bigint }>(),
    operands: 0, results: 1, placement: "H", pure: true, syntax: custom,
  }),
  "check.param.choice": op({ props: shape<Annotated & ParamName & { readonly values: readonly bigint[] }>(),
    operands: 0, results: 1, placement: "H", pure: true, syntax: custom,
  }),
  "check.param.range": op({ props: shape<Annotated & ParamName & { readonly policy: "linear" | "po2"; readonly lower: Literal; readonly upper: Literal; readonly step?: Literal }>(),
    operands: 0, results: 1, placement: "H", pure: true, syntax: custom,
  }),
  "check.literal": op({ props: shape<Annotated & { readonly value: Literal }>(), operands: 0, results: 1, placement: "H", pure: true, syntax: custom }),
  "check.generate.fill": op({ props: shape<Annotated & { readonly value: Literal }>(), operands: 0, results: 1, placement: "H", pure: true, syntax: custom }),
  "check.generate.iota": op({ props: shape<Annotated & { readonly offset: Literal; readonly step: Literal; readonly period?: bigint }>(),
    operands: 0, results: 1, placement: "H", pure: true, syntax: custom,
  }),
  /** operands [seed] */
  "check.generate.random.uniform": op({ props: shape<Annotated & { readonly lower: Literal; readonly upper: Literal }>(),
    operands: 1, results: 1, placement: "H", pure: true, syntax: custom,
  }),
  /** operands [storage] */
  "check.tensor.view": op({ props: shape<Annotated & { readonly offset: bigint }>(),
    operands: 1, results: 1, placement: "H", pure: true, syntax: custom,
  }),
  /** operands [inputs…] */
  "check.oracle.call": op({ props: shape<Annotated & { readonly provider: string; readonly callee: string; readonly attrs?: readonly NamedLiteral[] }>(),
    placement: "H", pure: false, syntax: custom,
  }),
  /** operands [actual, expected] */
  "check.expect.equal": op({ operands: 2, results: 0, placement: "H", pure: false, syntax: custom }),
  "check.expect.bitwise": op({ operands: 2, results: 0, placement: "H", pure: false, syntax: custom }),
  "check.expect.close": op({ props: shape<Annotated & { readonly atol: Literal; readonly rtol: Literal; readonly nan: "same" | "different" }>(),
    operands: 2, results: 0, placement: "H", pure: false, syntax: custom,
  }),
  /** operands [value, dynamic extents…] */
  "check.expect.shape": op({ props: shape<Annotated & { readonly shape: readonly ValueOrInt[] }>(),
    operands: { min: 1 }, results: 0, placement: "H", pure: false, syntax: custom,
  }),
  "check.requires": op({ props: shape<ProviderProps>(),
    operands: 0, results: 0, placement: "H", pure: false, syntax: custom,
  }),
  "check.skip_if": op({ props: shape<ProviderProps & { readonly reason?: string }>(),
    operands: 0, results: 0, placement: "H", pure: false, syntax: custom,
  }),
  "check.file.read.npy": op({ props: shape<Annotated & { readonly path: string }>(),
    operands: 0, results: 1, placement: "H", pure: true, syntax: custom,
  }),
  /** operands [value] */
  "check.file.write.npy": op({ props: shape<Annotated & { readonly path: string; readonly mode: "always" | "on_failure" }>(),
    operands: 1, results: 0, placement: "H", pure: false, syntax: custom,
  }),
  /** operands [actual, expected] */
  "check.expect": op({ props: shape<Annotated & ProviderProps>(),
    operands: 2, results: 0, placement: "H", pure: false, syntax: custom,
  }),
  "check.expect.event": op({ props: shape<ProviderProps>(),
    operands: 0, results: 0, placement: "H", pure: false, syntax: custom,
  }),
} as const;

registerOps(CHECK_OPS);
