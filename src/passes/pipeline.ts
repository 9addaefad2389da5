/**
 * The prepared-low pipeline, in one place (Cranelift's `Context::compile` shape):
 *
 *   verify → per specialization: bind config + target queries → inline calls → fold
 *   → split off the launch-config function → lay out storage and arguments → check limits
 *   → target checks.
 *
 * The module's IR is rewritten in place (api.md §3: a compiled module is not reused for
 * another profile). Each step reports into one sink; any error stops before emission.
 */
import type { Module, Op } from "../ir/core.js";
import { constantValue } from "../ir/build.js";
import { D, type DiagnosticSink } from "../diag/diagnostic.js";
import type { LaunchFunctionSource } from "../launch/source.js";
import type { TargetEnvironment, TargetProfile } from "../targets/target.js";
import { layoutArgs } from "./abi.js";
import { foldRegion } from "./fold.js";
import { inlineCalls } from "./inline.js";
import type { PreparedKernel, PreparedModule } from "./prepared.js";
import { bindQueries, configBindings, type ConfigValue } from "./specialize.js";
import { layoutWorkgroupStorage } from "./storage.js";
import { verifyModule } from "./verify/index.js";

export interface Specialization {
  /** The kernel.def to compile (symbol without '@'). */
  readonly kernel: Op;
  readonly profile: TargetProfile;
  readonly environment: TargetEnvironment;
}

export interface PipelineRequest {
  readonly moduleName: string;
  readonly specializations: readonly Specialization[];
  readonly config: ReadonlyMap<string, ConfigValue>;
  readonly verifyEachPass: boolean;
}

export interface PipelineOutput {
  readonly prepared: PreparedModule;
  readonly launchFunctions: readonly LaunchFunctionSource[];
}

export function runPreparedLowPipeline(module: Module, request: PipelineRequest, sink: DiagnosticSink): PipelineOutput | undefined {
  verifyModule(module, sink);
  if (sink.hasErrors) return undefined;
  const config = configBindings(module, request.config);
  const kernels: PreparedKernel[] = [];
  const launchFunctions: LaunchFunctionSource[] = [];
  for (const spec of request.specializations) {
    const prepared = prepareKernel(module, spec, config, sink);
    if (!prepared) continue;
    kernels.push(prepared.kernel);
    launchFunctions.push(prepared.launch);
  }
  if (sink.hasErrors) return undefined;
  if (request.verifyEachPass) {
    verifyModule(module, sink);
    if (sink.hasErrors) return undefined;
  }
  const preparedModule: PreparedModule = { moduleName: request.moduleName, kernels };
  const environments = new Set(request.specializations.map((s) => s.environment));
  for (const env of environments) for (const d of env.check(preparedModule)) sink.add(d);
  if (sink.hasErrors) return undefined;
  return { prepared: preparedModule, launchFunctions };
}

function prepareKernel(
  module: Module,
  spec: Specialization,
  config: ReadonlyMap<string, ConfigValue>,
  sink: DiagnosticSink,
): { kernel: PreparedKernel; launch: LaunchFunctionSource } | undefined {
  const { kernel: op, profile } = spec;
  const facts = profile.facts;
  const [configRegion, body] = op.regions as [NonNullable<Op["regions"][0]>, NonNullable<Op["regions"][0]>];
  const errorsBefore = sink.errorCount;
  for (const region of [configRegion, body]) {
    if (!bindQueries(region, profile, config, sink)) continue;
    if (!inlineCalls(region, module, sink)) continue;
    foldRegion(region, sink, { removeDeadOps: region === body });
  }
  if (sink.errorCount > errorsBefore) return undefined;

  const launchOp = configRegion.ops[configRegion.ops.length - 1]!;
  const sizeOperands = launchOp.operands.slice(3, 6);
  const staticSize = sizeOperands.map((v) => constantValue(v.owner as Op));
  let staticWorkgroupSize: [number, number, number] | undefined;
  if (staticSize.every((s) => typeof s === "bigint")) {
    staticWorkgroupSize = staticSize.map(Number) as [number, number, number];
    staticWorkgroupSize.forEach((s, d) => {
      if (s < 1 || s > facts.maxWorkgroupSize[d]!) sink.report(D.workgroupDimTooLarge, sizeOperands[d]!.span ?? launchOp.span, ["xyz"[d], s, facts.maxWorkgroupSize[d]]);
    });
    const flat = staticWorkgroupSize[0] * staticWorkgroupSize[1] * staticWorkgroupSize[2];
    if (flat > facts.maxFlatWorkgroupSize) sink.report(D.workgroupFlatTooLarge, launchOp.span, [staticWorkgroupSize.join("x"), facts.maxFlatWorkgroupSize]);
  }

  const storage = layoutWorkgroupStorage(body, sink);
  if (storage && storage.totalBytes > facts.maxWorkgroupStorageBytes) {
    sink.report(D.storageTooLarge, op.span, [storage.totalBytes, facts.maxWorkgroupStorageBytes]);
  }
  const args = layoutArgs(body);
  if ("unsupported" in args) {
    const v = body.args[args.unsupported]!;
    sink.report(D.unsupported, v.span ?? op.span, [`a device argument of this type`, profile.target]);
    return undefined;
  }
  if (args.size > facts.maxArgumentBlockBytes) sink.report(D.argBlockTooLarge, op.span, [args.size, facts.maxArgumentBlockBytes]);
  if (sink.errorCount > errorsBefore || !storage) return undefined;

  const exportName = (op.props.exportName as string | undefined) ?? op.symbol!;
  const kernel: PreparedKernel = {
    symbol: op.symbol!,
    exportName,
    profile,
    op,
    body,
    args: args.slots,
    argBlockSize: args.size,
    workgroupStorageBytes: storage.totalBytes,
    ...(staticWorkgroupSize ? { staticWorkgroupSize } : {}),
    subgroupSize: facts.subgroupSize,
    workgroupAllocations: storage.offsets,
  };
  const launch: LaunchFunctionSource = {
    exportName,
    region: configRegion,
    workloadWhere: (op.props.workloadWhere as LaunchFunctionSource["workloadWhere"] | undefined) ?? [],
    subgroupSize: facts.subgroupSize,
    workgroupStorageBytes: storage.totalBytes,
    limits: { maxWorkgroupCount: facts.maxWorkgroupCount, maxWorkgroupSize: facts.maxWorkgroupSize, maxFlatWorkgroupSize: facts.maxFlatWorkgroupSize },
  };
  return { kernel, launch };
}
