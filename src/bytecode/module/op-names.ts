/** Which op names a module file may carry: the ones the text syntax can print and parse. */
import { syntaxOf } from "../../text/syntax/registry.js";

export function isKnownOpName(name: string): boolean {
  return name === "alias" || syntaxOf(name) !== undefined;
}
