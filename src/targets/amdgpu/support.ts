/**
 * Which device-body ops the AMDGPU backend must lower. An op that has no effect and whose
 * results nobody (transitively) uses is dropped; every other op is "live". Today only
 * `kernel.return` is lowered, so any other live op is unsupported (TARGET/001).
 */
import type { Op, Region } from "../../ir/core.js";
import { forEachUse, walkOp } from "../../ir/walk.js";
import { lookupOp } from "../../dialects/table.js";

/** The ops the lowering handles (lower.ts). */
export const LOWERED_OPS: ReadonlySet<string> = new Set(["kernel.return"]);

/** True for an op that may be deleted when none of its results is used (the op table's `pure`). */
export function isDroppableWhenUnused(op: Op): boolean {
  if (op.regions.length > 0 || op.results.length === 0) return false;
  return lookupOp(op.name)?.pure === true;
}

/** The body's top-level ops that must be lowered, in program order. */
export function liveOps(body: Region): Op[] {
  const used = new Set<number>();
  const live: Op[] = [];
  for (let i = body.ops.length - 1; i >= 0; i--) {
    const op = body.ops[i]!;
    if (isDroppableWhenUnused(op) && !op.results.some((r) => used.has(r.id))) continue;
    live.push(op);
    // Uses inside nested regions keep their definitions alive too.
    walkOp(op, (inner) => forEachUse(inner, (v) => used.add(v.id)));
  }
  return live.reverse();
}

/** Live ops the backend cannot lower yet. */
export function unsupportedOps(body: Region): Op[] {
  return liveOps(body).filter((op) => !LOWERED_OPS.has(op.name));
}
