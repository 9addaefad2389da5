/**
 * What each RUN stage prints (docs/testing.md). Stages call the compiler's own entry
 * points (parser, `runPreparedLowPipeline`, the target environment's `emit`, the launch
 * encoder) so a golden shows one stage's output, not the public API's packaging of it.
 */
import "../../src/api/check-dialect.js"; // the check harness's syntax and rules, which loomc registers
import { Context, Source, Workspace } from "../../src/index.js";
import { DiagnosticSink, type Diagnostic } from "../../src/core/diag/diagnostic.js";
import { renderDiagnostics } from "../../src/core/diag/render.js";
import type { Module } from "../../src/ir/core.js";
import { parseModule } from "../../src/text/parser.js";
import { printModule, printOp } from "../../src/text/printer.js";
import { runPreparedLowPipeline, type PipelineOutput } from "../../src/passes/pipeline.js";
import { verifyModule } from "../../src/passes/verify/index.js";
import type { ConfigValue } from "../../src/passes/specialize.js";
import { encodeLaunchConfig } from "../../src/launch/encode.js";
import { decodeLaunchConfig } from "../../src/launch/decode.js";
import { resolveTarget, type ResolvedTarget } from "../../src/cli/targets.js";
import { createSpirvProfile, spirvInfoOf } from "../../src/targets/spirv/index.js";
import type { SubgroupOperation } from "../../src/targets/spirv/profile.js";
import { option, type Case, type RunLine } from "./case.js";
import { uniqueNames } from "./names.js";
import { launchListing } from "./launch-listing.js";

export function render(c: Case, diagnostics: readonly Diagnostic[]): string {
  return renderDiagnostics(diagnostics, (name) => (name === c.path ? c.text : undefined));
}

/** `loom verify`'s text: the diagnostics, then `FILE: ok` when there is no error. */
export function verifyText(path: string, bytes: Uint8Array): string {
  const parsed = new Workspace(Context.create()).parseModule(Source.fromBytes(path, bytes));
  const lines = parsed.diagnostics.length > 0 ? [parsed.formatDiagnostics()] : [];
  if (parsed.ok) lines.push(`${path}: ok`);
  return `${lines.join("\n")}\n`;
}

/**
 * The run's target as the CLI resolves `--target/--feature/--limit`; `subgroup=a,b` (spirv
 * only, no CLI flag) adds the device's subgroup operations to that profile's identity.
 */
export function targetOf(run: RunLine): ResolvedTarget {
  const spec = option(run, "target");
  if (!spec) throw new Error(`RUN line ${run.line}: this stage needs target=ENV:DEVICE`);
  const features = (run.options.get("feature") ?? []).flatMap((f) => f.split(","));
  const resolved = resolveTarget(spec, { features, limits: run.options.get("limit") ?? [] });
  const subgroup = option(run, "subgroup");
  if (subgroup === undefined) return resolved;
  const info = spirvInfoOf(resolved.profile);
  if (!info) throw new Error(`RUN line ${run.line}: subgroup= applies to spirv targets only`);
  const identity = { environment: info.environment, features: { ...info.features, subgroupOperations: subgroup.split(",") as SubgroupOperation[] }, limits: info.limits };
  return { ...resolved, profile: createSpirvProfile(resolved.environment, { identifier: resolved.profile.identifier, identity, abi: info.abi }) };
}

function configValue(text: string): ConfigValue {
  if (text === "true" || text === "false") return text === "true";
  return /^-?\d+$/.test(text) ? BigInt(text) : Number(text);
}

export function configOf(run: RunLine): Map<string, ConfigValue> {
  const out = new Map<string, ConfigValue>();
  for (const entry of run.options.get("config") ?? []) {
    const eq = entry.indexOf("=");
    if (eq < 1) throw new Error(`RUN line ${run.line}: config=${entry} is not NAME=VALUE`);
    out.set(entry.slice(0, eq).replace(/^@/, ""), configValue(entry.slice(eq + 1)));
  }
  return out;
}

/** Parses the case; throws with the rendered diagnostics when it does not parse. */
export function parseCase(c: Case): { module: Module; sink: DiagnosticSink } {
  const sink = new DiagnosticSink(20);
  const module = parseModule(c.path, c.text, sink);
  if (sink.hasErrors) throw new Error(`${c.path} does not parse:\n${render(c, sink.diagnostics)}`);
  return { module, sink };
}

