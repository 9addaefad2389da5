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

export interface Token {
  kind: Tok;
  /** UTF-16 offsets into the source. */
  readonly start: number;
  readonly end: number;
  readonly line: number;
  /** 1-based code-point column. */
  readonly col: number;
  readonly endLine: number;
  readonly endCol: number;
  /**
   * Identifier / name text (without sigil), decoded string contents, the raw literal text
   * of numbers.
   */
  readonly text: string;
  /** Integer value (Int tokens). */
  readonly int: bigint | undefined;
  /** Float value (Float tokens). */
  readonly float: number | undefined;
  /** First token on its line. */
  readonly firstOnLine: boolean;
  /** A blank line separates this token from the previous token (comments count as tokens). */
  readonly blankBefore: boolean;
  /** Number of unclosed `{` before this token (used for error recovery). */
  readonly depth: number;
  /** Comments between the previous token and this one. */
  comments?: Comment[];
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
