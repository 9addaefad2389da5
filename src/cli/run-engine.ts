/**
 * The engine `loom run`, the kernel-suite tests (test/e2e) and bench/vulkan-suite.ts share:
 * compile one kernel for a live Vulkan device (profileFromDevice), run it on a case's
 * inputs, run the reference interpreter on the same inputs, and compare with the case's
 * expectation. examples/kernels/suite.ts describes its cases with the types below.
 */
import { existsSync } from "node:fs";
import { readFile } from "node:fs/promises";
import { basename, dirname, relative, resolve } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { compileModule, emitModule } from "../api/compile.js";
import { Compiler, Context, PassProgram } from "../api/context.js";
import { LoomError } from "../core/errors.js";
import { Source } from "../api/source.js";
import { Workspace } from "../api/workspace.js";
import { prepareInterpreter, type ArgValue as InterpArg, type InterpretedKernel } from "../interp/index.js";
import type { Value } from "../ir/core.js";
import type { Type } from "../ir/types.js";
import { walkRegion } from "../ir/walk.js";
import { LaunchConfigProgram, type LaunchConfig, type LaunchConfigFunction } from "../launch/program.js";
import type { PreparedKernel } from "../core/prepared.js";
import { packArguments, type ArgSlotDescriptor, type ArgType, type ArgValue as DeviceArg } from "../runtime/vulkan/args.js";
import type { VulkanBuffer } from "../runtime/vulkan/buffer.js";
import { profileFromDevice } from "../runtime/vulkan/profile.js";
import { VulkanRuntime } from "../runtime/vulkan/runtime.js";
import { createSpirvTargetEnvironment } from "../targets/spirv/environment.js";
import type { SpirvProfile } from "../targets/spirv/profile.js";
import type { TargetEnvironment } from "../core/target.js";
import { UsageError } from "./common.js";

// ---- cases: what the suite manifest describes ----------------------------------------------

export type HostArray = Float32Array | Int32Array | Uint32Array;

/** How an output is compared: bit-exact, or |got − want| ≤ epsilons·2⁻²³·magnitude + absolute. */
export type Comparison = { readonly kind: "exact" } | { readonly kind: "float"; readonly epsilons: number; readonly absolute?: number };

export type CaseArgument =
  | { readonly kind: "buffer"; readonly name: string; readonly data: HostArray }
  | { readonly kind: "scalar"; readonly name: string; readonly value: number | bigint };

export interface ExpectedOutput {
  readonly values: HostArray;
  /** Per-element magnitude the float bound scales with (default: |expected|). */
  readonly magnitude?: ArrayLike<number>;
  readonly compare: Comparison;
}

/** One run of one kernel: inputs, launch workload, and the plain-JS reference. */
export interface KernelCase {
  /** e.g. "n=97" or "33x40 k=48". */
  readonly label: string;
  /** One value per workload argument (integers). */
  readonly workload: readonly (number | bigint)[];
  /** One per device argument, in launch(…) order; buffers hold their initial contents. */
  readonly args: readonly CaseArgument[];
  /** Least bytes the kernel must read and write (for GB/s). */
  readonly bytesMoved: number;
  /** Expected contents of each output buffer, by argument name. */
  reference(): Readonly<Record<string, ExpectedOutput>>;
}

/** Workload values plus named extra sizes (device scalars such as matmul's k). */
export interface CaseShape {
  readonly workload: readonly number[];
  readonly sizes?: Readonly<Record<string, number>>;
}

/** One kernel of the suite: its file, symbol, shapes to run and how to build a case. */
export interface SuiteKernel {
  /** File name in examples/kernels, e.g. "saxpy.loom". */
  readonly file: string;
  readonly symbol: string;
  readonly summary: string;
  /** Extra size names `build` reads from `sizes` (documented defaults otherwise). */
  readonly sizeNames: readonly string[];
  readonly shapes: { readonly test: readonly CaseShape[]; readonly quick: readonly CaseShape[]; readonly bench: readonly CaseShape[] };
  build(shape: CaseShape, seed: number): KernelCase;
}

// ---- comparison ---------------------------------------------------------------------------

export interface OutputCheck {
  readonly name: string;
  readonly count: number;
  readonly mismatches: number;
  /** Largest |got − want| (ints: as numbers). */
  readonly maxError: number;
  readonly first?: { readonly index: number; readonly got: number; readonly want: number; readonly allowed: number };
}

const F32_EPSILON = 2 ** -23;

