/**
 * The Loom v1 parser: `.loom` text → IR `Module` (language.md §1–§5, props per src/ir/props.ts).
 *
 * Recursive descent over the token array from the lexer. This file holds the driver (module,
 * regions, op lines, error recovery, comments and blank lines) and the shared pieces every op
 * syntax uses (values, types, literals, index lists, predicates, attribute dicts, signatures).
 * The syntax of each op lives in `syntax/*.ts`, looked up by op name.
 *
 * Errors: every problem is reported with a PARSE code at its token; the op being parsed is then
 * dropped and parsing resumes at the next sibling op (the next line start at the same brace
 * depth, or the closing `}` of the enclosing region). Result names of a dropped op are
 * "poisoned" so their uses do not cascade into PARSE/001. Diagnostics are sorted into source
 * order and handed to the sink at the end, cut off after `sink.maxErrors` with one PARSE/012.
 * Nothing here throws to the caller and every loop consumes a token, so any input terminates.
 *
 * What the parser stores beyond props.ts (documented for the verifier):
 *  - `props.annotatedTypes: Type[]` — the types written after `:` (before `->` / `to`), exactly
 *    as written, on every op that has such an annotation. Result types come from the
 *    annotation per op (see each syntax file); the verifier compares `annotatedTypes` with the
 *    actual operand types (TYPE/001). Ops built by passes may omit it; the printer then derives
 *    the annotation from the operand and result types.
 *  - Region terminators: an omitted empty `scf.yield` in `scf.if` / `scf.for` regions is
 *    re-created (language.md §4.4).
 *  - Region args: `scf.for` body args are `[iv, ...iterArgs]`; `scf.while` before args are the
 *    carried values, after args the `do(...)` args; signatures become region args.
 *  - Values of an undefined name, or of a dropped op, are owned by a placeholder op named
 *    `builtin.unresolved`; such a module always has parse errors and must not be verified.
 */
import { Module, Op, Region, type Literal, type Predicate, type Span, type Value } from "../ir/core.js";
import { prim, T, type Dim, type Layout, type PrimType, type Type } from "../ir/types.js";
import { D, type CatalogEntry } from "../core/diag/catalog.js";
import type { DiagnosticSink } from "../core/diag/diagnostic.js";
import { lookupOp, opTable } from "../dialects/table.js";
import { closestName } from "../core/suggest.js";
import { looksLikeTargetRecord, targetRecordNames } from "../core/target-records.js";
import { lex } from "./lexer.js";
import { internNames } from "./intern.js";
import { Reporter } from "./reporter.js";
import { Scope } from "./scope.js";
import { Tok, describeToken, joinSpan, tokenSpan, type Comment, type Token } from "./token.js";
import { syntaxOf, type OpSyntax } from "./syntax/registry.js";
import { canonicalOpName, declareLegacyFamilies } from "./syntax/legacy.js";
import { FLAG_SETS, PREDICATE_ARITY, type FlagSetName } from "./vocabulary.js";
import { isOp, opInfo } from "../dialects/registry.js";
import { BLANK_COMMENT_LINE, topLevelBlankBefore } from "./layout.js";

/**
 * Deepest region nesting the parser accepts (a kernel body is level 1). Deeper input is
 * STRUCTURE/906 at the op whose region would exceed it: every stage walks regions
 * recursively, so the limit keeps them all far from the JS stack's end.
 */
export const MAX_REGION_NESTING = 256;

/** Parses one `.loom` file. Never throws; problems go to `sink`. */
export function parseModule(sourceName: string, text: string, sink: DiagnosticSink): Module {
  const reporter = new Reporter(sink);
  const module = new Module(sourceName);
  try {
    const tokens = lex(sourceName, text, reporter);
    new Parser(sourceName, tokens, reporter).parseModule(module);
  } catch (e) {
    // A bug, not an input problem: keep the promise of never throwing, but say so loudly.
    if (!(e instanceof ParseFailure) && !(e instanceof StopParsing)) {
      reporter.report(D.unexpectedToken, { source: sourceName, line: 1, column: 1, endLine: 1, endColumn: 2 }, [`internal parser error (${String(e)})`, "valid input"]);
    }
  }
  reporter.flush();
  return module;
}

/** Thrown to abandon the current op after its error was reported. */
export class ParseFailure extends Error {}
/** Thrown when the error limit is reached. */
class StopParsing extends Error {}

/** The result names written before `=`. */
export interface ResultNames {
  readonly tokens: readonly Token[];
}

/** Resolves `[%v]` dimensions and layout values inside a type. */
export type ValueResolver = (tok: Token) => Value;

/** Primitive type names of §3. */
const PRIM_TYPES: ReadonlySet<string> = new Set(["index", "offset", "i1", "i8", "i16", "i32", "i64", "f16", "bf16", "f32", "f64", "buffer"]);
/** Type names that exist in real Loom but not in v1 (PARSE/007). */
const OUT_OF_V1_TYPES: ReadonlySet<string> = new Set(["tensor", "tile", "f8E4M3", "f8E5M2", "f8E4M3FN", "f8E5M2FNUZ"]);
const SCALAR_NAMES: ReadonlySet<string> = new Set(["i1", "i8", "i16", "i32", "i64", "f16", "bf16", "f32", "f64"]);

