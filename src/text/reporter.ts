/**
 * Collects the front end's diagnostics before they reach the caller's sink.
 *
 * The parser discovers some errors late (an undefined value is only known to be undefined
 * at the end of its isolated body), so diagnostics are buffered, sorted into source order
 * and then handed to the sink, honouring its error limit with one PARSE/012.
 */
import type { Span } from "../ir/core.js";
import type { CatalogEntry } from "../core/diag/catalog.js";
import { D, makeDiagnostic, type Diagnostic, type DiagnosticSink } from "../core/diag/diagnostic.js";

export class Reporter {
  private readonly items: Diagnostic[] = [];
  private errors = 0;
  /** Errors the sink can still take before its limit. */
  private readonly budget: number;

  constructor(private readonly sink: DiagnosticSink) {
    this.budget = Math.max(0, sink.maxErrors - sink.errorCount);
  }

  report(entry: CatalogEntry, span: Span | undefined, args: readonly unknown[] = [], extra?: { help?: string }): void {
    this.items.push(makeDiagnostic(entry, span, args, extra));
    if (entry.severity === "error") this.errors++;
  }

  get errorCount(): number {
    return this.errors;
  }

  /** Stop working once more errors than the sink takes were found (one extra proves the cut-off). */
  get full(): boolean {
    return this.errors > this.budget;
  }

  /** Sorts by position (stable) and moves everything into the sink. */
  flush(): void {
    const keyed = this.items.map((d, i) => ({ d, i }));
    keyed.sort((a, b) => {
      const la = a.d.location, lb = b.d.location;
      const dl = (la?.line ?? 0) - (lb?.line ?? 0);
      if (dl !== 0) return dl;
      const dc = (la?.column ?? 0) - (lb?.column ?? 0);
      return dc !== 0 ? dc : a.i - b.i;
    });
    let errors = 0;
    for (const { d } of keyed) {
      if (d.severity === "error") {
        if (errors >= this.budget) {
          // Reported where the first dropped error was.
          const cut = makeDiagnostic(D.tooManyErrors, undefined, [this.sink.maxErrors]);
          if (d.location) cut.location = d.location;
          this.sink.add(cut);
          break;
        }
        errors++;
      }
      this.sink.add(d);
    }
    this.items.length = 0;
  }
}
