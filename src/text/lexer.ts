/**
 * The Loom lexer (language.md §1): source text → tokens, in one pass over char codes.
 *
 * - Positions: 1-based line and code-point column (astral characters count once).
 * - Dimension mode: after `vector<` / `view<` / `tensor<`, an `x` starting an identifier is the `DimX`
 *   separator and integers are decimal only, until the element type (an identifier) ends it.
 * - Comments are attached to the following token (`TokenBuffer.commentEnds`), never emitted alone.
 * - Output: a `TokenBuffer` (typed-array columns, a token is an index), reused between compiles.
 * - Lexical errors (PARSE/005 015 016 019 023 024 025 026) are reported here and leave an
 *   `Error` token behind, so the parser fails the enclosing op without a second message.
 */
import type { Span } from "../ir/core.js";
import { D } from "../core/diag/catalog.js";
import type { Reporter } from "./reporter.js";
import { Tok, TokenBuffer, tokenAt, type Token, type TokenIndex } from "./token.js";
import { internSlice, internWalked, trieStep } from "./intern.js";

// Character classes of ASCII codes.
const ID_START = 1; // [A-Za-z_$]
const ID_CHAR = 2; // [A-Za-z0-9_$.-]
const VAL_CHAR = 4; // [A-Za-z0-9_$-]  (SSA names, labels)
const DIGIT = 8;
const HEX = 16;
const DOT = 32;
const CLASS = new Uint8Array(128);
(function initClasses() {
  const set = (from: number, to: number, bits: number) => {
    for (let c = from; c <= to; c++) CLASS[c] = (CLASS[c] ?? 0) | bits;
  };
  set(0x41, 0x5a, ID_START | ID_CHAR | VAL_CHAR); // A-Z
  set(0x61, 0x7a, ID_START | ID_CHAR | VAL_CHAR); // a-z
  set(0x30, 0x39, ID_CHAR | VAL_CHAR | DIGIT | HEX);
  set(0x41, 0x46, HEX);
  set(0x61, 0x66, HEX);
  for (const c of [0x5f, 0x24]) CLASS[c] = (CLASS[c] ?? 0) | ID_START | ID_CHAR | VAL_CHAR; // _ $
  CLASS[0x2d] = (CLASS[0x2d] ?? 0) | ID_CHAR | VAL_CHAR; // -
  CLASS[0x2e] = (CLASS[0x2e] ?? 0) | ID_CHAR | DOT; // .
})();

function cls(c: number): number {
  return c < 128 ? (CLASS[c] ?? 0) : 0;
}

const SINGLE_CHARS: Record<number, Tok> = {
  0x28: Tok.LParen,
  0x29: Tok.RParen,
  0x7b: Tok.LBrace,
  0x7d: Tok.RBrace,
  0x5b: Tok.LBracket,
  0x5d: Tok.RBracket,
  0x3c: Tok.Less,
  0x3e: Tok.Greater,
  0x3d: Tok.Equal,
  0x3a: Tok.Colon,
  0x2c: Tok.Comma,
  0x7c: Tok.Pipe,
};

/** The kind of a name token by its sigil's char code (-1 = none). */
const SIGILS = new Int8Array(128).fill(-1);
SIGILS[0x25] = Tok.Value;
SIGILS[0x40] = Tok.Symbol;
SIGILS[0x23] = Tok.Hash;
SIGILS[0x5e] = Tok.Label;

/** Single-character punctuation by char code (-1 = none). */
const SINGLE = new Int8Array(128).fill(-1);
for (const [c, k] of Object.entries(SINGLE_CHARS)) SINGLE[Number(c)] = k;

function isHighSurrogate(c: number): boolean {
  return c >= 0xd800 && c <= 0xdbff;
}
function isLowSurrogate(c: number): boolean {
  return c >= 0xdc00 && c <= 0xdfff;
}

