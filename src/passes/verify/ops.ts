/**
 * What the verifier needs to know about each v1 op, as data (language.md §4 tables):
 * placement letters (C launch-config region, D kernel device body, F func/template body),
 * whether the op has effects (reads/writes memory or communicates across invocations),
 * whether it is a region terminator, and whether it belongs at top level.
 *
 * Placement, purity, terminators, top-level-ness and collectives come from the op
 * declarations (src/dialects/ops, shared with the parser).
 */
import { lookupOp } from "../../dialects/table.js";

export interface OpFacts {
  /** Placement letters from the C/D/F columns; empty for top-level ops. */
  readonly placement: string;
  /** Has memory effects or cross-invocation communication (not allowed in `pure` bodies). */
  readonly effects: boolean;
  readonly terminator: boolean;
  readonly topLevel: boolean;
  /** A barrier or collective: must be reached under control uniform at `scope` (STRUCTURE/038). */
  readonly collective?: "subgroup" | "workgroup";
}

const cache = new Map<string, OpFacts | null>();

function derive(name: string): OpFacts | null {
  const info = lookupOp(name);
  if (!info) return null;
  const call = isCallOp(name);
  return {
    // Calls list C in the table because a `pure` call is allowed there; placement.ts
    // applies that rule (STRUCTURE/052), so plain placement is D and F.
    placement: call ? info.placement.replace("C", "") : info.placement,
    // Calls are judged by their `pure` marker and callee (calls.ts), not as effects here.
    effects: !info.pure && !call && !info.topLevel,
    terminator: info.terminator,
    topLevel: info.topLevel,
    // kernel.barrier's scope is refined by its scope(...) in uniformity.ts.
    collective: info.collective,
  };
}

export function opFacts(name: string): OpFacts | undefined {
  let f = cache.get(name);
  if (f === undefined) {
    f = derive(name);
    cache.set(name, f);
  }
  return f ?? undefined;
}

/** Ops whose region-kind placement follows the "call" rule (C only when `pure`). */
export function isCallOp(name: string): boolean {
  return name === "func.call" || name === "template.apply" || name === "template.call";
}
