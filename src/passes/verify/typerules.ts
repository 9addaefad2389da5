/**
 * Operand/result type rules of the ops whose typing is uniform, as data (language.md §4):
 * all operands share one type from a class, and the result is that type or `i1`
 * (lane-wise `i1` for vectors). Ops with irregular typing have hand-written checkers in
 * types.ts.
 */
import {
  SCALAR_FLOAT_BINARY, SCALAR_FLOAT_UNARY, SCALAR_INT_BINARY, SCALAR_INT_UNARY, SCALAR_MATH,
  VECTOR_FLOAT_BINARY, VECTOR_FLOAT_UNARY, VECTOR_INT_BINARY, VECTOR_INT_UNARY,
} from "./ops.js";

/**
 * Type classes: `I` integers, `F` floats, `S` = I ∪ F, `A` = index/offset, `index`;
 * `vI`/`vF` vectors with integer (or `index`) / float elements.
 */
export type TypeClass = "I" | "F" | "S" | "A" | "index" | "vI" | "vF";

export interface UniformRule {
  readonly arity: number;
  readonly cls: TypeClass;
  /** `same`: the operand type; `i1`: `i1` (vectors: `i1` lanes of the same shape). */
  readonly result: "same" | "i1";
}

export const UNIFORM_RULES = new Map<string, UniformRule>();

function rule(names: readonly string[], prefix: string, arity: number, cls: TypeClass, result: UniformRule["result"] = "same"): void {
  for (const n of names) UNIFORM_RULES.set(`${prefix}.${n}`, { arity, cls, result });
}

rule(["add", "sub"], "index", 2, "A");
rule("mul div rem min max andi ori xori shli shrsi shrui rotli rotri".split(" "), "index", 2, "index");
rule(["ctlzi", "cttzi", "ctpopi"], "index", 1, "index");
rule(["madd"], "index", 3, "index");
rule(["cmp"], "index", 2, "A", "i1");

rule(SCALAR_INT_BINARY, "scalar", 2, "I");
rule(SCALAR_INT_UNARY, "scalar", 1, "I");
rule(SCALAR_FLOAT_BINARY, "scalar", 2, "F");
rule(SCALAR_FLOAT_UNARY, "scalar", 1, "F");
rule(SCALAR_MATH.filter((n) => n !== "powf"), "scalar", 1, "F");
rule(["powf"], "scalar", 2, "F");
rule(["fmaf"], "scalar", 3, "F");
rule(["cmpi"], "scalar", 2, "I", "i1");
rule(["cmpf"], "scalar", 2, "F", "i1");

rule(VECTOR_FLOAT_BINARY, "vector", 2, "vF");
rule(VECTOR_INT_BINARY, "vector", 2, "vI");
rule(VECTOR_FLOAT_UNARY, "vector", 1, "vF");
rule(VECTOR_INT_UNARY, "vector", 1, "vI");
rule(["fmaf"], "vector", 3, "vF");
rule(["cmpi"], "vector", 2, "vI", "i1");
rule(["cmpf"], "vector", 2, "vF", "i1");

/** Ops producing one `index` from nothing. */
export const INDEX_QUERIES = new Set([
  "kernel.workitem.id", "kernel.workgroup.id", "kernel.workgroup.size", "kernel.workgroup.count", "kernel.workitem.dispatch.id",
  "kernel.subgroup.id", "kernel.subgroup.size", "kernel.subgroup.lane.id", "kernel.subgroup.count", "target.subgroup.size",
]);

/** Combining kinds of reductions (§4.1) by element kind. */
export const COMBINING_KINDS = {
  int: "addi muli minsi maxsi minui maxui andi ori xori".split(" "),
  float: "addf mulf minimumf maximumf minnumf maxnumf".split(" "),
};

/** `view.atomic.rmw/reduce` kinds (§4.6). */
export const ATOMIC_KINDS = {
  int: "xchgi addi subi andi ori xori minsi maxsi minui maxui".split(" "),
  float: ["xchgf", "addf"],
};

/** Conversions (§3, §4.3): operand side, result side, and the width relation. */
export const CONVERSION_RULES: Readonly<Record<string, { from: "I" | "F" | "S"; to: "I" | "F" | "S"; width: "wider" | "narrower" | "equal" | "any" }>> = {
  sitofp: { from: "I", to: "F", width: "any" },
  uitofp: { from: "I", to: "F", width: "any" },
  fptosi: { from: "F", to: "I", width: "any" },
  fptoui: { from: "F", to: "I", width: "any" },
  extf: { from: "F", to: "F", width: "wider" },
  fptrunc: { from: "F", to: "F", width: "narrower" },
  extsi: { from: "I", to: "I", width: "wider" },
  extui: { from: "I", to: "I", width: "wider" },
  trunci: { from: "I", to: "I", width: "narrower" },
  bitcast: { from: "S", to: "S", width: "equal" },
};