export function compareOutput(name: string, got: HostArray, want: ExpectedOutput): OutputCheck {
  const w = want.values;
  if (got.length !== w.length) {
    return { name, count: w.length, mismatches: Math.max(got.length, w.length), maxError: Infinity };
  }
  const c = want.compare;
  const gotBits = new Uint32Array(got.buffer, got.byteOffset, got.length);
  const wantBits = new Uint32Array(w.buffer, w.byteOffset, w.length);
  let mismatches = 0;
  let maxError = 0;
  let first: OutputCheck["first"];
  for (let i = 0; i < w.length; i++) {
    const g = got[i]!;
    const e = w[i]!;
    let ok: boolean;
    let allowed = 0;
    if (c.kind === "exact") ok = gotBits[i] === wantBits[i];
    else if (Number.isNaN(e) || Number.isNaN(g)) ok = Number.isNaN(e) && Number.isNaN(g);
    else {
      allowed = c.epsilons * F32_EPSILON * Math.abs(want.magnitude?.[i] ?? e) + (c.absolute ?? 0);
      ok = g === e || Math.abs(g - e) <= allowed;
    }
    const err = g === e ? 0 : Math.abs(g - e);
    if (err > maxError || Number.isNaN(err)) maxError = Number.isNaN(err) ? Infinity : err;
    if (!ok) {
      mismatches++;
      first ??= { index: i, got: g, want: e, allowed };
    }
  }
  return { name, count: w.length, mismatches, maxError, ...(first ? { first } : {}) };
}

export function describeCheck(c: OutputCheck): string {
  const head = `max error ${c.maxError} (${c.mismatches} of ${c.count} differ)`;
  return c.first ? `${head}; first at [${c.first.index}]: got ${c.first.got}, want ${c.first.want} (allowed ±${c.first.allowed})` : head;
}

// ---- compiling for a device ---------------------------------------------------------------

export interface DeviceKernel {
  readonly symbol: string;
  readonly exportName: string;
  readonly spirv: Uint8Array;
  readonly prepared: PreparedKernel;
  readonly workloadTypes: readonly Type[];
  /** Argument-block slots with the runtime's type names. */
  readonly slots: readonly ArgSlotDescriptor[];
  readonly bufferOffsets: readonly number[];
  readonly argBlockSize: number;
  launch(workload: readonly (number | bigint)[]): LaunchConfig;
  interpreter(): InterpretedKernel;
}

export type CompileOutcome = { readonly ok: true; readonly kernel: DeviceKernel } | { readonly ok: false; readonly diagnostics: string };

let spirvEnv: TargetEnvironment | undefined;
/** One SPIR-V environment per process (profiles must come from the environment they compile for). */
export function spirvEnvironment(): TargetEnvironment {
  return (spirvEnv ??= createSpirvTargetEnvironment());
}

/** The device's SPIR-V profile, for the process-wide SPIR-V environment. */
export function deviceProfile(rt: VulkanRuntime): SpirvProfile {
  return profileFromDevice(spirvEnvironment(), rt);
}

/** Parses `text`, compiles `symbol` (default: the only kernel.def) for `profile`, emits SPIR-V. */
export function compileForDevice(fileName: string, text: string, profile: SpirvProfile, symbol?: string): CompileOutcome {
  const env = spirvEnvironment();
  const context = Context.create({ targetEnvironments: [env] });
  const workspace = new Workspace(context);
  const parsed = workspace.parseModule(Source.fromText(fileName, text));
  if (!parsed.ok) return { ok: false, diagnostics: parsed.formatDiagnostics() };
  const module = parsed.value!;
  const kernels = module.ir.ops.filter((op) => op.name === "kernel.def");
  const name = symbol?.replace(/^@/, "") ?? (kernels.length === 1 ? kernels[0]!.symbol! : undefined);
  if (name === undefined) throw new UsageError(`'${fileName}' has ${kernels.length} kernel.def ops; pick one with --kernel`);
  const def = kernels.find((op) => op.symbol === name);
  if (!def) throw new UsageError(`'${fileName}' has no kernel.def @${name} (has: ${kernels.map((k) => `@${k.symbol}`).join(", ") || "none"})`);
  const pipeline = PassProgram.fromTargetPipeline(context, { kind: "prepared-low" }).value!;
  const compiled = compileModule(Compiler.create(context), workspace, pipeline, module, {
    specializations: [{ functionSymbol: name, targetProfile: profile }],
    artifacts: { launchConfig: true },
  });
  if (!compiled.ok) return { ok: false, diagnostics: compiled.formatDiagnostics() };
  const emitted = emitModule(env, workspace, module, { artifactFormat: "spirv" });
  if (!emitted.ok) return { ok: false, diagnostics: emitted.formatDiagnostics() };
  const state = module.state;
  if (state.phase !== "compiled") throw new LoomError("internal", `compileForDevice: module is ${state.phase} after a successful compile`);
  const prepared = state.prepared.kernels.find((k) => k.symbol === name)!;
  const program = LaunchConfigProgram.load(compiled.findArtifact("launch-config")!);
  const fn: LaunchConfigFunction = program.lookupFunction(prepared.exportName);
  const workloadTypes = def.regions[0]!.args.map((a) => a.type);
  const slots = prepared.args.map((a) => ({ type: argTypeOf(a.type), offset: a.offset, name: a.name }));
  let interpreter: InterpretedKernel | undefined;
  return {
    ok: true,
    kernel: {
      symbol: name,
      exportName: prepared.exportName,
      spirv: emitted.artifacts[0]!.contents,
      prepared,
      workloadTypes,
      slots,
      bufferOffsets: slots.filter((s) => s.type === "buffer").map((s) => s.offset),
      argBlockSize: prepared.argBlockSize,
      launch: (workload) => program.invoke(fn, workload.map((v, i) => workloadBits(v, workloadTypes[i]!))),
      interpreter: () => (interpreter ??= prepareInterpreter(prepared)),
    },
  };
}

