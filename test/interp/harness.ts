/**
 * Test harness: parse a kernel file with the public API, compile it against the reference
 * environment (prepared-low kernel + launch-config artifact), and run dispatches on both
 * the prepared kernel and the parsed, uncompiled kernel.def, checking they agree.
 */
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { Compiler, Context, LaunchConfigProgram, PassProgram, Source, Workspace, compileModule, type LaunchConfig } from "../../src/index.js";
import type { Op } from "../../src/ir/core.js";
import type { Module as IrModule } from "../../src/ir/core.js";
import { createReferenceEnvironment, createReferenceProfile, prepareInterpreter, type ArgValue, type DispatchReport, type InterpretedKernel } from "../../src/interp/index.js";
import { fromRoot } from "../util/paths.js";
import { random } from "../../src/harness/index.js";

export interface LoadedKernel {
  readonly exportName: string;
  /** The kernel after the prepared-low pipeline. */
  readonly prepared: InterpretedKernel;
  /** The parsed kernel.def, never compiled. */
  readonly raw: InterpretedKernel;
  readonly rawModule: IrModule;
  launch(workload: readonly bigint[]): LaunchConfig;
}

/** A kernel of test/interp/kernels (the suite's own are loaded by suite-case.ts). */
export function kernelText(name: string): string {
  return readFileSync(fromRoot("test", "interp", "kernels", `${name}.loom`), "utf8");
}

/** Parses, verifies and compiles `text`; `symbol` defaults to the first kernel.def. */
export function loadKernelText(fileName: string, text: string, options: { subgroupSize?: number; symbol?: string } = {}): LoadedKernel {
  const env = createReferenceEnvironment();
  const context = Context.create({ targetEnvironments: [env] });
  const workspace = new Workspace(context);
  const parsed = workspace.parseModule(Source.fromText(fileName, text));
  assert.equal(parsed.state, "succeeded", parsed.formatDiagnostics());
  const module = parsed.value!;
  const rawModule = module.clone().ir;
  const kernelOp = (m: IrModule): Op => {
    const op = m.ops.find((o) => o.name === "kernel.def" && (options.symbol === undefined || o.symbol === options.symbol));
    assert.ok(op, `no kernel.def in ${fileName}`);
    return op;
  };
  const symbol = kernelOp(module.ir).symbol!;
  const pipeline = PassProgram.fromTargetPipeline(context, { kind: "prepared-low", verifyEachPass: true }).value!;
  const profile = createReferenceProfile({ subgroupSize: options.subgroupSize ?? 32 });
  const compiled = compileModule(Compiler.create(context), workspace, pipeline, module, {
    specializations: [{ functionSymbol: symbol, targetProfile: profile }],
    artifacts: { launchConfig: true },
  });
  assert.equal(compiled.state, "succeeded", compiled.formatDiagnostics());
  const state = module.state;
  assert.equal(state.phase, "compiled");
  const preparedKernel = state.phase === "compiled" ? state.prepared.kernels[0]! : undefined;
  const program = LaunchConfigProgram.load(compiled.findArtifact("launch-config")!);
  const fn = program.lookupFunction(preparedKernel!.exportName);
  return {
    exportName: preparedKernel!.exportName,
    prepared: prepareInterpreter(preparedKernel!),
    raw: prepareInterpreter(kernelOp(rawModule), { module: rawModule }),
    rawModule,
    launch: (workload) => program.invoke(fn, [...workload]),
  };
}

export function loadKernel(name: string, options: { subgroupSize?: number } = {}): LoadedKernel {
  return loadKernelText(`${name}.loom`, kernelText(name), options);
}

/** Copies buffer arguments so two runs start from the same bytes. */
function copyArgs(args: readonly ArgValue[]): ArgValue[] {
  return args.map((a) => (a instanceof Uint8Array ? a.slice() : a));
}

/**
 * Evaluates the launch for `workload`, runs the prepared kernel on `args` (buffers updated
 * in place) and the raw kernel on a copy, and asserts both leave identical buffers.
 */
export function dispatch(k: LoadedKernel, workload: readonly bigint[], args: ArgValue[]): DispatchReport {
  const launch = k.launch(workload);
  const geometry = { workgroupCount: launch.workgroupCount, workgroupSize: launch.workgroupSize, subgroupSize: launch.subgroupSize };
  const copy = copyArgs(args);
  const report = k.prepared.run({ ...geometry, args });
  k.raw.run({ ...geometry, args: copy });
  args.forEach((a, i) => {
    if (a instanceof Uint8Array) assert.deepEqual(copy[i], a, `prepared and parsed kernels disagree on buffer argument ${i}`);
  });
  return report;
}

// ---- typed buffers ------------------------------------------------------------------------

export const f32Bytes = (xs: ArrayLike<number>): Uint8Array => new Uint8Array(Float32Array.from(xs).buffer);
export const i32Bytes = (xs: ArrayLike<number>): Uint8Array => new Uint8Array(Int32Array.from(xs).buffer);
export const asF32 = (b: Uint8Array): Float32Array => new Float32Array(b.buffer, b.byteOffset, b.byteLength / 4);
export const asI32 = (b: Uint8Array): Int32Array => new Int32Array(b.buffer, b.byteOffset, b.byteLength / 4);

/** Integers in [lo, hi) from the suite's seeded xorshift32 stream. */
export function randomInts(n: number, seed: number, lo: number, hi: number): number[] {
  const r = random(seed);
  return Array.from({ length: n }, () => lo + Math.floor(r() * (hi - lo)));
}

/** Sizes every kernel is tried with: 0, 1, primes, and non-multiples of workgroup sizes. */
export const SIZES = [0, 1, 2, 7, 31, 64, 97, 127, 128, 255, 257, 1000] as const;