/** Tokenizes `text` into token objects; the last token is always EOF (carrying the file's trailing comments). */
export function lex(source: string, text: string, reporter: Reporter): Token[] {
  const buf = scan(source, text, reporter);
  const out: Token[] = [];
  for (let i = 0; i < buf.count; i++) out.push(tokenAt(buf, i));
  releaseTokens(buf);
  return out;
}

/** Largest buffer kept for the next compile (a bigger file's buffer is dropped after use). */
const MAX_POOLED_TOKENS = 1 << 16;
let spare: TokenBuffer | undefined;

/**
 * Tokenizes `text` into a buffer (the last token is always EOF); hand it back with
 * `releaseTokens` once nothing reads it any more, so the next compile reuses it.
 */
export function scan(source: string, text: string, reporter: Reporter): TokenBuffer {
  let buf = spare;
  spare = undefined;
  buf ??= new TokenBuffer(Math.max(64, Math.min(MAX_POOLED_TOKENS, text.length >> 2)));
  buf.source = source;
  buf.text = text;
  buf.count = 0;
  new Lexer(source, text, reporter, buf).run();
  return buf;
}

/** Returns a buffer from `scan` for reuse; the caller keeps no index or array of it. */
export function releaseTokens(buf: TokenBuffer): void {
  if (buf.capacity > MAX_POOLED_TOKENS) return;
  // Drop the strings and the source so a kept buffer holds nothing of this compile alive.
  buf.texts.fill("", 0, buf.count);
  buf.comments = [];
  buf.bigs = undefined;
  buf.text = "";
  buf.source = "";
  buf.count = 0;
  spare = buf;
}

class Lexer {
  private pos = 0;
  private line = 1;
  private lineStart = 0;
  /** Extra UTF-16 units (astral low halves) seen on the current line before `pos`. */
  private astral = 0;
  /** Line where the previous token or comment ended (0 = none yet). */
  private lastLine = 0;
  /** Line of the previous token (0 = none yet): a comment on it ends that line. */
  private lastTokenLine = 0;
  private depth = 0;
  private dimMode = false;
  /** The first unclosed `<` token on the current line, and how many are open (-1 / 0 = none). */
  private firstAngle: TokenIndex = -1;
  private openAngles = 0;
  /** Tokens before this index have their `commentEnds` set. */
  private commentEndsFilled = 0;

  constructor(
    private readonly source: string,
    private readonly text: string,
    private readonly reporter: Reporter,
    private readonly buf: TokenBuffer,
  ) {}

