/**
 * The launch-config companion's limits (docs/launch-config.md "Limits", `LIMITS` in
 * src/launch/model.ts), checked on a kernel's config region once calls are inlined, so a
 * program the decoder would refuse fails compilation with STRUCTURE/906 at the op that
 * exceeds a limit rather than throwing from the encoder.
 */
import type { Op, Region } from "../ir/core.js";
import { D, type DiagnosticSink } from "../core/diag/diagnostic.js";
import { LIMITS } from "../launch/model.js";
import { MAX_STRING_BYTES } from "../bytecode/strings.js";
import { propOf } from "../dialects/registry.js";

/** Reports every limit the config region of `kernel` exceeds; true when there was none. */
export function checkLaunchLimits(kernel: Op, config: Region, exportName: string, sink: DiagnosticSink): boolean {
  const before = sink.errorCount;
  const over = (span: Op["span"], what: string, limit: number) => void sink.report(D.limitExceeded, span, [what, limit]);
  const nameBytes = utf8Length(exportName);
  if (nameBytes > MAX_STRING_BYTES) over(kernel.span, `an export name of ${nameBytes} bytes`, MAX_STRING_BYTES);
  if (config.args.length > LIMITS.args) over(config.args[LIMITS.args]?.span ?? kernel.span, `${config.args.length} workload arguments`, LIMITS.args);
  const where = propOf(kernel, "workloadWhere");
  if (where && where.length > LIMITS.predicates) over(where[LIMITS.predicates]?.span ?? kernel.span, `${where.length} workload 'where' predicates`, LIMITS.predicates);
  let ops = 0;
  let values = config.args.length;
  let reportedOps = false;
  // Explicit stack (made at the first nested region: most config regions have none): nesting
  // is bounded by what is reported here, not by the JS stack.
  let pending: Region[] | undefined;
  let pendingDepths: number[] | undefined;
  let region: Region | undefined = config;
  let depth = 0;
  while (region) {
    for (const op of region.ops) {
      ops++;
      values += op.results.length;
      for (const r of op.regions) values += r.args.length;
      if (ops > LIMITS.opsPerFunction && !reportedOps) {
        reportedOps = true;
        over(op.span, `a launch-config region of more than ${LIMITS.opsPerFunction} ops`, LIMITS.opsPerFunction);
      }
      const counted = op.name === "index.assume" || op.name === "scalar.assume" ? LIMITS.assumeValues : LIMITS.yieldValues;
      if (op.results.length > counted) over(op.span, `'${op.name}' with ${op.results.length} results in a launch-config region`, counted);
      const predicates = propOf(op, "predicates");
      if (Array.isArray(predicates) && predicates.length > LIMITS.predicates) over(op.span, `'${op.name}' with ${predicates.length} predicates`, LIMITS.predicates);
      if (op.regions.length === 0) continue;
      if (depth + 1 > LIMITS.nesting) {
        over(op.span, `launch-config regions nested ${depth + 1} deep`, LIMITS.nesting);
        continue;
      }
      for (const r of op.regions) {
        (pending ??= []).push(r);
        (pendingDepths ??= []).push(depth + 1);
      }
    }
    region = pending?.pop();
    depth = pendingDepths?.pop() ?? 0;
  }
  if (values > LIMITS.registers) over(kernel.span, `a launch-config function of ${values} values`, LIMITS.registers);
  return sink.errorCount === before;
}

/** UTF-8 length without encoding (every compile checks its export name). */
function utf8Length(s: string): number {
  let n = s.length;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c < 0x80) continue;
    if (c < 0x800) n += 1;
    else if (c >= 0xd800 && c <= 0xdbff && i + 1 < s.length && (s.charCodeAt(i + 1) & 0xfc00) === 0xdc00) {
      n += 2; // a surrogate pair: 2 UTF-16 units, 4 bytes
      i++;
    } else n += 2; // 3 bytes (a lone surrogate becomes U+FFFD, also 3)
  }
  return n;
}
