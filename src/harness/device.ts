/**
 * Compile one kernel for a live Vulkan device (its own profile), run a case on it, run the
 * reference interpreter on the same inputs, and compare with the case's expectation. Built on
 * the public entry points only: loomc, loomc/target/spirv and loomc/runtime/vulkan.
 */
import {
  Compiler,
  Context,
  LaunchConfigProgram,
  LoomError,
  PassProgram,
  Source,
  Workspace,
  compileModule,
  emitModule,
  parseExecutableInterface,
  prepareReferenceKernel,
  type ExecutableInterface,
  type InterpretedKernel,
  type KernelInterface,
  type LaunchConfig,
  type ReferenceArgValue,
  type TargetEnvironment,
  type TargetProfile,
} from "../index.js";
import { profileFromDevice, type SpirvProfile } from "../targets/spirv/index.js";
import { VulkanRuntime, type ArgSlotDescriptor } from "../runtime/vulkan/index.js";
import { spirvEnvironment, vulkanDevice, type HarnessBuffer, type HarnessDevice } from "./devices.js";
import type { CaseArgument, Comparison, ExpectedOutput, HostArray, KernelCase } from "./cases.js";
import { random } from "./cases.js";
import { compareOutput, type OutputCheck } from "./compare.js";
import { CaseError } from "./errors.js";

/** One kernel compiled for a device target: its executable, records and launch evaluation. */
export interface DeviceKernel {
  readonly symbol: string;
  readonly exportName: string;
  /** The executable artifact (SPIR-V words, PTX text, …) in the target's `format`. */
  readonly executable: Uint8Array;
  /** The artifact format (`ARTIFACT_FORMAT`: "spirv", "ptx", …). */
  readonly format: string;
  /** The same bytes as `executable`; the name predates devices other than Vulkan. */
  readonly spirv: Uint8Array;
  /** The executable's kernel-interface record, and this kernel's entry in it. */
  readonly record: ExecutableInterface;
  readonly interface: KernelInterface;
  /** Launch-config arguments with their Loom types. */
  readonly workload: readonly { readonly name: string; readonly type: string }[];
  /** Argument-block slots with the runtime's type names. */
  readonly slots: readonly ArgSlotDescriptor[];
  /** Evaluates the launch-config function for workload values (numbers or bigints, one per workload argument). */
  launch(workload: readonly (number | bigint)[]): LaunchConfig;
  /** The reference interpreter for this kernel (made on first use). */
  interpreter(): InterpretedKernel;
}

/** A compiled kernel, or the rendered diagnostics of a failed compile. */
export type CompileOutcome = { readonly ok: true; readonly kernel: DeviceKernel } | { readonly ok: false; readonly diagnostics: string };


/** The device's SPIR-V profile, for the process-wide SPIR-V environment. */
export function deviceProfile(rt: VulkanRuntime): SpirvProfile {
  return profileFromDevice(spirvEnvironment(), rt);
}

/** What a kernel is compiled for: an environment, a profile made from it, and the artifact format to emit. */
export interface DeviceTarget {
  readonly environment: TargetEnvironment;
  readonly profile: TargetProfile;
  readonly artifactFormat: string;
}

/** Parses `text`, compiles `symbol` (default: the only kernel.def) for `profile`, emits SPIR-V. */
export function compileForDevice(fileName: string, text: string, profile: SpirvProfile, symbol?: string): CompileOutcome {
  return compileKernel({ environment: spirvEnvironment(), profile, artifactFormat: "spirv" }, fileName, text, symbol);
}

/**
 * Parses `text`, compiles `symbol` (default: the only kernel.def) for `target.profile` and emits
 * it in `target.artifactFormat`, with its kernel-interface record and launch-config function.
 */
