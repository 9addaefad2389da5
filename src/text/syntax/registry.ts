/**
 * All op syntaxes, by op name. Importing this module registers every dialect's syntax; the
 * parser and printer look ops up here. Target-record ops come from the registered target
 * packages (core/target-records.ts).
 */
import { lookupSyntax, type OpSyntax } from "./core.js";
import "./arith.js";
import "./kernel.js";
import "./scf.js";
import "./memory.js";
import "./calls.js";
import { targetRecordSyntaxOf } from "./toplevel.js";

export type { OpSyntax };
export { registeredNames } from "./core.js";

export function syntaxOf(name: string): OpSyntax | undefined {
  return lookupSyntax(name) ?? targetRecordSyntaxOf(name);
}
