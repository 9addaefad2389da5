/**
 * Library linking inputs (api.md §2, §4 `linkIndex`): a `LinkIndexBuilder` collects library
 * `Source`s; `freeze()` parses and verifies them once into an immutable, shareable
 * `LinkIndex`, which any number of `compileModule` calls (and threads, through `toBytes()` /
 * `LinkIndex.fromBytes()`) link declared symbols from. docs/linking.md has the rules.
 */
import { D, DiagnosticSink } from "../core/diag/diagnostic.js";
import type { Diagnostic } from "../core/diag/diagnostic.js";
import { renderDiagnostics } from "../core/diag/render.js";
import type { LinkLibrary } from "../passes/link/library.js";
import { deepFreeze } from "../core/validate.js";
import { readLinkIndexBytes, writeLinkIndexBytes, type StoredLibrary } from "../passes/link/bytes.js";
import { verifyModule } from "../passes/verify/index.js";
import { printModule } from "../text/printer.js";
import { readModuleBytecode } from "../bytecode/module/reader.js";
import { parseModule } from "../text/parser.js";
import { LoomError } from "../core/errors.js";
import { Result } from "./result.js";
import { Module } from "./module.js";
import { linkModule as linkIrModule } from "../passes/link/linker.js";
import { firstInvalidUtf8, Source } from "./source.js";
import { isOp } from "../dialects/registry.js";

/** What a library offers, for inspection (`LinkIndex.libraries`). */
export interface LinkLibraryInfo {
  readonly name: string;
  /** Top-level symbols (without '@') in source order. */
  readonly symbols: readonly LinkSymbolInfo[];
}

/** One exported symbol of a library in a link index: its name, module and signature. */
export interface LinkSymbolInfo {
  readonly name: string;
  /** The defining op, e.g. "func.def", "template.def", "config.def". */
  readonly op: string;
  /** Whether a declaration in another module can bind to it (public func.def, kernel.def, config.def). */
  readonly linkable: boolean;
}

/** Options used when freezing a {@link LinkIndexBuilder} into a link index. */
export interface LinkIndexFreezeOptions {
  /** Stop reporting after this many errors per library (PARSE/012); default 20. */
  readonly maxErrors?: number;
}

const librariesOf = new WeakMap<LinkIndex, readonly LinkLibrary[]>();

/** @internal The parsed libraries of an index, for the linker. */
export function linkLibraries(index: LinkIndex): readonly LinkLibrary[] {
  const libs = librariesOf.get(index);
  if (!libs) throw new LoomError("invalid-argument", "'linkIndex' must be a LinkIndex made by LinkIndexBuilder.freeze() or LinkIndex.fromBytes()");
  return libs;
}

/** Collects linkable library modules and their exported symbols, then freezes them into an immutable link index. */
export class LinkIndexBuilder {
  readonly #sources: Source[] = [];
  #frozen = false;

