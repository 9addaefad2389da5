/**
 * All op syntaxes, by op name. Importing this module registers every dialect's syntax but the
 * check harness's (check.ts: `check.case` …, registered by importing it, which loomc and
 * loomc/browser/check do, so a page that only compiles leaves it out); the parser and printer
 * look ops up here. Target-record ops come from the registered target packages
 * (core/target-records.ts).
 */
import { OP_INFOS, type OpName } from "../../dialects/registry.js";
import type { SyntaxForm } from "../../dialects/decl.js";
import { FLOAT_PREDICATES, INT_PREDICATES } from "../vocabulary.js";
import { arithForm, castForm, cmpForm, constantForm, assumeForm, lookupSyntax, operandsForm, register, wordsForm, type OpSyntax } from "./core.js";
import "./arith.js";
import "./kernel.js";
import "./scf.js";
import "./memory.js";
import "./calls.js";
import { targetRecordSyntaxOf } from "./toplevel.js";

export type { OpSyntax };

/** The parser/printer of a generic form declared in the registry. */
function formSyntax(f: Exclude<SyntaxForm, { form: "custom" }>): OpSyntax {
  switch (f.form) {
    case "arith": return arithForm(f.arity, f.flags);
    case "cmp": return cmpForm(f.predicates === "int" ? INT_PREDICATES : FLOAT_PREDICATES, f.flags, f.vector);
    case "cast": return castForm;
    case "constant": return constantForm;
    case "assume": return assumeForm;
    case "operands": return operandsForm(f.arity, f.result);
    case "words": return wordsForm(f.separators);
  }
}

// Ops with a generic form get their syntax from their declaration; a family shares one object.
const built = new Map<SyntaxForm, OpSyntax>();
for (const info of OP_INFOS) {
  const f = info.syntax;
  if (f.form === "custom") continue;
  let syntax = built.get(f);
  if (!syntax) built.set(f, (syntax = formSyntax(f)));
  register<OpName>(info.name, syntax);
}
export { registeredNames } from "./core.js";

export function syntaxOf(name: string): OpSyntax | undefined {
  return lookupSyntax(name) ?? targetRecordSyntaxOf(name);
}
