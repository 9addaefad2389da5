/**
 * Syntax of the check harness (language.md §11): `check.case`, `check.benchmark`,
 * `kernel.entry.decl`, the value sources, the host-side `kernel.launch` / `kernel.dispatch`,
 * oracles and expectations. Clauses are written in one fixed order, as the reference prints
 * them, so a parsed file prints back unchanged.
 */
import { Op, type Literal, type Region } from "../../ir/core.js";
import { T, type Type } from "../../ir/types.js";
import { D } from "../../core/diag/catalog.js";
import type { Parser } from "../parser.js";
import { Tok } from "../token.js";
import type { Writer } from "../writer.js";
import { quoteString } from "../literals.js";
import type { NamedLiteral, ProviderAttr } from "../../dialects/ops/check.js";
import type { OpIn } from "../../dialects/registry.js";
import { lookupOp } from "../../dialects/table.js";
import { annotationOf, parseResultAnnotation, parseSingleAnnotation, register } from "./core.js";

// ---------------------------------------------------------------- shared clauses

/** `word(` … `)` around `inner`. */
function clause<R>(p: Parser, word: string, inner: () => R): R {
  p.expectWord(word);
  p.expect(Tok.LParen, "'('");
  const out = inner();
  p.expect(Tok.RParen, "')'");
  return out;
}

/**
 * A check literal as the reference prints it: integers as written, floats in the shortest
 * text that reads back to the same number (`0.03125`, `1.001`, `4.0`).
 */
function printLiteral(w: Writer, l: Literal): Writer {
  if (l.kind !== "float" || !Number.isFinite(l.value)) return w.literal(l);
  const x = l.value;
  if (Object.is(x, -0)) return w.text("-0.0");
  const s = String(x);
  return w.text(/[.e]/.test(s) ? s : `${s}.0`);
}

/** A literal of a value clause: a number, `true`/`false`, `inf`/`nan`, or a bare word. */
function literal(p: Parser): Literal {
  return p.parseLiteral("a literal value");
}

function integer(p: Parser, what: string): bigint {
  return p.intOf(p.expect(Tok.Int, what));
}

/** `lo to hi` */
function interval(p: Parser): [Literal, Literal] {
  const lo = literal(p);
  p.expectWord("to");
  return [lo, literal(p)];
}

/** Optional `name("…")`. */
function parseParamName(p: Parser, op: Op): void {
  if (p.atWord("name")) op.props.paramName = clause(p, "name", () => p.expectText(Tok.String, "a parameter name string"));
}

function printParamName(w: Writer, op: Op): void {
  if (typeof op.props.paramName === "string") w.text(` name(${quoteString(op.props.paramName)})`);
}

/** `{key = literal, …}` with any keys (each once). */
function parseNamedLiterals(p: Parser): NamedLiteral[] {
  p.expect(Tok.LBrace, "'{'");
  const out: NamedLiteral[] = [];
  if (!p.at(Tok.RBrace)) {
    for (;;) {
      const keyTok = p.expectIdent("an attribute key");
      if (out.some((e) => e.key === p.textOf(keyTok))) p.fail(D.duplicateAttribute, keyTok, [p.textOf(keyTok)]);
      p.expect(Tok.Equal, "'='");
      out.push({ key: p.textOf(keyTok), value: literal(p) });
      if (!p.eat(Tok.Comma)) break;
    }
  }
  p.expect(Tok.RBrace, "'}'");
  return out;
}

function printNamedLiterals(w: Writer, list: readonly NamedLiteral[]): void {
  w.text(" {");
  list.forEach((e, i) => {
    if (i > 0) w.text(", ");
    printLiteral(w.text(`${e.key} = `), e.value);
  });
  w.text("}");
}

/** A provider name in `<…>`: `reference.matmul`, `topk.equal`, or one word. */
function parseProvider(p: Parser): string {
  p.expect(Tok.Less, "'<'");
  const t = p.peek();
  if (p.kindOf(t) !== Tok.OpName && p.kindOf(t) !== Tok.Ident) p.unexpected(t, "a provider name");
  p.next();
  p.expect(Tok.Greater, "'>'");
  return p.textOf(t);
}

