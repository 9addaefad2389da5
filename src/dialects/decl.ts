/**
 * The shape of one op declaration (docs/ops.md): everything the parser, printer, verifier,
 * folder, interpreter and back ends need to know about an op, as data. Each dialect file
 * (`kernel.ts`, `index.ts`, ...) declares its ops with `op(...)` / `family(...)`; `registry.ts`
 * assembles them, and the op-name union `OpName` and the per-op props type `PropsOf<N>` are
 * derived from those declarations, so the compiler checks every name and props access.
 *
 * Fields:
 * - `placement`: the letters of the C/D/F columns of language.md §4 — where the op may appear
 *   (C = launch-config region, D = kernel body and nested `scf` regions, F = `func.def` /
 *   `template.def` body). Top-level ops have `""` and `topLevel: true`. Calls list C because
 *   they are allowed there when `pure` (the verifier checks the modifier: STRUCTURE/052).
 * - `pure`: no memory effects and no synchronisation, so the op may be removed or moved freely.
 *   Region ops (`scf.*`) are pure as ops; their nested ops decide. Calls are not (their `pure`
 *   modifier and callee decide).
 * - `terminator`: ends a region block. `collective`: a barrier or collective that every
 *   invocation of that scope must reach (STRUCTURE/038).
 * - `syntax`: the generic form the text layer parses and prints (`custom` = a hand-written
 *   form in src/text/syntax, looked up by name).
 * - `types`: the operand/result type rule the verifier applies (absent = a hand-written
 *   checker in src/passes/verify/types.ts, or no operands to check).
 * - `evaluate`: the op's value semantics on constant inputs; the interpreter runs it and the
 *   folder calls it when every operand is a constant (it is the op's fold hook).
 * - `operands` / `results` / `regions`: how many the op has, exactly (`2`) or at least
 *   (`{ min: 3 }`); absent = not stated. A verified op has them (test/dialects/arity.test.ts
 *   checks every op of the corpus), so `OpOf<N>` types them as tuples and `op.operands[0]`
 *   (or `op.regions[0]`) needs no `!`.
 * - `props`: the op's props type, as `props: shape<P>()` (a phantom: the value is undefined).
 */
import type { Literal, Predicate, Value } from "../ir/core.js";
import type { ValueOrInt } from "../ir/props.js";
import type { Type } from "../ir/types.js";
import type { ComparePredicate as IntPredicate, Undefined } from "./index/semantics.js";
import type { CmpfPredicate as FloatPredicate } from "./scalar/semantics.js";

/**
 * Type classes of operands and results: `I` integers, `F` floats, `S` = I ∪ F, `A` =
 * index/offset, `index`; `vI`/`vF` vectors with integer (or `index`) / float elements;
 * `N` `index` or an integer wider than `i1` (a coordinate).
 */
export type TypeClass = "I" | "F" | "S" | "A" | "index" | "vI" | "vF" | "N";

/** An operand or result of the op being checked. */
export type TypeRef = { readonly operand: number } | { readonly result: number };

/** One check of a `signature` rule, applied in order; the first failure is reported. */
export type TypeCheck = TypeRef & (
  /** In a class: TYPE/003 for an operand, TYPE/004 for a result. */
  | { readonly is: TypeClass }
  /** Exactly the type of another operand/result: TYPE/001. */
  | { readonly sameAs: TypeRef }
  /** The element type of a vector operand/result: TYPE/002. */
  | { readonly elementOf: TypeRef }
);

export type TypeRule =
  /** All operands share one type from `cls`; the result is that type or `i1` (lanewise for vectors). */
  | { readonly kind: "uniform"; readonly arity: number; readonly cls: TypeClass; readonly result: "same" | "i1" }
  /** Conversions (§3, §4.3): operand side, result side, and the width relation. */
  | { readonly kind: "conversion"; readonly from: "I" | "F" | "S"; readonly to: "I" | "F" | "S"; readonly width: "wider" | "narrower" | "equal" | "any" }
  /** A list of per-operand/result checks. */
  | { readonly kind: "signature"; readonly checks: readonly TypeCheck[] };

/** The rule of ops producing one `index` from nothing (coordinate queries). */
export const INDEX_RESULT = { kind: "signature", checks: [{ result: 0, is: "index" }] } as const satisfies TypeRule;

/** Flag sets an op may take (text/vocabulary.ts FLAG_SETS). */
export type FlagSet = "ovf" | "fm";

