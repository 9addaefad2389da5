/** The `buffer` and `encoding` dialects (language.md §4.5): storage roots and layouts. */
import { family, op, type Annotated, type ValueOrInt } from "../decl.js";

const custom = { form: "custom" } as const;

export const BUFFER_OPS = {
  /** operands [b, off]; the result type is the view type */
  "buffer.view": op({ placement: "DF", pure: true, syntax: custom, doc: "typed view of a buffer at a byte offset" }),
  /** operands [bytes] */
  "buffer.alloca": op<Annotated & { readonly space: "workgroup" | "private"; readonly align: number; readonly invalidSpace?: string; readonly deferredSpace?: string }>({
    placement: "DF", pure: false, syntax: custom, doc: "fresh workgroup/private scratch buffer",
  }),
  /** operands [...], one result per operand */
  "buffer.assume.noalias": op({ placement: "DF", pure: true, syntax: custom, doc: "buffer facts" }),
  "buffer.assume.alignment": op<Annotated & { readonly minimumAlignment: number }>({ placement: "DF", pure: true, syntax: custom, doc: "buffer facts" }),
  "buffer.assume.memory_space": op<Annotated & { readonly space: string; readonly invalidSpace?: string }>({ placement: "DF", pure: true, syntax: custom, doc: "buffer facts" }),
  /** operands [b] */
  "buffer.length": op({ placement: "DF", pure: true, syntax: custom, doc: "byte length of a buffer root" }),
  ...family("encoding", "layout.dense", op({ placement: "DF", pure: true, syntax: custom, doc: "layout value" })),
  "encoding.layout.strided": op<Annotated & { readonly strides: readonly ValueOrInt[] }>({ placement: "DF", pure: true, syntax: custom, doc: "layout value" }),
} as const;