function resultTypeOf(op: Op): Type {
  return op.results[0]?.type ?? T.i32;
}

// ---------------------------------------------------------------- top level

/** `check.case (public)? @name { … check.return }` */
register("check.case", {
  parse(p, op) {
    const modifiers: string[] = [];
    if (p.eatWord("public")) modifiers.push("public");
    op.props.modifiers = modifiers;
    op.props.symbol = p.parseSymbolName("a case name");
    p.hostValueDepth++;
    try {
      p.parseRegion(op.addRegion(), true);
    } finally {
      p.hostValueDepth--;
    }
    return [];
  },
  print(w, op) {
    for (const m of op.props.modifiers ?? []) w.text(` ${m}`);
    w.text(` @${op.props.symbol}`);
    w.region(op.regions[0]);
  },
});

/** `check.benchmark<@case> (@name)? ({key = value, …})?` */
register("check.benchmark", {
  parse(p, op) {
    p.expect(Tok.Less, "'<'");
    op.props.case = p.parseSymbolName("the benchmarked case");
    p.expect(Tok.Greater, "'>'");
    if (p.at(Tok.Symbol)) op.props.symbol = p.parseSymbolName("a benchmark name");
    op.props.assignments = p.at(Tok.LBrace) ? parseNamedLiterals(p) : [];
    return [];
  },
  print(w, op) {
    w.text(`<@${op.props.case}>`);
    if (op.props.symbol !== undefined) w.text(` @${op.props.symbol}`);
    if (op.props.assignments.length > 0) printNamedLiterals(w, op.props.assignments);
  },
});

/** `kernel.entry.decl @name(%a: T, …)` */
register("kernel.entry.decl", {
  parse(p, op) {
    op.props.symbol = p.parseSymbolName();
    const region = op.addRegion();
    p.withScope(region, true, () => p.parseSignature(region));
    return [];
  },
  print(w, op) {
    w.text(` @${op.props.symbol}`).signature(op.regions[0].args);
  },
});

// ---------------------------------------------------------------- launch schedules

/** Ends a schedule body with `kernel.launch.yield`, supplied when left out (the printer leaves it out). */
function ensureLaunchYield(p: Parser, region: Region): void {
  const last = region.ops[region.ops.length - 1];
  if (last && last.name === "kernel.launch.yield" && last.comments.length === 0) {
    // The printer omits it: record the layout facts the re-parse will see.
    last.blankBefore = false;
    if (region.ops.length === 1) region.trailingBlank = false;
    return;
  }
  if (last && lookupOp(last.name)?.terminator) return;
  const y = new Op("kernel.launch.yield", p.span(p.prev()));
  y.parent = region;
  region.ops.push(y);
}

/** `kernel.launch.serial { … }`, `kernel.launch.concurrent { … }`: launches and nested schedules. */
register("kernel.launch.serial kernel.launch.concurrent", {
  parse(p, op) {
    const body = op.addRegion();
    p.parseRegion(body, false);
    ensureLaunchYield(p, body);
    return [];
  },
  print(w, op) {
    w.region(op.regions[0], { omitEmptyTerminator: "kernel.launch.yield" });
  },
});

register("kernel.launch.yield", {
  parse() {
    return [];
  },
  print() {},
});

register("check.return", {
  parse() {
    return [];
  },
  print() {},
});

// ---------------------------------------------------------------- parameters

/** `%s = check.param.seed base(N) count(N) (name("…"))? : T` */
register("check.param.seed", {
  parse(p, op) {
    op.props.base = clause(p, "base", () => integer(p, "a seed base"));
    op.props.count = clause(p, "count", () => integer(p, "a seed count"));
    parseParamName(p, op);
    return parseResultAnnotation(p, op);
  },
  print(w, op) {
    w.text(` base(${op.props.base}) count(${op.props.count})`);
    printParamName(w, op);
    w.annotation(annotationOf(op, () => [resultTypeOf(op)]));
  },
});

