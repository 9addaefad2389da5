/** The `view` dialect (language.md §4.6): typed element access through views. */
import { op, type IndexedProps } from "../decl.js";

const custom = { form: "custom" } as const;

/** Keys an atomic was written without (no `{…}` at all): the verifier reports each (TYPE/005). */
export interface MissingAttributes {
  readonly missingAttributes?: readonly string[];
}
export interface AtomicProps extends IndexedProps, MissingAttributes {
  readonly ordering: string;
  readonly scope: string;
}
export interface AtomicRmwProps extends AtomicProps {
  readonly kind: string;
}

export const VIEW_OPS = {
  /** operands [v] */
  "view.load": op<IndexedProps>({ placement: "DF", pure: false, syntax: custom, doc: "reads one element" }),
  /** operands [x, v] */
  "view.store": op<IndexedProps>({ placement: "DF", pure: false, syntax: custom, doc: "writes one element" }),
  /** operands [v] */
  "view.subview": op<IndexedProps>({ placement: "DF", pure: true, syntax: custom, doc: "moves a view's origin" }),
  /** operands [x, v] */
  "view.atomic.rmw": op<AtomicRmwProps>({ placement: "DF", pure: false, syntax: custom, doc: "atomic element access" }),
  "view.atomic.reduce": op<AtomicRmwProps>({ placement: "DF", pure: false, syntax: custom, doc: "atomic element access" }),
  /** operands [expected, new, v] */
  "view.atomic.cmpxchg": op<IndexedProps & MissingAttributes & { readonly successOrdering: string; readonly failureOrdering: string; readonly scope: string }>({
    placement: "DF", pure: false, syntax: custom, doc: "atomic element access",
  }),
  "view.atomic.load": op<AtomicProps>({ placement: "DF", pure: false, syntax: custom, doc: "atomic element access" }),
  "view.atomic.store": op<AtomicProps>({ placement: "DF", pure: false, syntax: custom, doc: "atomic element access" }),
} as const;
