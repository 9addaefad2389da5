/**
 * Private memory (`buffer.alloca<private>`) in the wave's scratch, on processors whose flat
 * scratch is architected (gfx94x, gfx11: the hardware sets each wave's scratch base, so the
 * kernel needs no setup code and no extra SGPRs; AMDGPUUsage "Architected flat scratch").
 * Every private allocation of the kernel gets a fixed offset in one per-invocation private
 * segment of `bytes` bytes (the descriptor's PRIVATE_SEGMENT_FIXED_SIZE, with
 * COMPUTE_PGM_RSRC2.ENABLE_PRIVATE_SEGMENT; metadata `.private_segment_fixed_size`).
 * Accesses address the invocation's own segment with 32-bit offsets:
 *
 *   scratch_load/store_b32|b64 vdst, vaddr, off offset:k   (a per-lane address in a VGPR)
 *   scratch_load/store_b32|b64 vdst, off, off offset:k     (a constant address)
 *
 * Spill slots can later be laid out after `bytes` the same way.
 */
import type { Op } from "../../../ir/core.js";
import type { PreparedKernel } from "../../../core/prepared.js";

/** Per-invocation bytes loom lays out in scratch (well inside every family's per-lane limit). */
export const MAX_PRIVATE_SEGMENT_BYTES = 65536;

export interface PrivateLayout {
  readonly offsets: ReadonlyMap<Op, number>;
  /** The private segment's size: the allocations, rounded up to a dword. */
  readonly bytes: number;
}

const layouts = new WeakMap<PreparedKernel, PrivateLayout>();
const EMPTY: PrivateLayout = { offsets: new Map(), bytes: 0 };

/** Private allocations in body order, each at its alignment (at least a dword). */
export function privateLayout(kernel: PreparedKernel): PrivateLayout {
  const known = layouts.get(kernel);
  if (known) return known;
  let cursor = 0;
  let offsets: Map<Op, number> | undefined;
  for (const [op, a] of kernel.allocations) {
    if (a.space !== "private") continue;
    const align = Math.max(4, Number(op.props.align ?? 4));
    cursor = Math.ceil(cursor / align) * align;
    (offsets ??= new Map()).set(op, cursor);
    cursor += a.bytes;
  }
  const layout = offsets ? { offsets, bytes: Math.ceil(cursor / 4) * 4 } : EMPTY;
  layouts.set(kernel, layout);
  return layout;
}