// Op names and type names as the declarations spell them: tokens of these names carry these
// very strings (text/intern.ts), so the op tables and later name comparisons hit at once.
internNames(opTable.keys());
internNames(PRIM_TYPES);
internNames(["vector", "view", "tensor", "encoding", "layout", "true", "false", "inf", "nan"]);

/** An op spelling the parser can build: its syntax and the canonical name of the op it builds. */
interface KnownOp {
  readonly syntax: OpSyntax;
  readonly name: string;
}

/** Declared ops by spelling, looked up once per spelling (target records are not kept: they are registered at run time). */
const declaredOps = new Map<string, KnownOp>();

function knownOp(spelling: string): KnownOp | undefined {
  const hit = declaredOps.get(spelling);
  if (hit) return hit;
  const syntax = syntaxOf(spelling);
  // A legacy spelling (func.template, func.apply) builds its canonical op.
  const name = canonicalOpName(spelling) ?? spelling;
  if (!syntax || !lookupOp(name)) return undefined;
  const declared = opInfo(name);
  // The declaration's own string: later name comparisons and table lookups hit at once.
  const known = { syntax, name: declared?.name ?? name };
  if (declared) declaredOps.set(spelling, known);
  return known;
}

export class Parser {
  private pos = 0;
  scope: Scope;
  /** Comments consumed but not yet attached to an op. */
  private pendingComments: Comment[] = [];
  /** Name tokens of the ops being parsed, innermost last (where a nesting-limit error points). */
  private readonly opNames: Token[] = [];
  /** Layout aliases used in types, checked against the alias definitions at the end. */
  readonly aliasUses: { name: string; span: Span }[] = [];
  /** Ops parsed from a legacy spelling (kept off the IR so both spellings give the same ops). */
  readonly legacyOps = new Set<Op>();

  constructor(
    readonly source: string,
    private readonly tokens: Token[],
    readonly reporter: Reporter,
  ) {
    this.scope = new Scope(null, null);
  }

  // ---------------------------------------------------------------- driver

  /** Above 0 inside a `check.case` body, where `tensor<…>` host types exist (text/syntax/check.ts). */
  hostValueDepth = 0;

  parseModule(module: Module): void {
    const topScope = this.scope;
    try {
      while (this.peek().kind !== Tok.EOF) {
        if (this.peek().kind === Tok.RBrace) {
          const t = this.next();
          this.report(D.unexpectedToken, t, [describeToken(t), "a top-level op"]);
          continue;
        }
        const op = this.parseOpLine(null);
        if (op) module.ops.push(op);
      }
      const eof = this.peek();
      const trailing = this.takeComments(eof);
      module.trailingComments = commentTexts(trailing);
      const own = trailing[0]?.endOfLine ? trailing.slice(1) : trailing;
      module.trailingBlank = module.ops.length > 0 && own.length > 0 && own[0]!.blankBefore;
      // A blank line ending the file is kept, as the reference's printer keeps it.
      if ((module.ops.length > 0 || module.trailingComments.length > 0) && eof.blankBefore) module.trailingComments.push(BLANK_COMMENT_LINE);
    } finally {
      this.closeIsolated(topScope);
    }
    declareLegacyFamilies(module, this.legacyOps);
    normalizeTopLevelBlanks(module);
    this.checkAliases(module);
  }

  /**
   * Parses the ops of a single-block region up to (not including) its closing `}`, which the
   * caller consumes. `scope` is the region's scope, already holding its arguments.
   */
  parseRegionBody(region: Region): void {
    for (;;) {
      const t = this.peek();
      if (t.kind === Tok.RBrace || t.kind === Tok.EOF) break;
      const op = this.parseOpLine(region);
      if (op) {
        op.parent = region;
        region.ops.push(op);
      }
    }
    const close = this.peek();
    const trailing = this.takeComments(close);
    region.trailingComments = commentTexts(trailing);
    const own = trailing[0]?.endOfLine ? trailing.slice(1) : trailing;
    region.trailingBlank = region.ops.length > 0 && own.length > 0 && own[0]!.blankBefore;
    if (region.ops.length > 0) region.ops[0]!.blankBefore = false;
  }

  /**
   * Parses `{ ... }` into `region` in a new scope (isolated or nested); `setup` runs inside the
   * new scope first (to define the region's arguments).
   */
  parseRegion(region: Region, isolated: boolean, setup?: () => void): void {
    const open = this.peek();
    if (open.kind === Tok.LBrace && open.depth >= MAX_REGION_NESTING) {
      const at = this.opNames[this.opNames.length - 1] ?? open;
      this.fail(D.limitExceeded, at, [`regions nested ${open.depth + 1} deep`, `${MAX_REGION_NESTING} levels`]);
    }
    this.expect(Tok.LBrace, "'{'");
    this.withScope(region, isolated, () => {
      setup?.();
      this.parseRegionBody(region);
    });
    this.expect(Tok.RBrace, "'}'");
  }

