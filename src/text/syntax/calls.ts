/** Syntax of calls, config reads and target queries inside bodies (language.md §4.8–§4.11). */
import type { Op } from "../../ir/core.js";
import { T, type Type } from "../../ir/types.js";
import { D } from "../../core/diag/catalog.js";
import type { Parser } from "../parser.js";
import { Tok } from "../token.js";
import type { Writer } from "../writer.js";
import { CALL_MODIFIER_GROUPS } from "../vocabulary.js";
import { annotationOf, nullaryForm, parseResultAnnotation, parseSingleAnnotation, register } from "./core.js";
import { parseContractKey } from "./legacy.js";
import { propOf } from "../../dialects/registry.js";

/**
 * Modifier words (any input order) from `groups` while the next token is a bare identifier
 * accepted by `more`; returns them in grammar order. Unknown, repeated or conflicting words
 * are PARSE/018.
 */
export function parseModifiers(p: Parser, groups: readonly (readonly string[])[], more: (word: string) => boolean = () => true): string[] {
  const chosen = new Map<number, string>();
  for (;;) {
    const t = p.peek();
    if (p.kindOf(t) !== Tok.Ident || !more(p.textOf(t))) break;
    const g = groups.findIndex((grp) => grp.includes(p.textOf(t)));
    if (g < 0 || chosen.has(g)) p.fail(D.unknownModifier, t, ["modifier", p.textOf(t)]);
    p.next();
    chosen.set(g, p.textOf(t));
  }
  return [...chosen.keys()].sort((a, b) => a - b).map((g) => chosen.get(g)!);
}

function printModifiers(w: Writer, op: Op): void {
  for (const m of propOf(op, "modifiers") ?? []) w.text(" " + m);
}

/** `(%x, ...)` — possibly empty. */
function parseArgs(p: Parser, op: Op): void {
  p.expect(Tok.LParen, "'('");
  op.operands = p.at(Tok.RParen) ? [] : p.parseValueList();
  p.expect(Tok.RParen, "')'");
}

/** `: (T, ...) (-> (R, ...))?` — returns the result types. */
function parseCallTypes(p: Parser, op: Op): Type[] {
  p.expect(Tok.Colon, "':'");
  op.props.annotatedTypes = p.parseParenTypeList();
  return p.parseOptionalResultTypes() ?? [];
}

function printCallTypes(w: Writer, op: Op): void {
  const ts = annotationOf(op, () => op.operands.map((v) => v.type));
  w.text(" : (").types(ts).text(")");
  if (op.results.length > 0) w.text(" -> (").types(op.results.map((r) => r.type)).text(")");
}

/** A direct call: `(%r, ... =)? NAME <modifiers> @callee(%x, ...) : (T, ...) (-> (R, ...))?`. */
function directCallForm(groups: Parameters<typeof parseModifiers>[1], what: string) {
  return {
    parse(p: Parser, op: Op) {
      op.props.modifiers = parseModifiers(p, groups);
      op.props.symbol = p.parseSymbolName(what);
      parseArgs(p, op);
      return parseCallTypes(p, op);
    },
    print(w: Writer, op: Op) {
      printModifiers(w, op);
      w.text(` @${op.props.symbol}(`).values(op.operands).text(")");
      printCallTypes(w, op);
    },
  };
}

/** `func.call (pure)? (hot|cold)? (inline|noinline)? @f(...)`; `template.call (pure)? @impl(...)`. */
register("func.call", directCallForm(CALL_MODIFIER_GROUPS, "the callee"));
register("template.call", directCallForm([["pure"]], "the provider"));

/** `(%r, ... =)? template.apply<@fam>(%x, ...) (pure)? (hot|cold)? : (T, ...) (-> (R, ...))?` */
register("template.apply", {
  parse(p, op) {
    p.expect(Tok.Less, "'<'");
    op.props.family = p.parseSymbolName("the template family");
    p.expect(Tok.Greater, "'>'");
    parseArgs(p, op);
    op.props.modifiers = parseModifiers(p, [["pure"], ["hot", "cold"]]);
    return parseCallTypes(p, op);
  },
  print: (w: Writer, op: Op) => printApply(w, op),
});

function printApply(w: Writer, op: Op): void {
  w.text(op.props.legacySpelling === true ? `<${propOf(op, "family")}>(` : `<@${propOf(op, "family")}>(`).values(op.operands).text(")");
  printModifiers(w, op);
  printCallTypes(w, op);
}

/** Legacy `(%r, ... =)? func.apply<key>(%x, ...) (pure)? (hot|cold)? : (T, ...) (-> (R, ...))?`, built as a `template.apply` (legacy.ts). */
register("func.apply", {
  parse(p: Parser, op: Op): Type[] {
    parseContractKey(p, op);
    parseArgs(p, op);
    op.props.modifiers = parseModifiers(p, [["pure"], ["hot", "cold"]]);
    return parseCallTypes(p, op);
  },
  // Never reached: the op is built as a template.apply, printed by that op's syntax.
  print: (w: Writer, op: Op) => printApply(w, op),
});

/** `%v = config.get @key : T` */
register("config.get", {
  parse(p, op) {
    op.props.symbol = p.parseSymbolName("a config key");
    return parseResultAnnotation(p, op);
  },
  print(w, op) {
    w.text(` @${op.props.symbol}`);
    w.annotation(annotationOf(op, () => [op.results[0]?.type ?? T.index]));
  },
});

register("target.subgroup.size", nullaryForm);
