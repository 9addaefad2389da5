/**
 * Linking a root module against library modules (language.md §2 "Cross-module references",
 * api.md §4 `linkIndex`).
 *
 * Starting from the compile's roots (the specialized kernels), every symbol reachable from
 * them is resolved; a reachable declaration is bound to exactly one definition:
 *  - `func.decl @f`   → the one `public func.def @f` among the libraries;
 *  - `kernel.decl @k` → the one `kernel.def @k` among the libraries;
 *  - `config.decl @k` → the module's own `config.def`, else the one library `config.def @k`
 *    (none is fine: the compile invocation may bind the key);
 *  - `template.decl @fam` → every `template.def<@fam>` of every library joins the root's
 *    own providers (selection happens per specialization, templates.ts).
 * None, two (SYMBOL/005, naming both places) or a different signature (TYPE/001) is an error.
 *
 * What is bound is copied into the root module together with what it needs from its own
 * library (private helpers, providers, target records, config keys, aliases); unreachable
 * library symbols are never copied. Public names are global; a private library symbol keeps
 * its name unless the root already uses it, then it gets the first free `name.N`.
 * Libraries are never mutated. Declarations inside a library resolve the same way, so
 * libraries may depend on each other.
 */
import { cloneOp } from "../../ir/clone.js";
import type { Module, Op } from "../../ir/core.js";
import { walkOp } from "../../ir/walk.js";
import { D, note, type Diagnostic, type DiagnosticSink } from "../../core/diag/diagnostic.js";
import { isDefinition, isPublic, type LinkLibrary } from "./library.js";
import { targetRecordSpec } from "../../core/target-records.js";
import { kernelAsFunctionText, signatureText } from "./signature.js";
import { isOp } from "../../dialects/registry.js";

/** Where a symbol reference lives inside an op's props. */
const REFERENCE_KEYS: Readonly<Record<string, readonly string[]>> = {
  "func.call": ["symbol"],
  "template.call": ["symbol"],
  "template.apply": ["family"],
  "config.get": ["symbol"],
  "template.def": ["family", "target"],
  "kernel.launch": ["symbol"],
  "kernel.dispatch": ["symbol"],
};
const TARGET_HOLDERS = new Set(["kernel.def", "kernel.decl", "func.def", "func.decl", "template.decl", "template.def"]);

function referencesOf(op: Op): { key: string; name: string }[] {
  const keys = new Set(REFERENCE_KEYS[op.name] ?? []);
  if (TARGET_HOLDERS.has(op.name)) keys.add("target");
  const out: { key: string; name: string }[] = [];
  for (const key of keys) {
    const v = op.props[key];
    if (typeof v === "string") out.push({ key, name: v });
  }
  return out;
}

/** A definition found in a library for a declaration. */
interface Candidate {
  readonly library: LinkLibrary;
  readonly op: Op;
}

/** A deep copy of a top-level op (its values fresh, nothing shared with the library). */
function copyOp(op: Op): Op {
  return cloneOp(op, new Map());
}

/** Which declaration kinds bind to which definitions. */
function definitionKindFor(decl: Op): ((op: Op) => boolean) | undefined {
  switch (decl.name) {
    case "func.decl":
      // A function declaration a check case calls with tensors may name a kernel: the reference
      // binds it to the library's kernel.def of that name (launch arguments as parameters).
      return (op) => (isOp(op, "func.def") && isPublic(op)) || isOp(op, "kernel.def");
    case "kernel.decl":
      return (op) => isOp(op, "kernel.def");
    case "config.decl":
      return (op) => isOp(op, "config.def");
    default:
      return undefined;
  }
}

class Linker {
  /** Root symbols by name, kept current as ops are imported or replaced. */
  readonly #symbols: Map<string, Op>;
  /** Library op → its name in the root. */
  readonly #imported = new Map<Op, string>();
  /** Root declarations already handled (bound, or reported). */
  readonly #resolved = new Set<Op>();
  readonly #families = new Set<string>();
  readonly #visited = new Set<Op>();
  readonly #work: Op[] = [];
  readonly #aliasesFrom = new Set<LinkLibrary>();

  constructor(
    readonly root: Module,
    readonly libraries: readonly LinkLibrary[],
    readonly sink: DiagnosticSink,
  ) {
    this.#symbols = root.symbolTable();
  }

  run(roots: readonly string[]): void {
    for (const name of roots) {
      const op = this.#symbols.get(name);
      if (op) this.#enqueueRootRef(op);
    }
    while (this.#work.length > 0) {
      const op = this.#work.pop()!;
      for (const ref of this.#allReferences(op)) {
        const target = this.#symbols.get(ref.name);
        if (target) this.#enqueueRootRef(target);
      }
    }
  }