export interface Compiled {
  readonly target: ResolvedTarget;
  readonly out?: PipelineOutput;
  readonly diagnostics: Diagnostic[];
}

/** The prepared-low pipeline for the run's target, kernels and config. */
export function compileCase(c: Case, run: RunLine): Compiled {
  const target = targetOf(run);
  const { module, sink } = parseCase(c);
  const named = option(run, "kernel")?.split(",");
  const kernels = named ?? module.ops.filter((op) => op.name === "kernel.def").map((op) => op.symbol ?? "");
  const out = runPreparedLowPipeline(module, {
    moduleName: c.name,
    specializations: kernels.map((symbol) => ({ symbol, profile: target.profile, environment: target.environment })),
    config: configOf(run),
    verifyEachPass: true,
  }, sink);
  return { target, ...(out ? { out } : {}), diagnostics: [...sink.diagnostics] };
}

function compiledOrThrow(c: Case, run: RunLine): Required<Compiled> {
  const compiled = compileCase(c, run);
  if (!compiled.out) throw new Error(`${c.path}:${run.line}: compile failed:\n${render(c, compiled.diagnostics)}`);
  return compiled as Required<Compiled>;
}

/** Emits the executable; throws with the diagnostics when emission fails. */
export function emitCase(c: Case, run: RunLine): { bytes: Uint8Array; compiled: Required<Compiled> } {
  const compiled = compiledOrThrow(c, run);
  const { diagnostics, contents } = compiled.target.environment.emit(compiled.out.prepared, { artifactFormat: compiled.target.format, identifier: c.name, primary: true });
  if (!contents || diagnostics.some((d) => d.severity === "error")) throw new Error(`${c.path}:${run.line}: emit failed:\n${render(c, diagnostics)}`);
  return { bytes: contents, compiled };
}

/** `compile`: every diagnostic of compiling and emitting, rendered, then the outcome. */
export function compileText(c: Case, run: RunLine): string {
  const compiled = compileCase(c, run);
  const diagnostics = [...compiled.diagnostics];
  let ok = compiled.out !== undefined;
  if (compiled.out) {
    const emitted = compiled.target.environment.emit(compiled.out.prepared, { artifactFormat: compiled.target.format, identifier: c.name, primary: true });
    diagnostics.push(...emitted.diagnostics);
    ok = emitted.contents !== undefined && !emitted.diagnostics.some((d) => d.severity === "error");
  }
  const lines = diagnostics.length > 0 ? [render(c, diagnostics)] : [];
  lines.push(ok ? "compiled" : "failed");
  return `${lines.join("\n")}\n`;
}

/** `prepared-low`: each specialized kernel in the canonical printer's text, with its profile. */
export function preparedLowText(c: Case, run: RunLine): string {
  const { out } = compiledOrThrow(c, run);
  // The kernel's leading comments (the RUN header among them) are the case's, not output.
  // (A blank line inside that comment block prints as an empty line.)
  const withoutComments = (text: string) => text.replace(/^(?:(?:\/\/.*)?\n)+/, "");
  return out.prepared.kernels.map((k) => {
    uniqueNames(k.op);
    return `// @${k.symbol} for ${k.profile.environment}:${k.profile.target}\n${withoutComments(printOp(k.op))}\n`;
  }).join("\n");
}

/** `launch`: the launch-config companion's bytes, decoded and listed. */
export function launchText(c: Case, run: RunLine): string {
  const { out } = compiledOrThrow(c, run);
  const bytes = encodeLaunchConfig(out.launchFunctions);
  const decoded = decodeLaunchConfig(bytes);
  return `; ${bytes.length} bytes, producer ${JSON.stringify(decoded.producer)}\n${launchListing(decoded.functions)}`;
}

/** A module after a pass, printed with unique value names (names.ts). */
export function printPassOutput(module: Module): string {
  for (const op of module.ops) uniqueNames(op);
  return printModule(module);
}

/** Printed IR must parse and verify again: a golden of IR text is itself a valid module. */
export function reverify(name: string, text: string): string[] {
  const sink = new DiagnosticSink(20);
  const module = parseModule(name, text, sink);
  if (!sink.hasErrors) verifyModule(module, sink);
  return sink.diagnostics.filter((d) => d.severity === "error").map((d) => renderDiagnostics([d], () => text));
}
