/**
 * Implementation limits and compile budgets (docs/language.md "Limits"). Every one is
 * reported as STRUCTURE/906 at the op that exceeds it, so a hostile or runaway program
 * fails its `Result` instead of exhausting the host's memory, stack or time.
 */

/** Lanes of one vector type (all dimensions multiplied). */
export const MAX_VECTOR_LANES = 1024;

/** UTF-16 code units of an export name (SPIR-V and the launch string table hold it whole). */
export const MAX_EXPORT_NAME_LENGTH = 1024;

/** Bytes of one private (per-invocation) `buffer.alloca`. */
export const MAX_PRIVATE_ALLOCATION_BYTES = 1 << 20;

/** Ops that inlining may copy into one kernel region (all calls together). */
export const MAX_INLINED_OPS = 1 << 18;

/** Calls nested inside calls while inlining (a call chain this deep is not recursion, just deep). */
export const MAX_CALL_DEPTH = 256;

/** Region nesting of a body once calls are inlined: the parser's own limit. */
export { MAX_REGION_NESTING } from "../text/parser.js";