  /**
   * Runs `fn` in a new scope for `region`, then closes it (pending forward references move out,
   * or become PARSE/001 for an isolated scope). On failure the scope is dropped unreported.
   */
  withScope<R>(region: Region | null, isolated: boolean, fn: (s: Scope) => R): R {
    const saved = this.scope;
    const s = new Scope(isolated ? null : saved, region);
    this.scope = s;
    let result: R;
    try {
      result = fn(s);
    } finally {
      this.scope = saved;
    }
    if (isolated) this.closeIsolated(s);
    else s.close();
    return result;
  }

  private closeIsolated(s: Scope): void {
    for (const u of s.close()) this.reporter.report(D.undefinedValue, u.span, [u.name]);
  }

  /** One op (with its results, comments and blank-line flag), or null after an error. */
  private parseOpLine(region: Region | null): Op | null {
    if (this.reporter.full) throw new StopParsing();
    const first = this.peek();
    const comments = this.takeComments(first);
    const startIndex = this.pos;
    const names: Token[] = [];
    let op: Op | null = null;
    try {
      op = this.parseOp(names);
    } catch (e) {
      if (!(e instanceof ParseFailure)) throw e;
      for (const n of names) this.scope.poison(n.text);
      this.recover(startIndex);
      return null;
    }
    // A new op already has no comment lines (what commentLines gives for none).
    if (comments.length > 0) op.comments = commentLines(comments, first.blankBefore);
    const leading = comments[0]?.endOfLine ? comments.slice(1) : comments;
    op.blankBefore = leading.length > 0 ? leading[0]!.blankBefore : first.blankBefore;
    op.parent = region;
    return op;
  }

  private parseOp(names: Token[]): Op {
    const start = this.peek();
    // `%a, %b = ...`
    if (start.kind === Tok.Value) {
      for (;;) {
        names.push(this.expect(Tok.Value, "SSA value"));
        if (!this.eat(Tok.Comma)) break;
      }
      this.expect(Tok.Equal, "'='");
    } else if (start.kind === Tok.Hash) {
      return this.parseAlias();
    }
    const nameTok = this.peek();
    if (nameTok.kind !== Tok.OpName) {
      if (nameTok.kind === Tok.Label) this.fail(D.unexpectedToken, nameTok, [describeToken(nameTok), "an op (block labels are not used in Loom v1)"]);
      this.unexpected(nameTok, "an op name");
    }
    this.next();
    const known = knownOp(nameTok.text);
    if (!known) {
      // A record op of a target package nobody registered: say which records are known.
      if (looksLikeTargetRecord(nameTok.text)) {
        const known = targetRecordNames().join(", ") || "none";
        this.reporter.report(D.unknownOp, this.span(nameTok), [nameTok.text], { help: `no registered target package declares '${nameTok.text}' (target records known: ${known})` });
        throw new ParseFailure();
      }
      const near = closestName(nameTok.text, opTable.keys());
      if (near === undefined) this.fail(D.unknownOp, nameTok, [nameTok.text]);
      this.reporter.report(D.unknownOp, this.span(nameTok), [nameTok.text], { help: `did you mean '${near}'?` });
      throw new ParseFailure();
    }
    const op = new Op(known.name, this.span(nameTok));
    this.opNames.push(nameTok);
    let types: Type[];
    try {
      types = known.syntax.parse(this, op, { tokens: names });
    } finally {
      this.opNames.pop();
    }
    if (types.length !== names.length) this.fail(D.resultCount, names[0] ?? nameTok, [op.name, types.length, names.length]);
    this.endOfOp();
    if (names.length > 0) {
      const results: Value[] = [];
      for (let i = 0; i < names.length; i++) {
        const n = names[i]!;
        const { value, redefined } = this.scope.define(n.text, types[i]!, op, this.span(n));
        if (redefined) this.report(D.redefinedValue, n, [n.text]);
        results.push(value);
      }
      op.results = results;
    }
    return op;
  }

  /** An op ends at a line end: anything else on the same line is unexpected. */
  private endOfOp(): void {
    const t = this.peek();
    const prev = this.tokens[this.pos - 1];
    if (t.kind === Tok.EOF || t.kind === Tok.RBrace || t.firstOnLine || !prev) return;
    this.unexpected(t, "end of line");
  }

  /** `#name = #encoding.layout.dense` */
  private parseAlias(): Op {
    const nameTok = this.expect(Tok.Hash, "'#' alias name");
    const op = new Op("alias", this.span(nameTok));
    this.expect(Tok.Equal, "'='");
    const target = this.expect(Tok.Hash, "'#encoding.layout.dense'");
    if (target.text !== "encoding.layout.dense" && target.text !== "dense") {
      this.fail(D.badAlias, target, [`'#${target.text}' is not an alias target of Loom v1 (expected #encoding.layout.dense)`]);
    }
    if (nameTok.text === "dense" || nameTok.text.startsWith("encoding.") || nameTok.text.startsWith("target.")) {
      this.fail(D.badAlias, nameTok, [`'#${nameTok.text}' shadows a built-in name`]);
    }
    op.props = { alias: nameTok.text, target: target.text };
    this.endOfOp();
    return op;
  }

