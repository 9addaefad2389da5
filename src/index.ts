/**
 * loomc — the embedding API (api.md). One import for the core; target packages live at
 * `loomc/target/<name>`.
 */
// Every syntax, the check harness's included (loomc/browser leaves that to loomc/browser/check).
import "./api/check-dialect.js";
export { LoomError, type LoomStatus } from "./core/errors.js";
export { Result } from "./api/result.js";
export { ARTIFACT_FORMAT, type Artifact } from "./core/artifact.js";
export type { Diagnostic, DiagnosticLocation } from "./core/diag/diagnostic.js";
export { Source, type SourceOwnership } from "./api/source.js";
export { Context, Compiler, PassProgram, type ContextOptions, type TargetPipelineOptions } from "./api/context.js";
export { Workspace, type ParseOptions } from "./api/workspace.js";
export { Module, type KernelSignature } from "./api/module.js";
export { compileModule, emitModule, type CompileOptions, type EmitOptions, type TargetSpecialization } from "./api/compile.js";
export { LinkIndexBuilder, LinkIndex, linkModule, type LinkModuleOptions, type LinkLibraryInfo, type LinkSymbolInfo, type LinkIndexFreezeOptions } from "./api/link.js";
export { LaunchConfigProgram, createLaunchConfig, type LaunchConfig, type LaunchConfigFunction, type LaunchConfigLoadOptions, type LaunchEvaluator } from "./launch/program.js";
export { LaunchConfigError } from "./launch/messages.js";
export type { LaunchSourceLocation } from "./launch/model.js";
export type { TargetEnvironment, TargetProfile, TargetFacts, TargetPackage, TargetRecordSpec, TargetRecordAttribute, CommandLineDeviceFacts } from "./core/target.js";
export { COMMON_TARGET_ATTRIBUTES } from "./core/target-records.js";
export { ArtifactCache, type ArtifactCacheOptions, type CacheKeyInput, type CachedCompile, type CacheStore, type AsyncCacheStore, type CacheStats } from "./api/cache/cache.js";
export { LOOMC_VERSION } from "./core/version.js";
export { prepareReferenceKernel } from "./api/reference.js";
export {
  CheckProgram,
  CheckUnsupported,
  type CheckHost,
  type CheckLaunchRequest,
  type CheckCaseInfo,
  type CheckBenchmarkInfo,
  type CheckParameter,
  type CheckSample,
  type HostValue,
  type SampleOutcome,
  type ExpectationOutcome,
} from "./api/check.js";
export type {
  InterpretedKernel,
  ArgValue as ReferenceArgValue,
  DispatchOptions as ReferenceDispatchOptions,
  DispatchReport as ReferenceDispatchReport,
} from "./interp/index.js";
export {
  KERNEL_INTERFACE_VERSION,
  parseExecutableInterface,
  type ExecutableInterface,
  type KernelInterface,
  type InterfaceArgument,
  type BufferBinding,
  type BufferAddressing,
  type SubgroupRequirements,
  type DeviceArgumentType,
} from "./abi/index.js";
/** "Did you mean": the closest of a list of names to a misspelled one (CLI flags, targets, features). */
export { closestName } from "./core/suggest.js";
