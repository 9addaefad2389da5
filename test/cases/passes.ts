/**
 * Per-pass file tests (`// RUN: pass NAME`): the case is parsed and verified, one pass of
 * src/passes runs on it through its own entry point, and the result is printed as text —
 * IR through the canonical printer, layouts and selections as listings. The pipeline
 * (src/passes/pipeline.ts) runs these same functions in this order:
 * inline → specialize → fold → templates, then the launch split and the layout.
 */
import "../../src/api/check-dialect.js"; // the check harness's syntax and rules, which loomc registers
import { DiagnosticSink } from "../../src/core/diag/diagnostic.js";
import type { Module, Op, Region } from "../../src/ir/core.js";
import { walkRegion } from "../../src/ir/walk.js";
import { printType } from "../../src/text/printer.js";
import { verifyModule, type VerifiedModule } from "../../src/passes/verify/index.js";
import { foldRegion, removeDeadOps } from "../../src/passes/fold.js";
import { inlineCalls } from "../../src/passes/inline.js";
import { bindQueries, configBindings } from "../../src/passes/specialize.js";
import { layoutArgs } from "../../src/passes/abi.js";
import { layoutAllocations } from "../../src/passes/storage.js";
import { selectProvider } from "../../src/passes/templates.js";
import { lowerLaunchFunction } from "../../src/launch/lower.js";
import { option, type Case, type RunLine } from "./case.js";
import { compileCase, configOf, parseCase, printPassOutput, render, targetOf } from "./stages.js";
import { launchListing } from "./launch-listing.js";

const at = (op: Op) => (op.span ? `${op.span.line}:${op.span.column}` : "?");

function kernels(module: Module): Op[] {
  return module.ops.filter((op) => op.name === "kernel.def");
}

/** Parsed and verified: a pass test's input must be valid IR. */
function verified(c: Case): { module: Module; sink: DiagnosticSink; analyses: VerifiedModule } {
  const parsed = parseCase(c);
  const analyses = verifyModule(parsed.module, parsed.sink);
  if (parsed.sink.hasErrors) throw new Error(`${c.path} does not verify:\n${render(c, parsed.sink.diagnostics)}`);
  return { ...parsed, analyses };
}

/** The module text, then the pass's diagnostics (a pass may report and still rewrite). */
function withDiagnostics(c: Case, text: string, sink: DiagnosticSink, before: number): string {
  const reported = sink.diagnostics.slice(before);
  return reported.length === 0 ? text : `${text}\n// diagnostics:\n${render(c, reported).replace(/^/gm, "// ")}\n`;
}

function fold(c: Case): string {
  const { module, sink } = verified(c);
  // As the pipeline does: dead ops leave device bodies only, never config regions.
  for (const op of module.ops) {
    op.regions.forEach((r, i) => {
      foldRegion(r, sink);
      if (op.name === "kernel.def" && i === 1) removeDeadOps(r);
    });
  }
  return printPassOutput(module);
}

function inline(c: Case): string {
  const { module, sink, analyses } = verified(c);
  const before = sink.diagnostics.length;
  for (const k of kernels(module)) for (const r of k.regions) inlineCalls(r, analyses, sink);
  return withDiagnostics(c, printPassOutput(module), sink, before);
}

function specialize(c: Case, run: RunLine): string {
  const { module, sink } = verified(c);
  const { profile } = targetOf(run);
  const config = configBindings(module, configOf(run));
  const before = sink.diagnostics.length;
  for (const k of kernels(module)) for (const r of k.regions) bindQueries(r, profile, config, sink);
  return withDiagnostics(c, printPassOutput(module), sink, before);
}

function layout(c: Case, run: RunLine): string {
  const { module, sink } = verified(c);
  const invocations = Number(option(run, "invocations") ?? 1024);
  const out: string[] = [];
  for (const k of kernels(module)) {
    const body = k.regions[1] as Region;
    out.push(`kernel @${k.symbol}`);
    const args = layoutArgs(body);
    if ("unsupported" in args) out.push(`  arguments: argument ${args.unsupported} has no layout`);
    else {
      out.push(`  argument block: ${args.size} bytes`);
      for (const s of args.slots) out.push(`    %${s.name}: ${printType(s.type)} offset ${s.offset} size ${s.size} align ${s.align}`);
    }
    const before = sink.diagnostics.length;
    const storage = layoutAllocations(body, sink, invocations, Number.MAX_SAFE_INTEGER);
    if (!storage) out.push(`  workgroup storage: not laid out\n${render(c, sink.diagnostics.slice(before)).replace(/^/gm, "    ")}`);
    else {
      out.push(`  workgroup storage (${invocations} invocations): ${storage.totalBytes} bytes`);
      walkRegion(body, (op) => {
        const offset = storage.allocations.get(op)?.offset;
        if (offset !== undefined) out.push(`    ${op.name} at ${at(op)}${op.results[0] ? ` (%${op.results[0].name})` : ""}: offset ${offset}`);
      });
    }
  }
  return `${out.join("\n")}\n`;
}

/** Selection listing, then the module with the chosen providers inlined. */
function templates(c: Case, run: RunLine): string {
  const { module, sink, analyses } = verified(c);
  const { profile } = targetOf(run);
  const before = sink.diagnostics.length;
  const lines: string[] = [];
  for (const k of kernels(module)) {
    for (const r of k.regions) {
      const chosen = new Map<Op, Op>();
      walkRegion(r, (op) => {
        if (op.name !== "template.apply") return;
        const provider = selectProvider(module, op, profile, sink);
        lines.push(`// @${k.symbol} ${at(op)} ${String(op.props.family)} -> ${provider ? `@${provider.symbol}` : "(none)"}`);
        if (provider) chosen.set(op, provider);
      });
      if (chosen.size > 0) inlineCalls(r, analyses, sink, chosen);
    }
  }
  return withDiagnostics(c, `// selections for ${profile.environment}:${profile.target}\n${lines.join("\n")}\n\n${printPassOutput(module)}`, sink, before);
}

/** The host half the pipeline splits off each kernel, lowered to launch-config form. */
function launchSplit(c: Case, run: RunLine): string {
  const compiled = compileCase(c, run);
  if (!compiled.out) throw new Error(`${c.path}:${run.line}: compile failed:\n${render(c, compiled.diagnostics)}`);
  const { out } = compiled;
  const parts = out.launchFunctions.map((source, i) => {
    const kernel = out.prepared.kernels[i];
    const device = kernel ? `device body of @${kernel.symbol}: (${kernel.args.map((a) => `%${a.name}: ${printType(a.type)}`).join(", ")}), ${kernel.body.ops.length} ops` : "no device body";
    return `; ${device}\n${launchListing([lowerLaunchFunction(source)])}`;
  });
  return parts.join("\n");
}

export function runPass(c: Case, run: RunLine): { text: string; ext: string } {
  switch (run.pass) {
    case "fold": return { text: fold(c), ext: "loom" };
    case "inline": return { text: inline(c), ext: "loom" };
    case "specialize": return { text: specialize(c, run), ext: "loom" };
    case "layout": return { text: layout(c, run), ext: "txt" };
    case "templates": return { text: templates(c, run), ext: "loom" };
    case "launch-split": return { text: launchSplit(c, run), ext: "txt" };
    case undefined: throw new Error(`RUN line ${run.line}: pass without a name`);
  }
}
