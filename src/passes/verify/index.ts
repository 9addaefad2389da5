/**
 * The verifier: the gate between the parser and everything after it. It checks every
 * non-PARSE rule of language.md on a parsed module and returns analyses later passes reuse.
 *
 * What is checked, one file per concern:
 *  - symbols.ts     SYMBOL/002 003 005, STRUCTURE/027 (export names)
 *  - placement.ts   STRUCTURE/011 029 031 052 (C/D/F columns, config region contents)
 *  - structure.ts   STRUCTURE/005 006 012 018 (region counts and terminators)
 *  - yields.ts      STRUCTURE/008 013, TYPE/001 009 013 (values crossing region boundaries)
 *  - dominance.ts   DOMINANCE/001
 *  - types.ts       TYPE/001 002 003 004 013 per op; literals.ts TYPE/005, STRUCTURE/014
 *  - static-values.ts STRUCTURE/035 901 902, TARGET/062 (constant folding in fold.ts)
 *  - subrange.ts    SUBRANGE/001 004
 *  - callgraph.ts   the call graph (bottom-up order, cycles) the call checks share
 *  - calls.ts       STRUCTURE/903 017 034, STRUCTURE/014 for broken `where` contracts at calls
 *  - config.ts      STRUCTURE/904 (also `checkConfigValue` for bindings made through the API)
 *  - uniformity.ts  STRUCTURE/038
 *  - limits.ts      STRUCTURE/906 (vector lanes, export names), STRUCTURE/014 (64-bit literals)
 *  - harness.ts     STRUCTURE/032 (`where` argument origins); check.ts the check harness (§11),
 *                   registered with its syntax (api/check-dialect.ts)
 *
 *
 * How it runs: walk.ts visits every op once and calls each concern's per-op check there
 * (op-facts.ts says per op name which checks can apply); symbols, the harness, calls, config
 * and uniformity run on their own after it. Each report is tagged with its concern's phase so
 * that diagnostics at one place keep the order of the concerns above.
 *
 * Not checked here (later stages): template provider selection (LOWERING/901), target
 * limits and features (TARGET/0xx except 062), vector footprint proofs (SUBRANGE/009–011),
 * linking declarations to definitions in other modules.
 *
 * The verifier never throws on ill-formed IR (the parser builds IR for broken input too);
 * diagnostics are handed to the sink sorted by source position, so output is deterministic.
 *
 * The analyses it computes on the way (symbols, uniformity, constants and proven bounds,
 * use counts) are returned as a `VerifiedModule` (core's `ModuleAnalyses`) for later stages.
 */
import type { Module, Op, Value } from "../../ir/core.js";
import { forEachUse } from "../../ir/walk.js";
import type { ModuleAnalyses } from "../../core/prepared.js";
import { D, makeDiagnostic, type Diagnostic, type DiagnosticSink } from "../../core/diag/diagnostic.js";
import { checkCalls } from "./calls.js";
import { checkHarness } from "./harness.js";
import { checkConfigDefs } from "./config.js";
import { Phase, VerifyContext, type Body } from "./context.js";
import { ConstantFolder } from "./fold.js";
import { checkTopLevelPlacement } from "./placement.js";
import { checkSymbols, SymbolTable } from "./symbols.js";
import { analyzeUniformity, checkUniformControl, UniformityInfo } from "./uniformity.js";
import { walkModule } from "./walk.js";

export { SymbolTable } from "./symbols.js";
export { UniformityInfo } from "./uniformity.js";
export { ConstantFolder } from "./fold.js";
export { checkConfigValue } from "./config.js";

/** The analyses a verifier run hands on (core's `ModuleAnalyses`, with the verifier's own classes), and its outcome. */
export interface VerifiedModule extends ModuleAnalyses {
  /** Top-level symbols by name (a config key maps to its `config.decl` when it has one). */
  readonly symbols: SymbolTable;
  readonly uniformity: UniformityInfo;
  readonly bounds: ConstantFolder;
  /** The diagnostics this run produced (also added to the sink). */
  readonly diagnostics: readonly Diagnostic[];
  /** True when the verifier found no error. */
  readonly ok: boolean;
}

