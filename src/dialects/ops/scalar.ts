/** The `scalar` dialect (language.md §4.3): integer and float values. */
import { arith, family, op, shape, uniform, type ArithProps, type AssumeProps, type CompareProps, type FloatPredicate, type IntPredicate, type ConstantProps, type TypeRule } from "../decl.js";

const CDF = "CDF";
const conversion = (from: "I" | "F" | "S", to: "I" | "F" | "S", width: "wider" | "narrower" | "equal" | "any"): TypeRule => ({ kind: "conversion", from, to, width });
const cast = { form: "cast" } as const;

/** Conversion type rules, shared with the lanewise `vector.*` conversions. */
export const CONVERSIONS = {
  sitofp: conversion("I", "F", "any"),
  uitofp: conversion("I", "F", "any"),
  fptosi: conversion("F", "I", "any"),
  fptoui: conversion("F", "I", "any"),
  extf: conversion("F", "F", "wider"),
  fptrunc: conversion("F", "F", "narrower"),
  extsi: conversion("I", "I", "wider"),
  extui: conversion("I", "I", "wider"),
  trunci: conversion("I", "I", "narrower"),
  bitcast: conversion("S", "S", "equal"),
} as const;

const convert = (name: keyof typeof CONVERSIONS, placement: string) => op({ operands: 1, results: 1, placement, pure: true, syntax: cast, types: CONVERSIONS[name] });

export const SCALAR_OPS = {
  "scalar.constant": op({ props: shape<ConstantProps>(), operands: 0, results: 1, placement: CDF, pure: true, syntax: { form: "constant" } }),
  ...family("scalar", "addi subi muli shli", op({ props: shape<ArithProps>(), operands: 2, results: 1, placement: CDF, pure: true, syntax: arith(2, "ovf"), types: uniform(2, "I") })),
  ...family("scalar", "divsi divui remsi remui ceildivsi ceildivui floordivsi minsi maxsi minui maxui andi ori xori shrsi shrui", op({ props: shape<ArithProps>(),
    operands: 2, results: 1, placement: CDF, pure: true, syntax: arith(2), types: uniform(2, "I"),
  })),
  ...family("scalar", "negi absi", op({ props: shape<ArithProps>(), operands: 1, results: 1, placement: CDF, pure: true, syntax: arith(1), types: uniform(1, "I") })),
  ...family("scalar", "addf subf mulf divf remf copysignf minimumf maximumf minnumf maxnumf", op({ props: shape<ArithProps>(),
    operands: 2, results: 1, placement: CDF, pure: true, syntax: arith(2, "fm"), types: uniform(2, "F"),
  })),
  ...family("scalar", "negf absf", op({ props: shape<ArithProps>(), operands: 1, results: 1, placement: CDF, pure: true, syntax: arith(1, "fm"), types: uniform(1, "F") })),
  "scalar.fmaf": op({ props: shape<ArithProps>(), operands: 3, results: 1, placement: CDF, pure: true, syntax: arith(3, "fm"), types: uniform(3, "F") }),
  ...family("scalar", "expf exp2f logf log2f sqrtf rsqrtf sinf cosf tanhf erff", op({ props: shape<ArithProps>(),
    operands: 1, results: 1, placement: "DF", pure: true, syntax: arith(1, "fm"), types: uniform(1, "F"),
  })),
  "scalar.powf": op({ props: shape<ArithProps>(), operands: 2, results: 1, placement: "DF", pure: true, syntax: arith(2, "fm"), types: uniform(2, "F") }),
  ...family("scalar", "ceilf floorf roundf roundevenf truncf", op({ props: shape<ArithProps>(), operands: 1, results: 1, placement: CDF, pure: true, syntax: arith(1, "fm"), types: uniform(1, "F") })),
  "scalar.cmpi": op({ props: shape<CompareProps<IntPredicate>>(), operands: 2, results: 1, placement: CDF, pure: true, syntax: { form: "cmp", predicates: "int", vector: false }, types: uniform(2, "I", "i1") }),
  "scalar.cmpf": op({ props: shape<CompareProps<FloatPredicate>>(),
    operands: 2, results: 1, placement: CDF, pure: true, syntax: { form: "cmp", predicates: "float", flags: "fm", vector: false }, types: uniform(2, "F", "i1"),
  }),
  "scalar.sitofp": convert("sitofp", CDF),
  "scalar.uitofp": convert("uitofp", CDF),
  "scalar.fptosi": convert("fptosi", CDF),
  "scalar.fptoui": convert("fptoui", CDF),
  "scalar.extf": convert("extf", CDF),
  "scalar.fptrunc": convert("fptrunc", CDF),
  "scalar.extsi": convert("extsi", CDF),
  "scalar.extui": convert("extui", CDF),
  "scalar.trunci": convert("trunci", CDF),
  "scalar.bitcast": convert("bitcast", CDF),
  "scalar.assume": op({ props: shape<AssumeProps>(), operands: { min: 1 }, results: { min: 1 }, placement: CDF, pure: true, syntax: { form: "assume" } }),
} as const;
