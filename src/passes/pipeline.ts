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
import { Op as IrOp, type Module, type Op, type Predicate, type Region, type Value } from "../ir/core.js";
import { constantValue } from "../ir/build.js";
import { D, DiagnosticSink, note, type Diagnostic } from "../core/diag/diagnostic.js";
import type { LaunchFunctionSource } from "../launch/source.js";
import type { TargetEnvironment, TargetProfile } from "../core/target.js";
import { layoutArgs } from "./abi.js";
import { foldRegion, removeDeadOps } from "./fold.js";
import { inlineCalls } from "./inline.js";
import { LoweredForms, type Allocation, type ModuleAnalyses, type PreparedKernel, type PreparedModule } from "../core/prepared.js";
import { bindQueries, checkConfigBindings, configBindings, type ConfigValue } from "./specialize.js";
import { collectiveScratch, layoutAllocations } from "./storage.js";
import { checkLaunchLimits } from "./launch-limits.js";
import { selectProvider, targetRecordAdmits } from "./templates.js";
import { verifyModule, type VerifiedModule } from "./verify/index.js";
import { checkBoundFullUnrolls, checkSubgroupAssumptions } from "./verify/static-values.js";
import { linkModule } from "./link/linker.js";
import { expandWorkgroupScans } from "./expand-scan.js";
import type { LinkLibrary } from "./link/library.js";
import { isOp, type OpOf } from "../dialects/registry.js";
import { NONE } from "../core/none.js";

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
  // Bound only where a region reads a config value or target query (most kernels read none).
  let bindings: ReadonlyMap<string, ConfigValue> | undefined;
  const config = () => (bindings ??= configBindings(module, request.config));
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
  // Each environment checks once, in the order the specializations first name it.
  const specs = request.specializations;
  for (const spec of specs) {
    const env = spec.environment;
    if (specs.find((s) => s.environment === env) !== spec) continue;
    for (const d of env.check(preparedModule)) sink.add(d);
  }
  if (sink.hasErrors) return undefined;
  return { prepared: preparedModule, launchFunctions, selections };
}

/**
 * Inlines every call of `region`, binds its queries and selects and inlines its template
 * providers for `profile`, repeating while inlined providers bring new applies. Returns the
 * scan of the region as it is left (undefined once something was reported).
 */
function specializeRegion(
  module: Module,
  analyses: ModuleAnalyses,
  region: Region,
  profile: TargetProfile,
  config: () => ReadonlyMap<string, ConfigValue>,
  sink: DiagnosticSink,
  chose: (apply: Op, provider: Op) => void,
): RegionScan | undefined {
  // Most kernels call nothing and query nothing: one scan says which passes have work.
  let scan = scanRegion(region);
  for (let round = 0; round < MAX_TEMPLATE_ROUNDS; round++) {
    if (scan.calls) {
      if (!inlineCalls(region, analyses, sink)) return undefined;
      scan = scanRegion(region); // inlined bodies bring their own queries and applies
    }
    if (scan.queries && !bindQueries(region, profile, config(), sink)) return undefined;
    // Folding first lets provider `where` predicates see constants (it keeps every apply).
    foldRegion(region, sink);
    const applies = scan.applies;
    if (applies.length === 0) return scan;
    const chosen = new Map<Op, Op>();
    for (const apply of applies) {
      const provider = selectProvider(module, apply, profile, sink);
      if (!provider) continue;
      chosen.set(apply, provider);
      chose(apply, provider);
    }
    if (chosen.size < applies.length) return undefined;
    if (!inlineCalls(region, analyses, sink, chosen)) return undefined;
    scan = scanRegion(region);
  }
  sink.report(D.recursion, region.parent?.span, [region.parent?.symbol ?? "?"]);
  return undefined;
}

/**
 * What specialization and the checks after it have to do in a region: calls to inline,
 * queries to bind, applies to select, and whether any op needs the storage layout, the
 * full-unroll check or the subgroup-width check (most bodies need none of them).
 */
class RegionScan {
  calls = false;
  queries = false;
  applies: Op[] = NO_OPS;
  /** A `buffer.alloca`, a workgroup scan (expanded into one) or a collective with workgroup scratch. */
  storage = false;
  /** A `kernel.workgroup.scan` (expanded before the layout). */
  workgroupScans = false;
  /** An `scf.for` with `unroll(full)`. */
  fullUnroll = false;
  /** A subgroup shuffle, broadcast or reduce (their widths meet the profile's subgroup). */
  subgroupWidths = false;
}

const NO_OPS: Op[] = [];

function scanRegion(region: Region): RegionScan {
  const scan = new RegionScan();
  scanInto(region, scan);
  return scan;
}

function scanInto(region: Region, scan: RegionScan): void {
  for (const op of region.ops) {
    switch (op.name) {
      case "template.apply":
        if (scan.applies === NO_OPS) scan.applies = [];
        scan.applies.push(op);
        break;
      case "func.call":
      case "template.call":
        scan.calls = true;
        break;
      case "target.subgroup.size":
      case "config.get":
        scan.queries = true;
        break;
      case "buffer.alloca":
        scan.storage = true;
        break;
      // The shared expansion (expand-scan.ts) turns a workgroup scan into a workgroup alloca.
      case "kernel.workgroup.scan":
        scan.storage = scan.workgroupScans = true;
        break;
      case "scf.for":
        if (op.props.unroll === "full") scan.fullUnroll = true;
        break;
      case "kernel.subgroup.shuffle":
      case "kernel.subgroup.broadcast":
      case "kernel.subgroup.reduce":
        scan.subgroupWidths = true;
        break;
      default:
        if (collectiveScratch(op, 1)) scan.storage = true;
    }
    for (const r of op.regions) scanInto(r, scan);
  }
}

