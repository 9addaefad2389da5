/**
 * The ops a launch-config function may contain (language.md §6 "C column"), with their
 * wire opcode, shape, allowed flags and type rule. The opcode of an op is its position in
 * `OP_LIST` (append only; docs/launch-config.md lists the table).
 */
import { COMPARE_PREDICATES } from "../dialects/index/semantics.js";
import { CMPF_PREDICATES } from "../dialects/scalar/semantics.js";
import { FASTMATH_FLAGS, OVERFLOW_FLAGS, isAddressType, isFloatType, isIntType, typeWidth, type LType } from "./model.js";

export type OpShape = "constant" | "simple" | "assume" | "select" | "if" | "for" | "yield" | "launch";

export interface OpInfo {
  readonly name: string;
  readonly opcode: number;
  readonly shape: OpShape;
  /** Operand count of `simple` ops. */
  readonly arity: number;
  /** Flag bits the op accepts. */
  readonly flags: number;
  /** Allowed comparison predicates (cmp ops only). */
  readonly predicates?: readonly string[];
  /** Type rule of `simple`/`constant` ops: an error text, or undefined when well typed. */
  readonly check: (operands: readonly LType[], result: LType) => string | undefined;
}

type Rule = OpInfo["check"];
const ok = undefined;
const inClass = (cls: (t: LType) => boolean, what: string): Rule => (ops, r) => {
  if (!cls(r)) return `type ${r} is not ${what}`;
  return ops.every((t) => t === r) ? ok : `operands (${ops.join(", ")}) must all be ${r}`;
};
const isIndex = (t: LType) => t === "index";
const address = inClass(isAddressType, "index or offset");
const indexOnly = inClass(isIndex, "index");
const int = inClass(isIntType, "an integer type");
const float = inClass(isFloatType, "a float type");
const compare = (cls: (t: LType) => boolean, what: string): Rule => (ops, r) => {
  if (r !== "i1") return `result must be i1, not ${r}`;
  return cls(ops[0]!) && ops[0] === ops[1] ? ok : `operands (${ops.join(", ")}) must be two equal ${what} types`;
};
const conversion = (test: (from: LType, to: LType) => boolean, what: string): Rule => ([from], to) => (test(from!, to) ? ok : `cannot convert ${from} to ${to}: ${what}`);
const widerFloat = (a: LType, b: LType) => typeWidth(b) > typeWidth(a);

const list: Omit<OpInfo, "opcode">[] = [];
function op(name: string, shape: OpShape, arity: number, check: Rule, flags = 0, predicates?: readonly string[]): void {
  list.push(predicates ? { name, shape, arity, check, flags, predicates } : { name, shape, arity, check, flags });
}
const none: Rule = () => ok;

