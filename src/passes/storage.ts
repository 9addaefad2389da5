/**
 * Workgroup-local storage (language.md §6 rule 7): every static `buffer.alloca<workgroup>`
 * in program order gets `offset = alignUp(cursor, align)`; the final cursor is the total.
 * No lifetime reuse in v1.
 */
import { constantValue } from "../ir/build.js";
import type { Op, Region, Value } from "../ir/core.js";
import { walkRegion } from "../ir/walk.js";
import { D, type DiagnosticSink } from "../diag/diagnostic.js";

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

export function layoutWorkgroupStorage(body: Region, sink: DiagnosticSink): StorageLayout | undefined {
  let cursor = 0n;
  let ok = true;
  const offsets = new Map<Op, number>();
  walkRegion(body, (op) => {
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
