/**
 * Tokens of the Loom text format (language.md §1).
 *
 * The lexer turns the whole file into a `TokenBuffer` up front. Comments are not tokens of
 * the grammar: each token owns the comments written before it, so the parser can attach them
 * to the next op or keep them as trailing comments.
 */

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
 * One token as an object: what `lex` returns (tests, the grammar check, tools). The parser
 * reads the same facts straight from a `TokenBuffer` instead and never makes these.
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

/** A token of a `TokenBuffer`: its index (the parser's tokens are plain numbers, no objects). */
export type TokenIndex = number;

/** Flag bits of `TokenBuffer.flags`: first on its line, blank line before; the rest is the brace depth. */
export const FIRST_ON_LINE = 1;
export const BLANK_BEFORE = 2;
export const DEPTH_SHIFT = 2;

/**
 * The lexer's output, one typed-array column per fact (structure of arrays): a token is an
 * index. Why: a compile lexes a few hundred tokens, and one object per token (plus a comment
 * array, a sliced string, a bigint) was most of the front end's allocation. Texts exist only
 * for tokens whose text the parser reads as a string (names, identifiers, strings); number
 * literals keep their value (`nums`; beyond 2^53 in `bigs`) and their raw text is sliced on
 * demand. Comments are one list in source order; `commentEnds[i]` is how many of them come
 * before token `i`'s end, so token `i` owns `comments[commentEnds[i-1] .. commentEnds[i])`.
 *
 * Buffers are reused between compiles (text/lexer.ts `scan` / `releaseTokens`): nothing of a
 * buffer may outlive the parse that read it (spans and names are copied out).
 */
export class TokenBuffer {
  count = 0;
  capacity: number;
  kinds: Uint8Array;
  starts: Int32Array;
  ends: Int32Array;
  lines: Int32Array;
  cols: Int32Array;
  endCols: Int32Array;
  flags: Int32Array;
  commentEnds: Int32Array;
  nums: Float64Array;
  texts: string[];
  /** Integer values that a double does not hold exactly, by token index. */
  bigs: Map<number, bigint> | undefined;
  comments: Comment[] = [];
  /** The source text and its name (set by each scan). */
  text = "";
  source = "";

  constructor(capacity: number) {
    this.capacity = capacity;
    this.kinds = new Uint8Array(capacity);
    this.starts = new Int32Array(capacity);
    this.ends = new Int32Array(capacity);
    this.lines = new Int32Array(capacity);
    this.cols = new Int32Array(capacity);
    this.endCols = new Int32Array(capacity);
    this.flags = new Int32Array(capacity);
    this.commentEnds = new Int32Array(capacity);
    this.nums = new Float64Array(capacity);
    this.texts = new Array<string>(capacity).fill("");
  }

  /** Doubles the capacity, keeping the tokens so far. */
  grow(): void {
    const capacity = this.capacity * 2;
    const widen = <A extends Uint8Array | Int32Array | Float64Array>(a: A, make: (n: number) => A): A => {
      const b = make(capacity);
      b.set(a);
      return b;
    };
    this.kinds = widen(this.kinds, (n) => new Uint8Array(n));
    this.starts = widen(this.starts, (n) => new Int32Array(n));
    this.ends = widen(this.ends, (n) => new Int32Array(n));
    this.lines = widen(this.lines, (n) => new Int32Array(n));
    this.cols = widen(this.cols, (n) => new Int32Array(n));
    this.endCols = widen(this.endCols, (n) => new Int32Array(n));
    this.flags = widen(this.flags, (n) => new Int32Array(n));
    this.commentEnds = widen(this.commentEnds, (n) => new Int32Array(n));
    this.nums = widen(this.nums, (n) => new Float64Array(n));
    for (let i = this.capacity; i < capacity; i++) this.texts.push("");
    this.capacity = capacity;
  }

  /** The token's text: the name (no sigil), identifier, decoded string, or raw literal. */
  textAt(i: TokenIndex): string {
    const k = this.kinds[i];
    if (k === Tok.Int || k === Tok.Float || k === Tok.DimX) return this.text.slice(this.starts[i], this.ends[i]);
    return this.texts[i] ?? "";
  }

  /** The value of an Int token. */
  intAt(i: TokenIndex): bigint {
    return this.bigs?.get(i) ?? BigInt(this.nums[i] ?? 0);
  }

  /** Comments before token `i` (since the previous token). */
  commentsBefore(i: TokenIndex): Comment[] | undefined {
    const from = i > 0 ? (this.commentEnds[i - 1] ?? 0) : 0;
    const to = this.commentEnds[i] ?? 0;
    return to > from ? this.comments.slice(from, to) : undefined;
  }
}

/** Token `i` of `buf` as an object (for `lex`; a function, not a method, so a bundle that only parses leaves `Token` out). */
export function tokenAt(buf: TokenBuffer, i: TokenIndex): Token {
  const k = buf.kinds[i] as Tok;
  const value = k === Tok.Int ? buf.intAt(i) : k === Tok.Float ? buf.nums[i] : undefined;
  return new Token(k, buf.starts[i] ?? 0, buf.ends[i] ?? 0, buf.lines[i] ?? 0, buf.cols[i] ?? 0, buf.endCols[i] ?? 0, buf.textAt(i), value, buf.flags[i] ?? 0, buf.commentsBefore(i));
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

/** How a token of kind `kind` and text `text` is quoted in "unexpected ..." messages. */
export function describeToken(kind: Tok, text: string): string {
  switch (kind) {
    case Tok.EOF:
      return "end of file";
    case Tok.Ident:
    case Tok.OpName:
      return `'${text}'`;
    case Tok.Value:
      return `'%${text}'`;
    case Tok.Symbol:
      return `'@${text}'`;
    case Tok.Hash:
      return `'#${text}'`;
    case Tok.Label:
      return `'^${text}'`;
    case Tok.Int:
    case Tok.Float:
      return `'${text}'`;
    case Tok.String:
      return "string";
    default:
      return tokKindName(kind);
  }
}
