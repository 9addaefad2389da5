/**
 * The module symbol table and `@ref` resolution (language.md §2):
 *  - every top-level op except `module.import` and aliases defines one `@symbol`; a second
 *    definition or declaration of a name → SYMBOL/005. The one exception is a `config.def`
 *    next to the `config.decl` of the same key: the def binds the declared key (api.md
 *    `config`, and the compile driver reads module `config.def`s that way), and is checked
 *    against the declaration's predicates (STRUCTURE/904, see config.ts);
 *  - every reference (callee, family, config key, `target(@T)`, `template.def<@F>`,
 *    `module.import` list) resolves in this file (SYMBOL/002) to the right kind (SYMBOL/003);
 *  - kernel export names are identifiers and unique (STRUCTURE/027).
 */
import type { Module, Op } from "../../ir/core.js";
import { D } from "../../core/diag/catalog.js";
import { note } from "../../core/diag/diagnostic.js";
import { targetRecordSpec } from "../../core/target-records.js";
import type { VerifyContext } from "./context.js";
import { isOp } from "../../dialects/registry.js";

export type SymbolKind = "kernel" | "function" | "template family" | "template provider" | "config key" | "target" | "check case" | "benchmark";

const KIND_OF_OP: Readonly<Record<string, SymbolKind>> = {
  "kernel.def": "kernel",
  "kernel.decl": "kernel",
  "func.def": "function",
  "func.decl": "function",
  "template.decl": "template family",
  "template.def": "template provider",
  "config.decl": "config key",
  "config.def": "config key",
  "target.decl": "target",
  "kernel.entry.decl": "kernel",
  "check.case": "check case",
  "check.benchmark": "benchmark",
};

const DECLARATIONS = new Set(["kernel.decl", "func.decl", "template.decl", "config.decl", "target.decl"]);

export interface SymbolEntry {
  readonly name: string;
  readonly kind: SymbolKind;
  /** The first op defining or declaring the name (for a config key: the `config.decl` when there is one). */
  readonly op: Op;
}

export class SymbolTable {
  readonly #entries = new Map<string, SymbolEntry>();
  readonly #configDefs = new Map<string, Op>();
  readonly #providers = new Map<string, Op[]>();

  /** Builds the table, reporting duplicates (SYMBOL/005) through `report` when given. */
  static build(module: Module, report?: VerifyContext["report"]): SymbolTable {
    const table = new SymbolTable();
    for (const op of module.ops) table.#add(op, report);
    return table;
  }

  #add(op: Op, report: VerifyContext["report"] | undefined): void {
    // Target-record ops come from the registered target packages.
    const kind = KIND_OF_OP[op.name] ?? (targetRecordSpec(op.name) ? "target" : undefined);
    const name = op.symbol;
    if (!kind || name === undefined) return;
    if (isOp(op, "template.def")) {
      const family = op.props.family;
      if (typeof family === "string") {
        const list = this.#providers.get(family) ?? [];
        list.push(op);
        this.#providers.set(family, list);
      }
    }
    const prior = this.#entries.get(name);
    if (!prior) {
      this.#entries.set(name, { name, kind, op });
      if (isOp(op, "config.def")) this.#configDefs.set(name, op);
      return;
    }
    // A config.def binding the key of a config.decl (either order), once.
    if (isOp(prior.op, "config.decl") && isOp(op, "config.def") && !this.#configDefs.has(name)) {
      this.#configDefs.set(name, op);
      return;
    }
    if (isOp(prior.op, "config.def") && isOp(op, "config.decl")) {
      this.#entries.set(name, { name, kind, op });
      return;
    }
    report?.(D.duplicateSymbol, op.span, [name], { related: [note("first defined here", prior.op.span)] });
  }

  get(name: string): SymbolEntry | undefined {
    return this.#entries.get(name);
  }

  /** The `config.decl` of a key, if the module declares it. */
  configDecl(name: string): Op | undefined {
    const e = this.#entries.get(name);
    return isOp(e?.op, "config.decl") ? e.op : undefined;
  }

  /** The `config.def` binding a key in this module, if any. */
  configDef(name: string): Op | undefined {
    return this.#configDefs.get(name);
  }

  /** `template.def<@family>` providers in source order. */
  providers(family: string): readonly Op[] {
    return this.#providers.get(family) ?? [];
  }

  get entries(): IterableIterator<SymbolEntry> {
    return this.#entries.values();
  }
}

