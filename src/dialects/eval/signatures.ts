/**
 * The evaluation signature of every exactly evaluable `index`/`scalar` op (language.md §4.2,
 * §4.3; the launch-config "C column" minus the structural ops): operand count, the flag bits
 * it accepts, its comparison predicates and its type rule, derived from the op's declaration
 * (src/dialects/ops: its operand count, syntax flags and predicates, type rule). Keyed by the
 * op's full name; the launch-config encoder, decoder and lowering read it (src/launch/ops.ts
 * adds only the wire opcode numbering), and the evaluators bind the same names (exact.ts, fast.ts).
 */
import { COMPARE_PREDICATES } from "../index/semantics.js";
import { CMPF_PREDICATES } from "../scalar/semantics.js";
import { OP_INFOS } from "../registry.js";
import type { TypeClass, TypeRule as DeclaredTypeRule } from "../decl.js";
import { FASTMATH_FLAGS, OVERFLOW_FLAGS, isAddressType, isFloatType, isIntType, typeWidth, type LType } from "./types.js";

/** A type rule: an error text, or undefined when the operand and result types fit. */
export type TypeRule = (operands: readonly LType[], result: LType) => string | undefined;

export interface EvalSignature {
  /** `constant`: no operands, a literal prop; `simple`: `arity` operands, one result. */
  readonly form: "constant" | "simple";
  readonly arity: number;
  /** Flag bits (types.ts FLAG_BITS) the op accepts. */
  readonly flags: number;
  /** Allowed comparison predicates (cmp ops only), in wire order. */
  readonly predicates?: readonly string[];
  readonly check: TypeRule;
}

const ok = undefined;
const inClass = (cls: (t: LType) => boolean, what: string): TypeRule => (ops, r) => {
  if (!cls(r)) return `type ${r} is not ${what}`;
  return ops.every((t) => t === r) ? ok : `operands (${ops.join(", ")}) must all be ${r}`;
};
const compare = (cls: (t: LType) => boolean, what: string): TypeRule => (ops, r) => {
  if (r !== "i1") return `result must be i1, not ${r}`;
  const [a, b] = ops;
  return a !== undefined && cls(a) && a === b ? ok : `operands (${ops.join(", ")}) must be two equal ${what} types`;
};
const conversion = (test: (from: LType, to: LType) => boolean, what: string): TypeRule => ([from], to) =>
  from !== undefined && test(from, to) ? ok : `cannot convert ${from} to ${to}: ${what}`;
const wider = (a: LType, b: LType) => typeWidth(b) > typeWidth(a);

/** Each declared type class an evaluable op uses: its test, its name in a uniform rule's error and in a compare's. */
const CLASSES: Partial<Record<TypeClass, readonly [(t: LType) => boolean, string, string]>> = {
  A: [isAddressType, "index or offset", "address"],
  index: [(t) => t === "index", "index", "index"],
  I: [isIntType, "an integer type", "integer"],
  F: [isFloatType, "a float type", "float"],
};
/** The sides of a declared conversion. */
const SIDES = { I: [isIntType, "integer"], F: [isFloatType, "float"], S: [(t: LType) => !isAddressType(t), "scalar"] } as const;

/** The evaluation rule of an op's declared type rule (`short` is the op's name after its dialect). */
function typeRuleOf(rule: DeclaredTypeRule | undefined, short: string): TypeRule | undefined {
  if (rule?.kind === "uniform") {
    const cls = CLASSES[rule.cls];
    return cls && (rule.result === "i1" ? compare(cls[0], cls[2]) : inClass(cls[0], cls[1]));
  }
  if (rule?.kind !== "conversion") return undefined;
  const [isFrom, fromWord] = SIDES[rule.from], [isTo, toWord] = SIDES[rule.to];
  if (rule.width === "equal") return conversion((a, b) => isFrom(a) && isTo(b) && typeWidth(a) === typeWidth(b), `${short} needs two ${toWord} types of equal width`);
  const fits = rule.width === "wider" ? wider : rule.width === "narrower" ? (a: LType, b: LType) => wider(b, a) : () => true;
  return conversion((a, b) => isFrom(a) && isTo(b) && fits(a, b), rule.width === "any" ? `${fromWord} to ${toWord}` : `to a strictly ${rule.width} ${toWord}`);
}

/** The two ops whose declaration states no type rule (their forms are `cast` and custom). */
const UNDECLARED_RULES: Readonly<Record<string, TypeRule>> = {
  "index.cast": conversion((a, b) => (isAddressType(a) && isAddressType(b) && a !== b) || (isIntType(a) && isAddressType(b)) || (isAddressType(a) && isIntType(b)), "index.cast needs an address type on one side and an integer or the other address type on the other"),
  "index.scale": (ops, r) => (r === "offset" && ops[0] === "index" && ops[1] === "offset" ? ok : "index.scale takes (index, offset) and yields offset"),
};

const table = new Map<string, EvalSignature>();
// index (language.md §4.2) and scalar (§4.3) ops allowed in a launch-config region; the math
// functions (expf …) are not exact (not in that column) and have no signature.
for (const info of OP_INFOS) {
  const { name, syntax } = info;
  if (!(name.startsWith("index.") || name.startsWith("scalar.")) || !info.placement.includes("C") || syntax.form === "assume") continue;
  if (syntax.form === "constant") {
    const isConstantType = name === "index.constant" ? isAddressType : (t: LType) => isIntType(t) || isFloatType(t);
    table.set(name, { form: "constant", arity: 0, flags: 0, check: (_o, r) => (isConstantType(r) ? ok : `${name} of type ${r}`) });
    continue;
  }
  const check = UNDECLARED_RULES[name] ?? typeRuleOf(info.types, name.slice(name.indexOf(".") + 1));
  if (!check || typeof info.operands !== "number") throw new Error(`evaluation signature: '${name}' declares no type rule or operand count`);
  const flagSet = syntax.form === "arith" || syntax.form === "cmp" ? syntax.flags : undefined;
  const flags = flagSet === "ovf" ? OVERFLOW_FLAGS : flagSet === "fm" ? FASTMATH_FLAGS : 0;
  const predicates = syntax.form === "cmp" ? (syntax.predicates === "int" ? COMPARE_PREDICATES : CMPF_PREDICATES) : undefined;
  table.set(name, predicates ? { form: "simple", arity: info.operands, flags, predicates, check } : { form: "simple", arity: info.operands, flags, check });
}

/** Keyed by full op name (e.g. `scalar.addi`): ready to become `Partial<Record<OpName, EvalSignature>>`. */
export const EVAL_SIGNATURES: ReadonlyMap<string, EvalSignature> = table;