  run(): void {
    const text = this.text;
    const n = text.length;
    const reporter = this.reporter;
    let pos = 0;
    while (pos < n) {
      const c = text.charCodeAt(pos);
      if (c === 0x20 || c === 0x09 || c === 0x0d) {
        pos++;
        continue;
      }
      // The commonest tokens (punctuation, sigil names, identifiers) are scanned here, with the
      // position in a local and one push site: none of them reports, so no error-limit check.
      if (c < 128) {
        let kind: Tok = SINGLE[c] ?? -1;
        let end = pos + 1;
        let word = "";
        if (kind >= 0) {
          if (kind === Tok.Less) {
            const buf = this.buf;
            const prev = buf.count - 1;
            if (prev >= 0 && buf.kinds[prev] === Tok.Ident) {
              const w = buf.texts[prev];
              if (w === "vector" || w === "view" || w === "tensor") this.dimMode = true;
            }
            if (this.openAngles++ === 0) this.firstAngle = buf.count;
          } else if (kind === Tok.Greater) {
            if (this.openAngles > 0) this.openAngles--;
            this.dimMode = false;
          } else if (kind === Tok.Comma) {
            this.dimMode = false;
          }
        } else if (c === 0x78 /* x */ && this.dimMode) {
          kind = Tok.DimX;
        } else if ((SIGILS[c] ?? -1) >= 0 || ((CLASS[c] ?? 0) & ID_START) !== 0) {
          // Sigil names and identifiers: one scan, the name-trie walk running along it, so a
          // name seen before is found at its end. An identifier's first char is its first
          // step (trieStep(0, c) is c); a sigil's name starts after it. `%` and `^` names:
          // [A-Za-z0-9_$-]+; `@`: plus dots; `#`: identifier rules (a first char that cannot
          // start one ends the name there). Without a name: token()'s error.
          const sigil: Tok = SIGILS[c] ?? -1;
          const mask = sigil < 0 || sigil === Tok.Symbol ? ID_CHAR : sigil === Tok.Hash ? (cls(text.charCodeAt(end)) & ID_START ? ID_CHAR : 0) : VAL_CHAR;
          let node = sigil < 0 ? c : 0;
          // The classes of the name's chars, together: DOT makes an identifier an op name.
          let seen = 0;
          while (end < n) {
            const d = text.charCodeAt(end);
            const k = d < 128 ? (CLASS[d] ?? 0) : 0;
            if ((k & mask) === 0) break;
            seen |= k;
            node = trieStep(node, d);
            end++;
          }
          if (sigil < 0) {
            // Dimension mode ends at the element type.
            this.dimMode = false;
            kind = seen & DOT ? Tok.OpName : Tok.Ident;
            word = internWalked(node, text, pos, end);
          } else if (end > pos + 1) {
            kind = sigil;
            // Interned like identifiers: no slice per use, a cached hash for the scope's maps.
            word = internWalked(node, text, pos + 1, end);
          }
        }
        if (kind >= 0) {
          const i = this.push(kind, pos, end, this.col(pos), this.line);
          if (word !== "") this.buf.texts[i] = word;
          pos = end;
          continue;
        }
      }
      this.pos = pos;
      if (c === 0x0a) this.newline();
      else if (c === 0x2f && text.charCodeAt(pos + 1) === 0x2f) this.comment();
      else this.token(c);
      pos = this.pos;
      // Blanks never report: the error limit is checked after everything else.
      if (reporter.full) break;
    }
    this.pos = pos;
    this.closeAngles();
    this.push(Tok.EOF, pos, pos, this.col(pos), this.line);
    this.fillCommentEnds();
  }

  /** Sets `commentEnds` of the tokens pushed since the last comment (one fill per comment instead of a store per token). */
  private fillCommentEnds(): void {
    const buf = this.buf;
    buf.commentEnds.fill(buf.comments.length, this.commentEndsFilled, buf.count);
    this.commentEndsFilled = buf.count;
  }

  private col(pos: number): number {
    return pos - this.lineStart - this.astral + 1;
  }

  private newline(): void {
    if (this.openAngles > 0) this.closeAngles();
    this.dimMode = false;
    this.pos++;
    this.line++;
    this.lineStart = this.pos;
    this.astral = 0;
  }

  /** PARSE/026 for every line that leaves a `<` open. */
  private closeAngles(): void {
    if (this.openAngles === 0) return;
    const buf = this.buf;
    const t = this.firstAngle;
    buf.kinds[t] = Tok.Error;
    const line = buf.lines[t] ?? 0;
    this.reporter.report(D.unterminatedAngle, { source: this.source, line, column: buf.cols[t] ?? 0, endLine: line, endColumn: buf.endCols[t] ?? 0 });
    this.openAngles = 0;
    this.firstAngle = -1;
  }

  private span(startPos: number, startCol: number, endPos: number): Span {
    return { source: this.source, line: this.line, column: startCol, endLine: this.line, endColumn: startCol + (endPos - startPos) };
  }

