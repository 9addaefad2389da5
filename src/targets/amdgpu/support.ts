/**
 * Which device-body ops the AMDGPU backend lowers. The pipeline has already removed every
 * effect-free op whose results nobody uses (passes/fold.ts `removeDeadOps`, the one dead-op
 * pass), so every op of a prepared body is live. Today only `kernel.return` is lowered, so
 * any other op is unsupported (TARGET/001).
 */
import type { Op, Region } from "../../ir/core.js";
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

/** Ops of the body the backend cannot lower yet, in program order. */
export function unsupportedOps(body: Region): Op[] {
  return body.ops.filter((op) => !LOWERED_OPS.has(op.name));
}
