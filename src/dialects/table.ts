/**
 * The v1 op table (language.md §4), as the parser and verifier have always read it: one entry
 * per op, derived from the registry (registry.ts; the declarations live in src/dialects/ops).
 *
 * Target-record ops (`<environment>.target`) are not listed: each target package declares its
 * own, and `lookupOp` answers for the ones registered in core/target-records.ts.
 *
 * The parser uses it to recognise v1 op names (anything else is PARSE/006); the verifier uses it
 * for placement (STRUCTURE/029) and effects (STRUCTURE/017).
 */
import { OP_BY_NAME, opInfo, type OpInfo } from "./registry.js";
import { targetRecordSpec } from "../core/target-records.js";

export type { OpInfo };

/** What the parser, verifier and folder ask of any op: a declared one or a target record. */
export type OpTableEntry = Pick<OpInfo, "placement" | "pure" | "terminator" | "topLevel" | "collective"> & { readonly name: string };

/** Every registered op by name (the check harness's once it is loaded). */
export const opTable: ReadonlyMap<string, OpInfo> = OP_BY_NAME;

const recordOps = new Map<string, OpTableEntry>();

export function lookupOp(name: string): OpTableEntry | undefined {
  const info = opInfo(name);
  if (info) return info;
  const record = targetRecordSpec(name);
  if (!record) return undefined;
  let entry = recordOps.get(name);
  if (!entry) {
    entry = Object.freeze({ name, placement: "", pure: false, terminator: false, topLevel: true });
    recordOps.set(name, entry);
  }
  return entry;
}