function argTypeOf(t: Type): ArgType {
  if (t.kind !== "prim" || t.name === "encoding<layout>") throw new LoomError("unimplemented", `loom run: device arguments of type ${t.kind} are not supported`);
  return t.name;
}

/** Raw launch-argument bits of a workload value (integers two's complement; floats their bits). */
export function workloadBits(v: number | bigint, t: Type): bigint {
  const name = t.kind === "prim" ? t.name : "";
  if (name === "f32" || name === "f64") {
    const view = new DataView(new ArrayBuffer(8));
    if (name === "f64") view.setFloat64(0, Number(v), true);
    else view.setFloat32(0, Number(v), true);
    return name === "f64" ? view.getBigUint64(0, true) : BigInt(view.getUint32(0, true));
  }
  if (typeof v === "number" && !Number.isSafeInteger(v)) throw new UsageError(`workload value ${v} is not an integer`);
  return BigInt.asUintN(64, BigInt(v));
}

// ---- running a case -----------------------------------------------------------------------

export interface RunOptions {
  /** Also run the reference interpreter and check it (against the JS reference, or as the reference). */
  readonly interpret?: boolean;
  /** Timed repetitions after the checked dispatch (GPU timestamps); 0 = none. */
  readonly repeats?: number;
  /** Compare the device with the interpreter instead of the case's JS reference. */
  readonly referenceFromInterpreter?: boolean;
}

export interface CaseResult {
  readonly label: string;
  readonly launch: LaunchConfig;
  readonly dispatched: boolean;
  readonly bytesMoved: number;
  /** Device outputs against the reference. */
  readonly device: readonly OutputCheck[];
  /** Interpreter outputs against the JS reference (absent when not interpreted or it is the reference). */
  readonly interpreter?: readonly OutputCheck[];
  readonly passed: boolean;
  /** GPU nanoseconds of each timed repetition. */
  readonly gpuNs: readonly number[];
}

function copyOf(a: HostArray): HostArray {
  return a.slice();
}

function bytesOf(a: HostArray): Uint8Array {
  return new Uint8Array(a.buffer, a.byteOffset, a.byteLength);
}

function sameKind(like: HostArray, bytes: Uint8Array): HostArray {
  const buf = bytes.slice().buffer;
  return like instanceof Float32Array ? new Float32Array(buf) : like instanceof Int32Array ? new Int32Array(buf) : new Uint32Array(buf);
}

/** The subgroup width a launch runs with: fixed by the profile, else the device's default. */
function subgroupWidth(launch: LaunchConfig, rt: VulkanRuntime): number {
  return launch.subgroupSize > 0 ? launch.subgroupSize : rt.deviceInfo().subgroupSize;
}

/** Runs the case's kernel through the interpreter; returns every buffer's final contents by name. */
export function interpretCase(kernel: DeviceKernel, c: KernelCase, launch: LaunchConfig, subgroupSize: number): Record<string, HostArray> {
  const buffers: Record<string, HostArray> = {};
  const args: InterpArg[] = c.args.map((a) => {
    if (a.kind === "scalar") return typeof a.value === "number" && Number.isInteger(a.value) && !isFloatSlot(kernel, a.name) ? BigInt(a.value) : a.value;
    const copy = copyOf(a.data);
    buffers[a.name] = copy;
    return bytesOf(copy);
  });
  kernel.interpreter().run({ workgroupCount: launch.workgroupCount, workgroupSize: launch.workgroupSize, subgroupSize, args });
  return buffers;
}