  /** Appends a token; returns its index (its text, if any, is the caller's to set). */
  private push(kind: Tok, start: number, end: number, col: number, line: number): TokenIndex {
    const buf = this.buf;
    const i = buf.count;
    if (i === buf.capacity) buf.grow();
    buf.kinds[i] = kind;
    buf.starts[i] = start;
    buf.ends[i] = end;
    buf.lines[i] = line;
    buf.cols[i] = col;
    buf.endCols[i] = this.col(end);
    buf.flags[i] = (this.depth << 2) | (this.lastLine !== 0 && line - this.lastLine >= 2 ? 2 : 0) | (line !== this.lastLine ? 1 : 0);
    buf.count = i + 1;
    if (kind === Tok.LBrace) this.depth++;
    else if (kind === Tok.RBrace && this.depth > 0) this.depth--;
    this.lastLine = this.line;
    this.lastTokenLine = this.line;
    return i;
  }

  private pushText(kind: Tok, start: number, col: number, line: number, text: string): void {
    this.buf.texts[this.push(kind, start, this.pos, col, line)] = text;
  }

  private error(entry: (typeof D)[keyof typeof D], start: number, col: number, args: readonly unknown[] = []): void {
    this.reporter.report(entry, this.span(start, col, Math.max(this.pos, start + 1)), args);
    this.pushText(Tok.Error, start, col, this.line, this.text.slice(start, this.pos));
  }

  private comment(): void {
    const text = this.text;
    const start = this.pos + 2;
    let end = text.indexOf("\n", start);
    if (end < 0) end = text.length;
    let stop = end;
    if (stop > start && text.charCodeAt(stop - 1) === 0x0d) stop--;
    // Count astral characters (columns) and reject lone surrogates.
    for (let i = start; i < stop; i++) {
      const c = text.charCodeAt(i);
      if (c < 0xd800) continue;
      if (isHighSurrogate(c) && isLowSurrogate(text.charCodeAt(i + 1))) {
        i++;
      } else if (isHighSurrogate(c) || isLowSurrogate(c)) {
        const col = this.col(i);
        this.reporter.report(D.invalidUtf8, { source: this.source, line: this.line, column: col, endLine: this.line, endColumn: col + 1 });
      }
    }
    const buf = this.buf;
    this.fillCommentEnds();
    const pendingBefore = buf.count > 0 ? (buf.commentEnds[buf.count - 1] ?? 0) : 0;
    buf.comments.push({
      text: text.slice(start, stop),
      line: this.line,
      blankBefore: this.lastLine !== 0 && this.line - this.lastLine >= 2,
      endOfLine: this.lastTokenLine === this.line && buf.comments.length === pendingBefore,
    });
    this.lastLine = this.line;
    this.pos = end;
  }

  private token(c: number): void {
    const start = this.pos;
    const col = this.col(start);
    const line = this.line;
    // Punctuation, identifiers and sigil names were scanned by `run`.
    const k = cls(c);
    if (k & DIGIT) return this.number(start, col, false);
    if (c === 0x2d /* - */) {
      const d = this.text.charCodeAt(start + 1);
      if (d === 0x3e /* > */) {
        this.pos += 2;
        this.push(Tok.Arrow, start, this.pos, col, line);
        return;
      }
      if (cls(d) & DIGIT) return this.number(start, col, true);
      for (const word of ["inf", "nan"]) {
        if (this.text.startsWith(word, start + 1) && !(cls(this.text.charCodeAt(start + 4)) & ID_CHAR)) {
          this.pos += 4;
          this.buf.nums[this.push(Tok.Float, start, this.pos, col, line)] = word === "inf" ? -Infinity : NaN;
          return;
        }
      }
      this.pos++;
      return this.error(D.unexpectedCharacter, start, col, ["-"]);
    }
    if (c < 128 && (SIGILS[c] ?? -1) >= 0) {
      this.pos++;
      return this.error(D.sigilWithoutName, start, col, [this.text[start]]);
    }
    if (c === 0x22 /* " */) return this.string(start, col);
    // Anything else is not part of the language.
    if (isHighSurrogate(c) && isLowSurrogate(this.text.charCodeAt(start + 1))) {
      this.pos += 2;
      this.reporter.report(D.unexpectedCharacter, this.span(start, col, start + 1), [this.text.slice(start, start + 2)]);
      this.pushText(Tok.Error, start, col, line, "");
      this.astral++;
      return;
    }
    this.pos++;
    if (isHighSurrogate(c) || isLowSurrogate(c)) return this.error(D.invalidUtf8, start, col);
    const shown = c < 0x20 || c === 0x7f ? `\\u${c.toString(16).padStart(4, "0")}` : String.fromCharCode(c);
    this.error(D.unexpectedCharacter, start, col, [shown]);
  }