  /** Adds one library. Names identify libraries and must be unique within an index. */
  addSource(source: Source): this {
    if (this.#frozen) throw new LoomError("failed-precondition", "LinkIndexBuilder.addSource: the builder was already frozen");
    if (!(source instanceof Source)) throw new LoomError("invalid-argument", "LinkIndexBuilder.addSource: 'source' must be a Source");
    if (this.#sources.some((s) => s.name === source.name)) throw new LoomError("already-exists", `LinkIndexBuilder.addSource: a library named '${source.name}' was already added`);
    this.#sources.push(source);
    return this;
  }

  /**
   * Parses and verifies every library. A library with errors gives a failed Result with its
   * diagnostics (never a throw). The builder is finished either way.
   */
  freeze(options?: LinkIndexFreezeOptions): Result<LinkIndex> {
    if (this.#frozen) throw new LoomError("failed-precondition", "LinkIndexBuilder.freeze: the builder was already frozen");
    const maxErrors = options?.maxErrors ?? 20;
    if (!Number.isInteger(maxErrors) || maxErrors < 1) throw new LoomError("invalid-argument", "LinkIndexBuilder.freeze: 'maxErrors' must be a positive integer");
    this.#frozen = true;
    const diagnostics: Diagnostic[] = [];
    const stored: StoredLibrary[] = [];
    for (const source of this.#sources) {
      if (source.kind === "bytecode") {
        // Libraries are kept as canonical text: bytecode decodes to exactly that.
        const sink = new DiagnosticSink(maxErrors);
        const ir = readModuleBytecode(source.name, source.bytes, sink);
        diagnostics.push(...sink.diagnostics);
        if (ir) stored.push({ name: source.name, text: printModule(ir) });
        continue;
      }
      const text = source.text;
      if (text === undefined) {
        const sink = new DiagnosticSink(maxErrors);
        const { line, column } = firstInvalidUtf8(source.bytes);
        sink.report(D.invalidUtf8, { source: source.name, line, column, endLine: line, endColumn: column + 1 });
        diagnostics.push(...sink.diagnostics);
        continue;
      }
      stored.push({ name: source.name, text });
    }
    const built = buildLibraries(stored, maxErrors);
    diagnostics.push(...built.diagnostics);
    const texts = new Map(stored.map((s) => [s.name, s.text]));
    const lookup = (n: string) => texts.get(n);
    const failed = diagnostics.some((d) => d.severity === "error");
    return new Result<LinkIndex>({ diagnostics, lookup, failed, ...(failed ? {} : { value: LinkIndex._create(built.libraries) }) });
  }
}

function buildLibraries(stored: readonly StoredLibrary[], maxErrors: number): { libraries: LinkLibrary[]; diagnostics: Diagnostic[] } {
  const libraries: LinkLibrary[] = [];
  const diagnostics: Diagnostic[] = [];
  for (const { name, text } of stored) {
    const sink = new DiagnosticSink(maxErrors);
    const ir = parseModule(name, text, sink);
    if (!sink.hasErrors) verifyModule(ir, sink);
    diagnostics.push(...sink.diagnostics);
    libraries.push({ name, text, ir, symbols: ir.symbolTable() });
  }
  return { libraries, diagnostics };
}

/** An immutable set of verified library modules; share it across compiles and threads. */
export class LinkIndex {
  readonly libraries: readonly LinkLibraryInfo[];

  private constructor(libraries: readonly LinkLibrary[]) {
    this.libraries = deepFreeze(
      libraries.map((l) => ({
        name: l.name,
        symbols: l.ir.ops
          .filter((op) => op.symbol !== undefined && !isOp(op, "module.import"))
          .map((op) => ({ name: op.symbol!, op: op.name, linkable: isLinkable(op.name, op.props.modifiers) })),
      })),
    );
    for (const l of libraries) deepFreeze(l);
    librariesOf.set(this, Object.freeze([...libraries]));
    Object.freeze(this);
  }

  /** @internal Use LinkIndexBuilder. */
  static _create(libraries: readonly LinkLibrary[]): LinkIndex {
    return new LinkIndex(libraries);
  }

  /** The text of a library, by name (diagnostics at library spans render with it). */
  sourceText(name: string): string | undefined {
    return librariesOf.get(this)!.find((l) => l.name === name)?.text;
  }

  /** A `.loombc` container holding the libraries (docs/linking.md); deterministic. */
  toBytes(): Uint8Array {
    return writeLinkIndexBytes(librariesOf.get(this)!.map((l) => ({ name: l.name, text: l.text })));
  }

  /**
   * Rebuilds an index from `toBytes()` output. Malformed bytes, or libraries that no longer
   * verify, throw `LoomError("data-loss")`.
   */
  static fromBytes(bytes: Uint8Array): LinkIndex {
    if (!(bytes instanceof Uint8Array)) throw new LoomError("invalid-argument", "LinkIndex.fromBytes: 'bytes' must be a Uint8Array");
    const stored = readLinkIndexBytes(bytes);
    const built = buildLibraries(stored, 20);
    if (built.diagnostics.some((d) => d.severity === "error")) {
      const texts = new Map(stored.map((s) => [s.name, s.text]));
      throw new LoomError("data-loss", `LinkIndex.fromBytes: a stored library does not verify:\n${renderDiagnostics(built.diagnostics, (n) => texts.get(n))}`);
    }
    return new LinkIndex(built.libraries);
  }
}

function isLinkable(op: string, modifiers: unknown): boolean {
  if (op === "kernel.def" || op === "config.def") return true;
  return op === "func.def" && Array.isArray(modifiers) && modifiers.includes("public");
}

/** Options for linking a module against a link index. */
export interface LinkModuleOptions {
  /** Root kernels (with or without '@'); default: every kernel.def and kernel.decl of the module. */
  readonly roots?: readonly string[];
}

/**
 * `loom link` as a call: pulls every definition reachable from the roots out of the index's
 * libraries into `module` (which must be parsed, not yet compiled) and verifies the result.
 * The Result's diagnostics point into the module and the libraries; on success the module
 * prints or serializes as the linked program.
 */
export function linkModule(module: Module, index: LinkIndex, options: LinkModuleOptions = {}): Result {
  if (!(module instanceof Module)) throw new LoomError("invalid-argument", "linkModule: 'module' must be a Module");
  if (!(index instanceof LinkIndex)) throw new LoomError("invalid-argument", "linkModule: 'index' must be a LinkIndex");
  if (module.state.phase !== "parsed") throw new LoomError("failed-precondition", `linkModule: the module was already ${module.state.phase}; link before compiling`);
  const roots =
    options.roots?.map((k) => k.replace(/^@/, "")) ?? module.ir.ops.filter((op) => isOp(op, "kernel.def") || isOp(op, "kernel.decl")).map((op) => op.symbol ?? "");
  const sink = new DiagnosticSink();
  module.verified = undefined;
  if (linkIrModule(module.ir, linkLibraries(index), roots, sink)) {
    const verified = verifyModule(module.ir, sink);
    if (verified.ok) module.verified = verified;
  }
  return new Result({ diagnostics: sink.diagnostics, lookup: (n) => module.sourceTexts.get(n) ?? index.sourceText(n) });
}