function isFloatSlot(kernel: DeviceKernel, name: string): boolean {
  const t = kernel.slots.find((s) => s.name === name)?.type;
  return t === "f16" || t === "bf16" || t === "f32" || t === "f64";
}

/** Uploads the case, dispatches once (checked), then `repeats` timed dispatches. */
export function runCase(rt: VulkanRuntime, kernel: DeviceKernel, c: KernelCase, options: RunOptions = {}): CaseResult {
  if (c.args.length !== kernel.slots.length) {
    throw new UsageError(`@${kernel.symbol} takes ${kernel.slots.length} device argument(s), the case gives ${c.args.length}`);
  }
  const launch = kernel.launch(c.workload);
  const vk = rt.createKernel(kernel.spirv, kernel.exportName, { argBlockSize: kernel.argBlockSize, bufferOffsets: kernel.bufferOffsets });
  const created: VulkanBuffer[] = [];
  try {
    const byName = new Map<string, { buffer: VulkanBuffer; like: HostArray }>();
    const values: DeviceArg[] = c.args.map((a) => {
      if (a.kind === "scalar") return a.value;
      const buffer = rt.createBuffer(a.data.byteLength);
      created.push(buffer);
      if (a.data.byteLength > 0) buffer.upload(bytesOf(a.data));
      byName.set(a.name, { buffer, like: a.data });
      return vk.bufferArgument(buffer);
    });
    const argBlock = packArguments(kernel.slots, values, kernel.argBlockSize);
    const buffers = [...created];
    const first = rt.dispatch(vk, { workgroupCount: launch.workgroupCount, argBlock, buffers });

    const subgroupSize = subgroupWidth(launch, rt);
    const interpreted = options.interpret || options.referenceFromInterpreter ? interpretCase(kernel, c, launch, subgroupSize) : undefined;
    const expected: Record<string, ExpectedOutput> = options.referenceFromInterpreter
      ? Object.fromEntries(Object.entries(interpreted!).map(([name, values]) => [name, { values, compare: defaultComparison(values) }]))
      : { ...c.reference() };
    const device: OutputCheck[] = [];
    for (const [name, want] of Object.entries(expected)) {
      const b = byName.get(name);
      if (!b) throw new LoomError("invalid-argument", `the reference names '${name}', which is not a buffer argument of @${kernel.symbol}`);
      const got = sameKind(b.like, b.like.byteLength > 0 ? b.buffer.download() : new Uint8Array(0));
      device.push(compareOutput(name, got, want));
    }
    const interpreter =
      interpreted && !options.referenceFromInterpreter ? Object.entries(expected).map(([name, want]) => compareOutput(name, interpreted[name]!, want)) : undefined;

    const gpuNs: number[] = [];
    for (let i = 0; i < (options.repeats ?? 0) && first.dispatched; i++) {
      const r = rt.dispatch(vk, { workgroupCount: launch.workgroupCount, argBlock, buffers, timestamps: true });
      if (r.gpuNs !== undefined) gpuNs.push(r.gpuNs);
    }
    const passed = device.every((d) => d.mismatches === 0) && (interpreter ?? []).every((d) => d.mismatches === 0);
    return { label: c.label, launch, dispatched: first.dispatched, bytesMoved: c.bytesMoved, device, ...(interpreter ? { interpreter } : {}), passed, gpuNs };
  } finally {
    for (const b of created) b.destroy();
    vk.destroy();
  }
}

/** Without a manifest: integers exact, f32 within 64 ε relative plus 1e-6 absolute. */
function defaultComparison(values: HostArray): Comparison {
  return values instanceof Float32Array ? { kind: "float", epsilons: 64, absolute: 1e-6 } : { kind: "exact" };
}

export function median(xs: readonly number[]): number {
  if (xs.length === 0) return NaN;
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
}

// ---- inputs without a manifest ------------------------------------------------------------

/** xorshift32 in [0, 1); deterministic for a seed. */
export function random(seed: number): () => number {
  let s = seed >>> 0 || 0x9e3779b9;
  return () => {
    s ^= s << 13;
    s >>>= 0;
    s ^= s >>> 17;
    s ^= s << 5;
    s >>>= 0;
    return s / 2 ** 32;
  };
}