  private checkAliases(module: Module): void {
    const defined = new Set<string>();
    for (const op of module.ops) {
      if (op.name !== "alias") continue;
      const name = op.props.alias as string;
      if (defined.has(name)) this.reporter.report(D.badAlias, op.span, [`'#${name}' is defined more than once`]);
      defined.add(name);
    }
    for (const u of this.aliasUses) {
      if (!defined.has(u.name)) this.reporter.report(D.badAlias, u.span, [`'#${u.name}' is not defined in this file`]);
    }
  }

  /**
   * Skips the rest of a broken op: stops at the first line start at the op's brace depth, or
   * at a `}` that closes the enclosing region.
   */
  private recover(startIndex: number): void {
    const opDepth = this.tokens[startIndex]!.depth;
    if (this.pos <= startIndex) this.pos = startIndex + 1;
    for (;;) {
      const t = this.tokens[this.pos]!;
      if (t.kind === Tok.EOF) return;
      if (t.kind === Tok.RBrace && t.depth <= opDepth) return;
      if (t.depth < opDepth) return;
      if (t.firstOnLine && t.depth === opDepth && this.pos > startIndex) return;
      this.skip();
    }
  }

  // ---------------------------------------------------------------- tokens

  peek(offset = 0): Token {
    const i = Math.min(this.pos + offset, this.tokens.length - 1);
    return this.tokens[i]!;
  }

  /** Consumes a token; its comments join the pending comments of the next op. */
  next(): Token {
    const t = this.tokens[this.pos]!;
    if (t.kind === Tok.Error) throw new ParseFailure();
    if (t.kind !== Tok.EOF) this.skip();
    return t;
  }

  private skip(): void {
    const t = this.tokens[this.pos]!;
    if (t.comments) {
      this.pendingComments.push(...t.comments);
      t.comments = undefined;
    }
    this.pos++;
  }

  /** Pending comments plus those written before `t` (claimed: they attach to what starts at `t`). */
  private takeComments(t: Token): readonly Comment[] {
    let out: readonly Comment[] = this.pendingComments;
    if (t.comments) {
      out = out.length ? out.concat(t.comments) : t.comments;
      t.comments = undefined;
    }
    // Most ops have no comments: no fresh array for them.
    if (out.length === 0) return NO_COMMENTS;
    this.pendingComments = [];
    return out;
  }

  at(kind: Tok): boolean {
    return this.peek().kind === kind;
  }

  atWord(word: string): boolean {
    const t = this.peek();
    return t.kind === Tok.Ident && t.text === word;
  }

  eat(kind: Tok): Token | undefined {
    return this.at(kind) ? this.next() : undefined;
  }

  eatWord(word: string): Token | undefined {
    return this.atWord(word) ? this.next() : undefined;
  }

  expect(kind: Tok, what: string): Token {
    const t = this.peek();
    if (t.kind !== kind) this.unexpected(t, what);
    return this.next();
  }

  expectWord(word: string): Token {
    const t = this.peek();
    if (t.kind !== Tok.Ident || t.text !== word) this.unexpected(t, `'${word}'`);
    return this.next();
  }

  expectIdent(what: string): Token {
    return this.expect(Tok.Ident, what);
  }

  // ---------------------------------------------------------------- errors

  span(t: Token): Span {
    return tokenSpan(this.source, t);
  }

  /** `span`, bound once (handed to the scope, which makes a use's span only when it keeps it). */
  private readonly spanOfToken = (t: Token): Span => tokenSpan(this.source, t);

  spanFrom(a: Token, b: Token): Span {
    return joinSpan(this.source, a, b);
  }

  /** The last consumed token. */
  prev(): Token {
    return this.tokens[Math.max(0, this.pos - 1)]!;
  }

  report(entry: CatalogEntry, t: Token, args: readonly unknown[] = []): void {
    this.reporter.report(entry, this.span(t), args);
  }

  failAt(entry: CatalogEntry, span: Span | undefined, args: readonly unknown[] = []): never {
    this.reporter.report(entry, span, args);
    throw new ParseFailure();
  }

  fail(entry: CatalogEntry, t: Token, args: readonly unknown[] = []): never {
    if (t.kind !== Tok.Error) this.report(entry, t, args);
    throw new ParseFailure();
  }

  unexpected(t: Token, expected: string): never {
    this.fail(D.unexpectedToken, t, [describeToken(t), expected]);
  }

  // ---------------------------------------------------------------- values

  /** `%name` as a use. */
  parseValueUse(): Value {
    const t = this.expect(Tok.Value, "SSA value");
    return this.scope.use(t.text, t, this.spanOfToken);
  }

