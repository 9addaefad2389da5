/**
 * The syntax registry and the generic op forms most ops share.
 *
 * Each op name maps to one `OpSyntax`: `parse` reads everything after the op name (the parser
 * has consumed result names and the name) and returns the result types; `print` writes
 * everything after the op name in canonical form. Dialect files register their ops here.
 */
import type { Op, Value } from "../../ir/core.js";
import type { OpIn, OpName } from "../../dialects/registry.js";
import type { Words } from "../../dialects/decl.js";
import { T, type Type } from "../../ir/types.js";
import { D } from "../../core/diag/catalog.js";
import type { Parser } from "../parser.js";
import type { Writer } from "../writer.js";
import { Tok } from "../token.js";
import type { FlagSetName } from "../vocabulary.js";
import { propOf } from "../../dialects/registry.js";

/**
 * The parser and printer of the ops in `N`; each sees its op with the props the registry
 * declares for it (the generic forms take `OpName`: any op).
 */
export interface OpSyntax<N extends OpName = OpName> {
  parse(p: Parser, op: ParsingOp<N>): readonly Type[];
  print(w: Writer, op: SyntaxOp<N>): void;
}

/** A form for any op sees a plain `Op`; one for named ops sees them with their props. */
type SyntaxOp<N extends OpName> = OpName extends N ? Op : OpIn<N>;
/** While parsing, the op's operands and results are not there yet: only its props are typed. */
type ParsingOp<N extends OpName> = OpName extends N ? Op : Op & Pick<OpIn<N>, "name" | "props">;

const registry = new Map<string, OpSyntax>();

/** Registers the syntax of the space-separated op names in `names` (or a generic form). */
export function register<const S extends string>(names: S, syntax: OpSyntax<Words<S> & OpName>): void;
export function register(names: string, syntax: OpSyntax): void;
export function register(names: string, syntax: object): void {
  for (const n of names.split(" ")) {
    if (registry.has(n)) throw new Error(`syntax for ${n} registered twice`);
    // The parser and printer look the syntax up by the op's own name.
    registry.set(n, syntax as unknown as OpSyntax);
  }
}

export function lookupSyntax(name: string): OpSyntax | undefined {
  return registry.get(name);
}

export function registeredNames(): string[] {
  return [...registry.keys()];
}

// ------------------------------------------------------------------ shared pieces

/** `: T, ...` — stored as `props.annotatedTypes`. */
export function parseAnnotation(p: Parser, op: Op): Type[] {
  p.expect(Tok.Colon, "':'");
  const types = p.parseTypeList();
  op.props.annotatedTypes = types;
  return types;
}

/** The written annotation, or the one derived from the IR for ops built by passes. */
export function annotationOf(op: Op, derive: () => Type[]): readonly Type[] {
  return propOf(op, "annotatedTypes") ?? derive();
}

/**
 * `: A, B, ...` that states every operand and, at position `result`, the result: an arrow
 * result after it is PARSE/003, as in the reference (not a type-count mismatch).
 */
export function parseOperandAnnotation(p: Parser, op: Op, n: number): Type[] {
  const types = parseAnnotation(p, op);
  if (p.at(Tok.Arrow)) p.unexpected(p.peek(), "the result type in the ':' list");
  checkOperandCount(p, op, n, types.length);
  return types;
}

/** Fails with PARSE/010 unless exactly `n` operands were given. */
export function checkOperandCount(p: Parser, op: Op, n: number, got: number): void {
  if (got !== n) p.failAt(D.operandCount, op.span, [op.name, n, got]);
}

/** `: T` — exactly one type (stored as `annotatedTypes: [T]`). */
export function parseSingleAnnotation(p: Parser, op: Op): Type {
  return parseResultAnnotation(p, op)[0] as Type;
}

/** One-type lists of the interned types (prim, vector), shared by every op annotated so: no list per op. */
const SINGLE_TYPE_LISTS = new WeakMap<Type, readonly Type[]>();

/** `: T` as the op's result types: the `annotatedTypes` list itself (read-only, maybe shared). */
export function parseResultAnnotation(p: Parser, op: Op): readonly Type[] {
  p.expect(Tok.Colon, "':'");
  const t = p.parseType();
  let list = SINGLE_TYPE_LISTS.get(t);
  if (!list) {
    list = [t];
    // View and tensor types are made per use: their lists are not kept.
    if (t.kind === "prim" || t.kind === "vector") SINGLE_TYPE_LISTS.set(t, list);
  }
  return (op.props.annotatedTypes = list);
}

function typeOf(v: Value | undefined): Type {
  return v ? v.type : T.index;
}

function resultType(op: Op, i = 0): Type {
  return op.results[i]?.type ?? T.index;
}

// ------------------------------------------------------------------ generic forms

/** `%r = op : T` */
export const nullaryForm: OpSyntax = {
  parse(p, op) {
    return parseResultAnnotation(p, op);
  },
  print(w, op) {
    w.annotation(annotationOf(op, () => [resultType(op)]));
  },
};

