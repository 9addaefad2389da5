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
import { prim, T, type Dim, type Layout, type PrimType, type Type, type VectorType } from "../ir/types.js";
import { D, type CatalogEntry } from "../core/diag/catalog.js";
import type { DiagnosticSink } from "../core/diag/diagnostic.js";
import { lookupOp, opTable } from "../dialects/table.js";
import { closestName } from "../core/suggest.js";
import { looksLikeTargetRecord, targetRecordNames } from "../core/target-records.js";
import { releaseTokens, scan } from "./lexer.js";
import { internNames } from "./intern.js";
import { Reporter } from "./reporter.js";
import { Scope } from "./scope.js";
import { BLANK_BEFORE, DEPTH_SHIFT, FIRST_ON_LINE, Tok, describeToken, type Comment, type TokenBuffer, type TokenIndex } from "./token.js";
import { syntaxOf, type OpSyntax } from "./syntax/registry.js";
import { canonicalOpName, declareLegacyFamilies } from "./syntax/legacy.js";
import { FLAG_SETS, PREDICATE_ARITY, type FlagSetName } from "./vocabulary.js";
import { isOp, opInfo } from "../dialects/registry.js";
import { BLANK_COMMENT_LINE, topLevelBlankBefore } from "./layout.js";
import { NONE } from "../core/none.js";

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
    const tokens = scan(sourceName, text, reporter);
    try {
      new Parser(sourceName, tokens, reporter).parseModule(module);
    } finally {
      releaseTokens(tokens);
    }
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

/** Resolves `[%v]` dimensions and layout values inside a type. */
export type ValueResolver = (tok: TokenIndex) => Value;

/** Primitive type names of §3. */
/** The primitive types by name (`prim`'s own objects: one lookup per type). */
const PRIM_TYPES: ReadonlyMap<string, PrimType> = new Map((["index", "offset", "i1", "i8", "i16", "i32", "i64", "f16", "bf16", "f32", "f64", "buffer"] as const).map((n) => [n, prim(n)]));
/** Type names that exist in real Loom but not in v1 (PARSE/007). */
const OUT_OF_V1_TYPES: ReadonlySet<string> = new Set(["tensor", "tile", "f8E4M3", "f8E5M2", "f8E4M3FN", "f8E5M2FNUZ"]);
const SCALAR_NAMES: ReadonlySet<string> = new Set(["i1", "i8", "i16", "i32", "i64", "f16", "bf16", "f32", "f64"]);

