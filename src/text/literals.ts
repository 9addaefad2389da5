/** Canonical spelling of literals (language.md §9.5). */
import type { Literal } from "../ir/core.js";

/** C `printf("%.17g")` of a double. */
export function formatG17(x: number): string {
  if (x === 0) return Object.is(x, -0) ? "-0" : "0";
  const [mantissa, expText] = x.toExponential(16).split("e") as [string, string];
  const exp = Number(expText);
  const negative = mantissa.startsWith("-");
  const digits = mantissa.replace("-", "").replace(".", ""); // 17 significant digits
  let out: string;
  if (exp < -4 || exp >= 17) {
    let m = digits[0]! + "." + digits.slice(1);
    m = m.replace(/0+$/, "").replace(/\.$/, "");
    const e = Math.abs(exp);
    out = `${m}e${exp < 0 ? "-" : "+"}${e < 10 ? "0" : ""}${e}`;
  } else if (exp >= 0) {
    const intPart = digits.slice(0, exp + 1);
    const frac = digits.slice(exp + 1).replace(/0+$/, "");
    out = frac ? `${intPart}.${frac}` : intPart;
  } else {
    const frac = ("0".repeat(-exp - 1) + digits).replace(/0+$/, "");
    out = `0.${frac}`;
  }
  return negative ? "-" + out : out;
}

/** A float literal: `%.17g`, then `.0` unless the text has `.` or `e`; `inf`, `-inf`, `nan`. */
export function formatFloat(x: number): string {
  if (Number.isNaN(x)) return "nan";
  if (x === Infinity) return "inf";
  if (x === -Infinity) return "-inf";
  const s = formatG17(x);
  return s.includes(".") || s.includes("e") ? s : s + ".0";
}

/** A string literal with JSON escapes; other controls as `\u00XX`; everything else raw. */
export function quoteString(s: string): string {
  let out = '"';
  let chunk = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    let esc: string | undefined;
    if (c === 0x22) esc = '\\"';
    else if (c === 0x5c) esc = "\\\\";
    else if (c < 0x20) {
      esc = c === 0x08 ? "\\b" : c === 0x0c ? "\\f" : c === 0x0a ? "\\n" : c === 0x0d ? "\\r" : c === 0x09 ? "\\t" : `\\u${c.toString(16).toUpperCase().padStart(4, "0")}`;
    }
    if (esc !== undefined) {
      out += s.slice(chunk, i) + esc;
      chunk = i + 1;
    }
  }
  return out + s.slice(chunk) + '"';
}

export function formatLiteral(l: Literal): string {
  switch (l.kind) {
    case "int":
      return l.value.toString();
    case "float":
      return formatFloat(l.value);
    case "bool":
      return l.value ? "true" : "false";
    case "string":
      return quoteString(l.value);
    case "ident":
      return l.value;
  }
}
