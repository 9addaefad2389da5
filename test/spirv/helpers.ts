/**
 * Compiling `.loom` kernels to SPIR-V through the public API, and running the SPIR-V oracles
 * of verification.md (spirv-val, spirv-dis, the spirv-as round trip) on the bytes. Kernels are
 * the canonical suite (examples/kernels) plus the few of test/spirv/kernels it lacks.
 */
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Compiler, Context, PassProgram, Source, Workspace, compileModule, emitModule, type Diagnostic } from "../../src/index.js";
import { createSpirvProfile, createSpirvTargetEnvironment, type SpirvProfileOptions } from "../../src/targets/spirv/index.js";
import type { TargetProfile } from "../../src/core/target.js";
import { suiteKernel } from "../../examples/kernels/suite.js";
import { fromRoot } from "../util/paths.js";
import { runTool } from "../util/tools.js";

export const env = createSpirvTargetEnvironment();
const context = Context.create({ targetEnvironments: [env] });
const compiler = Compiler.create(context);
const pipeline = PassProgram.fromTargetPipeline(context, { identifier: "spirv-tests", kind: "prepared-low" }).value!;

export function profile(identity: SpirvProfileOptions["identity"], abi?: SpirvProfileOptions["abi"]): TargetProfile {
  return createSpirvProfile(env, { identifier: "test", identity, ...(abi ? { abi } : {}) });
}

/** A lavapipe-like device (toolchain.md §1), minus CLUSTERED. */
export const LAVAPIPE = profile({
  environment: "vulkan1.3",
  features: {
    shaderInt64: true,
    shaderFloat64: true,
    shaderFloat16: true,
    shaderInt8: true,
    shaderInt16: true,
    storageBuffer8BitAccess: true,
    storageBuffer16BitAccess: true,
    storagePushConstant8: true,
    storagePushConstant16: true,
    shaderSubgroupExtendedTypes: true,
    shaderBufferInt64Atomics: true,
    shaderSharedInt64Atomics: true,
    shaderBufferFloat32AtomicAdd: true,
    shaderSharedFloat32AtomicAdd: true,
    subgroupOperations: ["basic", "vote", "arithmetic", "ballot", "shuffle", "shuffle-relative", "quad"],
  },
  limits: { maxComputeWorkGroupSize: [1024, 1024, 1024], maxComputeWorkGroupInvocations: 1024, maxComputeSharedMemorySize: 32768, subgroupSize: 8 },
});

/** Where a kernel file lives: examples/kernels for the suite's kernels, else test/spirv/kernels. */
export function kernelPath(file: string): string {
  return suiteKernel(file) ? fromRoot("examples", "kernels", file) : fromRoot("test", "spirv", "kernels", file);
}

export function kernelText(file: string): string {
  return readFileSync(kernelPath(file), "utf8");
}

export interface Compiled {
  readonly ok: boolean;
  readonly diagnostics: readonly Diagnostic[];
  readonly bytes?: Uint8Array;
}

/** Parses `text`, compiles `kernels` for `target`, emits SPIR-V. */
export function compileText(name: string, text: string, kernels: readonly string[], target: TargetProfile): Compiled {
  const ws = new Workspace(context);
  const parsed = ws.parseModule(Source.fromText(name, text));
  if (parsed.state !== "succeeded") throw new Error(`parse failed: ${JSON.stringify(parsed.diagnostics)}`);
  const compiled = compileModule(compiler, ws, pipeline, parsed.value!, { specializations: kernels.map((k) => ({ functionSymbol: k, targetProfile: target })) });
  if (compiled.state !== "succeeded") return { ok: false, diagnostics: compiled.diagnostics };
  const emitted = emitModule(env, ws, parsed.value!, { artifactFormat: "spirv" });
  if (emitted.state !== "succeeded") return { ok: false, diagnostics: emitted.diagnostics };
  return { ok: true, diagnostics: emitted.diagnostics, bytes: emitted.artifacts[0]!.contents };
}

export function compileFile(file: string, kernels: readonly string[], target: TargetProfile = LAVAPIPE): Compiled {
  return compileText(file, kernelText(file), kernels, target);
}

let dir: string | undefined;
export function writeTemp(name: string, bytes: Uint8Array | string): string {
  dir ??= mkdtempSync(join(tmpdir(), "loom-spirv-"));
  const path = join(dir, name);
  writeFileSync(path, bytes);
  return path;
}

export function spirvVal(bytes: Uint8Array, name = "k.spv"): { status: number | null; output: string } {
  const r = runTool("spirv-val", ["--target-env", "vulkan1.3", writeTemp(name, bytes)]);
  return { status: r.status, output: r.stdout + r.stderr };
}

export function spirvDis(bytes: Uint8Array, raw = false): string {
  const r = runTool("spirv-dis", [...(raw ? ["--raw-id"] : []), writeTemp("dis.spv", bytes)]);
  if (r.status !== 0) throw new Error(`spirv-dis failed: ${r.stderr}`);
  return r.stdout;
}

/** spirv-dis --raw-id → spirv-as --preserve-numeric-ids; the bytes after the 3-word prefix. */
export function roundTrip(bytes: Uint8Array): Uint8Array {
  const asm = writeTemp("rt.spvasm", spirvDis(bytes, true));
  const out = join(dir!, "rt.spv");
  const r = runTool("spirv-as", ["--preserve-numeric-ids", "--target-env", "vulkan1.3", asm, "-o", out]);
  if (r.status !== 0) throw new Error(`spirv-as failed: ${r.stderr}`);
  return new Uint8Array(readFileSync(out));
}

export function codes(c: Compiled): string[] {
  return c.diagnostics.filter((d) => d.severity === "error").map((d) => d.code);
}
