/** Syntax of `buffer`, `encoding`, `view` and vector memory ops (language.md §4.5–§4.7). */
import type { Literal, Op } from "../../ir/core.js";
import { T } from "../../ir/types.js";
import { indicesOf } from "../../dialects/registry.js";
import { D } from "../../core/diag/catalog.js";
import type { Parser } from "../parser.js";
import { Tok, type TokenIndex } from "../token.js";
import type { Writer } from "../writer.js";
import { ALLOCA_DEFERRED_SPACES, ALLOCA_SPACES, ATOMIC_RMW_KINDS, MEMORY_SPACES, ORDERINGS, SCOPES } from "../vocabulary.js";
import { annotationOf, nullaryForm, parseAnnotation, parseResultAnnotation, parseSingleAnnotation, register, variadicIdentityForm } from "./core.js";

// ---------------------------------------------------------------- buffer

/** `%v = buffer.view %b[%off] : buffer -> view<...>` */
register("buffer.view", {
  parse(p, op) {
    const b = p.parseValueUse();
    p.expect(Tok.LBracket, "'['");
    const off = p.parseValueUse();
    p.expect(Tok.RBracket, "']'");
    op.operands = [b, off];
    parseSingleAnnotation(p, op);
    p.expect(Tok.Arrow, "'->'");
    return [p.parseType()];
  },
  print(w, op) {
    w.text(" ").value(op.operands[0]).text("[").value(op.operands[1]).text("]");
    w.annotation(annotationOf(op, () => [op.operands[0].type]));
    w.text(" -> ").type(op.results[0]?.type ?? T.buffer);
  },
});

/** Reads an enum-valued attribute (PARSE/017 when the value is not one of `allowed`). */
function enumAttr<const W extends string>(p: Parser, a: { key: string; value: Literal; valueTok: TokenIndex }, allowed: readonly W[]): W {
  if (a.value.kind !== "ident" || !(allowed as readonly string[]).includes(a.value.value)) p.fail(D.unknownEnum, a.valueTok, [a.key, p.textOf(a.valueTok) || "value", allowed.join(", ")]);
  return a.value.value as W;
}

/** Fails unless every key of `required` was given. */
function requireKeys(p: Parser, given: readonly { key: string }[], required: readonly string[]): void {
  for (const k of required) {
    if (!given.some((a) => a.key === k)) p.unexpected(p.prev(), `'${k} = ...' in the attribute dict`);
  }
}

/**
 * `<space>` of a memory op. A word outside `allowed` is kept for the verifier, which reports it
 * as the reference does (STRUCTURE/014 on the op); the op holds `fallback` meanwhile.
 */
function parseSpace<const W extends string>(p: Parser, op: Op, allowed: readonly W[], fallback: W): W {
  p.expect(Tok.Less, "'<'");
  const t = p.expectIdent("a memory space");
  p.expect(Tok.Greater, "'>'");
  const space = p.textOf(t);
  if ((allowed as readonly string[]).includes(space)) return space as W;
  if (op.name === "buffer.alloca" && (ALLOCA_DEFERRED_SPACES as readonly string[]).includes(space)) op.props.deferredSpace = space;
  else op.props.invalidSpace = space;
  return fallback;
}

/**
 * `%s = buffer.alloca<workgroup|private> align(N) %bytes : buffer`; the reference's
 * `buffer.alloca %bytes {base_alignment = N, memory_space = s} : buffer` is printed back in the
 * form written (`dictForm`), as the reference's roundtrip tests expect.
 */