/** The storage of a body without allocations (shared: prepared kernels only read it). */
const NO_ALLOCATIONS: ReadonlyMap<Op, Allocation> = new Map();

/** A size operand's constant, when it is one. */
function staticOperand(v: Value | undefined): bigint | number | boolean | undefined {
  return v && v.owner instanceof IrOp ? constantValue(v.owner) : undefined;
}

function prepareKernel(
  module: Module,
  analyses: ModuleAnalyses,
  op: OpOf<"kernel.def">,
  spec: Specialization,
  config: () => ReadonlyMap<string, ConfigValue>,
  sink: DiagnosticSink,
  selections: TemplateSelection[],
): { kernel: PreparedKernel; launch: LaunchFunctionSource } | undefined {
  const { profile } = spec;
  const facts = profile.facts;
  const symbol = op.props.symbol;
  const [configRegion, body] = op.regions as [Region, Region];
  const errorsBefore = sink.errorCount;
  const pinned = op.props.target;
  if (pinned !== undefined) {
    const record = analyses.symbol(pinned);
    if (!targetRecordAdmits(record, profile)) {
      sink.report(D.targetIncompatible, op.span, [symbol, `${record?.name ?? "?"} @${pinned}`, profile.identifier], { related: record ? [note("the target record", record.span)] : [] });
      return undefined;
    }
  }
  const chose = (apply: Op, provider: Op) => {
    const at = apply.span ? `${apply.span.source}:${apply.span.line}:${apply.span.column}` : "?";
    selections.push({ kernel: symbol, profile: profile.identifier, family: String(apply.props.family), provider: provider.symbol!, at });
  };
  specializeRegion(module, analyses, configRegion, profile, config, sink, chose);
  const scan = specializeRegion(module, analyses, body, profile, config, sink, chose) ?? scanRegion(body);
  if (sink.errorCount === errorsBefore) {
    if (scan.fullUnroll) checkBoundFullUnrolls(body, sink);
    if (scan.subgroupWidths) checkSubgroupAssumptions(body, facts.subgroupSize, profile.identifier, sink);
  }
  if (sink.errorCount > errorsBefore) return undefined;
  if (scan.workgroupScans) expandWorkgroupScans(op);
  const uses = removeDeadOps(body);

  // The verifier made kernel.launch.config the config region's last op (lowering the companion refuses anything else).
  const launchOp = configRegion.ops[configRegion.ops.length - 1];
  let staticWorkgroupSize: [number, number, number] | undefined;
  const x = staticOperand(launchOp?.operands[3]), y = staticOperand(launchOp?.operands[4]), z = staticOperand(launchOp?.operands[5]);
  if (launchOp && typeof x === "bigint" && typeof y === "bigint" && typeof z === "bigint") {
    // Compared as bigints: a size past 2^53 must be reported as written, not rounded.
    const sizes = [x, y, z] as const;
    let fits = true;
    for (const d of DIMENSIONS) {
      const s = sizes[d];
      const max = facts.maxWorkgroupSize[d];
      const span = launchOp.operands[3 + d]?.span ?? launchOp.span;
      if (s < 1n) sink.report(D.workgroupDimTooSmall, span, ["xyz"[d], s]);
      else if (s > BigInt(max)) sink.report(D.workgroupDimTooLarge, span, ["xyz"[d], s, max]);
      else continue;
      fits = false;
    }
    if (x * y * z > BigInt(facts.maxFlatWorkgroupSize)) sink.report(D.workgroupFlatTooLarge, launchOp.span, [sizes.join("x"), facts.maxFlatWorkgroupSize]);
    if (fits) staticWorkgroupSize = [Number(x), Number(y), Number(z)];
  }
  const exportName = op.props.exportName ?? symbol;
  checkLaunchLimits(op, configRegion, exportName, sink);

  const flatInvocations = staticWorkgroupSize ? staticWorkgroupSize[0] * staticWorkgroupSize[1] * staticWorkgroupSize[2] : facts.maxFlatWorkgroupSize;
  const storage = scan.storage ? layoutAllocations(body, sink, flatInvocations, facts.maxWorkgroupStorageBytes) : { totalBytes: 0, allocations: NO_ALLOCATIONS };
  const args = layoutArgs(body);
  if ("unsupported" in args) {
    const v = body.args[args.unsupported];
    sink.report(D.unsupported, v?.span ?? op.span, [`a device argument of this type`, profile.target]);
    return undefined;
  }
  if (args.size > facts.maxArgumentBlockBytes) sink.report(D.argBlockTooLarge, op.span, [args.size, facts.maxArgumentBlockBytes]);
  if (sink.errorCount > errorsBefore || !storage) return undefined;

  const kernel: { -readonly [K in keyof PreparedKernel]: PreparedKernel[K] } = {
    symbol,
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
    workloadWhere: op.props.workloadWhere ?? NONE,
    subgroupSize: facts.subgroupSize,
    workgroupStorageBytes: storage.totalBytes,
    limits: facts,
  };
  return { kernel, launch };
}

const DIMENSIONS = [0, 1, 2] as const;
