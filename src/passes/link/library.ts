/**
 * One library of a link index: a parsed, verified module that is never mutated (linking
 * copies what it pulls), with its source text for rendering diagnostics at its spans.
 */
import type { Module, Op } from "../../ir/core.js";

export interface LinkLibrary {
  /** The Source name: identifies the library in diagnostics and in the index bytes. */
  readonly name: string;
  readonly text: string;
  readonly ir: Module;
  /** Top-level symbols of the library by name (first op per name). */
  readonly symbols: ReadonlyMap<string, Op>;
}

/** Ops that define a body or value (as opposed to declarations). */
export const DEFINITIONS: ReadonlySet<string> = new Set(["kernel.def", "func.def", "template.def", "config.def", "amdgpu.target", "spirv.target"]);

export function isPublic(op: Op): boolean {
  const m = op.props.modifiers;
  return Array.isArray(m) && m.includes("public");
}

/** Freezes the IR of a library so that nothing can rewrite it in place. */
export function deepFreeze<T>(x: T): T {
  const stack: unknown[] = [x];
  while (stack.length > 0) {
    const o = stack.pop();
    if (typeof o !== "object" || o === null || Object.isFrozen(o)) continue;
    Object.freeze(o);
    for (const v of Object.values(o)) stack.push(v);
  }
  return x;
}
