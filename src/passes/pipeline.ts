/**
 * The prepared-low pipeline, in one place (Cranelift's `Context::compile` shape):
 *
 *   verify → link declarations from the libraries (src/link) → verify the linked module
 *   → check the invocation's config bindings → per specialization, each with its own
 *   profile: [inline calls → bind config + target queries → fold → select template
 *   providers → inline them]* → split off the launch-config function → lay out storage
 *   and arguments → check limits → target checks.
 *
 * The module's IR is rewritten in place (api.md §3: a compiled module is not reused for
 * another profile). Kernels are specialized one by one; callees and providers are copied
 * into each kernel, never changed, so kernels of one module can share them while being
 * compiled for different profiles. Each step reports into one sink; any error stops
 * before emission.
 */
import type { Module, Op, Region } from "../ir/core.js";
import { constantValue } from "../ir/build.js";
import { D, DiagnosticSink, note, type Diagnostic } from "../core/diag/diagnostic.js";
import type { LaunchFunctionSource } from "../launch/source.js";
import type { TargetEnvironment, TargetProfile } from "../core/target.js";
import { layoutArgs } from "./abi.js";
import { foldRegion, removeDeadOps } from "./fold.js";
import { inlineCalls } from "./inline.js";
import { LoweredForms, type ModuleAnalyses, type PreparedKernel, type PreparedModule } from "../core/prepared.js";
import { bindQueries, checkConfigBindings, configBindings, type ConfigValue } from "./specialize.js";
import { layoutAllocations } from "./storage.js";
import { checkLaunchLimits } from "./launch-limits.js";
import { selectProvider, targetRecordAdmits } from "./templates.js";
import { verifyModule, type VerifiedModule } from "./verify/index.js";
import { checkBoundFullUnrolls, checkSubgroupAssumptions } from "./verify/static-values.js";
import { linkModule } from "./link/linker.js";
import { expandWorkgroupScans } from "./expand-scan.js";
import type { LinkLibrary } from "./link/library.js";
import { walkRegion } from "../ir/walk.js";
import { isOp, propOf } from "../dialects/registry.js";

export interface Specialization {
  /** The kernel to compile (symbol without '@'): a kernel.def, or a kernel.decl that linking binds. */
  readonly symbol: string;
  readonly profile: TargetProfile;
  readonly environment: TargetEnvironment;
}

export interface PipelineRequest {
  readonly moduleName: string;
  readonly specializations: readonly Specialization[];
  readonly config: ReadonlyMap<string, ConfigValue>;
  readonly verifyEachPass: boolean;
  /** Libraries declared symbols are linked from (none: the module must be closed). */
  readonly libraries?: readonly LinkLibrary[];
  /** The verifier's clean result for this very IR (from parsing), so it is not verified twice. */
  readonly verified?: VerifiedModule | undefined;
}

/** Verifies the linked module, forwarding only what the first verification did not report (warnings). */
function verifyLinked(module: Module, sink: DiagnosticSink): VerifiedModule {
  const scratch = new DiagnosticSink(sink.maxErrors);
  const info = verifyModule(module, scratch);
  const key = (d: Diagnostic) => `${d.code}|${d.location?.source}:${d.location?.line}:${d.location?.column}|${d.message}`;
  const seen = new Set(sink.diagnostics.map(key));
  for (const d of scratch.diagnostics) if (!seen.has(key(d))) sink.add(d);
  return info;
}

/** Rounds of select-and-inline per region; providers applying templates nest at most this deep. */
const MAX_TEMPLATE_ROUNDS = 64;

/** One provider choice: which `template.def` a `template.apply` of a kernel inlined. */
export interface TemplateSelection {
  /** Kernel symbol (without '@'). */
  readonly kernel: string;
  readonly profile: string;
  readonly family: string;
  readonly provider: string;
  /** Where the apply was written, `file:line:col` (inlined applies: where the provider's body has it). */
  readonly at: string;
}

export interface PipelineOutput {
  readonly prepared: PreparedModule;
  readonly launchFunctions: readonly LaunchFunctionSource[];
  /** Provider choices, in specialization then program order. */
  readonly selections: readonly TemplateSelection[];
}