  useToken(t: Token): Value {
    return this.scope.use(t.text, t, this.spanOfToken);
  }

  /** `%a, %b, ...` (at least one). */
  parseValueList(): Value[] {
    const out = [this.parseValueUse()];
    while (this.eat(Tok.Comma)) out.push(this.parseValueUse());
    return out;
  }

  /** Values up to a token that is not a value (zero or more, comma separated). */
  parseOptionalValueList(): Value[] {
    return this.at(Tok.Value) ? this.parseValueList() : [];
  }

  /** Defines a region argument in the current scope (PARSE/002 when the name is visible). */
  defineArg(region: Region, t: Token, type: Type): Value {
    const { value, redefined } = this.scope.define(t.text, type, region, this.span(t));
    if (redefined) this.report(D.redefinedValue, t, [t.text]);
    if (region.args.length === 0) region.args = [value];
    else region.args.push(value);
    return value;
  }

  /** `%v` or an integer literal (index lists, predicate args, strides). */
  parseValueOrInt(): Value | bigint {
    const t = this.peek();
    if (t.kind === Tok.Int) {
      this.next();
      return t.int!;
    }
    if (t.kind === Tok.Value) return this.parseValueUse();
    this.unexpected(t, "SSA value or integer");
  }

  /** `[a, b, ...]` glued to an indexed value (may be empty: `%v[]` is a rank-0 access). */
  parseIndexList(): (Value | bigint)[] {
    this.expect(Tok.LBracket, "'['");
    const out: (Value | bigint)[] = [];
    if (!this.at(Tok.RBracket)) {
      out.push(this.parseValueOrInt());
      while (this.eat(Tok.Comma)) out.push(this.parseValueOrInt());
    }
    this.expect(Tok.RBracket, "']'");
    return out;
  }

  // ---------------------------------------------------------------- literals, flags, enums

  /** int | float | true | false | inf | nan | string | identifier */
  parseLiteral(what = "literal"): Literal {
    const t = this.peek();
    switch (t.kind) {
      case Tok.Int:
        this.next();
        return { kind: "int", value: t.int! };
      case Tok.Float:
        this.next();
        return { kind: "float", value: t.float! };
      case Tok.String:
        this.next();
        return { kind: "string", value: t.text };
      case Tok.Ident:
        this.next();
        if (t.text === "true" || t.text === "false") return { kind: "bool", value: t.text === "true" };
        if (t.text === "inf") return { kind: "float", value: Infinity };
        if (t.text === "nan") return { kind: "float", value: NaN };
        return { kind: "ident", value: t.text };
      default:
        this.unexpected(t, what);
    }
  }

  /** A numeric/bool literal as constants take (no strings or other identifiers). */
  parseConstantLiteral(): Literal {
    const t = this.peek();
    const lit = this.parseLiteral("a literal");
    if (lit.kind === "string" || lit.kind === "ident") this.unexpected(t, "a numeric or boolean literal");
    return lit;
  }

  /** A non-negative integer that fits a JS number (align(N), priority(N), cluster_size). */
  parseSmallInt(what: string): number {
    const t = this.expect(Tok.Int, what);
    if (t.int! < 0n || t.int! > BigInt(Number.MAX_SAFE_INTEGER)) this.fail(D.badInteger, t, [t.text]);
    return Number(t.int!);
  }

  /** One identifier from `allowed` (PARSE/017 otherwise). */
  parseEnum<const W extends string>(what: string, allowed: readonly W[]): W {
    const t = this.peek();
    if (t.kind !== Tok.Ident) this.unexpected(t, what);
    this.next();
    if (!(allowed as readonly string[]).includes(t.text)) this.fail(D.unknownEnum, t, [what, t.text, allowed.join(", ")]);
    return t.text as W; // one of `allowed`, checked above
  }

  /** `<e>` with an enum inside. */
  parseAngleEnum<const W extends string>(what: string, allowed: readonly W[]): W {
    this.expect(Tok.Less, "'<'");
    const v = this.parseEnum(what, allowed);
    this.expect(Tok.Greater, "'>'");
    return v;
  }

  /** `a|b|c` of a flag set; returns the flags in canonical order (`fast` = all seven). */
  parseFlags(set: FlagSetName): string[] {
    const allowed: readonly string[] = FLAG_SETS[set];
    const seen = new Set<string>();
    for (;;) {
      const t = this.peek();
      if (t.kind !== Tok.Ident) this.unexpected(t, "a flag");
      this.next();
      if (set === "fm" && t.text === "fast") for (const f of allowed) seen.add(f);
      else if (allowed.includes(t.text)) seen.add(t.text);
      else this.fail(D.unknownModifier, t, ["flag", t.text]);
      if (!this.eat(Tok.Pipe)) break;
    }
    return allowed.filter((f) => seen.has(f));
  }

  /** Optional `<flags>` glued to the op name. */
  parseOptionalFlags(op: Op, set: FlagSetName | undefined): void {
    if (!this.at(Tok.Less)) return;
    if (!set) this.fail(D.unknownModifier, this.peek(1), ["flag", this.peek(1).text]);
    this.next();
    op.props.flags = this.parseFlags(set);
    this.expect(Tok.Greater, "'>'");
  }

