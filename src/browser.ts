/**
 * `loomc/browser`: the compiler for a web page or worker — the core API and every target package
 * (namespaces `amdgpu`, `spirv`, `ptx`, `wgsl`) — as one ESM entry with no Node import. What a
 * page needs besides compiling is its own entry, so a worker that only compiles downloads only
 * the compiler: the WebGPU runtime is `loomc/runtime/webgpu` (browser-safe as it is), and the
 * host-side check harness — its op syntax (`check.case` …) and runner (`CheckProgram`) —, the
 * reference interpreter (`prepareReferenceKernel`), the artifact cache (`ArtifactCache`, with
 * its SHA-256) and the SPIR-V disassembler are `loomc/browser/check` (src/browser-check.ts):
 * without it, parsing a check op here fails with PARSE's unknown-op diagnostic, which says so.
 * It works under a strict Content-Security-Policy (no 'unsafe-eval'): `LaunchConfigProgram.load`
 * here builds the closure evaluator unless asked for generated code, so a page never attempts
 * `new Function` (whose refusal a strict page would report as a violation).
 * test/browser/entry.test.ts bundles it with esbuild and holds it to a size budget.
 */
import { LaunchConfigProgram as CoreLaunchConfigProgram, type LaunchConfigLoadOptions } from "./launch/program.js";

// Every type of `loomc`; the values one by one from their modules, not through src/index.ts,
// whose imports register the check harness's syntax (test/browser/entry.test.ts checks that
// these two entries together export all of `loomc`).
export type * from "./index.js";
export { LoomError } from "./core/errors.js";
export { Result } from "./api/result.js";
export { ARTIFACT_FORMAT } from "./core/artifact.js";
export { Source } from "./api/source.js";
export { Context, Compiler, PassProgram } from "./api/context.js";
export { Workspace } from "./api/workspace.js";
export { Module } from "./api/module.js";
export { compileModule, emitModule } from "./api/compile.js";
export { LinkIndexBuilder, LinkIndex, linkModule } from "./api/link.js";
export { createLaunchConfig } from "./launch/program.js";
export { LaunchConfigError } from "./launch/messages.js";
export { COMMON_TARGET_ATTRIBUTES } from "./core/target-records.js";
export { LOOMC_VERSION } from "./core/version.js";
export { KERNEL_INTERFACE_VERSION, parseExecutableInterface } from "./abi/index.js";
export { closestName } from "./core/suggest.js";
// One namespace per target package, as `loomc/target/<name>` exports them
// (the packages share names such as DEFAULT_LIMITS).
export * as amdgpu from "./targets/amdgpu/index.js";
export * as spirv from "./targets/spirv/api.js";
export * as ptx from "./targets/ptx/index.js";
export * as wgsl from "./targets/wgsl/index.js";

/** `loomc`'s LaunchConfigProgram, loading with closures by default (`{ codegen: true }` to generate code). */
export const LaunchConfigProgram: Pick<typeof CoreLaunchConfigProgram, "load"> = {
  load: (artifactOrBytes, options: LaunchConfigLoadOptions = {}) => CoreLaunchConfigProgram.load(artifactOrBytes, { codegen: false, ...options }),
};
export type LaunchConfigProgram = CoreLaunchConfigProgram;
