/**
 * Inlines calls in a kernel region (v1 compiles device and host calls by inlining,
 * language.md §4.8, §4.9): `func.call` of a `func.def`, `template.call` of a provider, and
 * a `template.apply` whose provider the caller already selected (`chosen`). The callee
 * body is copied at the call with its parameters bound to the call operands; the
 * `func.return`/`template.return` operands replace the call results. Callees are never
 * modified, so one function can be inlined into kernels specialized for different
 * profiles. Callees are looked up in the verifier's symbol table (the module's top level
 * does not change while kernels are specialized).
 *
 * One walk, in program order: a call's body is copied op by op, and a call met in the copy
 * is expanded at once, on an explicit stack of the callees being copied — so a call chain
 * of any depth up to MAX_CALL_DEPTH inlines in one pass, and only a callee already on that
 * stack is recursion (STRUCTURE/903; the verifier rejects cycles of verified input first).
 * The copies are budgeted (MAX_INLINED_OPS, STRUCTURE/906), so a call tree that doubles at
 * every level fails with a diagnostic instead of exhausting memory.
 */
import { cloneOp, type ValueMap } from "../ir/clone.js";
import type { Op, Region } from "../ir/core.js";
import type { ModuleAnalyses } from "../core/prepared.js";
import { replaceUsesInRegion } from "../ir/rewrite.js";
import { walkOp } from "../ir/walk.js";
import { D, type DiagnosticSink } from "../core/diag/diagnostic.js";
import { isOp } from "../dialects/registry.js";
import { MAX_CALL_DEPTH, MAX_INLINED_OPS, MAX_REGION_NESTING } from "./budgets.js";

/** `template.apply` ops whose provider has been selected, mapped to that provider. */
export type ChosenProviders = ReadonlyMap<Op, Op>;

interface Inliner {
  readonly analyses: ModuleAnalyses;
  readonly chosen: ChosenProviders;
  readonly sink: DiagnosticSink;
  /** Call results → the values that replace them (always resolved: never a key itself). */
  readonly results: ValueMap;
  copied: number;
  ok: boolean;
}

/** One callee being copied at `call`: its body's ops, the next one, callee values → copies. */
interface Frame {
  readonly ops: readonly Op[];
  next: number;
  readonly map?: ValueMap;
  readonly call?: Op;
  readonly callee?: Op;
}

/**
 * Inlines every inlinable call. `template.apply` ops without an entry in `chosen` stay (the
 * pipeline selects their providers, then calls this again).
 */
export function inlineCalls(region: Region, analyses: ModuleAnalyses, sink: DiagnosticSink, chosen: ChosenProviders = new Map()): boolean {
  const cx: Inliner = { analyses, chosen, sink, results: new Map(), copied: 0, ok: true };
  inlineRegion(region, [], 0, cx);
  if (!cx.ok) return false;
  replaceUsesInRegion(region, cx.results);
  return true;
}

/** The body to inline for `op`, or undefined when `op` is not an inlinable call. */
function calleeOf(op: Op, cx: Inliner): Op | undefined {
  if (isOp(op, "template.apply")) return cx.chosen.get(op);
  if (!isOp(op, "func.call") && !isOp(op, "template.call")) return undefined;
  const callee = cx.analyses.symbol(op.symbol!);
  const wanted = isOp(op, "func.call") ? "func.def" : "template.def";
  if (callee?.name === wanted) return callee;
  // A declaration left unbound: linking (compileModule 'linkIndex') did not provide it.
  cx.sink.report(D.unresolvedSymbol, op.span, [op.symbol], { help: "a declared function needs a definition: pass a LinkIndex holding it as compileModule's 'linkIndex'" });
  cx.ok = false;
  return undefined;
}

function fail(cx: Inliner, ...report: Parameters<DiagnosticSink["report"]>): void {
  cx.sink.report(...report);
  cx.ok = false;
}

/** Rewrites `region.ops` with every call expanded; `active` are the callees being copied around it. */
function inlineRegion(region: Region, active: readonly Op[], nesting: number, cx: Inliner): void {
  const out: Op[] = [];
  const frames: Frame[] = [{ ops: region.ops, next: 0 }];
  const onStack = new Set(active);
  while (frames.length > 0 && cx.ok) {
    const frame = frames.at(-1);
    if (!frame) break;
    const source = frame.ops[frame.next++];
    if (source === undefined || (frame.call && (isOp(source, "func.return") || isOp(source, "template.return")))) {
      if (frame.call && source) {
        source.operands.forEach((v, i) => {
          const value = frame.map!.get(v) ?? v;
          cx.results.set(frame.call!.results[i]!, cx.results.get(value) ?? value);
        });
      }
      frames.pop();
      if (frame.callee) onStack.delete(frame.callee);
      continue;
    }
    const op = frame.map ? copy(source, frame.map, frames[1]?.call ?? source, cx) : source;
    if (!cx.ok) break;
    const callee = calleeOf(op, cx);
    if (callee) {
      if (onStack.has(callee)) {
        fail(cx, D.recursion, op.span, [callee.symbol ?? "?"]);
        break;
      }
      if (onStack.size >= MAX_CALL_DEPTH) {
        fail(cx, D.limitExceeded, op.span, [`a call chain more than ${MAX_CALL_DEPTH} calls deep`, `${MAX_CALL_DEPTH} nested calls`]);
        break;
      }
      const map: ValueMap = new Map();
      callee.regions[0]!.args.forEach((a, i) => map.set(a, op.operands[i]!));
      frames.push({ ops: callee.regions[0]!.ops, next: 0, map, call: op, callee });
      onStack.add(callee);
      continue;
    }
    op.parent = region;
    out.push(op);
    if (op.regions.length === 0 || !cx.ok) continue;
    if (nesting + 1 > MAX_REGION_NESTING) {
      fail(cx, D.limitExceeded, op.span, [`regions nested ${nesting + 1} deep once calls are inlined`, `${MAX_REGION_NESTING} levels`]);
      break;
    }
    const around = [...onStack];
    for (const inner of op.regions) inlineRegion(inner, around, nesting + 1, cx);
  }
  region.ops = out;
}

/** A copy of a callee op, counted against the inlining budget (reported at the region's own call). */
function copy(source: Op, map: ValueMap, at: Op, cx: Inliner): Op {
  walkOp(source, () => void cx.copied++);
  if (cx.copied > MAX_INLINED_OPS) fail(cx, D.limitExceeded, at.span, [`inlining more than ${MAX_INLINED_OPS} ops into one kernel`, `${MAX_INLINED_OPS} inlined ops`]);
  return cloneOp(source, map);
}
