/**
 * Shared state of one verifier run: the module, where each region sits (C/D/F, §4
 * placement columns), the symbol table, the constant folder, and the diagnostics found so
 * far. Checks report here; `verifyModule` hands them to the caller's sink in source order.
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

export class VerifyContext {
  readonly diagnostics: Diagnostic[] = [];
  readonly regionKind = new Map<Region, RegionKind>();
  readonly bodies: Body[] = [];
  readonly callGraph: CallGraph;

  constructor(
    readonly module: Module,
    readonly symbols: SymbolTable,
    readonly folder: ConstantFolder,
  ) {
    this.callGraph = new CallGraph(module, symbols);
    for (const op of module.ops) {
      for (const body of bodiesOf(op)) {
        this.bodies.push(body);
        markRegions(body.region, body.kind, this.regionKind);
      }
    }
  }

  report(entry: CatalogEntry, span: Span | undefined, args: readonly unknown[] = [], extra?: { help?: string; related?: Diagnostic[] }): void {
    this.diagnostics.push(makeDiagnostic(entry, span, args, extra));
  }

  /** The placement kind of the region holding `op`, undefined at top level or in a signature region. */
  kindOf(op: Op): RegionKind | undefined {
    return op.parent ? this.regionKind.get(op.parent) : undefined;
  }
}

/** The isolated bodies of a top-level op (signature regions of declarations are not bodies). */
export function bodiesOf(op: Op): Body[] {
  const r = op.regions;
  switch (op.name) {
    case "kernel.def": {
      const out: Body[] = [];
      if (r[0]) out.push({ owner: op, region: r[0], kind: "C" });
      if (r[1]) out.push({ owner: op, region: r[1], kind: "D" });
      return out;
    }
    case "func.def":
    case "template.def":
      return r[0] ? [{ owner: op, region: r[0], kind: "F" }] : [];
    default:
      return [];
  }
}

function markRegions(region: Region, kind: RegionKind, out: Map<Region, RegionKind>): void {
  out.set(region, kind);
  for (const op of region.ops) for (const inner of op.regions) markRegions(inner, kind, out);
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