/** The symbol `op` references in `key`, when the prop holds one. */
function refOf(op: Op, key: string): string | undefined {
  const v = op.props[key];
  return typeof v === "string" ? v : undefined;
}

function expectKind(ctx: VerifyContext, op: Op, name: string, expected: SymbolKind): void {
  const entry = ctx.symbols.get(name);
  if (!entry) {
    ctx.report(D.unresolvedSymbol, op.span, [name]);
    return;
  }
  if (entry.kind !== expected) ctx.report(D.wrongSymbolKind, op.span, [name, entry.kind, expected], { related: [note(`'@${name}' defined here`, entry.op.span)] });
}

/** Resolves the references a top-level op makes in its own syntax. */
function resolveTopLevel(ctx: VerifyContext, op: Op): void {
  // `target(@T)` clauses; an alias's `target` prop is the aliased attribute, not a symbol.
  const target = isOp(op, "alias") ? undefined : refOf(op, "target");
  if (target !== undefined) expectKind(ctx, op, target, "target");
  if (isOp(op, "template.def")) {
    const family = refOf(op, "family");
    if (family !== undefined) expectKind(ctx, op, family, "template family");
  }
  if (isOp(op, "module.import")) {
    const list = op.props.symbols;
    for (const name of Array.isArray(list) ? list : []) {
      if (typeof name !== "string") continue;
      const entry = ctx.symbols.get(name);
      if (!entry) ctx.report(D.unresolvedSymbol, op.span, [name]);
      else if (!DECLARATIONS.has(entry.op.name)) ctx.report(D.wrongSymbolKind, op.span, [name, `definition (${entry.op.name})`, "declaration"]);
    }
  }
}

/** Ops whose references `resolveBodyOp` resolves. */
export function hasBodyReferences(name: string): boolean {
  return name === "func.call" || name === "template.call" || name === "template.apply" || name === "config.get";
}

/** Resolves the references of an op inside a body. */
export function resolveBodyOp(ctx: VerifyContext, op: Op): void {
  switch (op.name) {
    case "func.call": {
      const s = refOf(op, "symbol");
      if (s !== undefined) expectKind(ctx, op, s, "function");
      break;
    }
    case "template.call": {
      const s = refOf(op, "symbol");
      if (s !== undefined) expectKind(ctx, op, s, "template provider");
      break;
    }
    case "template.apply": {
      const s = refOf(op, "family");
      if (s !== undefined) expectKind(ctx, op, s, "template family");
      break;
    }
    case "config.get": {
      const s = refOf(op, "symbol");
      if (s !== undefined) expectKind(ctx, op, s, "config key");
      break;
    }
  }
}

const EXPORT_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

/** Export names of kernels: identifiers (both kinds), unique among definitions. */
function checkExportNames(ctx: VerifyContext): void {
  const seen = new Map<string, Op>();
  for (const op of ctx.module.ops) {
    if (!isOp(op, "kernel.def") && !isOp(op, "kernel.decl")) continue;
    const explicit = op.props.exportName;
    const name = typeof explicit === "string" ? explicit : op.symbol;
    if (name === undefined) continue;
    if (!EXPORT_NAME.test(name)) {
      const why = typeof explicit === "string" ? `export name "${name}"` : `symbol '@${name}' used as export name`;
      ctx.report(D.badStringValue, op.span, [`${why} must match [A-Za-z_][A-Za-z0-9_]*`], { help: typeof explicit === "string" ? undefined : 'add export("name")' });
      continue;
    }
    if (!isOp(op, "kernel.def")) continue;
    const prior = seen.get(name);
    if (prior) ctx.report(D.badStringValue, op.span, [`export name "${name}" is already used by '@${prior.symbol ?? "?"}'`], { related: [note("first used here", prior.span)] });
    else seen.set(name, op);
  }
}

/** Top-level checks: references in signatures, imports, export names. */
export function checkSymbols(ctx: VerifyContext): void {
  for (const op of ctx.module.ops) resolveTopLevel(ctx, op);
  checkExportNames(ctx);
}
