/**
 * One library of a link index: a parsed, verified module that is never mutated (linking
 * copies what it pulls), with its source text for rendering diagnostics at its spans.
 */
import type { Module, Op } from "../../ir/core.js";
import { targetRecordSpec } from "../../core/target-records.js";

export interface LinkLibrary {
  /** The Source name: identifies the library in diagnostics and in the index bytes. */
  readonly name: string;
  readonly text: string;
  readonly ir: Module;
  /** Top-level symbols of the library by name (first op per name). */
  readonly symbols: ReadonlyMap<string, Op>;
}

const DEFINITION_OPS: ReadonlySet<string> = new Set(["kernel.def", "func.def", "template.def", "config.def"]);

/** Ops that define a body or value (as opposed to declarations); target records are definitions. */
export function isDefinition(name: string): boolean {
  return DEFINITION_OPS.has(name) || targetRecordSpec(name) !== undefined;
}

export function isPublic(op: Op): boolean {
  const m = op.props.modifiers;
  return Array.isArray(m) && m.includes("public");
}
