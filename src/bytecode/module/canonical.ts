/**
 * The reader's last check: a decoded module must be exactly what the text parser builds from
 * its canonical text. Then everything downstream (verifier, passes, printer) sees only IR the
 * parser could have produced, whatever the bytes were, and `.loombc → .loom → .loombc` is
 * byte-identical for every file the reader accepts from this writer.
 */
import type { Module } from "../../ir/core.js";
import { DiagnosticSink } from "../../core/diag/diagnostic.js";
import { parseModule } from "../../text/parser.js";
import { printModule } from "../../text/printer.js";
import { compareModules } from "./compare.js";

/** Why `m` is not the parser's IR of its own printed text, or undefined when it is. */
export function canonicalProblem(m: Module): string | undefined {
  let text: string;
  try {
    text = printModule(m);
  } catch (e) {
    return `it cannot be printed (${e instanceof Error ? e.message : String(e)})`;
  }
  const sink = new DiagnosticSink(1);
  const again = parseModule(m.sourceName, text, sink);
  const error = sink.diagnostics.find((d) => d.severity === "error");
  if (error) {
    const line = error.location ? ` (line ${error.location.line} of its text)` : "";
    return `its text does not parse: ${error.code} ${error.message}${line}`;
  }
  return compareModules(m, again);
}