/** `%r = op<x|y|z> : T` */
export function dimForm(): OpSyntax {
  return {
    parse(p, op) {
      op.props.dim = p.parseAngleEnum("dimension", ["x", "y", "z"]);
      return parseResultAnnotation(p, op);
    },
    print(w, op) {
      w.text(`<${op.props.dim}>`);
      w.annotation(annotationOf(op, () => [resultType(op)]));
    },
  };
}

/** `%r = op<flags>? %a, ... : T` with a fixed operand count; the result has the annotated type. */
export function arithForm(arity: number, flags?: FlagSetName): OpSyntax {
  return {
    parse(p, op) {
      p.parseOptionalFlags(op, flags);
      op.operands = p.parseValueList();
      const types = parseResultAnnotation(p, op);
      checkOperandCount(p, op, arity, op.operands.length);
      return types;
    },
    print(w, op) {
      w.flags(op);
      w.text(" ").values(op.operands);
      w.annotation(annotationOf(op, () => [resultType(op)]));
    },
  };
}

/** `%p = op<flags>? pred, %a, %b : T (-> R)?` — scalar compares give i1; vector ones state R. */
export function cmpForm(predicates: readonly string[], flags: FlagSetName | undefined, vector: boolean): OpSyntax {
  return {
    parse(p, op) {
      p.parseOptionalFlags(op, flags);
      op.props.predicate = p.parseEnum("predicate", predicates);
      p.expect(Tok.Comma, "','");
      op.operands = p.parseValueList();
      parseSingleAnnotation(p, op);
      checkOperandCount(p, op, 2, op.operands.length);
      if (!vector) return [T.i1];
      p.expect(Tok.Arrow, "'->'");
      return [p.parseType()];
    },
    print(w, op) {
      w.flags(op);
      w.text(` ${op.props.predicate}, `).values(op.operands);
      w.annotation(annotationOf(op, () => [typeOf(op.operands[0])]));
      if (vector) w.text(" -> ").type(resultType(op));
    },
  };
}

/** `%r = op %a : A to B` */
export const castForm: OpSyntax = {
  parse(p, op) {
    op.operands = p.parseValueList();
    checkOperandCount(p, op, 1, op.operands.length);
    parseSingleAnnotation(p, op);
    p.expectWord("to");
    return [p.parseType()];
  },
  print(w, op) {
    w.text(" ").values(op.operands);
    w.annotation(annotationOf(op, () => [typeOf(op.operands[0])]));
    w.text(" to ").type(resultType(op));
  },
};

/** `%c = op <literal> : T` */
export const constantForm: OpSyntax = {
  parse(p, op) {
    op.props.value = p.parseConstantLiteral();
    return parseResultAnnotation(p, op);
  },
  print(w, op) {
    w.text(" ").literal(propOf(op, "value") ?? { kind: "ident", value: "" });
    w.annotation(annotationOf(op, () => [resultType(op)]));
  },
};

/** `%r, ... = op %a, ... [pred, ...] : T, ...` — one result per annotated type. */
export const assumeForm: OpSyntax = {
  parse(p, op) {
    op.operands = p.parseValueList();
    op.props.predicates = p.parsePredicates();
    return parseAnnotation(p, op);
  },
  print(w, op) {
    w.text(" ").values(op.operands).text(" ").predicates(propOf(op, "predicates") ?? []);
    w.annotation(annotationOf(op, () => op.results.map((r) => r.type)));
  },
};

/** `%r, ... = op %a, ... : T, ...` (buffer.assume.noalias) — one result per annotated type. */
export const variadicIdentityForm: OpSyntax = {
  parse(p, op) {
    op.operands = p.parseValueList();
    return parseAnnotation(p, op);
  },
  print(w, op) {
    w.text(" ").values(op.operands);
    w.annotation(annotationOf(op, () => op.results.map((r) => r.type)));
  },
};

/**
 * `%r = op %a, %b, ... : A, B, ...` — one annotated type per operand; the result has the type
 * annotated at position `result` (`vector.dotf %a, %b, %acc : V, V, f32`).
 */
export function operandsForm(arity: number, result: number): OpSyntax {
  return {
    parse(p, op) {
      op.operands = p.parseValueList();
      checkOperandCount(p, op, arity, op.operands.length);
      const types = parseOperandAnnotation(p, op, arity);
      return [types[result] ?? T.index];
    },
    print(w, op) {
      w.text(" ").values(op.operands);
      w.annotation(annotationOf(op, () => op.operands.map((v) => v.type)));
    },
  };
}

/**
 * `%r = op %a word %b ... : R` — operands separated by fixed words (`vector.iota %base step
 * %step : vector<16xindex>`); the annotation is the result type.
 */
export function wordsForm(separators: readonly string[]): OpSyntax {
  return {
    parse(p, op) {
      const operands = [p.parseValueUse()];
      for (const word of separators) {
        p.expectWord(word);
        operands.push(p.parseValueUse());
      }
      op.operands = operands;
      return parseResultAnnotation(p, op);
    },
    print(w, op) {
      op.operands.forEach((v, i) => {
        w.text(i === 0 ? " " : ` ${separators[i - 1] ?? ","} `).value(v);
      });
      w.annotation(annotationOf(op, () => [resultType(op)]));
    },
  };
}
