/**
 * Compiles one suite kernel to WGSL for a device's own profile (profileFromAdapter over the
 * runtime's facts) through the public API, and runs a suite case on the WebGPU runtime and on
 * the reference interpreter: the WebGPU counterpart of loomc/harness's Vulkan path.
 */
import { Compiler, Context, LaunchConfigProgram, PassProgram, Source, Workspace, compileModule, emitModule, parseExecutableInterface, prepareReferenceKernel, type ExecutableInterface, type InterpretedKernel, type KernelInterface, type LaunchConfig, type ReferenceArgValue, type TargetEnvironment } from "../../../src/index.js";
import { createWgslProfile, createWgslTargetEnvironment, profileFromAdapter } from "../../../src/targets/wgsl/index.js";
import { compareOutput, workloadBits, type HostArray, type KernelCase, type OutputCheck } from "../../../src/harness/index.js";
import type { WebGpuBuffer, WebGpuRuntime } from "../../../src/runtime/webgpu/index.js";

let wgslEnv: TargetEnvironment | undefined;

export interface WgslKernel {
  readonly symbol: string;
  readonly wgsl: Uint8Array;
  readonly record: ExecutableInterface;
  readonly interface: KernelInterface;
  launch(workload: readonly (number | bigint)[]): LaunchConfig;
  interpreter(): InterpretedKernel;
}

export function compileWgsl(rt: WebGpuRuntime, file: string, text: string, symbol: string): { ok: true; kernel: WgslKernel } | { ok: false; diagnostics: string } {
  const env = (wgslEnv ??= createWgslTargetEnvironment());
  const context = Context.create({ targetEnvironments: [env] });
  const profile = createWgslProfile(env, profileFromAdapter(rt.profileFacts(), "dawn-swiftshader"));
  const workspace = new Workspace(context);
  const parsed = workspace.parseModule(Source.fromText(file, text));
  if (!parsed.ok || !parsed.value) return { ok: false, diagnostics: parsed.formatDiagnostics() };
  const module = parsed.value;
  const signature = module.kernels().find((k) => k.symbol === symbol);
  if (!signature) return { ok: false, diagnostics: `no kernel @${symbol} in ${file}` };
  const pipeline = PassProgram.fromTargetPipeline(context, { kind: "prepared-low" }).value!;
  const compiled = compileModule(Compiler.create(context), workspace, pipeline, module, { specializations: [{ functionSymbol: symbol, targetProfile: profile }], artifacts: { launchConfig: true } });
  if (!compiled.ok) return { ok: false, diagnostics: compiled.formatDiagnostics() };
  const emitted = emitModule(env, workspace, module, { artifactFormat: "wgsl" });
  if (!emitted.ok) return { ok: false, diagnostics: emitted.formatDiagnostics() };
  const record = parseExecutableInterface(emitted.findArtifact("interface")!.contents);
  const kernel = record.kernels.find((k) => k.symbol === symbol)!;
  const program = LaunchConfigProgram.load(compiled.findArtifact("launch-config")!);
  const fn = program.lookupFunction(kernel.entryName);
  let interpreter: InterpretedKernel | undefined;
  return {
    ok: true,
    kernel: {
      symbol,
      wgsl: emitted.findArtifact("executable")!.contents,
      record,
      interface: kernel,
      launch: (values) => program.invoke(fn, values.map((v, i) => workloadBits(v, signature.workload[i]?.type ?? ""))),
      interpreter: () => (interpreter ??= prepareReferenceKernel(module, symbol)),
    },
  };
}

const bytesOf = (a: HostArray): Uint8Array => new Uint8Array(a.buffer, a.byteOffset, a.byteLength);

function like(a: HostArray, bytes: Uint8Array): HostArray {
  const b = bytes.slice().buffer;
  return a instanceof Float32Array ? new Float32Array(b) : a instanceof Int32Array ? new Int32Array(b) : new Uint32Array(b);
}

export interface WgslCaseResult {
  readonly label: string;
  readonly launch: LaunchConfig;
  readonly dispatched: boolean;
  readonly device: readonly OutputCheck[];
  readonly interpreter?: readonly OutputCheck[];
  readonly gpuNs?: number;
}

/** Uploads the case, dispatches the evaluated launch, downloads and compares (device and, if asked, interpreter vs the JS reference). */
export async function runWgslCase(rt: WebGpuRuntime, k: WgslKernel, c: KernelCase, options: { interpret: boolean; subgroupSize: number }): Promise<WgslCaseResult> {
  const launch = k.launch(c.workload);
  const kernel = await rt.createKernel(k.wgsl, k.record, k.interface.entryName);
  const buffers: WebGpuBuffer[] = [];
  const byName = new Map<string, { buffer: WebGpuBuffer; like: HostArray }>();
  try {
    const args = c.args.map((a) => {
      if (a.kind === "scalar") return a.value;
      const buffer = rt.createBuffer(a.data.byteLength);
      buffers.push(buffer);
      buffer.upload(bytesOf(a.data));
      byName.set(a.name, { buffer, like: a.data });
      return kernel.bufferArgument(buffer);
    });
    const r = await rt.dispatch(kernel, { workgroupCount: launch.workgroupCount, args, buffers, timestamps: true });
    const expected = c.reference();
    const device: OutputCheck[] = [];
    for (const [name, want] of Object.entries(expected)) {
      const b = byName.get(name)!;
      device.push(compareOutput(name, like(b.like, await b.buffer.download()), want));
    }
    let interpreter: OutputCheck[] | undefined;
    if (options.interpret) {
      const outputs: Record<string, HostArray> = {};
      const refArgs: ReferenceArgValue[] = c.args.map((a, i) => {
        if (a.kind === "buffer") {
          const copy = a.data.slice();
          outputs[a.name] = copy;
          return bytesOf(copy);
        }
        const type = k.interface.arguments[i]?.type;
        const float = type === "f16" || type === "bf16" || type === "f32" || type === "f64";
        return typeof a.value === "number" && !float ? BigInt(a.value) : a.value;
      });
      k.interpreter().run({ workgroupCount: launch.workgroupCount, workgroupSize: launch.workgroupSize, subgroupSize: launch.subgroupSize || options.subgroupSize, args: refArgs });
      interpreter = Object.entries(expected).map(([name, want]) => compareOutput(name, outputs[name]!, want));
    }
    return { label: c.label, launch, dispatched: r.dispatched, device, ...(interpreter ? { interpreter } : {}), ...(r.gpuNs !== undefined ? { gpuNs: r.gpuNs } : {}) };
  } finally {
    for (const b of buffers) b.destroy();
    kernel.destroy();
  }
}
