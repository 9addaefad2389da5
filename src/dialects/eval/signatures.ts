/**
 * The evaluation signature of every exactly evaluable `index`/`scalar` op (language.md §4.2,
 * §4.3; the launch-config "C column" minus the structural ops): operand count, the flag bits
 * it accepts, its comparison predicates and its type rule. Keyed by the op's full name; the
 * launch-config encoder, decoder and lowering read it (src/launch/ops.ts adds only the wire
 * opcode numbering), and the evaluators bind the same names (exact.ts, fast.ts).
 */
import { COMPARE_PREDICATES } from "../index/semantics.js";
import { CMPF_PREDICATES } from "../scalar/semantics.js";
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
const address = inClass(isAddressType, "index or offset");
const indexOnly = inClass((t) => t === "index", "index");
const int = inClass(isIntType, "an integer type");
const float = inClass(isFloatType, "a float type");
const compare = (cls: (t: LType) => boolean, what: string): TypeRule => (ops, r) => {
  if (r !== "i1") return `result must be i1, not ${r}`;
  const [a, b] = ops;
  return a !== undefined && cls(a) && a === b ? ok : `operands (${ops.join(", ")}) must be two equal ${what} types`;
};
const conversion = (test: (from: LType, to: LType) => boolean, what: string): TypeRule => ([from], to) =>
  from !== undefined && test(from, to) ? ok : `cannot convert ${from} to ${to}: ${what}`;
const wider = (a: LType, b: LType) => typeWidth(b) > typeWidth(a);

const table = new Map<string, EvalSignature>();
function simple(names: string, arity: number, check: TypeRule, flags = 0, predicates?: readonly string[]): void {
  for (const name of names.split(" ")) table.set(name, predicates ? { form: "simple", arity, flags, predicates, check } : { form: "simple", arity, flags, check });
}
function constant(name: string, check: TypeRule): void {
  table.set(name, { form: "constant", arity: 0, flags: 0, check });
}

// index (language.md §4.2)
constant("index.constant", (_o, r) => (isAddressType(r) ? ok : `index.constant of type ${r}`));
simple("index.cast", 1, conversion((a, b) => (isAddressType(a) && isAddressType(b) && a !== b) || (isIntType(a) && isAddressType(b)) || (isAddressType(a) && isIntType(b)), "index.cast needs an address type on one side and an integer or the other address type on the other"));
simple("index.add index.sub", 2, address);
simple("index.mul index.div index.rem index.min index.max index.andi index.ori index.xori index.shli index.shrsi index.shrui index.rotli index.rotri", 2, indexOnly);
simple("index.madd", 3, indexOnly);
simple("index.scale", 2, (ops, r) => (r === "offset" && ops[0] === "index" && ops[1] === "offset" ? ok : "index.scale takes (index, offset) and yields offset"));
simple("index.ctlzi index.cttzi index.ctpopi", 1, indexOnly);
simple("index.cmp", 2, compare(isAddressType, "address"), 0, COMPARE_PREDICATES);
// scalar (language.md §4.3); the math functions (expf …) are not exact and have no signature
constant("scalar.constant", (_o, r) => (isIntType(r) || isFloatType(r) ? ok : `scalar.constant of type ${r}`));
simple("scalar.addi scalar.subi scalar.muli scalar.shli", 2, int, OVERFLOW_FLAGS);
simple("scalar.divsi scalar.divui scalar.remsi scalar.remui scalar.ceildivsi scalar.ceildivui scalar.floordivsi scalar.minsi scalar.maxsi scalar.minui scalar.maxui scalar.andi scalar.ori scalar.xori scalar.shrsi scalar.shrui", 2, int);
simple("scalar.negi scalar.absi", 1, int);
simple("scalar.addf scalar.subf scalar.mulf scalar.divf scalar.remf scalar.copysignf scalar.minimumf scalar.maximumf scalar.minnumf scalar.maxnumf", 2, float, FASTMATH_FLAGS);
simple("scalar.negf scalar.absf scalar.ceilf scalar.floorf scalar.roundf scalar.roundevenf scalar.truncf", 1, float, FASTMATH_FLAGS);
simple("scalar.fmaf", 3, float, FASTMATH_FLAGS);
simple("scalar.cmpi", 2, compare(isIntType, "integer"), 0, COMPARE_PREDICATES);
simple("scalar.cmpf", 2, compare(isFloatType, "float"), FASTMATH_FLAGS, CMPF_PREDICATES);
simple("scalar.sitofp scalar.uitofp", 1, conversion((a, b) => isIntType(a) && isFloatType(b), "integer to float"));
simple("scalar.fptosi scalar.fptoui", 1, conversion((a, b) => isFloatType(a) && isIntType(b), "float to integer"));
simple("scalar.extf", 1, conversion((a, b) => isFloatType(a) && isFloatType(b) && wider(a, b), "to a strictly wider float"));
simple("scalar.fptrunc", 1, conversion((a, b) => isFloatType(a) && isFloatType(b) && wider(b, a), "to a strictly narrower float"));
simple("scalar.extsi scalar.extui", 1, conversion((a, b) => isIntType(a) && isIntType(b) && wider(a, b), "to a strictly wider integer"));
simple("scalar.trunci", 1, conversion((a, b) => isIntType(a) && isIntType(b) && typeWidth(b) < typeWidth(a), "to a strictly narrower integer"));
simple("scalar.bitcast", 1, conversion((a, b) => !isAddressType(a) && !isAddressType(b) && typeWidth(a) === typeWidth(b), "bitcast needs two scalar types of equal width"));

/** Keyed by full op name (e.g. `scalar.addi`): ready to become `Partial<Record<OpName, EvalSignature>>`. */
export const EVAL_SIGNATURES: ReadonlyMap<string, EvalSignature> = table;
