/** The `index` dialect (language.md §4.2): the address domain's arithmetic. */
import { arith, family, op, shape, uniform, type ArithProps, type AssumeProps, type CompareProps, type IntPredicate, type ConstantProps } from "../decl.js";

const P = "CDF";

export const INDEX_OPS = {
  "index.constant": op({ props: shape<ConstantProps>(), operands: 0, results: 1, placement: P, pure: true, syntax: { form: "constant" } }),
  "index.cast": op({ operands: 1, results: 1, placement: P, pure: true, syntax: { form: "cast" } }),
  ...family("index", "add sub", op({ props: shape<ArithProps>(), operands: 2, results: 1, placement: P, pure: true, syntax: arith(2), types: uniform(2, "A") })),
  ...family("index", "mul div rem min max", op({ props: shape<ArithProps>(), operands: 2, results: 1, placement: P, pure: true, syntax: arith(2), types: uniform(2, "index") })),
  "index.madd": op({ props: shape<ArithProps>(), operands: 3, results: 1, placement: P, pure: true, syntax: arith(3), types: uniform(3, "index") }),
  /** operands [i, s] */
  "index.scale": op({ operands: 2, results: 1, placement: P, pure: true, syntax: { form: "custom" } }),
  ...family("index", "andi ori xori shli shrsi shrui rotli rotri", op({ props: shape<ArithProps>(),
    operands: 2, results: 1, placement: P, pure: true, syntax: arith(2), types: uniform(2, "index"),
  })),
  ...family("index", "ctlzi cttzi ctpopi", op({ props: shape<ArithProps>(), operands: 1, results: 1, placement: P, pure: true, syntax: arith(1), types: uniform(1, "index") })),
  "index.cmp": op({ props: shape<CompareProps<IntPredicate>>(), operands: 2, results: 1, placement: P, pure: true, syntax: { form: "cmp", predicates: "int", vector: false }, types: uniform(2, "A", "i1") }),
  /** operands [a, ...], one result per operand */
  "index.assume": op({ props: shape<AssumeProps>(), operands: { min: 1 }, results: { min: 1 }, placement: P, pure: true, syntax: { form: "assume" } }),
} as const;
