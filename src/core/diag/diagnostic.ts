/** Structured diagnostics (api.md §1) and the sink passes report into. */
import type { Span } from "../../ir/core.js";
import { D, formatTemplate, type CatalogEntry } from "./catalog.js";

/** A position (optionally a range) in a source: source name, 1-based line and column. */
export interface DiagnosticLocation {
  source: string;
  line: number;
  column: number;
  endLine?: number;
  endColumn?: number;
}

/** A coded diagnostic: severity, code (e.g. `PARSE/012`), message and source location. */
export interface Diagnostic {
  severity: "error" | "warning" | "note" | "remark";
  code: string;
  message: string;
  location?: DiagnosticLocation;
  help?: string;
  related?: Diagnostic[];
}

export function spanToLocation(span: Span | undefined): DiagnosticLocation | undefined {
  if (!span) return undefined;
  return { source: span.source, line: span.line, column: span.column, endLine: span.endLine, endColumn: span.endColumn };
}

export function makeDiagnostic(entry: CatalogEntry, span: Span | undefined, args: readonly unknown[] = [], extra?: { help?: string; related?: Diagnostic[] }): Diagnostic {
  const d: Diagnostic = { severity: entry.severity, code: entry.code, message: formatTemplate(entry.template, args) };
  const loc = spanToLocation(span);
  if (loc) d.location = loc;
  if (extra?.help) d.help = extra.help;
  if (extra?.related?.length) d.related = extra.related;
  return d;
}

/** A note pointing at another span (`= note[label]: loc`). */
export function note(message: string, span: Span | undefined): Diagnostic {
  const d: Diagnostic = { severity: "note", code: "", message };
  const loc = spanToLocation(span);
  if (loc) d.location = loc;
  return d;
}

/** Collects diagnostics; `errorCount` drives the max-errors cut-off. */
export class DiagnosticSink {
  readonly diagnostics: Diagnostic[] = [];
  errorCount = 0;
  constructor(readonly maxErrors = 20) {}

  report(entry: CatalogEntry, span: Span | undefined, args: readonly unknown[] = [], extra?: { help?: string; related?: Diagnostic[] }): Diagnostic {
    const d = makeDiagnostic(entry, span, args, extra);
    this.add(d);
    return d;
  }
  add(d: Diagnostic): void {
    this.diagnostics.push(d);
    if (d.severity === "error") this.errorCount++;
  }
  get hasErrors(): boolean {
    return this.errorCount > 0;
  }
  /** True once the error limit is reached (callers stop and report PARSE/012 once). */
  get full(): boolean {
    return this.errorCount >= this.maxErrors;
  }
}

export { D };