  /** References an op and everything nested in it make (root namespace). */
  #allReferences(op: Op): { key: string; name: string }[] {
    const out: { key: string; name: string }[] = [];
    walkOp(op, (inner) => void out.push(...referencesOf(inner)));
    return out;
  }

  /** A root symbol became reachable: walk a definition, bind a declaration. */
  #enqueueRootRef(op: Op): void {
    if (this.#visited.has(op)) return;
    this.#visited.add(op);
    if (isOp(op, "template.decl")) this.#pullFamily(op.symbol!);
    if (isOp(op, "template.def") && typeof op.props.family === "string") {
      const fam = this.#symbols.get(op.props.family);
      if (fam) this.#enqueueRootRef(fam);
    }
    if (isDefinition(op.name) || isOp(op, "template.decl") || isOp(op, "check.case")) {
      this.#work.push(op);
      return;
    }
    const bound = this.#bindDeclaration(op);
    if (bound) this.#enqueueRootRef(bound);
  }

  /** Binds a root declaration to its library definition; returns the imported op. */
  #bindDeclaration(decl: Op): Op | undefined {
    if (this.#resolved.has(decl)) return undefined;
    this.#resolved.add(decl);
    const name = decl.symbol!;
    const accepts = definitionKindFor(decl);
    if (!accepts) return undefined; // target.decl: bound by the embedding
    if (isOp(decl, "config.decl")) {
      // The module's own config.def binds its key; the verifier checks it.
      const own = this.root.ops.find((o) => isOp(o, "config.def") && o.symbol === name);
      if (own) return own;
    }
    const candidates: Candidate[] = [];
    for (const library of this.libraries) {
      // Not `symbols`: a library's config key maps to its config.decl, the value is a config.def.
      const op = library.ir.ops.find((o) => o.symbol === name && accepts(o));
      if (op) candidates.push({ library, op });
    }
    if (candidates.length === 0) {
      if (!isOp(decl, "config.decl")) this.#reportMissing(decl);
      return undefined;
    }
    if (candidates.length > 1) {
      this.sink.report(D.duplicateSymbol, decl.span, [name], {
        help: "exactly one library may define a declared symbol; remove one definition or link fewer libraries",
        related: candidates.map((c) => note(`'@${name}' defined in library '${c.library.name}'`, c.op.span)),
      });
      return undefined;
    }
    const [only] = candidates;
    if (!only) return undefined;
    const { library, op } = only;
    const declared = signatureText(decl), defined = isOp(decl, "func.decl") && isOp(op, "kernel.def") ? kernelAsFunctionText(op) : signatureText(op);
    if (declared !== defined) {
      this.sink.report(D.typeMismatch, decl.span, [`'@${name}' is declared as ${declared} but library '${library.name}' defines it as ${defined}`], {
        related: [note("the library definition", op.span)],
      });
      return undefined;
    }
    if (isOp(decl, "config.decl")) {
      // The decl stays (it carries the predicates); the library's value joins it.
      return this.#import(library, op, name, undefined);
    }
    return this.#import(library, op, name, decl);
  }

  #reportMissing(decl: Op): void {
    const name = decl.symbol!;
    const related: Diagnostic[] = [];
    for (const library of this.libraries) {
      const op = library.symbols.get(name);
      if (!op) continue;
      const why = isOp(op, "func.def") && isOp(decl, "func.decl") ? "is private (mark it 'public' to link it)" : `is a ${op.name}, not a definition for ${decl.name}`;
      related.push(note(`'@${name}' in library '${library.name}' ${why}`, op.span));
    }
    const searched = this.libraries.length === 0 ? "the link index has no libraries" : `searched: ${this.libraries.map((l) => `'${l.name}'`).join(", ")}`;
    this.sink.report(D.unresolvedSymbol, decl.span, [name], { help: `no library defines '@${name}' (${searched})`, related });
  }

  /** Pulls every library provider of a template family into the root (once per family). */
  #pullFamily(family: string): void {
    if (this.#families.has(family)) return;
    this.#families.add(family);
    // The root's own providers are reachable too (their callees may need binding).
    for (const op of [...this.root.ops]) if (isOp(op, "template.def") && op.props.family === family) this.#enqueueRootRef(op);
    for (const library of this.libraries) {
      for (const op of library.ir.ops) {
        if (isOp(op, "template.def") && op.props.family === family) {
          const provider = this.#importPrivate(library, op);
          const imported = this.#symbols.get(provider);
          if (imported) this.#enqueueRootRef(imported);
        }
      }
    }
  }

  /** Imports a library op under a root name that is free (its own name when possible). */
  #importPrivate(library: LinkLibrary, op: Op): string {
    const known = this.#imported.get(op);
    if (known !== undefined) return known;
    const base = op.symbol!;
    let name = base;
    for (let n = 1; this.#symbols.has(name); n++) name = `${base}.${n}`;
    this.#import(library, op, name, undefined);
    return name;
  }

  /**
   * Copies `op` from `library` into the root as `name` (replacing `replaces`, a declaration,
   * when given) and rewrites its references into root names, pulling what they need.
   */
  #import(library: LinkLibrary, op: Op, name: string, replaces: Op | undefined): Op {
    const copy = copyOp(op);
    copy.props.symbol = name;
    copy.comments = [];
    this.#imported.set(op, name);
    if (replaces) {
      const i = this.root.ops.indexOf(replaces);
      copy.blankBefore = replaces.blankBefore;
      copy.comments = [...replaces.comments];
      this.root.ops.splice(i, 1, copy);
    } else {
      copy.blankBefore = true;
      this.root.ops.push(copy);
    }
    if (!isOp(op, "config.def")) this.#symbols.set(name, copy);
    this.#importAliases(library);
    walkOp(copy, (inner) => {
      for (const ref of referencesOf(inner)) inner.props[ref.key] = this.#resolveLibraryRef(library, ref.name);
    });
    return copy;
  }

  /** v1 aliases all mean the dense layout; the ones the root lacks come along. */
  #importAliases(library: LinkLibrary): void {
    if (this.#aliasesFrom.has(library)) return;
    this.#aliasesFrom.add(library);
    const have = new Set(this.root.ops.filter((o) => o.name === "alias").map((o) => o.props.alias));
    for (const op of library.ir.ops) {
      if (op.name !== "alias" || have.has(op.props.alias)) continue;
      const copy = copyOp(op);
      copy.comments = [];
      this.root.ops.unshift(copy);
    }
  }

  /** The root name of a reference made inside `library` (importing what it names). */
  #resolveLibraryRef(library: LinkLibrary, name: string): string {
    const op = library.symbols.get(name);
    if (!op) return name; // the library verified, so this does not happen
    switch (op.name) {
      case "func.def":
      case "template.def":
      case "kernel.def":
        return this.#importPrivate(library, op);
      case "target.decl":
      case "template.decl":
      case "config.decl":
      case "config.def":
        return this.#globalName(library, op, name);
      case "func.decl":
      case "kernel.decl":
        return this.#libraryDeclaration(library, op, name);
      default:
        // A target record (its op is its package's) is a global name like `target.decl`.
        return targetRecordSpec(op.name) ? this.#globalName(library, op, name) : name;
    }
  }

  /**
   * Targets, template families and config keys are global names: the root's symbol of
   * that name is used when it has one, else the library's op is copied under the name.
   */
  #globalName(library: LinkLibrary, op: Op, name: string): string {
    const existing = this.#symbols.get(name);
    if (existing) {
      if (op.name.startsWith("config.") && existing.name.startsWith("config.") && signatureText(existing) !== signatureText(op)) {
        this.sink.report(D.typeMismatch, op.span, [`config key '@${name}' is ${signatureText(op)} in library '${library.name}' but ${signatureText(existing)} in the module`], {
          related: [note("the module's declaration", existing.span)],
        });
      }
      this.#enqueueRootRef(existing);
      return name;
    }
    if (isOp(op, "config.decl") || isOp(op, "config.def")) {
      // Copy the declaration and the library's own value for the key, if any.
      const decl = library.ir.ops.find((o) => isOp(o, "config.decl") && o.symbol === name);
      const def = library.ir.ops.find((o) => isOp(o, "config.def") && o.symbol === name);
      if (decl) this.#import(library, decl, name, undefined);
      if (def) {
        const copy = this.#import(library, def, name, undefined);
        if (!decl) this.#symbols.set(name, copy);
      }
      return name;
    }
    const copy = this.#import(library, op, name, undefined);
    this.#enqueueRootRef(copy);
    return name;
  }

  /** A declaration inside a library binds like a root one, through the root's namespace. */
  #libraryDeclaration(library: LinkLibrary, decl: Op, name: string): string {
    const existing = this.#symbols.get(name);
    if (!existing) {
      // Declare it in the root, then bind that declaration.
      const copy = this.#import(library, decl, name, undefined);
      this.#enqueueRootRef(copy);
      return name;
    }
    if (existing.name === decl.name || existing.name === decl.name.replace(".decl", ".def")) {
      if (signatureText(existing) !== signatureText(decl)) {
        this.sink.report(D.typeMismatch, decl.span, [`'@${name}' is declared as ${signatureText(decl)} in library '${library.name}' but the module has ${signatureText(existing)}`], {
          related: [note("the module's symbol", existing.span)],
        });
      }
      this.#enqueueRootRef(existing);
    }
    return name;
  }
}

/**
 * Links `root` in place against `libraries`, starting from the symbols in `roots`.
 * Reports into `sink`; returns false when something could not be bound.
 */
export function linkModule(root: Module, libraries: readonly LinkLibrary[], roots: readonly string[], sink: DiagnosticSink): boolean {
  const before = sink.errorCount;
  // A test module's cases are roots too: what they call or launch must be bound.
  const cases = root.ops.filter((op) => isOp(op, "check.case") && op.symbol !== undefined && !roots.includes(op.symbol)).map((op) => op.symbol!);
  new Linker(root, libraries, sink).run([...roots, ...cases]);
  return sink.errorCount === before;
}
