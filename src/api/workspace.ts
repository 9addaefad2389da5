/** `Workspace`: worker-local scratch for one in-flight compile at a time (api.md §3). */
import { D, DiagnosticSink } from "../core/diag/diagnostic.js";
import { verifyModule } from "../passes/verify/index.js";
import { parseModule } from "../text/parser.js";
import { printModule } from "../text/printer.js";
import { readModuleBytecode } from "../bytecode/module/reader.js";
import { Context } from "./context.js";
import { LoomError } from "../core/errors.js";
import { Module } from "./module.js";
import { Result } from "./result.js";
import { firstInvalidUtf8, Source } from "./source.js";

/** Options of parsing a {@link Source} into a module. */
export interface ParseOptions {
  /** Stop after this many errors (PARSE/012); default 20. */
  readonly maxErrors?: number;
}

/** Mutable per-compile state: parses sources into {@link Module}s and owns them; not shared between threads of work. */
export class Workspace {
  #busy = false;
  constructor(readonly context: Context) {
    if (!(context instanceof Context)) throw new LoomError("invalid-argument", "new Workspace: 'context' must be a Context");
  }

  /** Parses and verifies `.loom` text. A program with errors gives a failed Result, never a throw. */
  parseModule(source: Source, options?: ParseOptions): Result<Module> {
    if (!(source instanceof Source)) throw new LoomError("invalid-argument", "Workspace.parseModule: 'source' must be a Source");
    return this.run(() => {
      const sink = new DiagnosticSink(options?.maxErrors ?? 20);
      if (source.kind === "bytecode") return this.#readBytecode(source, sink);
      const text = source.text;
      if (text === undefined) {
        const { line, column } = firstInvalidUtf8(source.bytes);
        sink.report(D.invalidUtf8, { source: source.name, line, column, endLine: line, endColumn: column + 1 });
        return new Result<Module>({ diagnostics: sink.diagnostics });
      }
      const texts = new Map([[source.name, text]]);
      const lookup = (n: string) => texts.get(n);
      const ir = parseModule(source.name, text, sink);
      const verified = sink.hasErrors ? undefined : verifyModule(ir, sink);
      const module = new Module(ir, texts);
      if (verified?.ok) module.verified = verified;
      return new Result<Module>({ diagnostics: sink.diagnostics, value: module, lookup });
    });
  }

  /** `.loombc` input: decoded, then verified like text; spans keep line:column for diagnostics. */
  #readBytecode(source: Source, sink: DiagnosticSink): Result<Module> {
    const ir = readModuleBytecode(source.name, source.bytes, sink);
    if (!ir) return new Result<Module>({ diagnostics: sink.diagnostics });
    const verified = verifyModule(ir, sink);
    // Diagnostics quote source lines from the canonical text the bytecode decodes to.
    const texts = new Map([[source.name, printModule(ir)]]);
    const module = new Module(ir, texts);
    if (verified.ok) module.verified = verified;
    return new Result<Module>({ diagnostics: sink.diagnostics, value: module, lookup: (n) => texts.get(n) });
  }

  /** @internal Marks the workspace busy for the duration of `fn` (one in-flight operation). */
  run<T>(fn: () => T): T {
    if (this.#busy) throw new LoomError("failed-precondition", "Workspace: already in use by another operation (use one Workspace per worker)");
    this.#busy = true;
    try {
      return fn();
    } finally {
      this.#busy = false;
    }
  }
}
