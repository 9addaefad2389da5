/**
 * Inlines calls in a kernel region (v1 compiles device and host calls by inlining,
 * language.md §4.8, §4.9): `func.call` of a `func.def`, `template.call` of a provider, and
 * a `template.apply` whose provider the caller already selected (`chosen`). The callee
 * body is copied at the call with its parameters bound to the call operands; the
 * `func.return`/`template.return` operands replace the call results. Callees are never
 * modified, so one function can be inlined into kernels specialized for different
 * profiles. Calls that arrive with a copied body are inlined by the next round; the
 * verifier rejects recursion (STRUCTURE/903) and a round limit keeps unverified input finite.
 * Callees are looked up in the verifier's symbol table (the module's top level does not
 * change while kernels are specialized).
 */
import { cloneOp, type ValueMap } from "../ir/clone.js";
import type { Op, Region } from "../ir/core.js";
import type { ModuleAnalyses } from "../core/prepared.js";
import { replaceUsesInRegion } from "../ir/rewrite.js";
import { D, type DiagnosticSink } from "../core/diag/diagnostic.js";

const MAX_ROUNDS = 64;

/** `template.apply` ops whose provider has been selected, mapped to that provider. */
export type ChosenProviders = ReadonlyMap<Op, Op>;

interface RoundState {
  inlined: number;
  ok: boolean;
}

/**
 * Inlines until no inlinable call is left. `template.apply` ops without an entry in
 * `chosen` stay (the pipeline selects their providers, then calls this again).
 */
export function inlineCalls(region: Region, analyses: ModuleAnalyses, sink: DiagnosticSink, chosen: ChosenProviders = new Map()): boolean {
  for (let round = 0; round < MAX_ROUNDS; round++) {
    const state: RoundState = { inlined: 0, ok: true };
    inlineOnce(region, (op) => calleeOf(op, analyses, chosen, sink, state), state);
    if (!state.ok) return false;
    if (state.inlined === 0) return true;
  }
  sink.report(D.recursion, region.parent?.span, [region.parent?.symbol ?? "?"]);
  return false;
}

/** The body to inline for `op`, or undefined when `op` is not an inlinable call. */
function calleeOf(op: Op, analyses: ModuleAnalyses, chosen: ChosenProviders, sink: DiagnosticSink, state: RoundState): Op | undefined {
  if (op.name === "template.apply") return chosen.get(op);
  if (op.name !== "func.call" && op.name !== "template.call") return undefined;
  const callee = analyses.symbol(op.symbol!);
  const wanted = op.name === "func.call" ? "func.def" : "template.def";
  if (callee?.name === wanted) return callee;
  // A declaration left unbound: linking (compileModule 'linkIndex') did not provide it.
  sink.report(D.unresolvedSymbol, op.span, [op.symbol], { help: "a declared function needs a definition: pass a LinkIndex holding it as compileModule's 'linkIndex'" });
  state.ok = false;
  return undefined;
}

function inlineOnce(region: Region, calleeFor: (op: Op) => Op | undefined, state: RoundState): void {
  const results: ValueMap = new Map();
  const out: Op[] = [];
  for (const op of region.ops) {
    for (const inner of op.regions) inlineOnce(inner, calleeFor, state);
    const callee = calleeFor(op);
    if (!callee) {
      out.push(op);
      continue;
    }
    const body = callee.regions[0]!;
    const map: ValueMap = new Map();
    body.args.forEach((a, i) => map.set(a, op.operands[i]!));
    for (const inner of body.ops) {
      if (inner.name === "func.return" || inner.name === "template.return") {
        inner.operands.forEach((v, i) => {
          const target = map.get(v) ?? v; // may be an earlier call's result, itself replaced
          results.set(op.results[i]!, results.get(target) ?? target);
        });
        break;
      }
      const copy = cloneOp(inner, map);
      copy.parent = region;
      out.push(copy);
    }
    state.inlined++;
  }
  region.ops = out;
  replaceUsesInRegion(region, results);
}
