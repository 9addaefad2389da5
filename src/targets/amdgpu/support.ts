/**
 * Which device-body ops the AMDGPU backend lowers. The pipeline has already removed every
 * effect-free op whose results nobody uses (passes/fold.ts `removeDeadOps`, the one dead-op
 * pass), so every op of a prepared body is live. Today only `kernel.return` is lowered, so
 * any other op is unsupported (TARGET/001).
 */
import type { Op, Region } from "../../ir/core.js";

/** The ops the lowering handles (lower.ts). */
export const LOWERED_OPS: ReadonlySet<string> = new Set(["kernel.return"]);

/** Ops of the body the backend cannot lower yet, in program order. */
export function unsupportedOps(body: Region): Op[] {
  return body.ops.filter((op) => !LOWERED_OPS.has(op.name));
}