/** `%k = check.param.choice values([a, b, …]) (name("…"))? : T` */
register("check.param.choice", {
  parse(p, op) {
    op.props.values = clause(p, "values", () => {
      p.expect(Tok.LBracket, "'['");
      const out: bigint[] = [];
      if (!p.at(Tok.RBracket)) {
        out.push(integer(p, "an integer choice"));
        while (p.eat(Tok.Comma)) out.push(integer(p, "an integer choice"));
      }
      p.expect(Tok.RBracket, "']'");
      return out;
    });
    parseParamName(p, op);
    return parseResultAnnotation(p, op);
  },
  print(w, op) {
    w.text(` values([${op.props.values.join(", ")}])`);
    printParamName(w, op);
    w.annotation(annotationOf(op, () => [resultTypeOf(op)]));
  },
});

/** `%m = check.param.range linear|po2 bounds(lo to hi) (step(s))? (name("…"))? : T` */
register("check.param.range", {
  parse(p, op) {
    op.props.policy = p.parseEnum("range policy", ["linear", "po2"] as const);
    const [lo, hi] = clause(p, "bounds", () => interval(p));
    op.props.lower = lo;
    op.props.upper = hi;
    if (p.atWord("step")) op.props.step = clause(p, "step", () => literal(p));
    parseParamName(p, op);
    return parseResultAnnotation(p, op);
  },
  print(w, op) {
    printLiteral(printLiteral(w.text(` ${op.props.policy} bounds(`), op.props.lower).text(" to "), op.props.upper).text(")");
    if (op.props.step) printLiteral(w.text(" step("), op.props.step).text(")");
    printParamName(w, op);
    w.annotation(annotationOf(op, () => [resultTypeOf(op)]));
  },
});

// ---------------------------------------------------------------- value sources

/** `%v = check.literal value(x) : T` and `%t = check.generate.fill value(x) : T` */
register("check.literal check.generate.fill", {
  parse(p, op) {
    op.props.value = clause(p, "value", () => literal(p));
    return parseResultAnnotation(p, op);
  },
  print(w, op) {
    printLiteral(w.text(" value("), op.props.value).text(")");
    w.annotation(annotationOf(op, () => [resultTypeOf(op)]));
  },
});

/** `%t = check.generate.iota offset(a) step(b) (period(n))? : T` */
register("check.generate.iota", {
  parse(p, op) {
    op.props.offset = clause(p, "offset", () => literal(p));
    op.props.step = clause(p, "step", () => literal(p));
    if (p.atWord("period")) op.props.period = clause(p, "period", () => integer(p, "a period"));
    return parseResultAnnotation(p, op);
  },
  print(w, op) {
    printLiteral(printLiteral(w.text(" offset("), op.props.offset).text(") step("), op.props.step).text(")");
    if (op.props.period !== undefined) w.text(` period(${op.props.period})`);
    w.annotation(annotationOf(op, () => [resultTypeOf(op)]));
  },
});

/** `%t = check.generate.random.uniform seed(%s) range(lo to hi) : T` */
register("check.generate.random.uniform", {
  parse(p, op) {
    op.operands = [clause(p, "seed", () => p.parseValueUse())];
    const [lo, hi] = clause(p, "range", () => interval(p));
    op.props.lower = lo;
    op.props.upper = hi;
    return parseResultAnnotation(p, op);
  },
  print(w, op) {
    printLiteral(printLiteral(w.text(" seed(").value(op.operands[0]).text(") range("), op.props.lower).text(" to "), op.props.upper).text(")");
    w.annotation(annotationOf(op, () => [resultTypeOf(op)]));
  },
});