// Op names and type names as the declarations spell them: tokens of these names carry these
// very strings (text/intern.ts), so the op tables and later name comparisons hit at once.
internNames(opTable.keys());
internNames(PRIM_TYPES.keys());
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
  /** Comments before this index of `buf.comments` are attached (or claimed) already. */
  private claimedComments = 0;
  /** Name tokens of the ops being parsed, innermost last (where a nesting-limit error points). */
  private readonly opNames: TokenIndex[] = [];
  /** Result-name tokens of the op lines being parsed (a stack: regions nest op lines); entries from `resultTop` on are stale. */
  private readonly resultNames: TokenIndex[] = [];
  private resultTop = 0;
  /**
   * Scratch lists for value/integer lists and type lists (which do not nest within their own
   * kind): gathered here, then copied at their exact length.
   */
  private readonly valueScratch: Value[] = [];
  private readonly indexScratch: (Value | bigint)[] = [];
  private readonly typeScratch: Type[] = [];
  private readonly dimScratch: Dim[] = [];
  /** `useToken`, bound once (the default resolver of `[%v]` dimensions). */
  private readonly useTokenFn: ValueResolver = (t) => this.useToken(t);
  private readonly kinds: Uint8Array;
  private readonly flags: Int32Array;
  /** Index of the EOF token (the last). */
  private readonly last: TokenIndex;
  /** Layout aliases used in types, checked against the alias definitions at the end. */
  readonly aliasUses: { name: string; span: Span }[] = [];
  /** Ops parsed from a legacy spelling (kept off the IR so both spellings give the same ops). */
  readonly legacyOps = new Set<Op>();

  constructor(
    readonly source: string,
    private readonly buf: TokenBuffer,
    readonly reporter: Reporter,
  ) {
    this.scope = new Scope(null, null);
    // The columns the hot paths read, fetched once (the buffer does not grow after the scan).
    this.kinds = buf.kinds;
    this.flags = buf.flags;
    this.last = buf.count - 1;
  }

  // ---------------------------------------------------------------- driver

  /** Above 0 inside a `check.case` body, where `tensor<…>` host types exist (text/syntax/check.ts). */
  hostValueDepth = 0;

  parseModule(module: Module): void {
    const topScope = this.scope;
    try {
      while (this.kindOf(this.peek()) !== Tok.EOF) {
        if (this.kindOf(this.peek()) === Tok.RBrace) {
          const t = this.next();
          this.report(D.unexpectedToken, t, [this.describe(t), "a top-level op"]);
          continue;
        }
        const op = this.parseOpLine(null);
        if (op) module.ops.push(op);
      }
      const eof = this.peek();
      const trailing = this.takeComments(eof);
      module.trailingComments = commentTexts(trailing);
      const own = trailing[0]?.endOfLine ? trailing.slice(1) : trailing;
      module.trailingBlank = module.ops.length > 0 && own[0] !== undefined && own[0].blankBefore;
      // A blank line ending the file is kept, as the reference's printer keeps it.
      if ((module.ops.length > 0 || module.trailingComments.length > 0) && ((this.flags[eof] ?? 0) & BLANK_BEFORE) !== 0) module.trailingComments.push(BLANK_COMMENT_LINE);
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
      if (this.kindOf(t) === Tok.RBrace || this.kindOf(t) === Tok.EOF) break;
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
    region.trailingBlank = region.ops.length > 0 && own[0] !== undefined && own[0].blankBefore;
    const firstOp = region.ops[0];
    if (firstOp) firstOp.blankBefore = false;
  }

  /**
   * Parses `{ ... }` into `region` in a new scope (isolated or nested); `setup` runs inside the
   * new scope first (to define the region's arguments).
   */
  parseRegion(region: Region, isolated: boolean, setup?: () => void): void {
    const open = this.peek();
    const depth = this.depthOf(open);
    if (this.kindOf(open) === Tok.LBrace && depth >= MAX_REGION_NESTING) {
      const at = this.opNames[this.opNames.length - 1] ?? open;
      this.fail(D.limitExceeded, at, [`regions nested ${depth + 1} deep`, `${MAX_REGION_NESTING} levels`]);
    }
    this.expect(Tok.LBrace, "'{'");
    // `withScope` inlined: no closure per region.
    const saved = this.scope;
    const s = new Scope(isolated ? null : saved, region);
    this.scope = s;
    try {
      setup?.();
      this.parseRegionBody(region);
    } finally {
      this.scope = saved;
    }
    if (isolated) this.closeIsolated(s);
    else s.close();
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
    const base = this.resultTop;
    let op: Op | null = null;
    try {
      op = this.parseOp(base);
    } catch (e) {
      if (!(e instanceof ParseFailure)) throw e;
      for (let i = base; i < this.resultTop; i++) this.scope.poison(this.textOf(this.resultNames[i] ?? 0));
      this.recover(startIndex);
      return null;
    } finally {
      this.resultTop = base;
    }
    const firstBlank = ((this.flags[first] ?? 0) & BLANK_BEFORE) !== 0;
    // A new op already has no comment lines (what commentLines gives for none).
    if (comments.length > 0) op.comments = commentLines(comments, firstBlank);
    // Most ops have no comments (`NONE`, frozen: no out-of-range reads of it).
    const leading = comments.length === 0 ? undefined : comments[0]?.endOfLine ? comments[1] : comments[0];
    op.blankBefore = leading !== undefined ? leading.blankBefore : firstBlank;
    op.parent = region;
    return op;
  }

  /** An op whose result names go on the name stack from `base`. */
  private parseOp(base: number): Op {
    const start = this.peek();
    // `%a, %b = ...`
    if (this.kindOf(start) === Tok.Value) {
      for (;;) {
        const name = this.expect(Tok.Value, "SSA value");
        // Written at `resultTop` (at most the length: an append), never truncated.
        this.resultNames[this.resultTop++] = name;
        if (!this.eat(Tok.Comma)) break;
      }
      this.expect(Tok.Equal, "'='");
    } else if (this.kindOf(start) === Tok.Hash) {
      return this.parseAlias();
    }
    const nameTok = this.peek();
    if (this.kindOf(nameTok) !== Tok.OpName) {
      if (this.kindOf(nameTok) === Tok.Label) this.fail(D.unexpectedToken, nameTok, [this.describe(nameTok), "an op (block labels are not used in Loom v1)"]);
      this.unexpected(nameTok, "an op name");
    }
    this.next();
    const known = knownOp(this.textOf(nameTok));
    if (!known) {
      // A record op of a target package nobody registered: say which records are known.
      if (looksLikeTargetRecord(this.textOf(nameTok))) {
        const known = targetRecordNames().join(", ") || "none";
        this.reporter.report(D.unknownOp, this.span(nameTok), [this.textOf(nameTok)], { help: `no registered target package declares '${this.textOf(nameTok)}' (target records known: ${known})` });
        throw new ParseFailure();
      }
      // A declared op whose syntax nobody registered: the check harness's, in loomc/browser.
      if (lookupOp(this.textOf(nameTok))) {
        this.reporter.report(D.unknownOp, this.span(nameTok), [this.textOf(nameTok)], { help: "the check harness's ops parse once its syntax is registered: import loomc/browser/check (loomc has it)" });
        throw new ParseFailure();
      }
      const near = closestName(this.textOf(nameTok), opTable.keys());
      if (near === undefined) this.fail(D.unknownOp, nameTok, [this.textOf(nameTok)]);
      this.reporter.report(D.unknownOp, this.span(nameTok), [this.textOf(nameTok)], { help: `did you mean '${near}'?` });
      throw new ParseFailure();
    }
    // Most syntaxes assign the operands: no list to drop per op (the ones without get theirs below).
    const op = new Op(known.name, this.span(nameTok), OPERANDS_UNSET);
    this.opNames.push(nameTok);
    let types: readonly Type[];
    try {
      types = known.syntax.parse(this, op);
    } finally {
      this.opNames.pop();
      if (op.operands === OPERANDS_UNSET) op.operands = [];
    }
    const count = this.resultTop - base;
    if (types.length !== count) this.fail(D.resultCount, count > 0 ? (this.resultNames[base] ?? nameTok) : nameTok, [op.name, types.length, count]);
    this.endOfOp();
    if (count > 0) {
      // Exact size: a `push` onto `[]` reserves 17 slots.
      const results = new Array<Value>(count);
      for (let i = 0; i < count; i++) {
        const n = this.resultNames[base + i] ?? 0;
        const name = this.textOf(n);
        const value = this.scope.define(name, types[i] ?? T.index, op, this.span(n));
        if (this.scope.redefined) this.report(D.redefinedValue, n, [name]);
        results[i] = value;
      }
      op.results = results;
    }
    return op;
  }

  /** An op ends at a line end: anything else on the same line is unexpected. */
  private endOfOp(): void {
    const t = this.peek();
    const k = this.kindOf(t);
    if (k === Tok.EOF || k === Tok.RBrace || ((this.flags[t] ?? 0) & FIRST_ON_LINE) !== 0 || this.pos === 0) return;
    this.unexpected(t, "end of line");
  }

  /** `#name = #encoding.layout.dense` */
  private parseAlias(): Op {
    const nameTok = this.expect(Tok.Hash, "'#' alias name");
    const op = new Op("alias", this.span(nameTok));
    this.expect(Tok.Equal, "'='");
    const target = this.expect(Tok.Hash, "'#encoding.layout.dense'");
    if (this.textOf(target) !== "encoding.layout.dense" && this.textOf(target) !== "dense") {
      this.fail(D.badAlias, target, [`'#${this.textOf(target)}' is not an alias target of Loom v1 (expected #encoding.layout.dense)`]);
    }
    if (this.textOf(nameTok) === "dense" || this.textOf(nameTok).startsWith("encoding.") || this.textOf(nameTok).startsWith("target.")) {
      this.fail(D.badAlias, nameTok, [`'#${this.textOf(nameTok)}' shadows a built-in name`]);
    }
    op.props = { alias: this.textOf(nameTok), target: this.textOf(target) };
    this.endOfOp();
    return op;
  }

  private checkAliases(module: Module): void {
    const defined = new Set<string>();
    for (const op of module.ops) {
      if (!isOp(op, "alias")) continue;
      const name = op.props.alias;
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
    const opDepth = this.depthOf(startIndex);
    if (this.pos <= startIndex) this.pos = startIndex + 1;
    for (;;) {
      const t = this.pos;
      const depth = this.depthOf(t);
      if (this.kindOf(t) === Tok.EOF) return;
      if (this.kindOf(t) === Tok.RBrace && depth <= opDepth) return;
      if (depth < opDepth) return;
      if (((this.flags[t] ?? 0) & FIRST_ON_LINE) !== 0 && depth === opDepth && this.pos > startIndex) return;
      this.pos++;
    }
  }

  // ---------------------------------------------------------------- tokens

  peek(offset = 0): TokenIndex {
    const i = this.pos + offset;
    return i < this.last ? i : this.last;
  }

  /** The kind of token `t`. */
  kindOf(t: TokenIndex): Tok {
    return this.kinds[t] as Tok;
  }

  /** The text of token `t`: a name without its sigil, an identifier, a decoded string, a literal as written. */
  textOf(t: TokenIndex): string {
    return this.buf.textAt(t);
  }

  /** The value of Int token `t`. */
  intOf(t: TokenIndex): bigint {
    return this.buf.intAt(t);
  }

  /** The value of Float token `t`. */
  floatOf(t: TokenIndex): number {
    return this.buf.nums[t] ?? NaN;
  }

  /** The line of token `t` (tokens never span lines). */
  lineOf(t: TokenIndex): number {
    return this.buf.lines[t] ?? 0;
  }

  /** Unclosed `{` before token `t`. */
  private depthOf(t: TokenIndex): number {
    return (this.flags[t] ?? 0) >>> DEPTH_SHIFT;
  }

  /** How token `t` is quoted in "unexpected ..." messages. */
  private describe(t: TokenIndex): string {
    return describeToken(this.kindOf(t), this.textOf(t));
  }

  /** Consumes a token (its comments stay unclaimed: they join those of the next op). */
  next(): TokenIndex {
    const t = this.pos;
    const k = this.kinds[t];
    if (k === Tok.Error) throw new ParseFailure();
    if (k !== Tok.EOF) this.pos++;
    return t;
  }

  /** Unclaimed comments up to token `t` (the current one); claimed: they attach to what starts at `t`. */
  private takeComments(t: TokenIndex): readonly Comment[] {
    const end = this.buf.commentEnds[t] ?? 0;
    const from = this.claimedComments;
    // Most ops have no comments: no fresh array for them.
    if (end <= from) return NONE;
    this.claimedComments = end;
    return this.buf.comments.slice(from, end);
  }

  at(kind: Tok): boolean {
    return this.kinds[this.pos] === kind;
  }

  atWord(word: string): boolean {
    const t = this.peek();
    return this.kinds[t] === Tok.Ident && this.buf.texts[t] === word;
  }

  /** Consumes a token of `kind` when there is one: true if it did. */
  eat(kind: Tok): boolean {
    if (this.kinds[this.pos] !== kind) return false;
    this.next();
    return true;
  }

  eatWord(word: string): boolean {
    if (!this.atWord(word)) return false;
    this.next();
    return true;
  }

  expect(kind: Tok, what: string): TokenIndex {
    const t = this.peek();
    if (this.kinds[t] !== kind) this.unexpected(t, what);
    return this.next();
  }

  expectWord(word: string): TokenIndex {
    const t = this.peek();
    if (this.kinds[t] !== Tok.Ident || this.buf.texts[t] !== word) this.unexpected(t, `'${word}'`);
    return this.next();
  }

  expectIdent(what: string): TokenIndex {
    return this.expect(Tok.Ident, what);
  }

  // ---------------------------------------------------------------- errors

  span(t: TokenIndex): Span {
    const buf = this.buf;
    const line = buf.lines[t] ?? 0;
    return { source: this.source, line, column: buf.cols[t] ?? 0, endLine: line, endColumn: buf.endCols[t] ?? 0 };
  }

  /** `span`, bound once (handed to the scope, which makes a use's span only when it keeps it). */
  private readonly spanOfToken = (t: TokenIndex): Span => this.span(t);

  /** From the start of `a` to the end of `b`. */
  spanFrom(a: TokenIndex, b: TokenIndex): Span {
    const buf = this.buf;
    return { source: this.source, line: buf.lines[a] ?? 0, column: buf.cols[a] ?? 0, endLine: buf.lines[b] ?? 0, endColumn: buf.endCols[b] ?? 0 };
  }

  /** The last consumed token. */
  prev(): TokenIndex {
    return this.pos > 0 ? this.pos - 1 : 0;
  }

  report(entry: CatalogEntry, t: TokenIndex, args: readonly unknown[] = []): void {
    this.reporter.report(entry, this.span(t), args);
  }

  failAt(entry: CatalogEntry, span: Span | undefined, args: readonly unknown[] = []): never {
    this.reporter.report(entry, span, args);
    throw new ParseFailure();
  }

  fail(entry: CatalogEntry, t: TokenIndex, args: readonly unknown[] = []): never {
    if (this.kindOf(t) !== Tok.Error) this.report(entry, t, args);
    throw new ParseFailure();
  }

  unexpected(t: TokenIndex, expected: string): never {
    this.fail(D.unexpectedToken, t, [this.describe(t), expected]);
  }

  // ---------------------------------------------------------------- values

  /** `%name` as a use. */
  parseValueUse(): Value {
    const t = this.expect(Tok.Value, "SSA value");
    return this.scope.use(this.textOf(t), t, this.spanOfToken);
  }

  useToken(t: TokenIndex): Value {
    return this.scope.use(this.textOf(t), t, this.spanOfToken);
  }

  /** `%a, %b, ...` (at least one). */
  parseValueList(): Value[] {
    const first = this.parseValueUse();
    if (!this.at(Tok.Comma)) return [first];
    const scratch = this.valueScratch;
    scratch[0] = first;
    let n = 1;
    while (this.eat(Tok.Comma)) scratch[n++] = this.parseValueUse();
    return exactCopy(scratch, n);
  }

  /** Values up to a token that is not a value (zero or more, comma separated). */
  parseOptionalValueList(): Value[] {
    return this.at(Tok.Value) ? this.parseValueList() : [];
  }

  /** Defines a region argument in the current scope (PARSE/002 when the name is visible). */
  defineArg(region: Region, t: TokenIndex, type: Type): Value {
    const name = this.textOf(t);
    const value = this.scope.define(name, type, region, this.span(t));
    if (this.scope.redefined) this.report(D.redefinedValue, t, [name]);
    if (region.args.length === 0) region.args = [value];
    else region.args.push(value);
    return value;
  }

  /** `%v` or an integer literal (index lists, predicate args, strides). */
  parseValueOrInt(): Value | bigint {
    const t = this.peek();
    if (this.kindOf(t) === Tok.Int) {
      this.next();
      return this.intOf(t);
    }
    if (this.kindOf(t) === Tok.Value) return this.parseValueUse();
    this.unexpected(t, "SSA value or integer");
  }

  /** `[a, b, ...]` glued to an indexed value (may be empty: `%v[]` is a rank-0 access). */
  parseIndexList(): (Value | bigint)[] {
    this.expect(Tok.LBracket, "'['");
    let out: (Value | bigint)[];
    if (this.at(Tok.RBracket)) {
      out = [];
    } else {
      const first = this.parseValueOrInt();
      if (!this.at(Tok.Comma)) {
        out = [first];
      } else {
        const scratch = this.indexScratch;
        scratch[0] = first;
        let n = 1;
        while (this.eat(Tok.Comma)) scratch[n++] = this.parseValueOrInt();
        out = exactCopy(scratch, n);
      }
    }
    this.expect(Tok.RBracket, "']'");
    return out;
  }

  // ---------------------------------------------------------------- literals, flags, enums

  /** int | float | true | false | inf | nan | string | identifier */
  parseLiteral(what = "literal"): Literal {
    const t = this.peek();
    switch (this.kindOf(t)) {
      case Tok.Int:
        this.next();
        return { kind: "int", value: this.intOf(t) };
      case Tok.Float:
        this.next();
        return { kind: "float", value: this.floatOf(t) };
      case Tok.String:
        this.next();
        return { kind: "string", value: this.textOf(t) };
      case Tok.Ident:
        this.next();
        if (this.textOf(t) === "true" || this.textOf(t) === "false") return { kind: "bool", value: this.textOf(t) === "true" };
        if (this.textOf(t) === "inf") return { kind: "float", value: Infinity };
        if (this.textOf(t) === "nan") return { kind: "float", value: NaN };
        return { kind: "ident", value: this.textOf(t) };
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
    // Values past 2^53 are bigints (`bigs`); the rest are exact doubles.
    const v = this.buf.nums[t] ?? -1;
    if (this.buf.bigs?.has(t) || v < 0 || v > Number.MAX_SAFE_INTEGER) this.fail(D.badInteger, t, [this.textOf(t)]);
    return v === 0 ? 0 : v; // `-0` is 0
  }

  /** One identifier from `allowed` (PARSE/017 otherwise). */
  parseEnum<const W extends string>(what: string, allowed: readonly W[]): W {
    const t = this.peek();
    if (this.kindOf(t) !== Tok.Ident) this.unexpected(t, what);
    this.next();
    if (!(allowed as readonly string[]).includes(this.textOf(t))) this.fail(D.unknownEnum, t, [what, this.textOf(t), allowed.join(", ")]);
    return this.textOf(t) as W; // one of `allowed`, checked above
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
      if (this.kindOf(t) !== Tok.Ident) this.unexpected(t, "a flag");
      this.next();
      if (set === "fm" && this.textOf(t) === "fast") for (const f of allowed) seen.add(f);
      else if (allowed.includes(this.textOf(t))) seen.add(this.textOf(t));
      else this.fail(D.unknownModifier, t, ["flag", this.textOf(t)]);
      if (!this.eat(Tok.Pipe)) break;
    }
    return allowed.filter((f) => seen.has(f));
  }

  /** Optional `<flags>` glued to the op name. */
  parseOptionalFlags(op: Op, set: FlagSetName | undefined): void {
    if (!this.at(Tok.Less)) return;
    if (!set) this.fail(D.unknownModifier, this.peek(1), ["flag", this.textOf(this.peek(1))]);
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
    if (this.kindOf(kindTok) !== Tok.Ident) this.unexpected(kindTok, "a predicate");
    this.next();
    const arity = PREDICATE_ARITY[this.textOf(kindTok)];
    if (arity === undefined) this.fail(D.unknownPredicate, kindTok, [this.textOf(kindTok)]);
    this.expect(Tok.LParen, "'('");
    const args: (Value | bigint)[] = [];
    if (!this.at(Tok.RParen)) {
      args.push(this.parseValueOrInt());
      while (this.eat(Tok.Comma)) args.push(this.parseValueOrInt());
    }
    const close = this.expect(Tok.RParen, "')'");
    if (args.length !== arity) this.fail(D.predicateArity, kindTok, [this.textOf(kindTok), arity, args.length]);
    return { kind: this.textOf(kindTok), args, span: this.spanFrom(kindTok, close) };
  }

  /**
   * `{key = lit, ...}` with keys from `allowed` (PARSE/018 otherwise, PARSE/020 for repeats).
   * Returns the entries in source order.
   */
  parseAttrDict(allowed: readonly string[]): { key: string; value: Literal; keyTok: TokenIndex; valueTok: TokenIndex }[] {
    this.expect(Tok.LBrace, "'{'");
    const out: { key: string; value: Literal; keyTok: TokenIndex; valueTok: TokenIndex }[] = [];
    if (!this.at(Tok.RBrace)) {
      for (;;) {
        const keyTok = this.peek();
        if (this.kindOf(keyTok) !== Tok.Ident) this.unexpected(keyTok, "an attribute key");
        this.next();
        if (!allowed.includes(this.textOf(keyTok))) this.fail(D.unknownModifier, keyTok, ["attribute key", this.textOf(keyTok)]);
        if (out.some((e) => e.key === this.textOf(keyTok))) this.fail(D.duplicateAttribute, keyTok, [this.textOf(keyTok)]);
        this.expect(Tok.Equal, "'='");
        const valueTok = this.peek();
        const value = this.parseLiteral("an attribute value");
        out.push({ key: this.textOf(keyTok), value, keyTok, valueTok });
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
    if (this.kindOf(t) === Tok.OpName) this.fail(D.unknownType, t, [this.textOf(t)]);
    if (this.kindOf(t) !== Tok.Ident) this.unexpected(t, "a type");
    this.next();
    const name = this.textOf(t);
    const primType = PRIM_TYPES.get(name);
    if (primType) return primType;
    if (name === "encoding") {
      this.expect(Tok.Less, "'<'");
      const k = this.expectIdent("'layout'");
      if (this.textOf(k) !== "layout") this.fail(D.unknownType, k, [`encoding<${this.textOf(k)}>`]);
      this.expect(Tok.Greater, "'>'");
      return T.layout;
    }
    if (name === "vector" || name === "view" || name === "tensor") return this.parseShaped(t, resolve ?? this.useTokenFn);
    this.fail(D.unknownType, t, [name]);
  }

  private parseShaped(head: TokenIndex, resolve: ValueResolver): Type {
    const isVector = this.textOf(head) === "vector";
    this.expect(Tok.Less, "'<'");
    const scratch = this.dimScratch;
    let n = 0;
    let dynamic = false;
    let zero = false;
    for (;;) {
      const t = this.peek();
      if (this.kindOf(t) === Tok.Int) {
        this.next();
        const size = this.buf.nums[t] ?? -1;
        if (this.buf.bigs?.has(t) || size < 0 || size > 0x7fffffff) this.fail(D.invalidType, t, [`dimension ${this.textOf(t)} is out of range`]);
        if (size === 0) zero = true;
        scratch[n++] = staticDim(size === 0 ? 0 : size);
      } else if (this.kindOf(t) === Tok.LBracket) {
        this.next();
        const v = this.expect(Tok.Value, "SSA value");
        this.expect(Tok.RBracket, "']'");
        scratch[n++] = { kind: "dynamic", value: resolve(v) };
        dynamic = true;
      } else {
        break;
      }
      this.expect(Tok.DimX, "'x'");
    }
    // A vector type is interned from the scratch dimensions (`vectorType`): no copy of them.
    const dims = isVector ? scratch : exactCopy(scratch, n);
    const elemTok = this.peek();
    if (this.kindOf(elemTok) !== Tok.Ident) this.unexpected(elemTok, n ? "an element type" : "a dimension");
    this.next();
    if (OUT_OF_V1_TYPES.has(this.textOf(elemTok))) this.fail(D.unknownType, elemTok, [this.textOf(elemTok)]);
    if (n === 0) this.fail(D.invalidType, elemTok, [`${this.textOf(head)} needs at least one dimension`]);
    const elemOk = SCALAR_NAMES.has(this.textOf(elemTok)) || (isVector && this.textOf(elemTok) === "index");
    if (!elemOk) {
      if (PRIM_TYPES.has(this.textOf(elemTok))) this.fail(D.invalidType, elemTok, [`'${this.textOf(elemTok)}' is not a valid ${this.textOf(head)} element type`]);
      this.fail(D.unknownType, elemTok, [this.textOf(elemTok)]);
    }
    const element = prim(this.textOf(elemTok) as PrimType["name"]);
    // A check-harness tensor (language.md §11): a view's dimensions, no layout; only in check.case bodies.
    if (this.textOf(head) === "tensor") {
      if (this.hostValueDepth === 0) this.fail(D.unknownType, head, ["tensor"]);
      const close = this.expect(Tok.Greater, "'>'");
      if (dims.length > 4) this.failAt(D.unknownType, this.spanFrom(head, close), [`${this.sourceBetween(head, close)} (tensors have rank 1 to 4)`]);
      return { kind: "tensor", dims, element };
    }
    if (isVector) {
      if (this.at(Tok.Comma)) this.fail(D.invalidType, this.peek(), ["vector types take no layout"]);
      const close = this.expect(Tok.Greater, "'>'");
      if (dynamic || zero || n > 2) {
        this.reporter.report(D.unknownType, this.spanFrom(head, close), [`${this.sourceBetween(head, close)} (Loom v1 vectors have rank 1 or 2 and static extents >= 1)`]);
        throw new ParseFailure();
      }
      return vectorType(element, dims, n);
    }
    let layout: Layout | undefined;
    if (this.eat(Tok.Comma)) {
      const l = this.peek();
      if (this.kindOf(l) === Tok.Hash && this.textOf(l) === "encoding.layout.strided" && this.kindOf(l + 1) === Tok.Less) {
        this.next();
        layout = this.parseStridedLayoutAttribute();
      } else if (this.kindOf(l) === Tok.Hash) {
        this.next();
        layout = { kind: "named", name: this.textOf(l) };
        if (this.textOf(l) !== "dense" && this.textOf(l) !== "encoding.layout.dense") {
          if (this.textOf(l).startsWith("encoding.") || this.textOf(l).startsWith("target.")) this.fail(D.unknownType, l, [`#${this.textOf(l)}`]);
          this.aliasUses.push({ name: this.textOf(l), span: this.span(l) });
        }
      } else if (this.kindOf(l) === Tok.Value) {
        this.next();
        layout = { kind: "value", value: resolve(l) };
      } else {
        this.unexpected(l, "a layout ('#dense', an alias or a layout value)");
      }
    }
    const close = this.expect(Tok.Greater, "'>'");
    if (dims.length > 4) {
      this.reporter.report(D.unknownType, this.spanFrom(head, close), [`${this.sourceBetween(head, close)} (Loom v1 views have rank 1 to 4)`]);
      throw new ParseFailure();
    }
    return layout ? { kind: "view", dims, element, layout } : { kind: "view", dims, element };
  }

  /**
   * `<strides=[s, …]>` after `#encoding.layout.strided` in a view type: constant element strides
   * in [0, 2^31 − 1]; their count against the view's rank is the verifier's (SHAPE/001).
   */
  private parseStridedLayoutAttribute(): Layout {
    this.expect(Tok.Less, "'<'");
    const key = this.expectIdent("'strides'");
    if (this.textOf(key) !== "strides") this.fail(D.invalidType, key, [`#encoding.layout.strided takes 'strides=[…]', not '${this.textOf(key)}'`]);
    this.expect(Tok.Equal, "'='");
    this.expect(Tok.LBracket, "'['");
    const strides: number[] = [];
    if (!this.at(Tok.RBracket)) {
      do {
        const t = this.expect(Tok.Int, "a stride (an integer literal)");
        const stride = this.buf.nums[t] ?? -1;
        if (this.buf.bigs?.has(t) || stride < 0 || stride > 0x7fffffff) this.fail(D.invalidType, t, [`stride ${this.textOf(t)} is outside [0, 2147483647]`]);
        strides.push(stride === 0 ? 0 : stride);
      } while (this.eat(Tok.Comma));
    }
    this.expect(Tok.RBracket, "']'");
    this.expect(Tok.Greater, "'>'");
    return { kind: "strided", strides };
  }

  /** Source text between two tokens of one line (for messages). */
  private sourceBetween(a: TokenIndex, b: TokenIndex): string {
    let s = "";
    for (let t = a; t <= this.last; t++) {
      s += tokenText(this.kindOf(t), this.textOf(t));
      if (t === b) break;
    }
    return s;
  }

  /** `T, T, ...` (at least one). */
  parseTypeList(resolve?: ValueResolver): Type[] {
    const first = this.parseType(resolve);
    if (!this.at(Tok.Comma)) return [first];
    const scratch = this.typeScratch;
    scratch[0] = first;
    let n = 1;
    while (this.eat(Tok.Comma)) scratch[n++] = this.parseType(resolve);
    return exactCopy(scratch, n);
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
      if (byName.has(this.textOf(nameTok))) continue;
      const value = this.scope.define(this.textOf(nameTok), T.index, region, this.span(nameTok));
      byName.set(this.textOf(nameTok), value);
      placeholder.push(value);
    }
    // Pass 2: parse for real.
    const refs: { value: Value; tok: TokenIndex }[] = [];
    const resolve: ValueResolver = (tok) => {
      const v = byName.get(this.textOf(tok));
      if (!v) this.fail(D.unresolvedSignatureRef, tok, [this.textOf(tok)]);
      refs.push({ value: v, tok });
      return v;
    };
    const args: Value[] = [];
    const seen = new Set<string>();
    if (!this.at(Tok.RParen)) {
      for (;;) {
        const nameTok = this.expect(Tok.Value, "an argument name");
        if (seen.has(this.textOf(nameTok))) this.fail(D.redefinedValue, nameTok, [this.textOf(nameTok)]);
        seen.add(this.textOf(nameTok));
        this.expect(Tok.Colon, "':'");
        const type = this.parseType(resolve);
        const v = byName.get(this.textOf(nameTok));
        if (!v) this.unexpected(nameTok, "an argument");
        v.type = type;
        args.push(v);
        if (!this.eat(Tok.Comma)) break;
      }
    }
    this.expect(Tok.RParen, "')'");
    for (const r of refs) {
      if (r.value.type.kind !== "prim" || r.value.type.name !== "index") this.fail(D.unresolvedSignatureRef, r.tok, [this.textOf(r.tok)]);
    }
    if (region.args.length === 0) region.args = args.slice();
    else region.args.push(...args);
    return args;
  }

  /** Argument-name tokens of the signature starting at the current `(` contents (lenient). */
  private scanSignatureNames(): TokenIndex[] {
    const out: TokenIndex[] = [];
    let depth = 0;
    let expectName = true;
    for (let t = this.pos; t <= this.last; t++) {
      if (this.kindOf(t) === Tok.EOF || this.kindOf(t) === Tok.LBrace || this.kindOf(t) === Tok.RBrace) break;
      if (this.kindOf(t) === Tok.LParen || this.kindOf(t) === Tok.LBracket || this.kindOf(t) === Tok.Less) depth++;
      else if (this.kindOf(t) === Tok.RBracket || this.kindOf(t) === Tok.Greater) depth--;
      else if (this.kindOf(t) === Tok.RParen) {
        if (depth === 0) break;
        depth--;
      } else if (this.kindOf(t) === Tok.Comma && depth === 0) expectName = true;
      else if (expectName && this.kindOf(t) === Tok.Value && t < this.last && this.kindOf(t + 1) === Tok.Colon) {
        out.push(t);
        expectName = false;
      }
    }
    return out;
  }

  /** `@name` */
  parseSymbol(what = "a symbol"): TokenIndex {
    return this.expect(Tok.Symbol, what);
  }

  /** `@name`: the name without `@`. */
  parseSymbolName(what = "a symbol"): string {
    return this.textOf(this.expect(Tok.Symbol, what));
  }

  /** A token of `kind`: its text (a string's decoded contents, a name without its sigil). */
  expectText(kind: Tok, what: string): string {
    return this.textOf(this.expect(kind, what));
  }
}

/** The operands of an op being parsed until its syntax assigns them: frozen, so that nothing pushes to it. */
const OPERANDS_UNSET: Value[] = Object.freeze([]) as unknown as Value[];

/** Static dimensions of the common sizes, shared: types are immutable data. */
const STATIC_DIMS: Dim[] = Array.from({ length: 257 }, (_, size) => Object.freeze({ kind: "static", size }));

function staticDim(size: number): Dim {
  return STATIC_DIMS[size] ?? { kind: "static", size };
}

/** Vector types of small extents, by element and extents, made once per process (types are immutable values). */
const VECTOR_TYPES = new Map<PrimType, Map<number, VectorType>>();
const SMALL_EXTENT = 0x10000;

/** The vector type of the first `rank` static `dims` (rank 1 or 2, checked by the caller). */
function vectorType(element: PrimType, dims: readonly Dim[], rank: number): VectorType {
  const s0 = (dims[0] as { size: number }).size, s1 = rank === 2 ? (dims[1] as { size: number }).size : 0;
  if (s0 >= SMALL_EXTENT || s1 >= SMALL_EXTENT) return { kind: "vector", shape: rank === 2 ? [s0, s1] : [s0], element };
  let byShape = VECTOR_TYPES.get(element);
  if (!byShape) VECTOR_TYPES.set(element, (byShape = new Map()));
  const key = s0 * SMALL_EXTENT + s1;
  let t = byShape.get(key);
  if (!t) byShape.set(key, (t = Object.freeze({ kind: "vector", shape: Object.freeze(rank === 2 ? [s0, s1] : [s0]), element })));
  return t;
}

/** The first `n` entries of `scratch` as a fresh array of exactly that length. */
function exactCopy<T>(scratch: readonly T[], n: number): T[] {
  // A pair (the commonest) as a literal: allocated inline, where `slice` calls into the runtime.
  return n === 2 ? [scratch[0] as T, scratch[1] as T] : scratch.slice(0, n);
}


/**
 * An op's leading comment lines, with a blank-line mark where the source separated two of them
 * or the last of them from the op (a file-header comment stays apart from the first op).
 */
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

function tokenText(kind: Tok, text: string): string {
  switch (kind) {
    case Tok.Value:
      return `%${text}`;
    case Tok.Symbol:
      return `@${text}`;
    case Tok.Hash:
      return `#${text}`;
    case Tok.Ident:
    case Tok.OpName:
    case Tok.Int:
    case Tok.Float:
    case Tok.DimX:
      return text;
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
