/** The `template` dialect (language.md §4.9): families and their providers. */
import { op, shape, type Annotated, type CallProps, type Literal } from "../decl.js";
import type { CallableProps } from "./func.js";

const custom = { form: "custom" } as const;

export interface TemplateProps extends CallableProps {
  /** `requires(...)` facts as ident literals, e.g. `target.subgroup.size<32>`. */
  readonly requires?: readonly Literal[];
}

export const TEMPLATE_OPS = {
  "template.decl": op({ props: shape<TemplateProps>(), operands: 0, results: 0, regions: 1, placement: "", pure: false, topLevel: true, syntax: custom }),
  "template.def": op({ props: shape<TemplateProps & { readonly family: string; readonly priority?: number }>(),
    operands: 0, results: 0, regions: 1, placement: "", pure: false, topLevel: true, syntax: custom,
  }),
  /** operands = args */
  "template.apply": op({ props: shape<Annotated & { readonly family: string; readonly modifiers: readonly string[] }>(),
    operands: { min: 0 }, results: { min: 0 }, placement: "CDF", pure: false, syntax: custom,
  }),
  "template.call": op({ props: shape<CallProps & Annotated>(), operands: { min: 0 }, results: { min: 0 }, placement: "CDF", pure: false, syntax: custom }),
  "template.return": op({ operands: { min: 0 }, results: 0, placement: "F", pure: true, terminator: true, syntax: custom }),
} as const;
