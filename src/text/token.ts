/**
 * Tokens of the Loom text format (language.md §1).
 *
 * The lexer turns the whole file into an array of tokens up front. Comments are not tokens
 * of the grammar: each token carries the comments written before it (`comments`) so the
 * parser can attach them to the next op or keep them as trailing comments.
 */
import type { Span } from "../ir/core.js";

export const enum Tok {
  EOF,
  /** A bare identifier without `.` (keywords, enum cases, type names). */
  Ident,
  /** An identifier containing `.` (`kernel.def`). */
  OpName,
  Int,
  Float,
  String,
  /** `%name`; `text` is the name without `%`. */
  Value,
  /** `@name`; `text` is the name without `@`. */
  Symbol,
  /** `#name`; `text` is the name without `#`. */
  Hash,
  /** `^name` (not used in v1). */
  Label,
  LParen,
  RParen,
  LBrace,
  RBrace,
  LBracket,
  RBracket,
  Less,
  Greater,
  Equal,
  Colon,
  Comma,
  Pipe,
  Arrow,
  /** The `x` separator inside a shaped type's dimension list. */
  DimX,
  /** A lexical error already reported by the lexer; the parser fails the op silently. */
  Error,
}

/** A `//` comment: `text` is everything after `//` up to the line end (no trailing `\r`). */
export interface Comment {
  readonly text: string;
  readonly line: number;
  /** A blank line separates it from the previous token or comment. */
  readonly blankBefore: boolean;
  /** Written at the end of a line that holds a token (an end-of-line comment). */
  readonly endOfLine: boolean;
}

/**
 * One token. Compact on purpose (the lexer makes one per token of every compile): line-local
 * facts are packed into `bits`, and a number's value shares one slot. Tokens never span lines
 * (strings end at a line end, comments are not tokens), so `endLine` is `line`.
 */
export class Token {
  constructor(
    public kind: Tok,
    /** UTF-16 offsets into the source. */
    readonly start: number,
    readonly end: number,
    readonly line: number,
    /** 1-based code-point column. */
    readonly col: number,
    readonly endCol: number,
    /**
     * Identifier / name text (without sigil), decoded string contents, the raw literal text
     * of numbers.
     */
    readonly text: string,
    /** The value of an Int (bigint) or Float (number) token. */
    private readonly value: bigint | number | undefined,
    /** depth << 2 | blankBefore << 1 | firstOnLine. */
    private readonly bits: number,
    /** Comments between the previous token and this one. */
    public comments: Comment[] | undefined,
  ) {}

  get endLine(): number {
    return this.line;
  }
  /** Integer value (Int tokens). */
  get int(): bigint | undefined {
    return typeof this.value === "bigint" ? this.value : undefined;
  }
  /** Float value (Float tokens). */
  get float(): number | undefined {
    return typeof this.value === "number" ? this.value : undefined;
  }
  /** First token on its line. */
  get firstOnLine(): boolean {
    return (this.bits & 1) !== 0;
  }
  /** A blank line separates this token from the previous token (comments count as tokens). */
  get blankBefore(): boolean {
    return (this.bits & 2) !== 0;
  }
  /** Number of unclosed `{` before this token (used for error recovery). */
  get depth(): number {
    return this.bits >>> 2;
  }
}

export function tokenSpan(source: string, t: Token): Span {
  return { source, line: t.line, column: t.col, endLine: t.endLine, endColumn: t.endCol };
}

/** From the start of `a` to the end of `b`. */
export function joinSpan(source: string, a: Token, b: Token): Span {
  return { source, line: a.line, column: a.col, endLine: b.endLine, endColumn: b.endCol };
}

const NAMES: Record<number, string> = {
  [Tok.EOF]: "end of file",
  [Tok.Ident]: "identifier",
  [Tok.OpName]: "op name",
  [Tok.Int]: "integer",
  [Tok.Float]: "float",
  [Tok.String]: "string",
  [Tok.Value]: "SSA value",
  [Tok.Symbol]: "symbol",
  [Tok.Hash]: "'#' name",
  [Tok.Label]: "block label",
  [Tok.LParen]: "'('",
  [Tok.RParen]: "')'",
  [Tok.LBrace]: "'{'",
  [Tok.RBrace]: "'}'",
  [Tok.LBracket]: "'['",
  [Tok.RBracket]: "']'",
  [Tok.Less]: "'<'",
  [Tok.Greater]: "'>'",
  [Tok.Equal]: "'='",
  [Tok.Colon]: "':'",
  [Tok.Comma]: "','",
  [Tok.Pipe]: "'|'",
  [Tok.Arrow]: "'->'",
  [Tok.DimX]: "'x'",
  [Tok.Error]: "invalid token",
};

export function tokKindName(k: Tok): string {
  return NAMES[k] ?? "token";
}

/** How a token is quoted in "unexpected ..." messages. */
export function describeToken(t: Token): string {
  switch (t.kind) {
    case Tok.EOF:
      return "end of file";
    case Tok.Ident:
    case Tok.OpName:
      return `'${t.text}'`;
    case Tok.Value:
      return `'%${t.text}'`;
    case Tok.Symbol:
      return `'@${t.text}'`;
    case Tok.Hash:
      return `'#${t.text}'`;
    case Tok.Label:
      return `'^${t.text}'`;
    case Tok.Int:
    case Tok.Float:
      return `'${t.text}'`;
    case Tok.String:
      return "string";
    default:
      return tokKindName(t.kind);
  }
}
