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
// The target packages' modules in a measured order (roughly role by role: each back end's
// lowering context, lane rules, control, kernel, memory and vector rules, table, driver,
// profile, environment, record and package near the other back ends' one): gzip finds a match
// only within its 32 KB window, so similar code side by side compresses better. The order is
// searched, not reasoned: bench/bundle-order.ts rewrites this block (on 2026-12-03: 202,916 B
// gzipped target by target, 200,340 B role by role, 199,014 B searched).
import "./targets/amdgpu/lower/kernel.js";
import "./targets/spirv/function.js";
import "./targets/ptx/lower/lanes.js";
import "./targets/spirv/lower/lanes.js";
import "./targets/amdgpu/lower/arith.js";
import "./targets/amdgpu/machine/hazards.js";
import "./targets/ptx/lower/context.js";
import "./targets/amdgpu/lower/half.js";
import "./targets/amdgpu/lower/narrow.js";
import "./targets/wgsl/lower/rules-control.js";
import "./targets/spirv/lower/kernel-rules.js";
import "./targets/amdgpu/lower/hidden.js";
import "./targets/ptx/lower/rules-control.js";
import "./targets/wgsl/lower/rules-kernel.js";
import "./targets/spirv/lower/rules.js";
import "./targets/spirv/lower/memory-rules.js";
import "./targets/wgsl/lower/rules-memory.js";
import "./targets/wgsl/lower/lanes.js";
import "./targets/wgsl/lower/rules-vector.js";
import "./targets/ptx/lower/rules-kernel.js";
import "./targets/ptx/lower/rules-memory.js";
import "./targets/ptx/lower/rules-vector.js";
import "./targets/wgsl/lower/kernel.js";
import "./targets/ptx/device-profile.js";
import "./targets/amdgpu/lower/rules.js";
import "./targets/spirv/lower/control-rules.js";
import "./targets/amdgpu/lower/f64.js";
import "./targets/ptx/lower/kernel.js";
import "./targets/spirv/lower/arith-rules.js";
import "./targets/spirv/lower/vector-rules.js";
import "./targets/ptx/profile.js";
import "./targets/wgsl/profile.js";
import "./targets/spirv/device-profile.js";
import "./targets/spirv/environment.js";
import "./targets/wgsl/lower/rules.js";
import "./targets/wgsl/environment.js";
import "./targets/spirv/record.js";
import "./targets/wgsl/record.js";
import "./targets/amdgpu/record.js";
import "./targets/amdgpu/metadata.js";
import "./targets/ptx/package.js";
import "./targets/wgsl/package.js";
import "./targets/spirv/package.js";
import "./targets/amdgpu/package.js";
import "./targets/ptx/environment.js";
import "./targets/spirv/lower/context.js";
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
