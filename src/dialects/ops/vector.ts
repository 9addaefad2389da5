/** The `vector` dialect (language.md §4.7): register lane grids. */
import { family, op, type Annotated, type ArithProps, type CompareProps, type ConstantProps, type IndexedProps, type TypeClass } from "../decl.js";
import { CONVERSIONS } from "./scalar.js";

const DF = "DF";
const uniform = (arity: number, cls: TypeClass, result: "same" | "i1" = "same") => ({ kind: "uniform", arity, cls, result }) as const;
const arith = (arity: number, flags?: "ovf" | "fm") => ({ form: "arith", arity, ...(flags ? { flags } : {}) }) as const;
const custom = { form: "custom" } as const;
const convert = (name: keyof typeof CONVERSIONS) => op({ placement: DF, pure: true, syntax: { form: "cast" }, types: CONVERSIONS[name], doc: "lanewise conversion" });

export const VECTOR_OPS = {
  "vector.constant": op<ConstantProps>({ placement: DF, pure: true, syntax: { form: "constant" }, doc: "vector with every lane set to a literal" }),
  "vector.splat": op({ placement: DF, pure: true, syntax: arith(1), doc: "broadcast a scalar" }),
  "vector.from_elements": op({ placement: DF, pure: true, syntax: custom, doc: "vector from lanes" }),
  /** operands [v]; `indices` select a lane or a sub-vector */
  "vector.extract": op<IndexedProps>({ placement: DF, pure: true, syntax: custom, doc: "lane or sub-vector access" }),
  /** operands [x, v] */
  "vector.insert": op<IndexedProps>({ placement: DF, pure: true, syntax: custom, doc: "lane or sub-vector access" }),
  "vector.load": op<IndexedProps>({ placement: DF, pure: false, syntax: custom, doc: "reads a lane grid from a view" }),
  "vector.store": op<IndexedProps>({ placement: DF, pure: false, syntax: custom, doc: "writes a lane grid to a view" }),
  ...family("vector", "addf subf mulf divf minimumf maximumf minnumf maxnumf", op<ArithProps>({
    placement: DF, pure: true, syntax: arith(2, "fm"), types: uniform(2, "vF"), doc: "lanewise float arithmetic",
  })),
  "vector.fmaf": op<ArithProps>({ placement: DF, pure: true, syntax: arith(3, "fm"), types: uniform(3, "vF"), doc: "lanewise float arithmetic" }),
  ...family("vector", "addi subi muli shli", op<ArithProps>({ placement: DF, pure: true, syntax: arith(2, "ovf"), types: uniform(2, "vI"), doc: "lanewise integer arithmetic" })),
  ...family("vector", "divsi divui remsi remui minsi maxsi minui maxui andi ori xori shrsi shrui", op<ArithProps>({
    placement: DF, pure: true, syntax: arith(2), types: uniform(2, "vI"), doc: "lanewise integer arithmetic",
  })),
  ...family("vector", "negf absf expf exp2f logf log2f sqrtf rsqrtf sinf cosf tanhf erff ceilf floorf roundf roundevenf truncf", op<ArithProps>({
    placement: DF, pure: true, syntax: arith(1, "fm"), types: uniform(1, "vF"), doc: "lanewise unary op",
  })),
  ...family("vector", "negi absi", op<ArithProps>({ placement: DF, pure: true, syntax: arith(1), types: uniform(1, "vI"), doc: "lanewise unary op" })),
  "vector.cmpi": op<CompareProps>({ placement: DF, pure: true, syntax: { form: "cmp", predicates: "int", vector: true }, types: uniform(2, "vI", "i1"), doc: "lanewise comparison" }),
  "vector.cmpf": op<CompareProps>({
    placement: DF, pure: true, syntax: { form: "cmp", predicates: "float", flags: "fm", vector: true }, types: uniform(2, "vF", "i1"), doc: "lanewise comparison",
  }),
  /** operands [mask, a, b] */
  "vector.select": op({ placement: DF, pure: true, syntax: arith(3), doc: "lanewise select" }),
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
  "vector.reduce": op<Annotated & { readonly kind: string; readonly flags?: readonly string[] }>({ placement: DF, pure: true, syntax: custom, doc: "in-order fold of the lanes" }),
} as const;
