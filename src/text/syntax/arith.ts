/** Syntax of the `index`, `scalar` and `vector` value ops (language.md §4.2, §4.3, §4.7). */
import { T, type Type } from "../../ir/types.js";
import { Tok } from "../token.js";
import { COMBINING } from "../vocabulary.js";
import { annotationOf, checkOperandCount, parseAnnotation, parseOperandAnnotation, parseResultAnnotation, parseSingleAnnotation, register } from "./core.js";

// The generic forms (constants, arithmetic, compares, casts, assumes) come from the op
// declarations (src/dialects/ops); the hand-written forms follow.

/** `%r = index.scale %i, %s : index, offset -> offset` */
register("index.scale", {
  parse(p, op) {
    op.operands = p.parseValueList();
    checkOperandCount(p, op, 2, op.operands.length);
    parseAnnotation(p, op);
    p.expect(Tok.Arrow, "'->'");
    return [p.parseType()];
  },
  print(w, op) {
    w.text(" ").values(op.operands);
    w.annotation(annotationOf(op, () => op.operands.map((v) => v.type)));
    w.text(" -> ").type(op.results[0]?.type ?? T.offset);
  },
});

/** `%v = vector.from_elements %a, %b, ... : vector<...>` */
register("vector.from_elements", {
  parse(p, op) {
    op.operands = p.parseValueList();
    return parseResultAnnotation(p, op);
  },
  print(w, op) {
    w.text(" ").values(op.operands);
    w.annotation(annotationOf(op, () => [op.results[0]?.type ?? T.index]));
  },
});

/** `%x = vector.extract %v[i, ...] : vector<...> -> R` */
register("vector.extract", {
  parse(p, op) {
    op.operands = [p.parseValueUse()];
    op.props.indices = p.parseIndexList();
    parseSingleAnnotation(p, op);
    p.expect(Tok.Arrow, "'->'");
    return [p.parseType()];
  },
  print(w, op) {
    w.text(" ").value(op.operands[0]).indices(op.props.indices);
    w.annotation(annotationOf(op, () => [op.operands[0].type]));
    w.text(" -> ").type(op.results[0]?.type ?? T.index);
  },
});

/** `%r = vector.insert %x into %v[i, ...] : X, vector<...>` — the result has the vector type. */
register("vector.insert", {
  parse(p, op) {
    const x = p.parseValueUse();
    p.expectWord("into");
    const v = p.parseValueUse();
    op.operands = [x, v];
    op.props.indices = p.parseIndexList();
    const types = parseAnnotation(p, op);
    checkOperandCount(p, op, 2, types.length);
    return [types[1]!];
  },
  print(w, op) {
    w.text(" ").value(op.operands[0]).text(" into ").value(op.operands[1]).indices(op.props.indices);
    w.annotation(annotationOf(op, () => op.operands.map((v) => v.type)));
  },
});

/** `%s = vector.reduce<kind(, flags)?> %v, %init : vector<...xT>, T` — the result has type T. */
register("vector.reduce", {
  parse(p, op) {
    p.expect(Tok.Less, "'<'");
    op.props.kind = p.parseEnum("combining kind", COMBINING);
    if (p.eat(Tok.Comma)) op.props.flags = p.parseFlags("fm");
    p.expect(Tok.Greater, "'>'");
    op.operands = p.parseValueList();
    checkOperandCount(p, op, 2, op.operands.length);
    return [parseOperandAnnotation(p, op, 2)[1]!];
  },
  print(w, op) {
    const flags = op.props.flags;
    w.text(`<${op.props.kind}${flags && flags.length ? ", " + flags.join("|") : ""}>`);
    w.text(" ").values(op.operands);
    w.annotation(annotationOf(op, () => op.operands.map((v) => v.type)));
  },
});