  // ---------------------------------------------------------------- predicates and attributes

  /** `[pred(a, ...), ...]` — possibly empty. */
  parsePredicates(): Predicate[] {
    this.expect(Tok.LBracket, "'['");
    const out: Predicate[] = [];
    if (!this.at(Tok.RBracket)) {
      out.push(this.parsePredicate());
      while (this.eat(Tok.Comma)) out.push(this.parsePredicate());
    }
    this.expect(Tok.RBracket, "']'");
    return out;
  }

  private parsePredicate(): Predicate {
    const kindTok = this.peek();
    if (kindTok.kind !== Tok.Ident) this.unexpected(kindTok, "a predicate");
    this.next();
    const arity = PREDICATE_ARITY[kindTok.text];
    if (arity === undefined) this.fail(D.unknownPredicate, kindTok, [kindTok.text]);
    this.expect(Tok.LParen, "'('");
    const args: (Value | bigint)[] = [];
    if (!this.at(Tok.RParen)) {
      args.push(this.parseValueOrInt());
      while (this.eat(Tok.Comma)) args.push(this.parseValueOrInt());
    }
    const close = this.expect(Tok.RParen, "')'");
    if (args.length !== arity) this.fail(D.predicateArity, kindTok, [kindTok.text, arity, args.length]);
    return { kind: kindTok.text, args, span: this.spanFrom(kindTok, close) };
  }

  /**
   * `{key = lit, ...}` with keys from `allowed` (PARSE/018 otherwise, PARSE/020 for repeats).
   * Returns the entries in source order.
   */
  parseAttrDict(allowed: readonly string[]): { key: string; value: Literal; keyTok: Token; valueTok: Token }[] {
    this.expect(Tok.LBrace, "'{'");
    const out: { key: string; value: Literal; keyTok: Token; valueTok: Token }[] = [];
    if (!this.at(Tok.RBrace)) {
      for (;;) {
        const keyTok = this.peek();
        if (keyTok.kind !== Tok.Ident) this.unexpected(keyTok, "an attribute key");
        this.next();
        if (!allowed.includes(keyTok.text)) this.fail(D.unknownModifier, keyTok, ["attribute key", keyTok.text]);
        if (out.some((e) => e.key === keyTok.text)) this.fail(D.duplicateAttribute, keyTok, [keyTok.text]);
        this.expect(Tok.Equal, "'='");
        const valueTok = this.peek();
        const value = this.parseLiteral("an attribute value");
        out.push({ key: keyTok.text, value, keyTok, valueTok });
        if (!this.eat(Tok.Comma)) break;
      }
    }
    this.expect(Tok.RBrace, "'}'");
    return out;
  }

  // ---------------------------------------------------------------- types

  /** A type; `[%v]` dimensions and `%l` layouts resolve through `resolve` (default: scope use). */
  parseType(resolve?: ValueResolver): Type {
    const t = this.peek();
    // Dotted type names (`kernel.*` handle types) do not exist in v1.
    if (t.kind === Tok.OpName) this.fail(D.unknownType, t, [t.text]);
    if (t.kind !== Tok.Ident) this.unexpected(t, "a type");
    this.next();
    const name = t.text;
    if (PRIM_TYPES.has(name)) return prim(name as PrimType["name"]);
    if (name === "encoding") {
      this.expect(Tok.Less, "'<'");
      const k = this.expectIdent("'layout'");
      if (k.text !== "layout") this.fail(D.unknownType, k, [`encoding<${k.text}>`]);
      this.expect(Tok.Greater, "'>'");
      return T.layout;
    }
    if (name === "vector" || name === "view" || name === "tensor") return this.parseShaped(t, resolve ?? ((v) => this.useToken(v)));
    this.fail(D.unknownType, t, [name]);
  }