// index (language.md §4.2)
op("index.constant", "constant", 0, (_o, r) => (isAddressType(r) ? ok : `index.constant of type ${r}`));
op("index.cast", "simple", 1, conversion((a, b) => (isAddressType(a) && isAddressType(b) && a !== b) || (isIntType(a) && isAddressType(b)) || (isAddressType(a) && isIntType(b)), "index.cast needs an address type on one side and an integer or the other address type on the other"));
op("index.add", "simple", 2, address);
op("index.sub", "simple", 2, address);
for (const n of ["mul", "div", "rem", "min", "max", "andi", "ori", "xori", "shli", "shrsi", "shrui", "rotli", "rotri"]) op(`index.${n}`, "simple", 2, indexOnly);
op("index.madd", "simple", 3, indexOnly);
op("index.scale", "simple", 2, (ops, r) => (r === "offset" && ops[0] === "index" && ops[1] === "offset" ? ok : "index.scale takes (index, offset) and yields offset"));
for (const n of ["ctlzi", "cttzi", "ctpopi"]) op(`index.${n}`, "simple", 1, indexOnly);
op("index.cmp", "simple", 2, compare(isAddressType, "address"), 0, COMPARE_PREDICATES);
op("index.assume", "assume", 0, none);
// scalar (language.md §4.3), no math ops
op("scalar.constant", "constant", 0, (_o, r) => (isIntType(r) || isFloatType(r) ? ok : `scalar.constant of type ${r}`));
for (const n of ["addi", "subi", "muli"]) op(`scalar.${n}`, "simple", 2, int, OVERFLOW_FLAGS);
for (const n of ["divsi", "divui", "remsi", "remui", "ceildivsi", "ceildivui", "floordivsi", "minsi", "maxsi", "minui", "maxui", "andi", "ori", "xori", "shrsi", "shrui"]) op(`scalar.${n}`, "simple", 2, int);
op("scalar.shli", "simple", 2, int, OVERFLOW_FLAGS);
for (const n of ["negi", "absi"]) op(`scalar.${n}`, "simple", 1, int);
for (const n of ["addf", "subf", "mulf", "divf", "remf", "copysignf", "minimumf", "maximumf", "minnumf", "maxnumf"]) op(`scalar.${n}`, "simple", 2, float, FASTMATH_FLAGS);
for (const n of ["negf", "absf", "ceilf", "floorf", "roundf", "roundevenf", "truncf"]) op(`scalar.${n}`, "simple", 1, float, FASTMATH_FLAGS);
op("scalar.fmaf", "simple", 3, float, FASTMATH_FLAGS);
op("scalar.cmpi", "simple", 2, compare(isIntType, "integer"), 0, COMPARE_PREDICATES);
op("scalar.cmpf", "simple", 2, compare(isFloatType, "float"), FASTMATH_FLAGS, CMPF_PREDICATES);
op("scalar.sitofp", "simple", 1, conversion((a, b) => isIntType(a) && isFloatType(b), "integer to float"));
op("scalar.uitofp", "simple", 1, conversion((a, b) => isIntType(a) && isFloatType(b), "integer to float"));
op("scalar.fptosi", "simple", 1, conversion((a, b) => isFloatType(a) && isIntType(b), "float to integer"));
op("scalar.fptoui", "simple", 1, conversion((a, b) => isFloatType(a) && isIntType(b), "float to integer"));
op("scalar.extf", "simple", 1, conversion((a, b) => isFloatType(a) && isFloatType(b) && widerFloat(a, b), "to a strictly wider float"));
op("scalar.fptrunc", "simple", 1, conversion((a, b) => isFloatType(a) && isFloatType(b) && widerFloat(b, a), "to a strictly narrower float"));
op("scalar.extsi", "simple", 1, conversion((a, b) => isIntType(a) && isIntType(b) && typeWidth(b) > typeWidth(a), "to a strictly wider integer"));
op("scalar.extui", "simple", 1, conversion((a, b) => isIntType(a) && isIntType(b) && typeWidth(b) > typeWidth(a), "to a strictly wider integer"));
op("scalar.trunci", "simple", 1, conversion((a, b) => isIntType(a) && isIntType(b) && typeWidth(b) < typeWidth(a), "to a strictly narrower integer"));
op("scalar.bitcast", "simple", 1, conversion((a, b) => !isAddressType(a) && !isAddressType(b) && typeWidth(a) === typeWidth(b), "bitcast needs two scalar types of equal width"));
op("scalar.assume", "assume", 0, none);
// scf and the terminator
op("scf.select", "select", 3, none);
op("scf.if", "if", 0, none);
op("scf.for", "for", 0, none);
op("scf.yield", "yield", 0, none);
op("kernel.launch.config", "launch", 0, none);

export const OP_LIST: readonly OpInfo[] = list.map((o, i) => Object.freeze({ ...o, opcode: i }));
export const OP_BY_NAME: ReadonlyMap<string, OpInfo> = new Map(OP_LIST.map((o) => [o.name, o]));

/** Fast-math and overflow flag names as written in `props.flags` (`fast` = all seven). */
export const FLAG_NAMES = ["nsw", "nuw", "reassoc", "nnan", "ninf", "nsz", "arcp", "contract", "afn"] as const;
