/**
 * Blank-line layout rules shared by the parser (which records them) and the printer (which
 * applies them), so that `print(parse(x))` is a fixpoint (language.md §9.7, as the reference
 * implementation prints).
 */
import type { Op } from "../ir/core.js";
import { isOp } from "../dialects/registry.js";

/**
 * Marks a blank line inside an op's leading comment block (between two comments, or between
 * the comments and the op). A real comment never contains a newline, so the mark is unambiguous
 * and survives the bytecode's comment strings unchanged.
 */
export const BLANK_COMMENT_LINE = "\n";

/**
 * Whether a top-level op prints after a blank line. The source's blank lines are kept and none
 * is added between one-line declarations (`config.decl`, `func.decl`, target records, …); an
 * op with a body (a definition) always stands apart from the op before it.
 */
export function topLevelBlankBefore(op: Op, first: boolean): boolean {
  if (first || isOp(op, "alias")) return false;
  return op.regions.some((r) => r.ops.length > 0) || op.blankBefore;
}