/**
 * A case for any kernel: scalars named like a workload argument take its value, others come
 * from `--size NAME=VALUE`; buffer NAME holds `--size NAME=COUNT` elements of the type its
 * first view uses (i32 when it has none): f32 uniform in [-4, 4) on a 2⁻¹² grid, integers
 * uniform in [0, 1024). Every buffer is an output, compared with the interpreter.
 */
export function genericCase(kernel: DeviceKernel, workload: readonly (number | bigint)[], sizes: Readonly<Record<string, number>>, seed: number): KernelCase {
  const workloadNames = kernel.prepared.op.regions[0]!.args.map((a) => a.name);
  const elementTypes = bufferElementTypes(kernel.prepared);
  const rng = random(seed);
  let bytes = 0;
  const args: CaseArgument[] = kernel.slots.map((slot, i) => {
    const name = slot.name ?? `arg${i}`;
    if (slot.type === "buffer") {
      const count = sizes[name];
      if (count === undefined) throw new UsageError(`buffer '${name}' needs --size ${name}=COUNT (element count)`);
      const element = elementTypes.get(i) ?? "i32";
      const data =
        element === "f32"
          ? Float32Array.from({ length: count }, () => Math.round((rng() * 8 - 4) * 4096) / 4096)
          : Int32Array.from({ length: count }, () => Math.floor(rng() * 1024));
      bytes += data.byteLength;
      return { kind: "buffer", name, data };
    }
    const w = workloadNames.indexOf(name);
    const value = w >= 0 ? workload[w] : sizes[name];
    if (value === undefined) throw new UsageError(`scalar '${name}' is not a workload argument; give it with --size ${name}=VALUE`);
    return { kind: "scalar", name, value };
  });
  return {
    label: [...workload.map(String), ...Object.entries(sizes).map(([k, v]) => `${k}=${v}`)].join(" "),
    workload,
    args,
    bytesMoved: bytes,
    reference: () => {
      throw new LoomError("failed-precondition", "a generic case has no JS reference; run with the interpreter as reference");
    },
  };
}

/** Element type of the first `buffer.view` over each buffer argument (through assume ops). */
function bufferElementTypes(prepared: PreparedKernel): Map<number, "f32" | "i32"> {
  const origin = new Map<Value, number>();
  prepared.body.args.forEach((a, i) => origin.set(a, i));
  const found = new Map<number, "f32" | "i32">();
  walkRegion(prepared.body, (op) => {
    if (op.name.startsWith("buffer.assume.")) {
      op.results.forEach((r, k) => {
        const from = op.operands[k] && origin.get(op.operands[k]!);
        if (from !== undefined) origin.set(r, from);
      });
    }
    const i = op.name === "buffer.view" ? origin.get(op.operands[0]!) : undefined;
    const t = op.results[0]?.type;
    if (i !== undefined && !found.has(i) && t?.kind === "view") found.set(i, t.element.name === "f32" ? "f32" : "i32");
  });
  return found;
}

// ---- the manifest -------------------------------------------------------------------------

const PACKAGE_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "..", "..", "..");

/**
 * The compiled suite manifest for FILE: `--manifest` if given, else `suite.js` beside FILE,
 * else `dist/<FILE's directory>/suite.js` under the package root (examples/kernels → the
 * compiled examples/kernels/suite.ts). The module exports `KERNEL_SUITE: SuiteKernel[]`.
 */
export async function findSuiteKernel(file: string, manifest?: string): Promise<SuiteKernel | undefined> {
  let path: string | undefined;
  if (manifest !== undefined) {
    path = resolve(manifest);
    if (!existsSync(path)) throw new UsageError(`--manifest '${manifest}' does not exist`);
  } else {
    const dir = dirname(resolve(file));
    const inside = relative(PACKAGE_ROOT, dir);
    const candidates = [resolve(dir, "suite.js"), ...(inside.startsWith("..") ? [] : [resolve(PACKAGE_ROOT, "dist", inside, "suite.js")])];
    path = candidates.find((p) => existsSync(p));
  }
  if (!path) return undefined;
  const mod = (await import(pathToFileURL(path).href)) as { KERNEL_SUITE?: readonly SuiteKernel[] };
  if (!Array.isArray(mod.KERNEL_SUITE)) throw new UsageError(`'${path}' does not export KERNEL_SUITE`);
  return mod.KERNEL_SUITE.find((k) => k.file === basename(file));
}