  private parseShaped(head: Token, resolve: ValueResolver): Type {
    const isVector = head.text === "vector";
    this.expect(Tok.Less, "'<'");
    const dims: Dim[] = [];
    let dynamic = false;
    let zero = false;
    for (;;) {
      const t = this.peek();
      if (t.kind === Tok.Int) {
        this.next();
        if (t.int! < 0n || t.int! > 0x7fffffffn) this.fail(D.invalidType, t, [`dimension ${t.text} is out of range`]);
        if (t.int === 0n) zero = true;
        dims.push({ kind: "static", size: Number(t.int!) });
      } else if (t.kind === Tok.LBracket) {
        this.next();
        const v = this.expect(Tok.Value, "SSA value");
        this.expect(Tok.RBracket, "']'");
        dims.push({ kind: "dynamic", value: resolve(v) });
        dynamic = true;
      } else {
        break;
      }
      this.expect(Tok.DimX, "'x'");
    }
    const elemTok = this.peek();
    if (elemTok.kind !== Tok.Ident) this.unexpected(elemTok, dims.length ? "an element type" : "a dimension");
    this.next();
    if (OUT_OF_V1_TYPES.has(elemTok.text)) this.fail(D.unknownType, elemTok, [elemTok.text]);
    if (dims.length === 0) this.fail(D.invalidType, elemTok, [`${head.text} needs at least one dimension`]);
    const elemOk = SCALAR_NAMES.has(elemTok.text) || (isVector && elemTok.text === "index");
    if (!elemOk) {
      if (PRIM_TYPES.has(elemTok.text)) this.fail(D.invalidType, elemTok, [`'${elemTok.text}' is not a valid ${head.text} element type`]);
      this.fail(D.unknownType, elemTok, [elemTok.text]);
    }
    const element = prim(elemTok.text as PrimType["name"]);
    // A check-harness tensor (language.md §11): a view's dimensions, no layout; only in check.case bodies.
    if (head.text === "tensor") {
      if (this.hostValueDepth === 0) this.fail(D.unknownType, head, ["tensor"]);
      const close = this.expect(Tok.Greater, "'>'");
      if (dims.length > 4) this.failAt(D.unknownType, this.spanFrom(head, close), [`${this.textOf(head, close)} (tensors have rank 1 to 4)`]);
      return { kind: "tensor", dims, element };
    }
    if (isVector) {
      if (this.at(Tok.Comma)) this.fail(D.invalidType, this.peek(), ["vector types take no layout"]);
      const close = this.expect(Tok.Greater, "'>'");
      if (dynamic || zero || dims.length > 2) {
        this.reporter.report(D.unknownType, this.spanFrom(head, close), [`${this.textOf(head, close)} (Loom v1 vectors have rank 1 or 2 and static extents >= 1)`]);
        throw new ParseFailure();
      }
      return { kind: "vector", shape: dims.map((d) => (d as { size: number }).size), element };
    }
    let layout: Layout | undefined;
    if (this.eat(Tok.Comma)) {
      const l = this.peek();
      if (l.kind === Tok.Hash) {
        this.next();
        layout = { kind: "named", name: l.text };
        if (l.text !== "dense" && l.text !== "encoding.layout.dense") {
          if (l.text.startsWith("encoding.") || l.text.startsWith("target.")) this.fail(D.unknownType, l, [`#${l.text}`]);
          this.aliasUses.push({ name: l.text, span: this.span(l) });
        }
      } else if (l.kind === Tok.Value) {
        this.next();
        layout = { kind: "value", value: resolve(l) };
      } else {
        this.unexpected(l, "a layout ('#dense', an alias or a layout value)");
      }
    }
    const close = this.expect(Tok.Greater, "'>'");
    if (dims.length > 4) {
      this.reporter.report(D.unknownType, this.spanFrom(head, close), [`${this.textOf(head, close)} (Loom v1 views have rank 1 to 4)`]);
      throw new ParseFailure();
    }
    return layout ? { kind: "view", dims, element, layout } : { kind: "view", dims, element };
  }

  /** Source text between two tokens of one line (for messages). */
  private textOf(a: Token, b: Token): string {
    let s = "";
    for (let i = this.tokens.indexOf(a); i >= 0 && i < this.tokens.length; i++) {
      const t = this.tokens[i]!;
      s += tokenText(t);
      if (t === b) break;
    }
    return s;
  }

  /** `T, T, ...` (at least one). */
  parseTypeList(resolve?: ValueResolver): Type[] {
    const out = [this.parseType(resolve)];
    while (this.eat(Tok.Comma)) out.push(this.parseType(resolve));
    return out;
  }

  /** `(T, ...)` — possibly empty. */
  parseParenTypeList(): Type[] {
    this.expect(Tok.LParen, "'('");
    const out = this.at(Tok.RParen) ? [] : this.parseTypeList();
    this.expect(Tok.RParen, "')'");
    return out;
  }

  /** Optional `-> (T, ...)`. */
  parseOptionalResultTypes(): Type[] | undefined {
    if (!this.eat(Tok.Arrow)) return undefined;
    return this.parseParenTypeList();
  }

  // ---------------------------------------------------------------- signatures