/** `%v = check.tensor.view %storage offset(BYTES) : tensor<…> -> tensor<…>` */
register("check.tensor.view", {
  parse(p, op) {
    op.operands = [p.parseValueUse()];
    op.props.offset = clause(p, "offset", () => integer(p, "a byte offset"));
    p.expect(Tok.Colon, "':'");
    const from = p.parseType();
    p.expect(Tok.Arrow, "'->'");
    const to = p.parseType();
    op.props.annotatedTypes = [from, to];
    return [to];
  },
  print(w, op) {
    w.text(" ").value(op.operands[0]).text(` offset(${op.props.offset})`);
    const [from, to] = annotationOf(op, () => [op.operands[0].type, resultTypeOf(op)]);
    w.text(" : ").type(from!).text(" -> ").type(to!);
  },
});

// ---------------------------------------------------------------- launches

/**
 * `kernel.launch @k[%w, …](%a, …) : [W, …](A, …)` (the `[…]` lists may be left out together);
 * `kernel.dispatch` the same with workgroup counts in `[…]`.
 */
register("kernel.launch kernel.dispatch", {
  parse(p, op) {
    op.props.symbol = p.parseSymbolName("a kernel");
    const bracketed = p.at(Tok.LBracket);
    let bracket: Op["operands"] = [];
    if (bracketed) {
      p.next();
      bracket = p.parseOptionalValueList();
      p.expect(Tok.RBracket, "']'");
    }
    p.expect(Tok.LParen, "'('");
    const args = p.parseOptionalValueList();
    p.expect(Tok.RParen, "')'");
    // A dispatch may state the workgroup size (index values, after the arguments); the verifier checks their count.
    const sizes = op.name === "kernel.dispatch" && p.atWord("workgroup_size") ? clause(p, "workgroup_size", () => p.parseOptionalValueList()) : [];
    op.props.bracketed = bracketed;
    op.props.bracketCount = bracket.length;
    if (sizes.length > 0) op.props.sizeCount = sizes.length;
    op.operands = [...bracket, ...args, ...sizes];
    p.expect(Tok.Colon, "':'");
    let bracketTypes: Type[] = [];
    if (bracketed) {
      p.expect(Tok.LBracket, "'['");
      bracketTypes = p.at(Tok.RBracket) ? [] : p.parseTypeList();
      p.expect(Tok.RBracket, "']'");
    }
    const argTypes = p.parseParenTypeList();
    if (bracketTypes.length !== bracket.length || argTypes.length !== args.length) {
      p.failAt(D.operandCount, op.span, [`${op.name} type list`, bracket.length + args.length, bracketTypes.length + argTypes.length]);
    }
    // The sizes are not in the type list: they are index values.
    op.props.annotatedTypes = [...bracketTypes, ...argTypes, ...sizes.map((v) => v.type)];
    return [];
  },
  print(w, op) {
    const n = op.props.bracketCount;
    const end = op.operands.length - (op.props.sizeCount ?? 0);
    const types = annotationOf(op, () => op.operands.map((v) => v.type));
    w.text(` @${op.props.symbol}`);
    if (op.props.bracketed) w.text("[").values(op.operands.slice(0, n)).text("]");
    w.text("(").values(op.operands.slice(n, end)).text(")");
    if (end < op.operands.length) w.text(" workgroup_size(").values(op.operands.slice(end)).text(")");
    w.text(" : ");
    if (op.props.bracketed) w.text("[").types(types.slice(0, n)).text("]");
    w.text("(").types(types.slice(n, end)).text(")");
  },
});

/** `%r, … = check.oracle.call<provider> ({attrs})? callee(@f) inputs(%a, …) : (A, …) -> (R, …)` */
register("check.oracle.call", {
  parse(p, op) {
    op.props.provider = parseProvider(p);
    if (p.at(Tok.LBrace)) op.props.attrs = parseNamedLiterals(p);
    op.props.callee = clause(p, "callee", () => p.parseSymbolName("the oracle's callee"));
    op.operands = clause(p, "inputs", () => p.parseOptionalValueList());
    p.expect(Tok.Colon, "':'");
    const inputs = p.parseParenTypeList();
    if (inputs.length !== op.operands.length) p.failAt(D.operandCount, op.span, [op.name, op.operands.length, inputs.length]);
    op.props.annotatedTypes = inputs;
    p.expect(Tok.Arrow, "'->'");
    return p.parseParenTypeList();
  },
  print(w, op) {
    w.text(`<${op.props.provider}>`);
    if (op.props.attrs && op.props.attrs.length > 0) printNamedLiterals(w, op.props.attrs);
    w.text(` callee(@${op.props.callee}) inputs(`).values(op.operands).text(") : (");
    w.types(annotationOf(op, () => op.operands.map((v) => v.type))).text(") -> (").types(op.results.map((r) => r.type)).text(")");
  },
});

