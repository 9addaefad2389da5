/**
 * SSA name scoping for the parser (language.md §2).
 *
 * One `Scope` per region. A name is visible in its defining block after its definition and in
 * all nested regions; isolated ops (`kernel.def` regions, `func.def`, `template.def`) start a
 * chain with no parent. Redefining a visible name is PARSE/002.
 *
 * Forward references: a use of a name that is not visible yet gets a placeholder `Value`
 * registered as *pending* in the current scope. A later definition of that name in the same
 * block adopts the placeholder (so the use refers to the real definition and the verifier
 * reports DOMINANCE/001). When a region closes, its pending names move to the enclosing
 * block (a definition there, after the region, is still a dominance problem, not an
 * undefined name). Whatever is still pending when an isolated scope closes is PARSE/001.
 */
import { Op, Region, Value, type Span } from "../ir/core.js";
import { T, type Type } from "../ir/types.js";

interface Pending {
  readonly value: Value;
  readonly uses: Span[];
}

/** Owner of values that belong to no real op (placeholders of undefined or broken names). */
const orphanOwner = new Op("builtin.unresolved");

export class Scope {
  /** Each name defined here; null: poisoned (its defining op failed to parse: uses are not reported again). */
  private readonly values = new Map<string, Value | null>();
  /** Made on the first forward reference (most regions have none). */
  private pending: Map<string, Pending> | undefined;

  constructor(
    readonly parent: Scope | null,
    readonly region: Region | null,
  ) {}

  /** The visible definition of `name`, a placeholder for a forward reference, or a poisoned stand-in (`spanOf(where)`: where it is used). */
  use<W>(name: string, where: W, spanOf: (where: W) => Span): Value {
    // The span is made only when it is kept: most uses find their definition.
    for (let s: Scope | null = this; s; s = s.parent) {
      const v = s.values.get(name);
      if (v) return v;
      if (v === null) return new Value(name, T.index, orphanOwner, spanOf(where));
    }
    const span = spanOf(where);
    for (let s: Scope | null = this; s; s = s.parent) {
      const p = s.pending?.get(name);
      if (p) {
        p.uses.push(span);
        return p.value;
      }
    }
    const value = new Value(name, T.index, this.region ?? orphanOwner, span);
    (this.pending ??= new Map()).set(name, { value, uses: [span] });
    return value;
  }

  /** The visible definition of `name` (no placeholders). */
  find(name: string): Value | undefined {
    for (let s: Scope | null = this; s; s = s.parent) {
      const v = s.values.get(name);
      if (v) return v;
    }
    return undefined;
  }

  /** Whether the last `define` found a visible value of the same name (read right after it). */
  redefined = false;

  /**
   * Defines `name` and returns its value. Sets `redefined` when a visible value already has
   * that name (the caller reports PARSE/002; the new value still shadows it so the IR stays
   * connected). A flag, not a result object: one fewer allocation per definition.
   */
  define(name: string, type: Type, owner: Op | Region, span: Span | undefined): Value {
    this.redefined = this.find(name) !== undefined;
    const p = this.pending?.get(name);
    let value: Value;
    if (p) {
      this.pending?.delete(name);
      value = p.value;
      value.type = type;
      value.owner = owner;
      value.span = span;
    } else {
      value = new Value(name, type, owner, span);
    }
    this.values.set(name, value);
    return value;
  }

  /** Adds an existing value (signature arguments built by the signature parser). */
  bind(value: Value): void {
    this.values.set(value.name, value);
  }

  /** Poisons `name` here, unless this scope defines it (that definition stays visible). */
  poison(name: string): void {
    if (!this.values.get(name)) this.values.set(name, null);
  }

  /**
   * Closes the scope: pending forward references move to the parent, or — for an isolated
   * scope — are returned as undefined uses.
   */
  close(): { name: string; span: Span }[] {
    const undefinedUses: { name: string; span: Span }[] = [];
    if (!this.pending) return undefinedUses;
    for (const [name, p] of this.pending) {
      if (this.parent) (this.parent.pending ??= new Map()).set(name, p);
      else for (const span of p.uses) undefinedUses.push({ name, span });
    }
    this.pending = undefined;
    return undefinedUses;
  }
}
