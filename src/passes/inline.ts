/**
 * Inlines every `func.call` in a kernel region (v1 compiles device and host calls by
 * inlining, language.md §4.8). The callee body is copied at the call with its parameters
 * bound to the call operands; `func.return` operands replace the call results. Calls that
 * arrive with a copied body are inlined by the next round; the verifier rejects recursion
 * (STRUCTURE/903) and a round limit keeps unverified input finite.
 */
import { cloneOp, type ValueMap } from "../ir/clone.js";
import type { Module, Op, Region } from "../ir/core.js";
import { replaceUsesInRegion } from "../ir/rewrite.js";
import { D, type DiagnosticSink } from "../diag/diagnostic.js";

const MAX_ROUNDS = 64;

export function inlineCalls(region: Region, module: Module, sink: DiagnosticSink): boolean {
  const symbols = module.symbolTable();
  for (let round = 0; round < MAX_ROUNDS; round++) {
    const state = { inlined: 0, ok: true };
    inlineOnce(region, symbols, sink, state);
    if (!state.ok) return false;
    if (state.inlined === 0) return true;
  }
  sink.report(D.recursion, region.parent?.span, [region.parent?.symbol ?? "?"]);
  return false;
}

function inlineOnce(region: Region, symbols: Map<string, Op>, sink: DiagnosticSink, state: { inlined: number; ok: boolean }): void {
  const results: ValueMap = new Map();
  const out: Op[] = [];
  for (const op of region.ops) {
    for (const inner of op.regions) inlineOnce(inner, symbols, sink, state);
    if (op.name === "template.apply" || op.name === "template.call") {
      sink.report(D.noProvider, op.span, [String(op.props.family ?? op.symbol), "template selection is not implemented yet"]);
      state.ok = false;
    }
    const callee = op.name === "func.call" ? symbols.get(op.symbol!) : undefined;
    if (!callee || callee.name !== "func.def") {
      if (op.name === "func.call") {
        // A func.decl is bound by linking, which this pipeline does not do yet.
        sink.report(D.unresolvedSymbol, op.span, [op.symbol]);
        state.ok = false;
      }
      out.push(op);
      continue;
    }
    const body = callee.regions[0]!;
    const map: ValueMap = new Map();
    body.args.forEach((a, i) => map.set(a, op.operands[i]!));
    for (const inner of body.ops) {
      if (inner.name === "func.return") {
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
