/**
 * Renders diagnostics as text (language.md §8):
 *
 *   saxpy.loom:14:21: error [PARSE/001]: undefined SSA value '%xs'
 *    14 |     %xi = view.load %xs[%i] : view<[%n]xf32> -> f32
 *       |                     ^^^
 */
import type { Diagnostic } from "./diagnostic.js";

/** Source texts by name, so the renderer can quote lines. */
export type SourceLookup = (name: string) => string | undefined;

function locText(d: Diagnostic): string {
  const l = d.location;
  return l ? `${l.source}:${l.line}:${l.column}` : "<unknown>";
}

function codePoints(s: string): string[] {
  return Array.from(s);
}

function quote(d: Diagnostic, lookup: SourceLookup | undefined, out: string[]): void {
  const l = d.location;
  if (!l || !lookup) return;
  const text = lookup(l.source);
  if (text === undefined) return;
  const lines = text.split("\n");
  const raw = lines[l.line - 1];
  if (raw === undefined) return;
  const line = raw.endsWith("\r") ? raw.slice(0, -1) : raw;
  const gutter = String(l.line);
  const pad = " ".repeat(gutter.length);
  out.push(` ${gutter} | ${line}`);
  const cps = codePoints(line);
  const start = Math.max(1, l.column);
  let end = l.endLine === l.line && l.endColumn !== undefined ? l.endColumn : start + 1;
  if (l.endLine !== undefined && l.endLine > l.line) end = cps.length + 1;
  const width = Math.max(1, end - start);
  // Keep tabs so the caret lines up under tab-indented source.
  const lead = cps.slice(0, start - 1).map((c) => (c === "\t" ? "\t" : " ")).join("");
  out.push(` ${pad} | ${lead}${"^".repeat(width)}`);
}

export function renderDiagnostic(d: Diagnostic, lookup?: SourceLookup, options?: { color?: boolean }): string {
  const color = options?.color ?? false;
  const sev = color ? (d.severity === "error" ? "\x1b[31merror\x1b[0m" : d.severity === "warning" ? "\x1b[33mwarning\x1b[0m" : d.severity) : d.severity;
  const out: string[] = [];
  const code = d.code ? ` [${d.code}]` : "";
  out.push(`${locText(d)}: ${sev}${code}: ${d.message}`);
  quote(d, lookup, out);
  if (d.help) out.push(`  = help: ${d.help}`);
  for (const r of d.related ?? []) {
    out.push(`  = note[${r.message}]: ${locText(r)}`);
    quote(r, lookup, out);
  }
  return out.join("\n");
}

export function renderDiagnostics(ds: readonly Diagnostic[], lookup?: SourceLookup, options?: { color?: boolean }): string {
  return ds.map((d) => renderDiagnostic(d, lookup, options)).join("\n");
}
