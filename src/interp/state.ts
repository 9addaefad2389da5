/**
 * Runtime state shared by the compiled ops and the scheduler.
 *
 * Values live in per-invocation slot arrays (one slot per SSA value of a function body,
 * assigned once when the body is prepared), so executing an op is an array read and write,
 * never a name or map lookup.
 *
 * Representation of values (the domains of src/dialects/*\/semantics.ts):
 *  - `index` / `offset`: bigint (signed / non-negative);
 *  - `iN`: bigint bit pattern in [0, 2^N); `i1` is 0n/1n;
 *  - floats: number, exactly representable in the format, or a `PayloadNaN` for a NaN whose
 *    bits are not the canonical NaN's (only bit-moving ops make or keep one);
 *  - vectors: a frozen array of lanes in row-major order;
 *  - `buffer`: a BufferRoot; views: a ViewValue; `encoding<layout>`: a LayoutValue.
 */
import type { Op } from "../ir/core.js";
import type { PayloadNaN } from "../dialects/scalar/semantics.js";
import type { InvocationId } from "./errors.js";
import type { BufferRoot, LayoutValue, ViewValue } from "./memory.js";

export type Lane = bigint | number | PayloadNaN;
export type Val = Lane | readonly Lane[] | BufferRoot | ViewValue | LayoutValue;

/** Dispatch-wide state: geometry, counters and limits. */
export interface DispatchState {
  readonly workgroupCount: readonly [number, number, number];
  readonly workgroupSize: readonly [number, number, number];
  readonly subgroupSize: number;
  /** Ops executed so far (counted per region entry), and the budget. */
  steps: number;
  readonly maxSteps: number;
  /** Scratch bytes allocated so far (allocas), and the limit. */
  scratchBytes: number;
  readonly maxScratchBytes: number;
  /** Byte value fresh scratch is filled with ("unspecified" made deterministic). */
  readonly scratchFill: number;
}

/** One workgroup: its id and its `buffer.alloca<workgroup>` storage, one root per alloca op. */
export interface WorkgroupState {
  readonly id: readonly [number, number, number];
  readonly allocas: Map<Op, BufferRoot>;
}

/** One invocation (work-item). */
export interface Invocation {
  readonly local: readonly [number, number, number];
  /** Flat id `x + sx·(y + sy·z)` in the workgroup. */
  readonly flat: number;
  readonly workgroup: WorkgroupState;
  readonly dispatch: DispatchState;
}

/** The activation of one function body (the kernel body or an inlined-at-runtime callee). */
export interface Frame {
  readonly slots: Val[];
  readonly inv: Invocation;
  /** Call depth, bounded so that recursion cannot exhaust the JS stack. */
  readonly depth: number;
}

export function invocationId(inv: Invocation): InvocationId {
  return { workgroup: inv.workgroup.id, workitem: inv.local };
}

/**
 * What an invocation hands the scheduler at a barrier or collective. All participants of
 * the scope must stop at the same op; `resolve` then gets every participant's request (in
 * flat-id order) and returns each one's results (undefined for a barrier).
 */
export interface SyncRequest {
  readonly op: Op;
  readonly scope: "subgroup" | "workgroup";
  readonly operands: readonly Val[];
  readonly resolve: (requests: readonly SyncRequest[], participants: readonly Invocation[]) => readonly (readonly Val[])[] | undefined;
}

/** Code that may stop at a barrier or collective: a generator the scheduler drives. */
export type Gen<T> = Generator<SyncRequest, T, readonly Val[] | undefined>;

export type PlainStep = (f: Frame) => void;
export type SyncStep = (f: Frame) => Gen<void>;
/** One compiled op: plain code, or a generator when it contains a barrier or collective. */
export type Step = { readonly sync: false; readonly run: PlainStep } | { readonly sync: true; readonly run: SyncStep };

export const plain = (run: PlainStep): Step => ({ sync: false, run });
export const synced = (run: SyncStep): Step => ({ sync: true, run });
