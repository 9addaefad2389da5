/** The `view` dialect (language.md §4.6): typed element access through views. */
import { op, shape, type IndexedProps } from "../decl.js";

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
  "view.load": op({ props: shape<IndexedProps>(), operands: 1, results: 1, placement: "DF", pure: false, syntax: custom }),
  /** operands [x, v] */
  "view.store": op({ props: shape<IndexedProps>(), operands: 2, results: 0, placement: "DF", pure: false, syntax: custom }),
  /** operands [v] */
  "view.subview": op({ props: shape<IndexedProps>(), operands: 1, results: 1, placement: "DF", pure: true, syntax: custom }),
  /** operands [x, v] */
  "view.atomic.rmw": op({ props: shape<AtomicRmwProps>(), operands: 2, results: 1, placement: "DF", pure: false, syntax: custom }),
  "view.atomic.reduce": op({ props: shape<AtomicRmwProps>(), operands: 2, results: 0, placement: "DF", pure: false, syntax: custom }),
  /** operands [expected, new, v] */
  "view.atomic.cmpxchg": op({ props: shape<IndexedProps & MissingAttributes & { readonly successOrdering: string; readonly failureOrdering: string; readonly scope: string }>(),
    operands: 3, results: 1, placement: "DF", pure: false, syntax: custom,
  }),
  "view.atomic.load": op({ props: shape<AtomicProps>(), operands: 1, results: 1, placement: "DF", pure: false, syntax: custom }),
  "view.atomic.store": op({ props: shape<AtomicProps>(), operands: 2, results: 0, placement: "DF", pure: false, syntax: custom }),
} as const;