register("buffer.alloca", {
  parse(p, op) {
    if (p.at(Tok.Less)) {
      op.props.space = parseSpace(p, op, ALLOCA_SPACES, "private");
      p.expectWord("align");
      p.expect(Tok.LParen, "'('");
      op.props.align = p.parseSmallInt("an alignment");
      p.expect(Tok.RParen, "')'");
      op.operands = [p.parseValueUse()];
    } else {
      op.operands = [p.parseValueUse()];
      const attrs = p.parseAttrDict(["base_alignment", "memory_space"]);
      requireKeys(p, attrs, ["base_alignment", "memory_space"]);
      for (const a of attrs) {
        if (a.key === "memory_space") op.props.space = enumAttr(p, a, ALLOCA_SPACES);
        else if (a.value.kind !== "int" || a.value.value < 0n || a.value.value > 0x7fffffffn) p.unexpected(a.valueTok, "an alignment");
        else op.props.align = Number(a.value.value);
      }
      op.props = { space: op.props.space, align: op.props.align, dictForm: true };
    }
    return parseResultAnnotation(p, op);
  },
  print(w, op) {
    if (op.props.dictForm === true) w.text(" ").value(op.operands[0]).text(` {base_alignment = ${op.props.align}, memory_space = ${op.props.invalidSpace ?? op.props.deferredSpace ?? op.props.space}}`);
    else w.text(`<${op.props.invalidSpace ?? op.props.deferredSpace ?? op.props.space}> align(${op.props.align}) `).value(op.operands[0]);
    w.annotation(annotationOf(op, () => [T.buffer]));
  },
});

register("buffer.assume.noalias", variadicIdentityForm);

/** `%a2, ... = buffer.assume.alignment %a, ... {minimum_alignment = N} : buffer, ...` */
register("buffer.assume.alignment", {
  parse(p, op) {
    op.operands = p.parseValueList();
    const attrs = p.parseAttrDict(["minimum_alignment"]);
    requireKeys(p, attrs, ["minimum_alignment"]);
    const a = attrs[0]!;
    if (a.value.kind !== "int" || a.value.value < 0n || a.value.value > BigInt(Number.MAX_SAFE_INTEGER)) p.unexpected(a.valueTok, "an alignment");
    op.props.minimumAlignment = Number(a.value.value);
    return parseAnnotation(p, op);
  },
  print(w, op) {
    w.text(" ").values(op.operands).text(` {minimum_alignment = ${op.props.minimumAlignment}}`);
    w.annotation(annotationOf(op, () => op.results.map((r) => r.type)));
  },
});

/**
 * `%g = buffer.assume.memory_space<space> %b : buffer`; the legacy
 * `buffer.assume.memory_space %b {memory_space = space} : buffer` prints in the new form.
 */
register("buffer.assume.memory_space", {
  parse(p, op) {
    if (p.at(Tok.Less)) {
      op.props.space = parseSpace(p, op, MEMORY_SPACES, "global");
      op.operands = [p.parseValueUse()];
    } else {
      op.operands = [p.parseValueUse()];
      const attrs = p.parseAttrDict(["memory_space"]);
      requireKeys(p, attrs, ["memory_space"]);
      op.props.space = enumAttr(p, attrs[0]!, MEMORY_SPACES);
    }
    return parseResultAnnotation(p, op);
  },
  print(w, op) {
    w.text(`<${op.props.invalidSpace ?? op.props.space}> `).value(op.operands[0]);
    w.annotation(annotationOf(op, () => [op.operands[0].type]));
  },
});

/** `%n = buffer.length %b` (no annotation; the result is an `offset`). */
register("buffer.length", {
  parse(p, op) {
    op.operands = [p.parseValueUse()];
    return [T.offset];
  },
  print(w, op) {
    w.text(" ").value(op.operands[0]);
  },
});

// ---------------------------------------------------------------- encoding

register("encoding.layout.dense", nullaryForm);

/** `%l = encoding.layout.strided [s, ...] : encoding<layout>` */
register("encoding.layout.strided", {
  parse(p, op) {
    op.props.strides = p.parseIndexList();
    return parseResultAnnotation(p, op);
  },
  print(w, op) {
    w.text(" ").indices(op.props.strides);
    w.annotation(annotationOf(op, () => [T.layout]));
  },
});

// ---------------------------------------------------------------- view and vector accesses

/** `%x, %v[i, ...]`: leading plain operands, then the indexed view. */
function parseAccess(p: Parser, op: Op, leading: number): void {
  p.parseOptionalFlags(op, undefined);
  // Literals of the exact size (a push onto [] reserves 17 slots): `leading` is 0, 1 or 2.
  const first = p.parseValueUse();
  if (leading === 0) {
    op.operands = [first];
  } else {
    p.expect(Tok.Comma, "','");
    const second = p.parseValueUse();
    if (leading === 1) {
      op.operands = [first, second];
    } else {
      p.expect(Tok.Comma, "','");
      op.operands = [first, second, p.parseValueUse()];
    }
  }
  op.props.indices = p.parseIndexList();
}