  private digits(i: number, mask: number): number {
    const text = this.text;
    while (i < text.length && cls(text.charCodeAt(i)) & mask) i++;
    return i;
  }

  private number(start: number, col: number, negative: boolean): void {
    const text = this.text;
    const line = this.line;
    const first = negative ? start + 1 : start;
    if (this.dimMode) {
      this.pos = this.digits(first, DIGIT);
      this.pushInt(start, col, line, first, 10, negative);
      return;
    }
    if (text.charCodeAt(first) === 0x30 && text.charCodeAt(first + 1) === 0x78 /* 0x */) {
      const end = this.digits(first + 2, HEX);
      this.pos = end;
      if (end === first + 2) return this.error(D.badInteger, start, col, [text.slice(start, end)]);
      this.pushInt(start, col, line, first + 2, 16, negative);
      return;
    }
    let i = this.digits(first, DIGIT);
    let isFloat = false;
    if (text.charCodeAt(i) === 0x2e /* . */) {
      const j = this.digits(i + 1, DIGIT);
      if (j === i + 1) {
        this.pos = i + 1;
        return this.error(D.badFloat, start, col, [text.slice(start, i + 1)]);
      }
      i = j;
      isFloat = true;
    }
    const e = text.charCodeAt(i);
    if (e === 0x65 || e === 0x45 /* e E */) {
      let j = i + 1;
      const s = text.charCodeAt(j);
      const signed = s === 0x2b || s === 0x2d;
      if (signed) j++;
      const k = this.digits(j, DIGIT);
      if (k > j) {
        i = k;
        isFloat = true;
      } else if (signed || isFloat) {
        // `1e+` / `1.5e`: an exponent marker without digits.
        this.pos = j;
        return this.error(D.badFloat, start, col, [text.slice(start, j)]);
      }
    }
    this.pos = i;
    if (isFloat) this.buf.nums[this.push(Tok.Float, start, this.pos, col, line)] = Number(text.slice(start, i));
    else this.pushInt(start, col, line, first, 10, negative);
  }

  /**
   * An Int token ending at `pos` whose digits (base 10 or 16) start at `digits`: the value is
   * summed as a double while that is exact (below 2^53), else kept as a bigint.
   */
  private pushInt(start: number, col: number, line: number, digits: number, base: 10 | 16, negative: boolean): void {
    const text = this.text;
    const end = this.pos;
    let v = 0;
    for (let i = digits; i < end; i++) {
      const c = text.charCodeAt(i);
      v = v * base + (c <= 0x39 ? c - 0x30 : (c | 0x20) - 0x57);
    }
    const i = this.push(Tok.Int, start, this.pos, col, line);
    if (v <= Number.MAX_SAFE_INTEGER) {
      this.buf.nums[i] = negative ? -v : v;
      return;
    }
    const mag = BigInt((base === 16 ? "0x" : "") + text.slice(digits, end));
    (this.buf.bigs ??= new Map()).set(i, negative ? -mag : mag);
  }