  /**
   * `(%a: T, ...)` of `@f(...)`, `launch(...)` and declarations: the arguments become the args
   * of `region`, bound in the current scope. A `[%n]` dimension may name any `index` argument
   * of the same signature, earlier or later (PARSE/022 otherwise).
   */
  parseSignature(region: Region): Value[] {
    this.expect(Tok.LParen, "'('");
    // Pass 1: the argument names, so later arguments can be referenced by earlier types.
    const byName = new Map<string, Value>();
    const placeholder: Value[] = [];
    for (const nameTok of this.scanSignatureNames()) {
      if (byName.has(nameTok.text)) continue;
      const { value } = this.scope.define(nameTok.text, T.index, region, this.span(nameTok));
      byName.set(nameTok.text, value);
      placeholder.push(value);
    }
    // Pass 2: parse for real.
    const refs: { value: Value; tok: Token }[] = [];
    const resolve: ValueResolver = (tok) => {
      const v = byName.get(tok.text);
      if (!v) this.fail(D.unresolvedSignatureRef, tok, [tok.text]);
      refs.push({ value: v, tok });
      return v;
    };
    const args: Value[] = [];
    const seen = new Set<string>();
    if (!this.at(Tok.RParen)) {
      for (;;) {
        const nameTok = this.expect(Tok.Value, "an argument name");
        if (seen.has(nameTok.text)) this.fail(D.redefinedValue, nameTok, [nameTok.text]);
        seen.add(nameTok.text);
        this.expect(Tok.Colon, "':'");
        const type = this.parseType(resolve);
        const v = byName.get(nameTok.text);
        if (!v) this.unexpected(nameTok, "an argument");
        v.type = type;
        args.push(v);
        if (!this.eat(Tok.Comma)) break;
      }
    }
    this.expect(Tok.RParen, "')'");
    for (const r of refs) {
      if (r.value.type.kind !== "prim" || r.value.type.name !== "index") this.fail(D.unresolvedSignatureRef, r.tok, [r.tok.text]);
    }
    if (region.args.length === 0) region.args = args.slice();
    else region.args.push(...args);
    return args;
  }

  /** Argument-name tokens of the signature starting at the current `(` contents (lenient). */
  private scanSignatureNames(): Token[] {
    const out: Token[] = [];
    let depth = 0;
    let expectName = true;
    for (let i = this.pos; i < this.tokens.length; i++) {
      const t = this.tokens[i]!;
      if (t.kind === Tok.EOF || t.kind === Tok.LBrace || t.kind === Tok.RBrace) break;
      if (t.kind === Tok.LParen || t.kind === Tok.LBracket || t.kind === Tok.Less) depth++;
      else if (t.kind === Tok.RBracket || t.kind === Tok.Greater) depth--;
      else if (t.kind === Tok.RParen) {
        if (depth === 0) break;
        depth--;
      } else if (t.kind === Tok.Comma && depth === 0) expectName = true;
      else if (expectName && t.kind === Tok.Value && this.tokens[i + 1]?.kind === Tok.Colon) {
        out.push(t);
        expectName = false;
      }
    }
    return out;
  }

  /** `@name` */
  parseSymbol(what = "a symbol"): Token {
    return this.expect(Tok.Symbol, what);
  }
}

/**
 * An op's leading comment lines, with a blank-line mark where the source separated two of them
 * or the last of them from the op (a file-header comment stays apart from the first op).
 */
const NO_COMMENTS: readonly Comment[] = Object.freeze([]);

function commentLines(comments: readonly Comment[], opBlankBefore: boolean): string[] {
  const out: string[] = [];
  // An end-of-line comment belongs to the previous op's line ("\r", see commentTexts).
  const first = comments[0];
  const own = first?.endOfLine ? comments.slice(1) : comments;
  if (first?.endOfLine) out.push(`\r${first.text}`);
  own.forEach((c, i) => {
    if (i > 0 && c.blankBefore) out.push(BLANK_COMMENT_LINE);
    out.push(c.text);
  });
  if (own.length > 0 && opBlankBefore) out.push(BLANK_COMMENT_LINE);
  return out;
}

/** Module-level blank lines are decided by the printer's rules; record them the same way. */
function normalizeTopLevelBlanks(module: Module): void {
  // Aliases print first, then the other ops in source order (language.md §9.7).
  const order = [...module.ops.filter((o) => isOp(o, "alias")), ...module.ops.filter((o) => !isOp(o, "alias"))];
  order.forEach((op, i) => {
    op.blankBefore = topLevelBlankBefore(op, i === 0);
  });
  module.ops = order;
}

function tokenText(t: Token): string {
  switch (t.kind) {
    case Tok.Value:
      return `%${t.text}`;
    case Tok.Symbol:
      return `@${t.text}`;
    case Tok.Hash:
      return `#${t.text}`;
    case Tok.Ident:
    case Tok.OpName:
    case Tok.Int:
    case Tok.Float:
    case Tok.DimX:
      return t.text;
    case Tok.Less:
      return "<";
    case Tok.Greater:
      return ">";
    case Tok.LBracket:
      return "[";
    case Tok.RBracket:
      return "]";
    case Tok.Comma:
      return ", ";
    default:
      return "";
  }
}

/**
 * Comment texts as the IR keeps them (ir/core.ts `Op.comments`): an end-of-line comment (one
 * written after the previous op on its line) starts with "\r" and is printed back at the end of
 * that line; a comment after a blank line inside a group starts with "\n" and keeps the blank.
 * Neither character can occur in a comment's own text.
 */
function commentTexts(comments: readonly Comment[]): string[] {
  // The first own-line comment's blank line is the op's (or region's) blank-line flag.
  const firstOwn = comments[0]?.endOfLine ? 1 : 0;
  return comments.map((c, i) => (c.endOfLine ? `\r${c.text}` : i > firstOwn && c.blankBefore ? `\n${c.text}` : c.text));
}
