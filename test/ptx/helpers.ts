/**
 * Compiling `.loom` kernels to PTX through the public API, and running the PTX oracles of
 * verification.md "PTX" (ptxas -v, llvm-readelf symbols of the cubin) on the text. Kernels
 * are the canonical suite (examples/kernels) plus the kernels of test/spirv/kernels.
 */
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Compiler, Context, PassProgram, Source, Workspace, compileModule, emitModule, type Diagnostic } from "../../src/index.js";
import { createPtxProfile, createPtxTargetEnvironment, type PtxIdentity } from "../../src/targets/ptx/index.js";
import type { TargetProfile } from "../../src/core/target.js";
import { suiteKernel } from "../../examples/kernels/suite.js";
import { fromRoot } from "../util/paths.js";
import { runTool } from "../util/tools.js";

export const env = createPtxTargetEnvironment();
const context = Context.create({ targetEnvironments: [env] });
const compiler = Compiler.create(context);
const pipeline = PassProgram.fromTargetPipeline(context, { identifier: "ptx-tests", kind: "prepared-low" }).value!;

export function profile(identity: PtxIdentity): TargetProfile {
  return createPtxProfile(env, { identifier: "test", identity });
}

export const SM_90 = profile({ target: "sm_90" });

export const PTXAS_FIX = "ptxas comes with the CUDA toolkit of the machine image (docs/toolchain.md §4)";

/** Where a kernel file lives: examples/kernels for the suite's kernels, test/ptx/kernels for PTX-only ones, else test/spirv/kernels. */
export function kernelPath(file: string): string {
  if (suiteKernel(file)) return fromRoot("examples", "kernels", file);
  const own = fromRoot("test", "ptx", "kernels", file);
  return existsSync(own) ? own : fromRoot("test", "spirv", "kernels", file);
}

export function kernelText(file: string): string {
  return readFileSync(kernelPath(file), "utf8");
}

export interface Compiled {
  readonly ok: boolean;
  readonly diagnostics: readonly Diagnostic[];
  readonly text?: string;
}

/** Parses `text`, compiles `kernels` for `target`, emits PTX. */
export function compileText(name: string, text: string, kernels: readonly string[], target: TargetProfile = SM_90): Compiled {
  const ws = new Workspace(context);
  const parsed = ws.parseModule(Source.fromText(name, text));
  if (parsed.state !== "succeeded") throw new Error(`parse failed: ${JSON.stringify(parsed.diagnostics)}`);
  const compiled = compileModule(compiler, ws, pipeline, parsed.value!, { specializations: kernels.map((k) => ({ functionSymbol: k, targetProfile: target })) });
  if (compiled.state !== "succeeded") return { ok: false, diagnostics: compiled.diagnostics };
  const emitted = emitModule(env, ws, parsed.value!, { artifactFormat: "ptx" });
  if (emitted.state !== "succeeded") return { ok: false, diagnostics: emitted.diagnostics };
  return { ok: true, diagnostics: emitted.diagnostics, text: new TextDecoder().decode(emitted.artifacts[0]!.contents) };
}

export function compileFile(file: string, kernels: readonly string[], target: TargetProfile = SM_90): Compiled {
  return compileText(file, kernelText(file), kernels, target);
}

let dir: string | undefined;
export function writeTemp(name: string, contents: Uint8Array | string): string {
  dir ??= mkdtempSync(join(tmpdir(), "loom-ptx-"));
  const path = join(dir, name);
  writeFileSync(path, contents);
  return path;
}

export interface Assembled {
  readonly status: number | null;
  readonly output: string;
  readonly cubin: string;
}

/** `ptxas -arch=<arch> -v k.ptx -o k.cubin`. */
export function ptxas(text: string, name: string, arch = "sm_90"): Assembled {
  const input = writeTemp(`${name}.ptx`, text);
  const cubin = join(dir!, `${name}.cubin`);
  const r = runTool("ptxas", [`-arch=${arch}`, "-v", input, "-o", cubin]);
  return { status: r.status, output: r.stdout + r.stderr, cubin };
}

export function codes(c: Compiled): string[] {
  return c.diagnostics.filter((d) => d.severity === "error").map((d) => d.code);
}
