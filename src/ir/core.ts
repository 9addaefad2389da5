/**
 * The Loom IR: modules of ops, ops with operands, results and single-block regions.
 *
 * Shape (language.md §2, §4):
 *  - A `Module` is a flat list of top-level ops (`kernel.def`, `func.def`, aliases, ...).
 *  - An `Op` is generic: `name` selects its definition in the dialect table
 *    (`src/dialects`), `operands`/`results` are SSA values, `regions` are nested
 *    single-block regions, and `props` holds the op's remaining syntax as plain data
 *    (enum parameters, flags, symbols, literals, predicate lists, index lists, attribute
 *    dicts). `props` may contain `Value`s (index lists, predicate arguments, an unroll
 *    factor) and types may too (dynamic view dimensions): `forEachUse` visits them all.
 *  - Evaluation is in program order; a value is visible after its definition in its block
 *    and in every region nested there. Kernel/func/template bodies are isolated from above.
 *  - Formatting facts the canonical printer needs (leading comments, blank-line flags,
 *    SSA names) travel with the IR so that `print(parse(x))` is a fixpoint.
 */
import type { Type } from "./types.js";

/** A source range; lines and columns are 1-based, columns count code points. */
export interface Span {
  readonly source: string;
  readonly line: number;
  readonly column: number;
  readonly endLine: number;
  readonly endColumn: number;
}

let nextValueId = 1;

/** An SSA value: an op result or a region (block) argument. */
export class Value {
  /** Process-unique identity, for side tables. */
  readonly id = nextValueId++;
  /**
   * @internal Scratch of the one walk using it right now (the verifier's dominance check marks
   * the values in scope, instead of a set it would grow and shrink; the dead-op pass counts
   * uses in it); meaningless outside it.
   */
  mark = 0;
  constructor(
    /** Name without `%`, as written (kept for printing). */
    public name: string,
    public type: Type,
    /** The op producing this value, or the region whose argument it is. */
    public owner: Op | Region,
    public span?: Span,
  ) {}
}

/** A literal in `props` (constants, attribute values, config definitions). */
export type Literal =
  | { readonly kind: "int"; readonly value: bigint }
  | { readonly kind: "float"; readonly value: number }
  | { readonly kind: "bool"; readonly value: boolean }
  | { readonly kind: "string"; readonly value: string }
  | { readonly kind: "ident"; readonly value: string };

/** Whether `v` (a prop, or anything) is a `Literal`: a known kind with a value of its type. */
export function isLiteral(v: unknown): v is Literal {
  if (typeof v !== "object" || v === null || !("kind" in v) || !("value" in v)) return false;
  switch (v.kind) {
    case "int": return typeof v.value === "bigint";
    case "float": return typeof v.value === "number";
    case "bool": return typeof v.value === "boolean";
    case "string": case "ident": return typeof v.value === "string";
    default: return false;
  }
}

/** A predicate `kind(a, b, ...)` of a `where` list or an assume (language.md §5). */
export interface Predicate {
  readonly kind: string;
  readonly args: readonly (Value | bigint)[];
  readonly span?: Span;
}

/** Anything an op keeps in `props`: plain data, possibly holding Values. */
export type Prop = string | number | bigint | boolean | Value | Literal | Predicate | Type | null | undefined | readonly Prop[] | { readonly [key: string]: Prop };

/** No comment lines: shared by every op and region without any (comment lists are replaced, never edited). */
const NO_LINES: readonly string[] = Object.freeze([]);

/**
 * No values / no regions: the starting lists of every op and region, shared and frozen (most
 * ops have no region, many no result). They are replaced on the first addition, never pushed
 * to: use `addResult` / `addRegion` / `addArg`, or assign a fresh array.
 */
const NO_VALUES: Value[] = [];
const NO_REGIONS: Region[] = [];

/** A single-block region: arguments, ops in order, and trailing comments. */
export class Region {
  args: Value[] = NO_VALUES;
  ops: Op[] = [];
  /** Comments after the last op (language.md §1, ⚠ kept for `loom fmt`). */
  trailingComments: readonly string[] = NO_LINES;
  /** Whether a blank line preceded the trailing comments. */
  trailingBlank = false;
  constructor(public parent: Op | null = null) {}

  addArg(name: string, type: Type, span?: Span): Value {
    const v = new Value(name, type, this, span);
    if (this.args === NO_VALUES) this.args = [v];
    else this.args.push(v);
    return v;
  }
}

export class Op {
  results: Value[] = NO_VALUES;
  regions: Region[] = NO_REGIONS;
  props: Record<string, Prop> = {};
  /** Leading `//` comments (text after `//`, verbatim; a "\r" prefix marks an end-of-line comment, a lone "\n" a blank line: text/parser.ts `commentLines`, `commentTexts`). */
  comments: readonly string[] = NO_LINES;
  /** A blank line preceded this op (or its comments) in the source. */
  blankBefore = false;
  /** The region containing this op, or null at module top level. */
  parent: Region | null = null;
  constructor(
    /** Full op name, e.g. `index.add`. */
    public name: string,
    public span?: Span,
    /** A creator that assigns the operands later passes a placeholder here, not a list made to be dropped. */
    public operands: Value[] = [],
  ) {}

  addResult(name: string, type: Type, span?: Span): Value {
    const v = new Value(name, type, this, span);
    if (this.results === NO_VALUES) this.results = [v];
    else this.results.push(v);
    return v;
  }
  addRegion(): Region {
    const r = new Region(this);
    if (this.regions === NO_REGIONS) this.regions = [r];
    else this.regions.push(r);
    return r;
  }
  get dialect(): string {
    return this.name.slice(0, this.name.indexOf("."));
  }
  /** The `@symbol` this op defines or references (without `@`), when it has one. */
  get symbol(): string | undefined {
    const s = this.props.symbol;
    return typeof s === "string" ? s : undefined;
  }
}

/** One `.loom` file. */
export class Module {
  ops: Op[] = [];
  trailingComments: string[] = [];
  trailingBlank = false;
  constructor(public sourceName: string) {}

  /** Top-level ops that define a symbol, by name. */
  symbolTable(): Map<string, Op> {
    const m = new Map<string, Op>();
    for (const op of this.ops) {
      const s = op.symbol;
      if (s !== undefined && !m.has(s)) m.set(s, op);
    }
    return m;
  }
}
