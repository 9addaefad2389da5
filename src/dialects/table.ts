/**
 * The v1 op table (language.md §4), as the parser and verifier have always read it: one entry
 * per op, derived from the registry (registry.ts; the declarations live in src/dialects/ops).
 *
 * The parser uses it to recognise v1 op names (anything else is PARSE/006); the verifier uses it
 * for placement (STRUCTURE/029) and effects (STRUCTURE/017).
 */
import { OP_INFOS, opInfo, type OpInfo } from "./registry.js";

export type { OpInfo };

export const opTable: ReadonlyMap<string, OpInfo> = new Map(OP_INFOS.map((e) => [e.name, e]));

export function lookupOp(name: string): OpInfo | undefined {
  return opInfo(name);
}