// ---------------------------------------------------------------- expectations

function parseActualExpected(p: Parser, op: Op): void {
  const actual = clause(p, "actual", () => p.parseValueUse());
  const expected = clause(p, "expected", () => p.parseValueUse());
  op.operands = [actual, expected];
}

function printActualExpected(w: Writer, op: OpIn<"check.expect" | "check.expect.equal" | "check.expect.bitwise" | "check.expect.close">): void {
  w.text(" actual(").value(op.operands[0]).text(") expected(").value(op.operands[1]).text(")");
}

/** `check.expect.equal|bitwise actual(%a) expected(%b) : T` */
register("check.expect.equal check.expect.bitwise", {
  parse(p, op) {
    parseActualExpected(p, op);
    parseSingleAnnotation(p, op);
    return [];
  },
  print(w, op) {
    printActualExpected(w, op);
    w.annotation(annotationOf(op, () => [op.operands[0].type]));
  },
});

/** A tolerance: a non-negative finite number (an integer is read as one), kept as written. */
function tolerance(p: Parser, word: string): Literal {
  return clause(p, word, () => {
    const t = p.peek();
    const l = literal(p);
    const x = l.kind === "float" ? l.value : l.kind === "int" ? Number(l.value) : NaN;
    if (!Number.isFinite(x) || x < 0) p.fail(D.unexpectedToken, t, [p.textOf(t), "a finite non-negative tolerance"]);
    return l;
  });
}

/** `check.expect.close actual(%a) expected(%b) atol(x) rtol(y) nan(same|different) : T` */
register("check.expect.close", {
  parse(p, op) {
    parseActualExpected(p, op);
    op.props.atol = tolerance(p, "atol");
    op.props.rtol = tolerance(p, "rtol");
    op.props.nan = clause(p, "nan", () => p.parseEnum("NaN policy", ["same", "different"] as const));
    parseSingleAnnotation(p, op);
    return [];
  },
  print(w, op) {
    printActualExpected(w, op);
    w.text(" atol(");
    printLiteral(w, op.props.atol).text(") rtol(");
    printLiteral(w, op.props.rtol).text(`) nan(${op.props.nan})`);
    w.annotation(annotationOf(op, () => [op.operands[0].type]));
  },
});

/** `check.expect.shape value(%t) shape([%m, 4, …]) : T` */
register("check.expect.shape", {
  parse(p, op) {
    const value = clause(p, "value", () => p.parseValueUse());
    const shape = clause(p, "shape", () => p.parseIndexList());
    op.props.shape = shape;
    op.operands = [value, ...shape.filter((s) => typeof s !== "bigint")];
    parseSingleAnnotation(p, op);
    return [];
  },
  print(w, op) {
    w.text(" value(").value(op.operands[0]).text(") shape(").indices(op.props.shape).text(")");
    w.annotation(annotationOf(op, () => [op.operands[0].type]));
  },
});

// ---------------------------------------------------------------- requirements, fixtures, providers

/** `{key = value, …}` whose values may be nested `{…}` lists (provider attributes). */
function parseProviderAttrs(p: Parser): ProviderAttr[] {
  p.expect(Tok.LBrace, "'{'");
  const out: ProviderAttr[] = [];
  if (!p.at(Tok.RBrace)) {
    for (;;) {
      const keyTok = p.expectIdent("an attribute key");
      if (out.some((e) => e.key === p.textOf(keyTok))) p.fail(D.duplicateAttribute, keyTok, [p.textOf(keyTok)]);
      p.expect(Tok.Equal, "'='");
      out.push({ key: p.textOf(keyTok), value: p.at(Tok.LBrace) ? { kind: "dict", entries: parseProviderAttrs(p) } : literal(p) });
      if (!p.eat(Tok.Comma)) break;
    }
  }
  p.expect(Tok.RBrace, "'}'");
  return out;
}