export function runPreparedLowPipeline(module: Module, request: PipelineRequest, sink: DiagnosticSink): PipelineOutput | undefined {
  let verified = request.verified;
  if (verified) for (const d of verified.diagnostics) sink.add(d);
  else verified = verifyModule(module, sink);
  if (sink.hasErrors) return undefined;
  if (request.libraries && request.libraries.length > 0) {
    if (!linkModule(module, request.libraries, request.specializations.map((s) => s.symbol), sink)) return undefined;
    verified = verifyLinked(module, sink);
    if (sink.hasErrors) return undefined;
  }
  checkConfigBindings(verified.symbols, request.config, sink);
  if (sink.hasErrors) return undefined;
  const config = configBindings(module, request.config);
  const kernels: PreparedKernel[] = [];
  const launchFunctions: LaunchFunctionSource[] = [];
  const selections: TemplateSelection[] = [];
  for (const spec of request.specializations) {
    const op = verified.symbol(spec.symbol);
    if (!isOp(op, "kernel.def")) {
      // A kernel.decl root that linking could not bind (already reported) or no library offered.
      if (!sink.hasErrors) sink.report(D.unresolvedSymbol, op?.span, [spec.symbol], { help: "a declared kernel needs a definition from compileModule's 'linkIndex'" });
      continue;
    }
    const prepared = prepareKernel(module, verified, op, spec, config, sink, selections);
    if (!prepared) continue;
    kernels.push(prepared.kernel);
    launchFunctions.push(prepared.launch);
  }
  if (sink.hasErrors) return undefined;
  if (request.verifyEachPass) {
    verifyModule(module, sink);
    if (sink.hasErrors) return undefined;
  }
  const preparedModule: PreparedModule = { moduleName: request.moduleName, kernels, analyses: verified, lowered: new LoweredForms() };
  const environments = new Set(request.specializations.map((s) => s.environment));
  for (const env of environments) for (const d of env.check(preparedModule)) sink.add(d);
  if (sink.hasErrors) return undefined;
  return { prepared: preparedModule, launchFunctions, selections };
}

/**
 * Inlines every call of `region`, binds its queries and selects and inlines its template
 * providers for `profile`, repeating while inlined providers bring new applies.
 */
function specializeRegion(
  module: Module,
  analyses: ModuleAnalyses,
  region: Region,
  profile: TargetProfile,
  config: ReadonlyMap<string, ConfigValue>,
  sink: DiagnosticSink,
  chose: (apply: Op, provider: Op) => void,
): boolean {
  // Most kernels call nothing and query nothing: one scan says which passes have work.
  let scan = scanRegion(region);
  for (let round = 0; round < MAX_TEMPLATE_ROUNDS; round++) {
    if (scan.calls) {
      if (!inlineCalls(region, analyses, sink)) return false;
      scan = scanRegion(region); // inlined bodies bring their own queries and applies
    }
    if (scan.queries && !bindQueries(region, profile, config, sink)) return false;
    // Folding first lets provider `where` predicates see constants (it keeps every apply).
    foldRegion(region, sink);
    const applies = scan.applies;
    if (applies.length === 0) return true;
    const chosen = new Map<Op, Op>();
    for (const apply of applies) {
      const provider = selectProvider(module, apply, profile, sink);
      if (!provider) continue;
      chosen.set(apply, provider);
      chose(apply, provider);
    }
    if (chosen.size < applies.length) return false;
    if (!inlineCalls(region, analyses, sink, chosen)) return false;
    scan = scanRegion(region);
  }
  sink.report(D.recursion, region.parent?.span, [region.parent?.symbol ?? "?"]);
  return false;
}

/** What specialization has to do in a region: calls to inline, queries to bind, applies to select. */
interface RegionScan {
  readonly calls: boolean;
  readonly queries: boolean;
  readonly applies: readonly Op[];
}

function scanRegion(region: Region): RegionScan {
  let calls = false, queries = false;
  const applies: Op[] = [];
  walkRegion(region, (op) => {
    if (isOp(op, "template.apply")) applies.push(op);
    else if (isOp(op, "func.call") || isOp(op, "template.call")) calls = true;
    else if (isOp(op, "target.subgroup.size") || isOp(op, "config.get")) queries = true;
  });
  return { calls, queries, applies };
}