export function compileKernel(target: DeviceTarget, fileName: string, text: string, symbol?: string): CompileOutcome {
  const env = target.environment;
  const profile = target.profile;
  const context = Context.create({ targetEnvironments: [env] });
  const workspace = new Workspace(context);
  const parsed = workspace.parseModule(Source.fromText(fileName, text));
  if (!parsed.ok || !parsed.value) return { ok: false, diagnostics: parsed.formatDiagnostics() };
  const module = parsed.value;
  const kernels = module.kernels().filter((k) => k.defined);
  const name = symbol?.replace(/^@/, "") ?? (kernels.length === 1 ? kernels[0]?.symbol : undefined);
  if (name === undefined) throw new CaseError(`'${fileName}' has ${kernels.length} kernel.def ops; pick one with --kernel`);
  const signature = kernels.find((k) => k.symbol === name);
  if (!signature) throw new CaseError(`'${fileName}' has no kernel.def @${name} (has: ${kernels.map((k) => `@${k.symbol}`).join(", ") || "none"})`);
  const pipeline = PassProgram.fromTargetPipeline(context, { kind: "prepared-low" }).value!;
  const compiled = compileModule(Compiler.create(context), workspace, pipeline, module, {
    specializations: [{ functionSymbol: name, targetProfile: profile }],
    artifacts: { launchConfig: true },
  });
  if (!compiled.ok) return { ok: false, diagnostics: compiled.formatDiagnostics() };
  const emitted = emitModule(env, workspace, module, { artifactFormat: target.artifactFormat });
  if (!emitted.ok) return { ok: false, diagnostics: emitted.formatDiagnostics() };
  const executable = emitted.findArtifact("executable");
  const recordArtifact = emitted.findArtifact("interface");
  const launchArtifact = compiled.findArtifact("launch-config");
  if (!executable || !recordArtifact || !launchArtifact) throw new LoomError("internal", "compileForDevice: a successful compile lacks its executable, interface or launch-config artifact");
  const record = parseExecutableInterface(recordArtifact.contents);
  const kernel = record.kernels.find((k) => k.symbol === name);
  if (!kernel) throw new LoomError("internal", `compileForDevice: the interface record has no kernel @${name}`);
  const program = LaunchConfigProgram.load(launchArtifact);
  const fn = program.lookupFunction(kernel.entryName);
  const workload = signature.workload;
  let interpreter: InterpretedKernel | undefined;
  return {
    ok: true,
    kernel: {
      symbol: name,
      exportName: kernel.entryName,
      executable: executable.contents,
      format: target.artifactFormat,
      spirv: executable.contents,
      record,
      interface: kernel,
      workload,
      slots: kernel.arguments.map((a) => ({ type: a.type, offset: a.offset, name: a.name })),
      launch: (values) => program.invoke(fn, values.map((v, i) => workloadBits(v, workload[i]?.type ?? ""))),
      interpreter: () => (interpreter ??= prepareReferenceKernel(module, name)),
    },
  };
}

/** Raw launch-argument bits of a workload value of Loom type `type` (integers two's complement; floats their bits). */
export function workloadBits(v: number | bigint, type: string): bigint {
  if (type === "f32" || type === "f64") {
    const view = new DataView(new ArrayBuffer(8));
    if (type === "f64") view.setFloat64(0, Number(v), true);
    else view.setFloat32(0, Number(v), true);
    return type === "f64" ? view.getBigUint64(0, true) : BigInt(view.getUint32(0, true));
  }
  if (typeof v === "number" && !Number.isSafeInteger(v)) throw new CaseError(`workload value ${v} is not an integer`);
  return BigInt.asUintN(64, BigInt(v));
}

// ---- running a case -----------------------------------------------------------------------

/** What `runCase` checks and times besides the device run. */
export interface RunOptions {
  /** Also run the reference interpreter and check it (against the JS reference, or as the reference). */
  readonly interpret?: boolean;
  /** Timed repetitions after the checked dispatch (device timers); 0 = none. */
  readonly repeats?: number;
  /** Compare the device with the interpreter instead of the case's JS reference. */
  readonly referenceFromInterpreter?: boolean;
  /** The interpreter's executed-op budget (its default: 50 000 000). */
  readonly maxInterpreterSteps?: number;
  /** Called before each stage ("dispatch", "interpret", "timing"), for progress output. */
  readonly progress?: (stage: string) => void;
}

/** The outcome of one case: the launch, every check, and device timings. */
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
  /** Device nanoseconds of each timed repetition. */
  readonly gpuNs: readonly number[];
}

function bytesOf(a: HostArray): Uint8Array {
  return new Uint8Array(a.buffer, a.byteOffset, a.byteLength);
}

function sameKind(like: HostArray, bytes: Uint8Array): HostArray {
  const buf = bytes.slice().buffer;
  return like instanceof Float32Array ? new Float32Array(buf) : like instanceof Int32Array ? new Int32Array(buf) : new Uint32Array(buf);
}

function isFloatSlot(kernel: DeviceKernel, name: string): boolean {
  const t = kernel.slots.find((s) => s.name === name)?.type;
  return t === "f16" || t === "bf16" || t === "f32" || t === "f64";
}

/** Runs the case's kernel through the interpreter; returns every buffer's final contents by name. */
export function interpretCase(kernel: DeviceKernel, c: KernelCase, launch: LaunchConfig, subgroupSize: number, maxSteps?: number): Record<string, HostArray> {
  const buffers: Record<string, HostArray> = {};
  const args: ReferenceArgValue[] = c.args.map((a) => {
    if (a.kind === "scalar") return typeof a.value === "number" && Number.isInteger(a.value) && !isFloatSlot(kernel, a.name) ? BigInt(a.value) : a.value;
    const copy = a.data.slice();
    buffers[a.name] = copy;
    return bytesOf(copy);
  });
  kernel.interpreter().run({ workgroupCount: launch.workgroupCount, workgroupSize: launch.workgroupSize, subgroupSize, args, ...(maxSteps === undefined ? {} : { maxSteps }) });
  return buffers;
}

/** Without a manifest: integers exact, f32 within 64 ε relative plus 1e-6 absolute. */
function defaultComparison(values: HostArray): Comparison {
  return values instanceof Float32Array ? { kind: "float", epsilons: 64, absolute: 1e-6 } : { kind: "exact" };
}