export type SyntaxForm =
  /** `%r = op<flags>? %a, ... : T` with a fixed operand count; the result has type T. */
  | { readonly form: "arith"; readonly arity: number; readonly flags?: FlagSet }
  /** `%p = op<flags>? pred, %a, %b : T (-> R)?` — vector compares state R. */
  | { readonly form: "cmp"; readonly predicates: "int" | "float"; readonly flags?: FlagSet; readonly vector: boolean }
  /** `%r = op %a : A to B` */
  | { readonly form: "cast" }
  /** `%c = op <literal> : T` */
  | { readonly form: "constant" }
  /** `%r, ... = op %a, ... [pred, ...] : T, ...` */
  | { readonly form: "assume" }
  /**
   * `%r = op %a, %b, ... : A, B, ...` — one annotated type per operand; the result has the
   * type annotated at position `result`.
   */
  | { readonly form: "operands"; readonly arity: number; readonly result: number }
  /**
   * `%r = op %a word %b ... : R` — operands separated by the given words (one fewer than
   * the operands); the annotation is the result type.
   */
  | { readonly form: "words"; readonly separators: readonly string[] }
  /** A hand-written form registered by name in src/text/syntax. */
  | { readonly form: "custom" };

/** A value an evaluator sees: a scalar lane or a vector's lanes in row-major order. */
export type Lane = bigint | number;
export type EvalValue = Lane | readonly Lane[];

/**
 * Value semantics of an op: integers are unsigned bit patterns of their width, `index` and
 * `offset` signed bigints, floats numbers already rounded to their type. Undefined behaviour
 * is an `Undefined` (never folded; the interpreter reports it at the op).
 */
export type Evaluate = (args: readonly EvalValue[], types: { readonly operands: readonly Type[]; readonly result: Type }) => EvalValue | Undefined;

/** How many operands (or results) an op has: exactly `n`, or at least `min`. */
export type Arity = number | { readonly min: number };

export interface OpDecl<P extends object = object> {
  readonly placement: string;
  readonly pure: boolean;
  readonly terminator?: boolean;
  readonly topLevel?: boolean;
  readonly collective?: "subgroup" | "workgroup";
  readonly syntax: SyntaxForm;
  readonly types?: TypeRule;
  readonly evaluate?: Evaluate;
  readonly operands?: Arity;
  readonly results?: Arity;
  readonly regions?: Arity;
  /** Phantom: the op's props type. */
  readonly props?: P | undefined;
}

/** Props every op with a `: T` annotation may carry (the types as written, for the printer). */
export interface Annotated {
  readonly annotatedTypes?: readonly Type[];
}

/**
 * Declares one op. The declaration's own type is kept (`const`), so the registry can derive the
 * op's props type (from `props: shape<P>()`, else `Annotated`) and its operand and result tuples.
 */
export function op<const D extends OpDecl>(d: D): D {
  return d;
}

/** The phantom value of an op's `props` field: `props: shape<ArithProps>()`. */
export function shape<P extends object>(): P | undefined {
  return undefined;
}

/** The type rule of an op whose `arity` operands share one type of class `cls`, the result that type or `i1`. */
export const uniform = (arity: number, cls: TypeClass, result: "same" | "i1" = "same") => ({ kind: "uniform", arity, cls, result }) as const;

/** The `arith` syntax form with `arity` operands and, optionally, a flag set. */
export const arith = (arity: number, flags?: FlagSet) => ({ form: "arith", arity, ...(flags ? { flags } : {}) }) as const;

/** The words of a space-separated list, as a union: `Words<"a b">` = `"a" | "b"`. */
export type Words<S extends string> = S extends `${infer Head} ${infer Tail}` ? Head | Words<Tail> : S;

/** Declares `prefix.name` for each space-separated name, all with the same declaration. */
export function family<const Prefix extends string, const Names extends string, D extends OpDecl>(
  prefix: Prefix,
  names: Names,
  d: D,
): { readonly [K in `${Prefix}.${Words<Names>}`]: D } {
  const out: Record<string, D> = {};
  for (const n of names.split(" ")) out[`${prefix}.${n}`] = d;
  return out as { readonly [K in `${Prefix}.${Words<Names>}`]: D };
}

// ---------------------------------------------------------------- props shapes shared by dialects

export interface ArithProps extends Annotated {
  readonly flags?: readonly string[];
}
/** A comparison: `predicate` is one of the integer (`IntPredicate`) or float (`FloatPredicate`) words. */
export interface CompareProps<Pred extends string = IntPredicate | FloatPredicate> extends ArithProps {
  readonly predicate: Pred;
}
export interface ConstantProps extends Annotated {
  readonly value: Literal;
}
export interface AssumeProps extends Annotated {
  readonly predicates: readonly Predicate[];
}
export interface IndexedProps extends Annotated {
  readonly indices: readonly ValueOrInt[];
}
export interface SymbolProps {
  readonly symbol: string;
}
export interface CallProps extends SymbolProps {
  readonly modifiers: readonly string[];
}
/** A `where [...]` list. */
export interface WhereProps {
  readonly where?: readonly Predicate[];
}
export type { FloatPredicate, IntPredicate, Literal, Predicate, Type, Value, ValueOrInt };
