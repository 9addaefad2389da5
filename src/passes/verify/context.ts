/**
 * Shared state of one verifier run: the module, its bodies and where each sits (C/D/F, §4
 * placement columns), the symbol table, the constant folder, and the diagnostics found so
 * far (each with the phase that reported it). Checks report here; `verifyModule` hands them to the caller's sink in source order.
 */
import type { Module, Op, Region, Span } from "../../ir/core.js";
import type { CatalogEntry } from "../../core/diag/catalog.js";
import { makeDiagnostic, type Diagnostic } from "../../core/diag/diagnostic.js";
import { CallGraph } from "./callgraph.js";
import type { ConstantFolder } from "./fold.js";
import type { SymbolTable } from "./symbols.js";

/** C = launch-config region, D = kernel device body, F = func/template body (nested scf regions inherit). */
export type RegionKind = "C" | "D" | "F";

export const REGION_KIND_NAME: Record<RegionKind, string> = {
  C: "a launch-config region",
  D: "a kernel device body",
  F: "a function body",
};

/** An isolated body: the top-level op owning it, the region, and its kind. */
export interface Body {
  readonly owner: Op;
  readonly region: Region;
  readonly kind: RegionKind;
}

/**
 * The checks, in the order the verifier ran them one walk each before they were fused into
 * one walk (walk.ts). Each diagnostic carries the phase that reported it: diagnostics at one
 * place keep that order (phase, then report order within the phase) however the walks are fused.
 */
export const enum Phase {
  Symbols,
  PlacementTop,
  Placement,
  Structure,
  Harness,
  Yields,
  Dominance,
  TopLevelTypes,
  BodyOps,
  TopLevelAttributes,
  Subranges,
  Calls,
  Config,
  Uniformity,
}

export class VerifyContext {
  readonly diagnostics: Diagnostic[] = [];
  /** The phase of each diagnostic (parallel to `diagnostics`). */
  readonly phases: Phase[] = [];
  /** The phase reports are tagged with now. */
  phase: Phase = Phase.Symbols;
  readonly bodies: Body[] = [];
  #callGraph: CallGraph | undefined;
  /** Per function, the first op it runs that a launch-config region does not allow (placement.ts; made when first needed). */
  nonConfig: Map<Op, Op | undefined> | undefined;

  constructor(
    readonly module: Module,
    readonly symbols: SymbolTable,
    readonly folder: ConstantFolder,
  ) {
    for (const op of module.ops) bodiesOf(op, this.bodies);
  }

  /** Built when first needed (modules without calls never need it). */
  get callGraph(): CallGraph {
    return (this.#callGraph ??= new CallGraph(this.module, this.symbols));
  }

  report(entry: CatalogEntry, span: Span | undefined, args: readonly unknown[] = [], extra?: { help?: string; related?: Diagnostic[] }): void {
    this.add(makeDiagnostic(entry, span, args, extra));
  }

  add(d: Diagnostic): void {
    this.diagnostics.push(d);
    this.phases.push(this.phase);
  }
}

/** The isolated bodies of a top-level op (signature regions of declarations are not bodies). */
export function bodiesOf(op: Op, out: Body[] = []): Body[] {
  const [r0, r1] = op.regions;
  switch (op.name) {
    case "kernel.def":
      if (r0) out.push({ owner: op, region: r0, kind: "C" });
      if (r1) out.push({ owner: op, region: r1, kind: "D" });
      break;
    case "func.def":
    case "template.def":
      if (r0) out.push({ owner: op, region: r0, kind: "F" });
      break;
  }
  return out;
}

/** The top-level op enclosing `op` (itself when it is top level). */
export function topLevelOf(op: Op): Op {
  let cur = op;
  for (let guard = 0; guard < 10_000; guard++) {
    const region = cur.parent;
    const owner = region?.parent;
    if (!owner) return cur;
    cur = owner;
  }
  return cur;
}

/** `op.props[key]` as a string array (modifier lists), tolerating malformed props. */
export function stringList(op: Op, key: string): readonly string[] {
  const v = op.props[key];
  return Array.isArray(v) ? v.filter((x): x is string => typeof x === "string") : [];
}

export function hasModifier(op: Op, modifier: string): boolean {
  return stringList(op, "modifiers").includes(modifier);
}