/**
 * Uploads the case, dispatches once (checked), then `repeats` timed dispatches. `device` is any
 * HarnessDevice (docs/harness.md); a VulkanRuntime is wrapped (and left open) for older callers.
 */
export function runCase(device: HarnessDevice | VulkanRuntime, kernel: DeviceKernel, c: KernelCase, options: RunOptions = {}): CaseResult {
  const dev = device instanceof VulkanRuntime ? vulkanDevice(device, { owned: false }) : device;
  if (c.args.length !== kernel.slots.length) {
    throw new CaseError(`@${kernel.symbol} takes ${kernel.slots.length} device argument(s), the case gives ${c.args.length}`);
  }
  const launch = kernel.launch(c.workload);
  const loaded = dev.load(kernel);
  const created: HarnessBuffer[] = [];
  try {
    const byName = new Map<string, { buffer: HarnessBuffer; like: HostArray }>();
    const values: (HarnessBuffer | number | bigint)[] = c.args.map((a) => {
      if (a.kind === "scalar") return a.value;
      const buffer = dev.createBuffer(a.data.byteLength);
      created.push(buffer);
      if (a.data.byteLength > 0) buffer.upload(bytesOf(a.data));
      byName.set(a.name, { buffer, like: a.data });
      return buffer;
    });
    options.progress?.("dispatch");
    const first = loaded.dispatch(launch, values, false);

    const subgroupSize = launch.subgroupSize > 0 ? launch.subgroupSize : dev.defaultSubgroupSize;
    if (options.interpret || options.referenceFromInterpreter) options.progress?.("interpret");
    const interpreted = options.interpret || options.referenceFromInterpreter ? interpretCase(kernel, c, launch, subgroupSize, options.maxInterpreterSteps) : undefined;
    const expected: Record<string, ExpectedOutput> =
      options.referenceFromInterpreter && interpreted
        ? Object.fromEntries(Object.entries(interpreted).map(([name, values]) => [name, { values, compare: defaultComparison(values) }]))
        : { ...c.reference() };
    const checks: OutputCheck[] = [];
    for (const [name, want] of Object.entries(expected)) {
      const b = byName.get(name);
      if (!b) throw new LoomError("invalid-argument", `the reference names '${name}', which is not a buffer argument of @${kernel.symbol}`);
      const got = sameKind(b.like, b.like.byteLength > 0 ? b.buffer.download() : new Uint8Array(0));
      checks.push(compareOutput(name, got, want));
    }
    const interpreter =
      interpreted && !options.referenceFromInterpreter
        ? Object.entries(expected).map(([name, want]) => compareOutput(name, interpreted[name] ?? new Float32Array(0), want))
        : undefined;

    const gpuNs: number[] = [];
    if ((options.repeats ?? 0) > 0 && first.dispatched) options.progress?.("timing");
    for (let i = 0; i < (options.repeats ?? 0) && first.dispatched; i++) {
      const r = loaded.dispatch(launch, values, true);
      if (r.gpuNs !== undefined) gpuNs.push(r.gpuNs);
    }
    const passed = checks.every((d) => d.mismatches === 0) && (interpreter ?? []).every((d) => d.mismatches === 0);
    return { label: c.label, launch, dispatched: first.dispatched, bytesMoved: c.bytesMoved, device: checks, ...(interpreter ? { interpreter } : {}), passed, gpuNs };
  } finally {
    for (const b of created) b.destroy();
    loaded.destroy();
  }
}

// ---- inputs without a manifest ------------------------------------------------------------

/**
 * A case for any kernel: scalars named like a workload argument take its value, others come
 * from `sizes`; buffer NAME holds `sizes[NAME]` elements of the type its first view uses
 * (the interface record's elementTypes; i32 when it has none): f32 uniform in [-4, 4) on a
 * 2⁻¹² grid, integers uniform in [0, 1024). Every buffer is an output, compared with the
 * interpreter.
 */
export function genericCase(kernel: DeviceKernel, workload: readonly (number | bigint)[], sizes: Readonly<Record<string, number>>, seed: number): KernelCase {
  const workloadNames = kernel.workload.map((a) => a.name);
  const rng = random(seed);
  let bytes = 0;
  const args: CaseArgument[] = kernel.interface.arguments.map((slot, i) => {
    const name = slot.name || `arg${i}`;
    if (slot.type === "buffer") {
      const count = sizes[name];
      if (count === undefined) throw new CaseError(`buffer '${name}' needs --size ${name}=COUNT (element count)`);
      const element = slot.elementTypes?.[0] === "f32" ? "f32" : "i32";
      const data =
        element === "f32"
          ? Float32Array.from({ length: count }, () => Math.round((rng() * 8 - 4) * 4096) / 4096)
          : Int32Array.from({ length: count }, () => Math.floor(rng() * 1024));
      bytes += data.byteLength;
      return { kind: "buffer", name, data };
    }
    const w = workloadNames.indexOf(name);
    const value = w >= 0 ? workload[w] : sizes[name];
    if (value === undefined) throw new CaseError(`scalar '${name}' is not a workload argument; give it with --size ${name}=VALUE`);
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
