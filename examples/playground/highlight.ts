/**
 * A small highlighter that runs the TextMate grammar of `.loom` (editors/loom.tmLanguage.json)
 * as it is: every pattern there is one single-line `match`, so tokenizing is "at each position,
 * the first pattern that matches there wins". No DOM: the page turns the tokens into spans.
 */
import grammar from "../../editors/loom.tmLanguage.json" with { type: "json" };

export interface HighlightToken {
  readonly start: number;
  readonly end: number;
  /** The grammar's scope name, e.g. "variable.other.value.loom"; undefined for unmatched text. */
  readonly scope: string | undefined;
}

interface Pattern {
  readonly scope: string;
  readonly regex: RegExp;
}

const PATTERNS: readonly Pattern[] = grammar.patterns.map((p) => ({ scope: p.name, regex: new RegExp(p.match, "my") }));

/** Tokens covering `text` from start to end, one line at a time (patterns never span lines). */
export function highlightTokens(text: string): HighlightToken[] {
  const out: HighlightToken[] = [];
  let plainFrom = 0;
  const flushPlain = (to: number) => {
    if (to > plainFrom) out.push({ start: plainFrom, end: to, scope: undefined });
  };
  let pos = 0;
  while (pos < text.length) {
    let matched: { end: number; scope: string } | undefined;
    for (const p of PATTERNS) {
      p.regex.lastIndex = pos;
      const m = p.regex.exec(text);
      if (m && m[0].length > 0) {
        matched = { end: pos + m[0].length, scope: p.scope };
        break;
      }
    }
    if (!matched) {
      pos++;
      continue;
    }
    flushPlain(pos);
    out.push({ start: pos, end: matched.end, scope: matched.scope });
    pos = plainFrom = matched.end;
  }
  flushPlain(text.length);
  return out;
}

/** A CSS class for a scope ("variable.other.value.loom" → "tm-variable-other-value"). */
export function scopeClass(scope: string): string {
  return `tm-${scope.replace(/\.loom$/, "").replaceAll(".", "-")}`;
}
