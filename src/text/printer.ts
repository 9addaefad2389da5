/**
 * The canonical printer (`loom fmt`, language.md §9): IR → text. `printModule(parseModule(x))`
 * is a fixpoint and parses back to the same IR (names, comments and blank-line flags included).
 *
 * Top level (§9.7): alias definitions first; blank lines as `topLevelBlankBefore` decides (the
 * source's are kept, a definition with regions always stands apart).
 */
import type { Module, Op } from "../ir/core.js";
import { typeToString, type Type } from "../ir/types.js";
import { Writer } from "./writer.js";
import { topLevelBlankBefore } from "./layout.js";
import { isOp } from "../dialects/registry.js";

export function printModule(m: Module): string {
  const w = new Writer();
  // Implicit ops (the template.decl a legacy family gets, text/syntax/legacy.ts) are not source text.
  const shown = m.ops.filter((o) => o.props.implicit !== true);
  const ordered = [...shown.filter((o) => isOp(o, "alias")), ...shown.filter((o) => !isOp(o, "alias"))];
  ordered.forEach((op, i) => {
    w.op(op, i === 0, topLevelBlankBefore(op, i === 0));
  });
  w.trailing(m.trailingComments, m.trailingBlank && ordered.length > 0);
  return w.finish();
}

/** One op's canonical text (with its regions and leading comments), no final newline. */
export function printOp(op: Op): string {
  const w = new Writer();
  w.op(op, true);
  return w.finish().replace(/\n$/, "");
}

/** A type's canonical spelling (`view<[%n]x16xf32>`). */
export function printType(t: Type): string {
  return typeToString(t);
}