function position(d: Diagnostic): [number, number] {
  return [d.location?.line ?? Number.MAX_SAFE_INTEGER, d.location?.column ?? Number.MAX_SAFE_INTEGER];
}

/**
 * Source order, then the order the checks ran in (phase, then report order); identical
 * duplicates (same code, place and message) dropped.
 */
function ordered(ds: readonly Diagnostic[], phases: readonly Phase[]): Diagnostic[] {
  if (ds.length === 0) return [];
  const indexed = ds.map((d, i) => ({ d, i, phase: phases[i] ?? Phase.Symbols }));
  indexed.sort((a, b) => {
    const [la, ca] = position(a.d), [lb, cb] = position(b.d);
    return la - lb || ca - cb || a.phase - b.phase || a.i - b.i;
  });
  const seen = new Set<string>();
  const out: Diagnostic[] = [];
  for (const { d } of indexed) {
    const key = `${d.code}|${d.location?.line}:${d.location?.column}|${d.message}`;
    if (seen.has(key)) continue;
    seen.add(key);
    out.push(d);
  }
  return out;
}

/** Verifies `m`, reporting into `sink` (up to its error limit, then one PARSE/012). */
export function verifyModule(m: Module, sink: DiagnosticSink): VerifiedModule {
  const early: Diagnostic[] = [];
  const symbols = SymbolTable.build(m, (entry, span, args, extra) => void early.push(makeDiagnostic(entry, span, args, extra)));
  const folder = new ConstantFolder();
  const ctx = new VerifyContext(m, symbols, folder);
  for (const d of early) ctx.add(d);

  checkSymbols(ctx);
  ctx.phase = Phase.PlacementTop;
  checkTopLevelPlacement(ctx);
  const { hasCalls } = walkModule(ctx);
  ctx.phase = Phase.Harness;
  checkHarness(ctx);
  ctx.phase = Phase.Calls;
  checkCalls(ctx, hasCalls);
  ctx.phase = Phase.Config;
  checkConfigDefs(ctx);
  ctx.phase = Phase.Uniformity;
  const uniformity = analyzeUniformity(ctx);
  checkUniformControl(ctx, uniformity);

  const diagnostics = ordered(ctx.diagnostics, ctx.phases);
  let errors = 0;
  for (const d of diagnostics) {
    if (sink.full && d.severity === "error") {
      // Like the parser: one PARSE/012, placed where the first dropped error was.
      const cut = makeDiagnostic(D.tooManyErrors, undefined, [sink.maxErrors]);
      if (d.location) cut.location = d.location;
      sink.add(cut);
      break;
    }
    sink.add(d);
    if (d.severity === "error") errors++;
  }
  return new VerifyResult(symbols, uniformity, folder, ctx.bodies, diagnostics, errors === 0);
}

/**
 * A verifier run's outcome. A class, not an object literal with a getter: V8 pretenures such
 * literals, and an old-space result keeps the young module it points at alive through every
 * scavenge (measured: ~80x the promoted bytes of a parse+verify loop).
 */
class VerifyResult implements VerifiedModule {
  #uses: Map<Value, number> | undefined;
  constructor(
    readonly symbols: SymbolTable,
    readonly uniformity: UniformityInfo,
    readonly bounds: ConstantFolder,
    private readonly bodies: readonly Body[],
    readonly diagnostics: readonly Diagnostic[],
    readonly ok: boolean,
  ) {}

  symbol(name: string): Op | undefined {
    return this.symbols.get(name)?.op;
  }

  /** Counted when first read (no later stage of a compile reads them), from the bodies as they are then. */
  get uses(): ReadonlyMap<Value, number> {
    return (this.#uses ??= countUses(this.bodies));
  }
}

/** How often each value is used by the ops of the bodies (operands, values in props and result types). */
function countUses(bodies: readonly Body[]): Map<Value, number> {
  const uses = new Map<Value, number>();
  const count = (v: Value) => void uses.set(v, (uses.get(v) ?? 0) + 1);
  const walk = (ops: readonly Op[]) => {
    for (const op of ops) {
      forEachUse(op, count);
      for (const r of op.regions) walk(r.ops);
    }
  };
  for (const body of bodies) walk(body.region.ops);
  return uses;
}