  private string(start: number, col: number): void {
    const text = this.text;
    const line = this.line;
    let i = start + 1;
    let out = "";
    let chunk = i;
    let bad: { at: number; what: string } | undefined;
    let astral = 0;
    for (;;) {
      if (i >= text.length || text.charCodeAt(i) === 0x0a) {
        // Unterminated: report at the opening quote, highlight to the line end.
        this.pos = i;
        this.astral += astral;
        this.reporter.report(D.unterminatedString, { source: this.source, line, column: col, endLine: line, endColumn: this.col(i) });
        this.pushText(Tok.Error, start, col, line, "");
        return;
      }
      const c = text.charCodeAt(i);
      if (c === 0x22) break;
      if (c === 0x5c /* \ */) {
        out += text.slice(chunk, i);
        const e = text.charCodeAt(i + 1);
        const simple = ESCAPES[e];
        if (simple !== undefined) {
          out += simple;
          i += 2;
        } else if (e === 0x75 /* u */) {
          const unit = hex4(text, i + 2);
          if (unit < 0) {
            bad ??= { at: i, what: `'${text.slice(i, Math.min(i + 6, text.length)).split("\n")[0]}'` };
            i += 2;
          } else if (isHighSurrogate(unit) && text.charCodeAt(i + 6) === 0x5c && text.charCodeAt(i + 7) === 0x75 && isLowSurrogate(hex4(text, i + 8))) {
            out += String.fromCharCode(unit, hex4(text, i + 8));
            i += 12;
          } else if (isHighSurrogate(unit) || isLowSurrogate(unit)) {
            bad ??= { at: i, what: `unpaired surrogate '${text.slice(i, i + 6)}'` };
            i += 6;
          } else {
            out += String.fromCharCode(unit);
            i += 6;
          }
        } else if (Number.isNaN(e) || e === 0x0a) {
          // A backslash at the end of the line or file: the string is unterminated there.
          i += 1;
        } else {
          bad ??= { at: i, what: `'\\${String.fromCharCode(e)}'` };
          i += 2;
        }
        chunk = i;
        continue;
      }
      if (c < 0x20) {
        bad ??= { at: i, what: `control character U+${c.toString(16).toUpperCase().padStart(4, "0")}` };
      } else if (isHighSurrogate(c) && isLowSurrogate(text.charCodeAt(i + 1))) {
        astral++;
        i += 2;
        continue;
      } else if (isHighSurrogate(c) || isLowSurrogate(c)) {
        bad ??= { at: i, what: "invalid UTF-8" };
      }
      i++;
    }
    // Without escapes, the contents are a name (`export("matmul_tiled")`): interned, one-byte.
    if (out === "" && i > chunk) out = internSlice(text, chunk, i);
    else out += text.slice(chunk, i);
    this.pos = i + 1;
    if (bad) {
      const at = this.col(bad.at) - countAstral(text, start, bad.at);
      const entry = bad.what === "invalid UTF-8" ? D.invalidUtf8 : D.badEscape;
      this.reporter.report(entry, { source: this.source, line, column: at, endLine: line, endColumn: at + 1 }, [bad.what]);
      this.astral += astral;
      this.pushText(Tok.Error, start, col, line, "");
      return;
    }
    // Columns after an astral character shift by one per pair.
    this.astral += astral;
    this.pushText(Tok.String, start, col, line, out);
  }
}

function countAstral(text: string, from: number, to: number): number {
  let n = 0;
  for (let i = from; i < to; i++) if (isHighSurrogate(text.charCodeAt(i)) && isLowSurrogate(text.charCodeAt(i + 1))) n++;
  return n;
}

const ESCAPES: Record<number, string> = {
  0x22: '"',
  0x5c: "\\",
  0x2f: "/",
  0x62: "\b",
  0x66: "\f",
  0x6e: "\n",
  0x72: "\r",
  0x74: "\t",
};

/** Value of 4 hex digits at `i`, or -1. */
function hex4(text: string, i: number): number {
  let v = 0;
  for (let k = 0; k < 4; k++) {
    const c = text.charCodeAt(i + k);
    if (!(cls(c) & HEX)) return -1;
    v = v * 16 + (c <= 0x39 ? c - 0x30 : (c | 0x20) - 0x57);
  }
  return v;
}
