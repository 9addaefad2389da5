/**
 * What the walk (walk.ts) needs to know about an op name to skip the checks that cannot
 * report anything for it, worked out once per name from the op declarations and the checks'
 * own tables: one map lookup per op instead of one per check. Skipping is only ever a
 * shortcut: a check that may apply is called and decides as before.
 */
import { hasAttributeChecks } from "./literals.js";
import { isCallOp, opFacts } from "./ops.js";
import { hasStaticValueChecks } from "./static-values.js";
import { structureHolds } from "./structure.js";
import { hasSubrangeChecks } from "./subrange.js";
import { hasBodyReferences } from "./symbols.js";
import { hasYieldChecks } from "./yields.js";
import type { RegionKind } from "./context.js";

export interface WalkFacts {
  /** Placement reports nothing for the op in a region of each kind (placement.ts `checkOpPlacement`). */
  readonly placedIn: Readonly<Record<RegionKind, boolean>>;
  /** `structureHolds` for 0, 1 and 2 regions. */
  readonly structureHolds: readonly [boolean, boolean, boolean];
  readonly yields: boolean;
  readonly references: boolean;
  readonly attributes: boolean;
  readonly staticValues: boolean;
  readonly subranges: boolean;
  readonly call: boolean;
}

const BY_NAME = new Map<string, WalkFacts>();

function derive(name: string): WalkFacts {
  const facts = opFacts(name);
  const call = isCallOp(name);
  // A plain op placed where its column allows it (calls, top-level ops and workgroup allocas have further rules).
  const plain = (kind: RegionKind) => facts !== undefined && !facts.topLevel && !(call && kind === "C") && facts.placement.includes(kind) && name !== "buffer.alloca";
  return {
    placedIn: { C: plain("C"), D: plain("D"), F: plain("F") },
    structureHolds: [structureHolds(name, 0), structureHolds(name, 1), structureHolds(name, 2)],
    yields: hasYieldChecks(name),
    references: hasBodyReferences(name),
    // The parser marks view and buffer ops it read without their attributes (`missingAttributes`, `invalidSpace`).
    attributes: hasAttributeChecks(name) || name.startsWith("view.") || name.startsWith("buffer."),
    staticValues: hasStaticValueChecks(name),
    subranges: hasSubrangeChecks(name),
    call,
  };
}

export function walkFacts(name: string): WalkFacts {
  let f = BY_NAME.get(name);
  if (f === undefined) {
    f = derive(name);
    BY_NAME.set(name, f);
  }
  return f;
}
