/** The `vector` dialect (language.md §4.7): register lane grids. */
import { arith, family, op, shape, uniform, type Annotated, type ArithProps, type CompareProps, type FloatPredicate, type IntPredicate, type ConstantProps, type EvalValue, type IndexedProps, type Lane } from "../decl.js";
import { indexMadd, Undefined } from "../index/semantics.js";
import { fmaf, INT_WIDTHS, isFloatName, isIntName } from "../scalar/semantics.js";
import type { Type } from "../../ir/types.js";
import { CONVERSIONS } from "./scalar.js";

const DF = "DF";
const custom = { form: "custom" } as const;
const convert = (name: keyof typeof CONVERSIONS) => op({ operands: 1, results: 1, placement: DF, pure: true, syntax: { form: "cast" }, types: CONVERSIONS[name] });

function elementName(t: Type): string {
  return t.kind === "vector" ? t.element.name : t.kind === "prim" ? t.name : "view";
}
function lanesOf(v: EvalValue | undefined): readonly Lane[] {
  return Array.isArray(v) ? v : [];
}

/** `acc = fma(a[i], b[i], acc)` for i = 0..n-1 in lane order, one rounding per step. */
function dotf(args: readonly EvalValue[], types: { readonly operands: readonly Type[] }): EvalValue | Undefined {
  const [a, b, init] = args;
  const t = elementName(types.operands[0] ?? types.operands[2]!);
  if (!isFloatName(t) || typeof init !== "number") return new Undefined(`vector.dotf on ${t}`);
  const xs = lanesOf(a), ys = lanesOf(b);
  let acc: number = init;
  for (let i = 0; i < xs.length; i++) {
    const next = fmaf(t, xs[i] as number, ys[i] as number, acc);
    if (next instanceof Undefined) return next;
    acc = next;
  }
  return acc;
}

/** Lane i (row-major) = base + i·step: wrapping for integers, exact in the index domain. */
function iota(args: readonly EvalValue[], types: { readonly result: Type }): EvalValue | Undefined {
  const [base, step] = args;
  const r = types.result;
  if (r.kind !== "vector" || typeof base !== "bigint" || typeof step !== "bigint") return new Undefined("vector.iota needs integer operands");
  const n = r.shape.reduce((x, y) => x * y, 1);
  const t = r.element.name;
  const lanes = new Array<Lane>(n);
  for (let i = 0; i < n; i++) {
    if (isIntName(t)) lanes[i] = BigInt.asUintN(INT_WIDTHS[t], base + BigInt(i) * step);
    else {
      const v = indexMadd(BigInt(i), step, base);
      if (v instanceof Undefined) return v;
      lanes[i] = v;
    }
  }
  return lanes;
}

export const VECTOR_OPS = {
  "vector.constant": op({ props: shape<ConstantProps>(), operands: 0, results: 1, placement: DF, pure: true, syntax: { form: "constant" } }),
  "vector.splat": op({ operands: 1, results: 1, placement: DF, pure: true, syntax: arith(1) }),
  "vector.from_elements": op({ operands: { min: 1 }, results: 1, placement: DF, pure: true, syntax: custom }),
  /** `%r = vector.iota %base step %step : vector<16xindex>` */
  "vector.iota": op({
    operands: 2, results: 1, placement: DF, pure: true, syntax: { form: "words", separators: ["step"] },
    types: { kind: "signature", checks: [{ operand: 0, is: "N" }, { operand: 1, sameAs: { operand: 0 } }, { operand: 0, elementOf: { result: 0 } }] },
    evaluate: iota,
  }),
  /** operands [v]; `indices` select a lane or a sub-vector */
  "vector.extract": op({ props: shape<IndexedProps>(), operands: 1, results: 1, placement: DF, pure: true, syntax: custom }),
  /** operands [x, v] */
  "vector.insert": op({ props: shape<IndexedProps>(), operands: 2, results: 1, placement: DF, pure: true, syntax: custom }),
  "vector.load": op({ props: shape<IndexedProps>(), operands: 1, results: 1, placement: DF, pure: false, syntax: custom }),
  "vector.store": op({ props: shape<IndexedProps>(), operands: 2, results: 0, placement: DF, pure: false, syntax: custom }),
  ...family("vector", "addf subf mulf divf minimumf maximumf minnumf maxnumf", op({ props: shape<ArithProps>(),
    operands: 2, results: 1, placement: DF, pure: true, syntax: arith(2, "fm"), types: uniform(2, "vF"),
  })),
  "vector.fmaf": op({ props: shape<ArithProps>(), operands: 3, results: 1, placement: DF, pure: true, syntax: arith(3, "fm"), types: uniform(3, "vF") }),
  ...family("vector", "addi subi muli shli", op({ props: shape<ArithProps>(), operands: 2, results: 1, placement: DF, pure: true, syntax: arith(2, "ovf"), types: uniform(2, "vI") })),
  ...family("vector", "divsi divui remsi remui minsi maxsi minui maxui andi ori xori shrsi shrui", op({ props: shape<ArithProps>(),
    operands: 2, results: 1, placement: DF, pure: true, syntax: arith(2), types: uniform(2, "vI"),
  })),
  ...family("vector", "negf absf expf exp2f logf log2f sqrtf rsqrtf sinf cosf tanhf erff ceilf floorf roundf roundevenf truncf", op({ props: shape<ArithProps>(),
    operands: 1, results: 1, placement: DF, pure: true, syntax: arith(1, "fm"), types: uniform(1, "vF"),
  })),
  ...family("vector", "negi absi", op({ props: shape<ArithProps>(), operands: 1, results: 1, placement: DF, pure: true, syntax: arith(1), types: uniform(1, "vI") })),
  "vector.cmpi": op({ props: shape<CompareProps<IntPredicate>>(), operands: 2, results: 1, placement: DF, pure: true, syntax: { form: "cmp", predicates: "int", vector: true }, types: uniform(2, "vI", "i1") }),
  "vector.cmpf": op({ props: shape<CompareProps<FloatPredicate>>(),
    operands: 2, results: 1, placement: DF, pure: true, syntax: { form: "cmp", predicates: "float", flags: "fm", vector: true }, types: uniform(2, "vF", "i1"),
  }),
  /** operands [mask, a, b] */
  "vector.select": op({ operands: 3, results: 1, placement: DF, pure: true, syntax: arith(3) }),
  "vector.sitofp": convert("sitofp"),
  "vector.uitofp": convert("uitofp"),
  "vector.fptosi": convert("fptosi"),
  "vector.fptoui": convert("fptoui"),
  "vector.extf": convert("extf"),
  "vector.fptrunc": convert("fptrunc"),
  "vector.extsi": convert("extsi"),
  "vector.extui": convert("extui"),
  "vector.trunci": convert("trunci"),
  "vector.bitcast": convert("bitcast"),
  /** operands [v, init] */
  "vector.reduce": op({ props: shape<Annotated & { readonly kind: string; readonly flags?: readonly string[] }>(), operands: 2, results: 1, placement: DF, pure: true, syntax: custom }),
  /** `%s = vector.dotf %a, %b, %acc : vector<16xf32>, vector<16xf32>, f32` */
  "vector.dotf": op({
    operands: 3, results: 1, placement: DF, pure: true, syntax: { form: "operands", arity: 3, result: 2 },
    types: { kind: "signature", checks: [{ operand: 0, is: "vF" }, { operand: 1, sameAs: { operand: 0 } }, { operand: 2, elementOf: { operand: 0 } }, { result: 0, sameAs: { operand: 2 } }] },
    evaluate: dotf,
  }),
} as const;
