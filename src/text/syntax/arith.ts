/** Syntax of the `index`, `scalar` and `vector` value ops (language.md §4.2, §4.3, §4.7). */
import { T, type Type } from "../../ir/types.js";
import { Tok } from "../token.js";
import { COMBINING, FLOAT_PREDICATES, INT_PREDICATES } from "../vocabulary.js";
import { annotationOf, arithForm, assumeForm, castForm, checkOperandCount, cmpForm, constantForm, parseAnnotation, parseSingleAnnotation, register } from "./core.js";

const CONVERSIONS = "sitofp uitofp fptosi fptoui extf fptrunc extsi extui trunci bitcast";
const FLOAT_UNARY = "negf absf expf exp2f logf log2f sqrtf rsqrtf sinf cosf tanhf erff ceilf floorf roundf roundevenf truncf";
const INT_BINARY = "divsi divui remsi remui minsi maxsi minui maxui andi ori xori shrsi shrui";

function each(prefix: string, names: string): string[] {
  return names.split(" ").map((n) => `${prefix}.${n}`);
}

// ---------------------------------------------------------------- index

register("index.constant", constantForm);
register("index.cast", castForm);
register(each("index", "add sub mul div rem min max andi ori xori shli shrsi shrui rotli rotri"), arithForm(2));
register("index.madd", arithForm(3));
register(each("index", "ctlzi cttzi ctpopi"), arithForm(1));
register("index.cmp", cmpForm(INT_PREDICATES, undefined, false));
register("index.assume", assumeForm);

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

// ---------------------------------------------------------------- scalar

register("scalar.constant", constantForm);
register(each("scalar", "addi subi muli shli"), arithForm(2, "ovf"));
register(each("scalar", `${INT_BINARY} ceildivsi ceildivui floordivsi`), arithForm(2));
register(each("scalar", "negi absi"), arithForm(1));
register(each("scalar", "addf subf mulf divf remf minimumf maximumf minnumf maxnumf powf copysignf"), arithForm(2, "fm"));
register(each("scalar", FLOAT_UNARY), arithForm(1, "fm"));
register("scalar.fmaf", arithForm(3, "fm"));
register("scalar.cmpi", cmpForm(INT_PREDICATES, undefined, false));
register("scalar.cmpf", cmpForm(FLOAT_PREDICATES, "fm", false));
register(each("scalar", CONVERSIONS), castForm);
register("scalar.assume", assumeForm);

// ---------------------------------------------------------------- vector

register("vector.constant", constantForm);
register("vector.splat", arithForm(1));
register(each("vector", "addf subf mulf divf minimumf maximumf minnumf maxnumf"), arithForm(2, "fm"));
register(each("vector", "addi subi muli shli"), arithForm(2, "ovf"));
register(each("vector", INT_BINARY), arithForm(2));
register(each("vector", FLOAT_UNARY), arithForm(1, "fm"));
register(each("vector", "negi absi"), arithForm(1));
register("vector.fmaf", arithForm(3, "fm"));
register("vector.cmpi", cmpForm(INT_PREDICATES, undefined, true));
register("vector.cmpf", cmpForm(FLOAT_PREDICATES, "fm", true));
register("vector.select", arithForm(3));
register(each("vector", CONVERSIONS), castForm);

/** `%v = vector.from_elements %a, %b, ... : vector<...>` */
register("vector.from_elements", {
  parse(p, op) {
    op.operands = p.parseValueList();
    return [parseSingleAnnotation(p, op)];
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
    w.text(" ").value(op.operands[0]!).indices(op.props.indices as never);
    w.annotation(annotationOf(op, () => [op.operands[0]!.type]));
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
    w.text(" ").value(op.operands[0]!).text(" into ").value(op.operands[1]!).indices(op.props.indices as never);
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
    const types: Type[] = parseAnnotation(p, op);
    checkOperandCount(p, op, 2, types.length);
    return [types[1]!];
  },
  print(w, op) {
    const flags = op.props.flags as readonly string[] | undefined;
    w.text(`<${op.props.kind as string}${flags && flags.length ? ", " + flags.join("|") : ""}>`);
    w.text(" ").values(op.operands);
    w.annotation(annotationOf(op, () => op.operands.map((v) => v.type)));
  },
});