function printAccess(w: Writer, op: Op): void {
  const n = op.operands.length;
  w.text(" ");
  if (n > 1) w.values(op.operands.slice(0, n - 1)).text(", ");
  w.value(op.operands[n - 1]!).indices(indicesOf(op));
}

const ATOMIC_KEYS = {
  plain: ["ordering", "scope"],
  cmpxchg: ["success_ordering", "failure_ordering", "scope"],
} as const;

/** `{ordering = O, scope = S}` (any input order; stored as props, printed in declared order). */
function parseAtomicAttrs(p: Parser, op: Op, keys: readonly string[], orderings: readonly string[] = ORDERINGS): void {
  if (!p.at(Tok.LBrace)) {
    // No dict at all: the verifier reports each required key on the op (TYPE/005, as the reference does);
    // the props hold the weakest values so that nothing downstream meets a half-built op.
    op.props.missingAttributes = [...keys];
    for (const k of keys) op.props[k === "success_ordering" ? "successOrdering" : k === "failure_ordering" ? "failureOrdering" : k] = k === "scope" ? "system" : "relaxed";
    return;
  }
  const attrs = p.parseAttrDict(keys);
  requireKeys(p, attrs, keys);
  for (const a of attrs) {
    const prop = a.key === "success_ordering" ? "successOrdering" : a.key === "failure_ordering" ? "failureOrdering" : a.key;
    op.props[prop] = enumAttr(p, a, a.key === "scope" ? SCOPES : a.key === "ordering" ? orderings : ORDERINGS);
  }
}

function printAtomicAttrs(w: Writer, op: Op, cmpxchg: boolean): void {
  // Keys in alphabetical order, as the reference prints every attribute dict.
  if (cmpxchg) w.text(` {failure_ordering = ${op.props.failureOrdering}, scope = ${op.props.scope}, success_ordering = ${op.props.successOrdering}}`);
  else w.text(` {ordering = ${op.props.ordering}, scope = ${op.props.scope}}`);
}

/** Access op shapes: leading operands, atomic attrs, whether `-> R` gives a result. */
interface AccessShape {
  leading: number;
  atomic?: "plain" | "cmpxchg";
  orderings?: readonly string[];
  kind?: boolean;
  result: boolean;
}

function accessForm(shape: AccessShape) {
  return {
    parse(p: Parser, op: Op) {
      if (shape.kind) op.props.kind = p.parseAngleEnum("atomic kind", ATOMIC_RMW_KINDS);
      parseAccess(p, op, shape.leading);
      if (shape.atomic) parseAtomicAttrs(p, op, ATOMIC_KEYS[shape.atomic], shape.orderings);
      parseAnnotation(p, op);
      if (!shape.result) return [];
      p.expect(Tok.Arrow, "'->'");
      return [p.parseType()];
    },
    print(w: Writer, op: Op) {
      if (shape.kind) w.text(`<${op.props.kind}>`);
      printAccess(w, op);
      if (shape.atomic) printAtomicAttrs(w, op, shape.atomic === "cmpxchg");
      w.annotation(annotationOf(op, () => (shape.leading > 0 ? op.operands.slice(shape.leading - 1).map((v) => v.type) : [op.operands[0]!.type])));
      if (shape.result) w.text(" -> ").type(op.results[0]?.type ?? T.index);
    },
  };
}

register("view.load vector.load", accessForm({ leading: 0, result: true }));
register("view.store vector.store", accessForm({ leading: 1, result: false }));
register("view.subview", accessForm({ leading: 0, result: true }));
register("view.atomic.rmw", accessForm({ leading: 1, atomic: "plain", kind: true, result: true }));
register("view.atomic.reduce", accessForm({ leading: 1, atomic: "plain", kind: true, result: false }));
register("view.atomic.cmpxchg", accessForm({ leading: 2, atomic: "cmpxchg", result: true }));
register("view.atomic.load", accessForm({ leading: 0, atomic: "plain", orderings: ["relaxed", "acquire", "seq_cst"], result: true }));
register("view.atomic.store", accessForm({ leading: 1, atomic: "plain", orderings: ["relaxed", "release", "seq_cst"], result: false }));
