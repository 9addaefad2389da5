/**
 * Which device-body ops the AMDGPU backend must lower. An op that has no effect and whose
 * results nobody (transitively) uses is dropped; every other op is "live". Today only
 * `kernel.return` is lowered, so any other live op is unsupported (TARGET/001).
 */
import type { Op, Region } from "../../ir/core.js";
import { forEachUse, walkOp } from "../../ir/walk.js";
import { lookupOp } from "../../dialects/table.js";
import { namesWithPrefix, type OpName } from "../../dialects/registry.js";

/** An op the lowering (lower.ts) handles, or why it does not. */
type Lowering = "lowered" | { readonly unsupported: string };

const NOT_YET = { unsupported: "AMDGPU instruction selection covers only kernel.return so far" } as const;

/** Every op of a dialect, not lowered yet. */
function notYet<D extends string>(dialect: D): Record<Extract<OpName, `${D}.${string}`>, Lowering> {
  return Object.fromEntries(namesWithPrefix(`${dialect}.`).map((n) => [n, NOT_YET])) as Record<Extract<OpName, `${D}.${string}`>, Lowering>;
}

/** What the AMDGPU back end lowers, per declared op (a new op must be placed here). */
const AMDGPU_LOWERING: { readonly [N in OpName]: Lowering } = {
  ...notYet("kernel"), ...notYet("index"), ...notYet("scalar"), ...notYet("scf"), ...notYet("buffer"), ...notYet("encoding"), ...notYet("view"),
  ...notYet("vector"), ...notYet("func"), ...notYet("template"), ...notYet("config"), ...notYet("target"), ...notYet("amdgpu"), ...notYet("spirv"),
  ...notYet("module"),
  alias: NOT_YET,
  "kernel.return": "lowered",
};

/** The ops the lowering handles (lower.ts). */
export const LOWERED_OPS: ReadonlySet<string> = new Set(Object.entries(AMDGPU_LOWERING).filter(([, l]) => l === "lowered").map(([n]) => n));

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