function prepareKernel(
  module: Module,
  analyses: ModuleAnalyses,
  op: Op,
  spec: Specialization,
  config: ReadonlyMap<string, ConfigValue>,
  sink: DiagnosticSink,
  selections: TemplateSelection[],
): { kernel: PreparedKernel; launch: LaunchFunctionSource } | undefined {
  const { profile } = spec;
  const facts = profile.facts;
  const [configRegion, body] = op.regions as [NonNullable<Op["regions"][0]>, NonNullable<Op["regions"][0]>];
  const errorsBefore = sink.errorCount;
  const pinned = typeof op.props.target === "string" ? op.props.target : undefined;
  if (pinned !== undefined) {
    const record = analyses.symbol(pinned);
    if (!targetRecordAdmits(record, profile)) {
      sink.report(D.targetIncompatible, op.span, [op.symbol, `${record?.name ?? "?"} @${pinned}`, profile.identifier], { related: record ? [note("the target record", record.span)] : [] });
      return undefined;
    }
  }
  const chose = (apply: Op, provider: Op) => {
    const at = apply.span ? `${apply.span.source}:${apply.span.line}:${apply.span.column}` : "?";
    selections.push({ kernel: op.symbol!, profile: profile.identifier, family: String(apply.props.family), provider: provider.symbol!, at });
  };
  for (const region of [configRegion, body]) specializeRegion(module, analyses, region, profile, config, sink, chose);
  if (sink.errorCount === errorsBefore) {
    checkBoundFullUnrolls(body, sink);
    checkSubgroupAssumptions(body, facts.subgroupSize, profile.identifier, sink);
  }
  if (sink.errorCount > errorsBefore) return undefined;
  expandWorkgroupScans(op);
  const uses = removeDeadOps(body);

  const launchOp = configRegion.ops[configRegion.ops.length - 1]!;
  const sizeOperands = launchOp.operands.slice(3, 6);
  const staticSize = sizeOperands.map((v) => constantValue(v.owner as Op));
  let staticWorkgroupSize: [number, number, number] | undefined;
  if (staticSize.every((s) => typeof s === "bigint")) {
    // Compared as bigints: a size past 2^53 must be reported as written, not rounded.
    const sizes = staticSize as bigint[];
    let fits = true;
    sizes.forEach((s, d) => {
      const span = sizeOperands[d]?.span ?? launchOp.span;
      if (s < 1n) sink.report(D.workgroupDimTooSmall, span, ["xyz"[d], s]);
      else if (s > BigInt(facts.maxWorkgroupSize[d]!)) sink.report(D.workgroupDimTooLarge, span, ["xyz"[d], s, facts.maxWorkgroupSize[d]]);
      else return;
      fits = false;
    });
    const flat = sizes.reduce((a, b) => a * b, 1n);
    if (flat > BigInt(facts.maxFlatWorkgroupSize)) sink.report(D.workgroupFlatTooLarge, launchOp.span, [sizes.join("x"), facts.maxFlatWorkgroupSize]);
    if (fits) staticWorkgroupSize = [Number(sizes[0]), Number(sizes[1]), Number(sizes[2])];
  }
  const exportName = propOf(op, "exportName") ?? op.symbol!;
  checkLaunchLimits(op, configRegion, exportName, sink);

  const flatInvocations = staticWorkgroupSize ? staticWorkgroupSize[0] * staticWorkgroupSize[1] * staticWorkgroupSize[2] : facts.maxFlatWorkgroupSize;
  const storage = layoutAllocations(body, sink, flatInvocations, facts.maxWorkgroupStorageBytes);
  const args = layoutArgs(body);
  if ("unsupported" in args) {
    const v = body.args[args.unsupported]!;
    sink.report(D.unsupported, v.span ?? op.span, [`a device argument of this type`, profile.target]);
    return undefined;
  }
  if (args.size > facts.maxArgumentBlockBytes) sink.report(D.argBlockTooLarge, op.span, [args.size, facts.maxArgumentBlockBytes]);
  if (sink.errorCount > errorsBefore || !storage) return undefined;

  const kernel: { -readonly [K in keyof PreparedKernel]: PreparedKernel[K] } = {
    symbol: op.symbol!,
    exportName,
    profile,
    op,
    body,
    args: args.slots,
    argBlockSize: args.size,
    workgroupStorageBytes: storage.totalBytes,
    subgroupSize: facts.subgroupSize,
    allocations: storage.allocations,
    uses,
  };
  if (staticWorkgroupSize) kernel.staticWorkgroupSize = staticWorkgroupSize;
  const launch: LaunchFunctionSource = {
    exportName,
    region: configRegion,
    workloadWhere: propOf(op, "workloadWhere") ?? [],
    subgroupSize: facts.subgroupSize,
    workgroupStorageBytes: storage.totalBytes,
    limits: { maxWorkgroupCount: facts.maxWorkgroupCount, maxWorkgroupSize: facts.maxWorkgroupSize, maxFlatWorkgroupSize: facts.maxFlatWorkgroupSize },
  };
  return { kernel, launch };
}