function printProviderAttrs(w: Writer, list: readonly ProviderAttr[]): Writer {
  w.text("{");
  list.forEach((e, i) => {
    if (i > 0) w.text(", ");
    w.text(`${e.key} = `);
    if (e.value.kind === "dict") printProviderAttrs(w, e.value.entries);
    else printLiteral(w, e.value);
  });
  return w.text("}");
}

function parseProviderHead(p: Parser, op: Op): void {
  op.props.provider = parseProvider(p);
  if (p.at(Tok.LBrace)) op.props.attrs = parseProviderAttrs(p);
}

function printProviderHead(w: Writer, op: Op & { props: { provider: string; attrs?: readonly ProviderAttr[] } }): void {
  w.text(`<${op.props.provider}>`);
  if (op.props.attrs) printProviderAttrs(w.text(" "), op.props.attrs);
}

/** `check.requires<provider> ({attrs})?` */
register("check.requires", {
  parse(p, op) {
    parseProviderHead(p, op);
    return [];
  },
  print(w, op) {
    printProviderHead(w, op);
  },
});

/** `check.skip_if<provider> ({attrs})? (reason("…"))?` */
register("check.skip_if", {
  parse(p, op) {
    parseProviderHead(p, op);
    if (p.atWord("reason")) op.props.reason = clause(p, "reason", () => p.expectText(Tok.String, "a reason string"));
    return [];
  },
  print(w, op) {
    printProviderHead(w, op);
    if (op.props.reason !== undefined) w.text(` reason(${quoteString(op.props.reason)})`);
  },
});

/** `%t = check.file.read.npy path("…") : tensor<…>` */
register("check.file.read.npy", {
  parse(p, op) {
    op.props.path = clause(p, "path", () => p.expectText(Tok.String, "a file path string"));
    return parseResultAnnotation(p, op);
  },
  print(w, op) {
    w.text(` path(${quoteString(op.props.path)})`);
    w.annotation(annotationOf(op, () => [resultTypeOf(op)]));
  },
});

/** `check.file.write.npy value(%v) path("…") mode(always|on_failure) : T` */
register("check.file.write.npy", {
  parse(p, op) {
    op.operands = [clause(p, "value", () => p.parseValueUse())];
    op.props.path = clause(p, "path", () => p.expectText(Tok.String, "a file path string"));
    op.props.mode = p.atWord("mode") ? clause(p, "mode", () => p.parseEnum("write mode", ["always", "on_failure"] as const)) : "always";
    parseSingleAnnotation(p, op);
    return [];
  },
  print(w, op) {
    w.text(" value(").value(op.operands[0]).text(`) path(${quoteString(op.props.path)}) mode(${op.props.mode})`);
    w.annotation(annotationOf(op, () => [op.operands[0].type]));
  },
});

/** `check.expect<validator> actual(%a) expected(%b) ({attrs})? : T` */
register("check.expect", {
  parse(p, op) {
    op.props.provider = parseProvider(p);
    parseActualExpected(p, op);
    if (p.at(Tok.LBrace)) op.props.attrs = parseProviderAttrs(p);
    parseSingleAnnotation(p, op);
    return [];
  },
  print(w, op) {
    w.text(`<${op.props.provider}>`);
    printActualExpected(w, op);
    if (op.props.attrs) printProviderAttrs(w.text(" "), op.props.attrs);
    w.annotation(annotationOf(op, () => [op.operands[0].type]));
  },
});

/** `check.expect.event<provider> ({attrs})?` */
register("check.expect.event", {
  parse(p, op) {
    parseProviderHead(p, op);
    return [];
  },
  print(w, op) {
    printProviderHead(w, op);
  },
});
