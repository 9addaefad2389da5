/**
 * Compiling `.loom` kernels to WGSL through the public API, and the two WGSL oracles of the
 * tests: Tint (Dawn's null backend: compilation messages, then pipeline creation inside a
 * validation error scope, against an explicit layout built from the kernel-interface record)
 * and naga (the `wgsl-wasm-transpiler-bundler` wasm build). Both load lazily; a missing one
 * skips the test with a printed reason (or fails under REQUIRE_ALL_TOOLS=1).
 */
import { existsSync, readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { pathToFileURL } from "node:url";
import type { TestContext } from "node:test";
import { Compiler, Context, PassProgram, Source, Workspace, compileModule, emitModule, parseExecutableInterface, type Diagnostic, type ExecutableInterface } from "../../src/index.js";
import { createWgslProfile, createWgslTargetEnvironment, type WgslIdentity } from "../../src/targets/wgsl/index.js";
import type { TargetProfile } from "../../src/core/target.js";
import { suiteKernel } from "../../examples/kernels/suite.js";
import { fromRoot } from "../util/paths.js";

export const env = createWgslTargetEnvironment();
const context = Context.create({ targetEnvironments: [env] });
const compiler = Compiler.create(context);
const pipeline = PassProgram.fromTargetPipeline(context, { identifier: "wgsl-tests", kind: "prepared-low" }).value!;

export function profile(identity: WgslIdentity = {}): TargetProfile {
  return createWgslProfile(env, { identifier: "webgpu", identity });
}

/** The WebGPU core profile plus both optional features (Dawn's null adapter grants them). */
export const FULL = profile({ features: ["shader-f16", "subgroups"] });
export const CORE = profile();

/** examples/kernels for the suite's kernels, test/wgsl/kernels for WGSL-only ones, else test/spirv/kernels. */
export function kernelPath(file: string): string {
  if (suiteKernel(file)) return fromRoot("examples", "kernels", file);
  const own = fromRoot("test", "wgsl", "kernels", file);
  return existsSync(own) ? own : fromRoot("test", "spirv", "kernels", file);
}

export interface Compiled {
  readonly ok: boolean;
  readonly diagnostics: readonly Diagnostic[];
  readonly text?: string;
  readonly bytes?: Uint8Array;
  readonly record?: ExecutableInterface;
}

/** Parses `text`, compiles `kernels` for `target`, emits WGSL and its interface record. */
export function compileText(name: string, text: string, kernels: readonly string[], target: TargetProfile = FULL): Compiled {
  const ws = new Workspace(context);
  const parsed = ws.parseModule(Source.fromText(name, text));
  if (parsed.state !== "succeeded") throw new Error(`parse failed: ${JSON.stringify(parsed.diagnostics)}`);
  const compiled = compileModule(compiler, ws, pipeline, parsed.value!, { specializations: kernels.map((k) => ({ functionSymbol: k, targetProfile: target })) });
  if (compiled.state !== "succeeded") return { ok: false, diagnostics: compiled.diagnostics };
  const emitted = emitModule(env, ws, parsed.value!, { artifactFormat: "wgsl" });
  if (emitted.state !== "succeeded") return { ok: false, diagnostics: emitted.diagnostics };
  const exe = emitted.artifacts.find((a) => a.kind === "executable")!;
  const iface = emitted.artifacts.find((a) => a.kind === "interface")!;
  return { ok: true, diagnostics: emitted.diagnostics, text: new TextDecoder().decode(exe.contents), bytes: exe.contents.slice(), record: parseExecutableInterface(iface.contents) };
}

export function compileFile(file: string, kernels: readonly string[], target: TargetProfile = FULL): Compiled {
  return compileText(file, readFileSync(kernelPath(file), "utf8"), kernels, target);
}

export function errorCodes(c: Compiled): string[] {
  return c.diagnostics.filter((d) => d.severity === "error").map((d) => d.code);
}

// ---- oracles ------------------------------------------------------------------------------

const require = createRequire(import.meta.url);

function missing(t: TestContext, reason: string): false {
  if (process.env.REQUIRE_ALL_TOOLS === "1") throw new Error(`REQUIRE_ALL_TOOLS=1 but ${reason}`);
  console.log(`SKIP ${t.name}: ${reason}`);
  t.skip(reason);
  return false;
}

// Minimal shapes of the WebGPU objects the tests touch (the `webgpu` package ships no types we import).
/* eslint-disable @typescript-eslint/no-explicit-any */
type Gpu = any;

let dawn: Promise<{ gpu: Gpu; device: Gpu } | string> | undefined;

/** Dawn's null-backend device with shader-f16 and subgroups, or why there is none. */
function nullDevice(): Promise<{ gpu: Gpu; device: Gpu } | string> {
  dawn ??= (async () => {
    let mod: { create(flags: string[]): Gpu; globals: Record<string, unknown> };
    try {
      mod = (await import("webgpu")) as never;
    } catch (e) {
      return `npm package 'webgpu' (Dawn) is not installed (${(e as Error).message}; npm ci)`;
    }
    Object.assign(globalThis, mod.globals);
    // Keep `gpu` referenced while the device lives (docs/toolchain.md: dropping it crashes Dawn).
    const gpu = mod.create(["backend=null"]);
    const adapter = await gpu.requestAdapter();
    if (!adapter) return "Dawn's null backend gave no adapter";
    const device = await adapter.requestDevice({ requiredFeatures: ["shader-f16", "subgroups"] });
    return { gpu, device };
  })();
  return dawn;
}

export interface TintResult {
  readonly errors: readonly string[];
}

/**
 * Tint's verdict on `code`: compilation errors, then, for each kernel of `record`, a compute
 * pipeline over the explicit layout the ABI implies (storage buffers k, read-only per the
 * record; the uniform argument block at binding = buffer count) inside a validation scope.
 */
export async function tint(t: TestContext, code: string, record: ExecutableInterface): Promise<TintResult | false> {
  const d = await nullDevice();
  if (typeof d === "string") return missing(t, d);
  const { device } = d;
  const module = device.createShaderModule({ code });
  const info = await module.getCompilationInfo();
  const errors: string[] = info.messages.filter((m: { type: string }) => m.type === "error").map((m: { lineNum: number; linePos: number; message: string }) => `${m.lineNum}:${m.linePos}: ${m.message}`);
  if (errors.length > 0) return { errors };
  for (const k of record.kernels) {
    const entries: unknown[] = k.bindings.map((b) => ({ binding: b.binding, visibility: 4, buffer: { type: b.readOnly ? "read-only-storage" : "storage" } }));
    if (k.argumentBlockBytes > 0) entries.push({ binding: k.bindings.length, visibility: 4, buffer: { type: "uniform" } });
    device.pushErrorScope("validation");
    const layout = device.createPipelineLayout({ bindGroupLayouts: [device.createBindGroupLayout({ entries })] });
    device.createComputePipeline({ layout, compute: { module, entryPoint: k.entryName } });
    const e = await device.popErrorScope();
    if (e) errors.push(`${k.entryName}: ${e.message}`);
  }
  return { errors };
}

let naga: Promise<((code: string, to: string) => string) | string> | undefined;

/** naga's WGSL front end (throws on invalid WGSL), or why it is missing. */
function nagaCompiler(): Promise<((code: string, to: string) => string) | string> {
  naga ??= (async () => {
    let dir: string;
    try {
      dir = dirname(require.resolve("wgsl-wasm-transpiler-bundler/package.json"));
    } catch (e) {
      return `npm package 'wgsl-wasm-transpiler-bundler' (naga) is not installed (${(e as Error).message}; npm ci)`;
    }
    const glue = (await import(pathToFileURL(join(dir, "wgsl_wasm_transpiler_bg.js")).href)) as Record<string, unknown> & { __wbg_set_wasm(x: unknown): void; compileShader(code: string, to: string): string };
    // Node's WebAssembly global (the project's lib settings do not declare it).
    const wasm = (globalThis as unknown as { WebAssembly: { instantiate(bytes: Uint8Array, imports: object): Promise<{ instance: { exports: unknown } }> } }).WebAssembly;
    const { instance } = await wasm.instantiate(readFileSync(join(dir, "wgsl_wasm_transpiler_bg.wasm")), { "./wgsl_wasm_transpiler_bg.js": glue });
    glue.__wbg_set_wasm(instance.exports);
    return (code: string, to: string) => glue.compileShader(code, to);
  })();
  return naga;
}

/**
 * undefined when naga accepts `code`, else its message. naga 25 implements subgroup
 * operations but not yet the `enable subgroups;` directive (nor the `subgroup_uniformity`
 * diagnostic rule), so those lines are dropped first.
 */
export async function nagaError(t: TestContext, code: string): Promise<string | undefined | false> {
  const compile = await nagaCompiler();
  if (typeof compile === "string") return missing(t, compile);
  try {
    compile(code.replace(/^enable subgroups;\n/m, "").replace(/^diagnostic\(off, subgroup_uniformity\);\n/m, ""), "wgsl");
    return undefined;
  } catch (e) {
    return String((e as Error)?.message ?? e);
  }
}
