/** The `buffer` and `encoding` dialects (language.md §4.5): storage roots and layouts. */
import { family, op, shape, type Annotated, type ValueOrInt } from "../decl.js";

const custom = { form: "custom" } as const;

export const BUFFER_OPS = {
  /** operands [b, off]; the result type is the view type */
  "buffer.view": op({ operands: 2, results: 1, placement: "DF", pure: true, syntax: custom }),
  /** operands [bytes] */
  "buffer.alloca": op({ props: shape<Annotated & { readonly space: "workgroup" | "private"; readonly align: number; readonly invalidSpace?: string; readonly deferredSpace?: string }>(),
    operands: 1, results: 1, placement: "DF", pure: false, syntax: custom,
  }),
  /** operands [...], one result per operand */
  "buffer.assume.noalias": op({ operands: { min: 1 }, results: { min: 1 }, placement: "DF", pure: true, syntax: custom }),
  "buffer.assume.alignment": op({ props: shape<Annotated & { readonly minimumAlignment: number }>(), operands: { min: 1 }, results: { min: 1 }, placement: "DF", pure: true, syntax: custom }),
  "buffer.assume.memory_space": op({ props: shape<Annotated & { readonly space: string; readonly invalidSpace?: string }>(), operands: 1, results: 1, placement: "DF", pure: true, syntax: custom }),
  /** operands [b] */
  "buffer.length": op({ operands: 1, results: 1, placement: "DF", pure: true, syntax: custom }),
  ...family("encoding", "layout.dense", op({ operands: 0, results: 1, placement: "DF", pure: true, syntax: custom })),
  "encoding.layout.strided": op({ props: shape<Annotated & { readonly strides: readonly ValueOrInt[] }>(), operands: 0, results: 1, placement: "DF", pure: true, syntax: custom }),
} as const;
