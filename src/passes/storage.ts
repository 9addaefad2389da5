/**
 * Workgroup-local storage (language.md §6 rule 7): every static `buffer.alloca<workgroup>`
 * in program order gets `offset = alignUp(cursor, align)`; the final cursor is the total.
 * No lifetime reuse in v1.
 */
import { constantValue } from "../ir/build.js";
import type { Op, Region, Value } from "../ir/core.js";
import { walkRegion } from "../ir/walk.js";
import { bitWidth } from "../ir/types.js";
import { D, type DiagnosticSink } from "../core/diag/diagnostic.js";

export interface StorageLayout {
  readonly totalBytes: number;
  readonly offsets: Map<Op, number>;
}

/** The largest value `v` can take, when it is proven (a constant, or an assume with range/max). */
export function provenMax(v: Value): bigint | undefined {
  const def = v.owner as Op;
  if (!def || !("operands" in def)) return undefined;
  const c = constantValue(def);
  if (typeof c === "bigint") return c;
  if (def.name === "index.assume") {
    let best: bigint | undefined;
    for (const p of (def.props.predicates as { kind: string; args: (Value | bigint)[] }[]) ?? []) {
      const idx = def.results.indexOf(v);
      const subject = def.operands[idx];
      if (p.args[0] !== subject) continue;
      const hi = p.kind === "range" ? p.args[2] : p.kind === "max" ? p.args[1] : undefined;
      if (typeof hi === "bigint" && (best === undefined || hi < best)) best = hi;
    }
    return best;
  }
  return undefined;
}

/**
 * Compiler scratch of `kernel.workgroup.reduce`: one slot per invocation of the workgroup
 * (`flatInvocations`: the static flat size, else the target's maximum), slots of the value's
 * size (`i1` as 4 bytes), aligned to the slot. Backends lower the collective with exactly
 * this scratch, so the launch's `workgroupStorageBytes` covers it (language.md §6 rule 7).
 */
export function collectiveScratch(op: Op, flatInvocations: number): { bytes: bigint; align: bigint } | undefined {
  if (op.name !== "kernel.workgroup.reduce") return undefined;
  const t = op.results[0]?.type;
  const slot = t?.kind === "prim" && t.name !== "i1" ? BigInt(Math.max(1, bitWidth(t) / 8)) : 4n;
  return { bytes: BigInt(flatInvocations) * slot, align: slot };
}

export function layoutWorkgroupStorage(body: Region, sink: DiagnosticSink, flatInvocations: number): StorageLayout | undefined {
  let cursor = 0n;
  let ok = true;
  const offsets = new Map<Op, number>();
  walkRegion(body, (op) => {
    const scratch = collectiveScratch(op, flatInvocations);
    if (scratch) {
      const offset = ((cursor + scratch.align - 1n) / scratch.align) * scratch.align;
      offsets.set(op, Number(offset));
      cursor = offset + scratch.bytes;
      return;
    }
    if (op.name !== "buffer.alloca" || op.props.space !== "workgroup") return;
    const max = provenMax(op.operands[0]!);
    if (max === undefined || max < 0n) {
      sink.report(D.unboundedAlloca, op.span);
      ok = false;
      return;
    }
    const align = BigInt(Number(op.props.align ?? 1));
    const offset = ((cursor + align - 1n) / align) * align;
    offsets.set(op, Number(offset));
    cursor = offset + max;
  });
  if (!ok) return undefined;
  if (cursor > BigInt(Number.MAX_SAFE_INTEGER)) {
    sink.report(D.storageTooLarge, body.parent?.span, [cursor, "2^53"]);
    return undefined;
  }
  return { totalBytes: Number(cursor), offsets };
}
