/**
 * Workgroup-local storage (language.md §6 rule 7): every static `buffer.alloca<workgroup>`
 * in program order gets `offset = alignUp(cursor, align)`; the final cursor is the total.
 * No lifetime reuse in v1. Sizes are proven maxima from the verifier's bound algorithm.
 */
import type { Op, Region } from "../ir/core.js";
import { walkRegion } from "../ir/walk.js";
import { bitWidth } from "../ir/types.js";
import { D, type DiagnosticSink } from "../core/diag/diagnostic.js";
import type { Allocation } from "../core/prepared.js";
import { ConstantFolder } from "./verify/fold.js";
import { isOp } from "../dialects/registry.js";
import { MAX_PRIVATE_ALLOCATION_BYTES } from "./budgets.js";

export interface StorageLayout {
  /** Workgroup-local bytes: the final cursor. */
  readonly totalBytes: number;
  /** Every alloca whose size is proven, and every collective's scratch. */
  readonly allocations: Map<Op, Allocation>;
}

/**
 * Compiler scratch of `kernel.workgroup.reduce`: one slot per invocation of the workgroup
 * (`flatInvocations`: the static flat size, else the target's maximum), slots of the value's
 * size (`i1` as 4 bytes), aligned to the slot. Backends lower the collective with exactly
 * this scratch, so the launch's `workgroupStorageBytes` covers it (language.md §6 rule 7).
 */
export function collectiveScratch(op: Op, flatInvocations: number): { bytes: bigint; align: bigint } | undefined {
  if (!isOp(op, "kernel.workgroup.reduce")) return undefined;
  const t = op.results[0]?.type;
  const slot = t?.kind === "prim" && t.name !== "i1" ? BigInt(Math.max(1, bitWidth(t) / 8)) : 4n;
  return { bytes: BigInt(flatInvocations) * slot, align: slot };
}

/**
 * Sizes every `buffer.alloca` of a prepared body by the verifier's bound algorithm (so a
 * size that verifies also lays out) and places the workgroup ones and collective scratch.
 * An unbounded workgroup alloca is STRUCTURE/902; an unbounded private one is left out
 * (the backend reports what it cannot declare).
 */
export function layoutAllocations(body: Region, sink: DiagnosticSink, flatInvocations: number, maxWorkgroupBytes: number): StorageLayout | undefined {
  let bounds: ConstantFolder | undefined; // made at the first alloca: most bodies have none
  let cursor = 0n;
  let ok = true;
  const allocations = new Map<Op, Allocation>();
  const place = (op: Op, bytes: bigint, align: bigint) => {
    const offset = ((cursor + align - 1n) / align) * align;
    cursor = offset + bytes;
    allocations.set(op, { space: "workgroup", bytes: Number(bytes), offset: Number(offset) });
  };
  walkRegion(body, (op) => {
    const scratch = collectiveScratch(op, flatInvocations);
    if (scratch) return place(op, scratch.bytes, scratch.align);
    if (!isOp(op, "buffer.alloca")) return;
    if (op.props.deferredSpace !== undefined) {
      // Verified as the reference does, but no back end allocates in this space: never lower it as private scratch.
      sink.report(D.unsupported, op.span, [`buffer.alloca<${op.props.deferredSpace}>`, "loom's back ends (they allocate workgroup and private scratch only)"]);
      ok = false;
      return;
    }
    const size = op.operands[0];
    const max = size ? (bounds ??= new ConstantFolder()).upperBound(size) : undefined;
    const proven = max !== undefined && max >= 0n;
    if (op.props.space !== "workgroup") {
      if (!proven) return;
      if (max > BigInt(MAX_PRIVATE_ALLOCATION_BYTES)) {
        sink.report(D.limitExceeded, op.span, [`a private buffer.alloca of ${max} bytes`, `${MAX_PRIVATE_ALLOCATION_BYTES} bytes`]);
        ok = false;
        return;
      }
      allocations.set(op, { space: "private", bytes: Number(max) });
      return;
    }
    if (!proven) {
      sink.report(D.unboundedAlloca, op.span);
      ok = false;
      return;
    }
    place(op, max, BigInt(Number(op.props.align ?? 1)));
  });
  if (!ok) return undefined;
  // Checked as a bigint: the total is reported exactly, against the profile's own limit.
  if (cursor > BigInt(maxWorkgroupBytes)) {
    sink.report(D.storageTooLarge, body.parent?.span, [cursor, maxWorkgroupBytes]);
    return undefined;
  }
  return { totalBytes: Number(cursor), allocations };
}
