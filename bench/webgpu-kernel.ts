/**
 * One suite kernel compiled to WGSL for a WebGPU device's own profile (`profileFromAdapter` over
 * the runtime's facts), for the benchmarks that run through Dawn (bench/h200.ts,
 * bench/webgpu-suite.ts).
 */
import { Compiler, Context, LaunchConfigProgram, PassProgram, Source, Workspace, compileModule, emitModule, parseExecutableInterface, type ExecutableInterface, type KernelInterface, type LaunchConfig } from "../src/index.js";
import { workloadBits } from "../src/harness/index.js";
import type { WebGpuRuntime } from "../src/runtime/webgpu/index.js";
import { createWgslProfile, createWgslTargetEnvironment, profileFromAdapter } from "../src/targets/wgsl/index.js";

export interface WgslCompiled {
  readonly wgsl: Uint8Array;
  readonly record: ExecutableInterface;
  readonly entry: KernelInterface;
  launch(workload: readonly (number | bigint)[]): LaunchConfig;
}

export function compileWgsl(rt: WebGpuRuntime, file: string, text: string, symbol: string): WgslCompiled {
  const env = createWgslTargetEnvironment();
  const context = Context.create({ targetEnvironments: [env] });
  const profile = createWgslProfile(env, profileFromAdapter(rt.profileFacts(), "device"));
  const workspace = new Workspace(context);
  const parsed = workspace.parseModule(Source.fromText(file, text));
  if (!parsed.ok || !parsed.value) throw new Error(parsed.formatDiagnostics());
  const module = parsed.value;
  const pipeline = PassProgram.fromTargetPipeline(context, { kind: "prepared-low" }).value!;
  const compiled = compileModule(Compiler.create(context), workspace, pipeline, module, { specializations: [{ functionSymbol: symbol, targetProfile: profile }], artifacts: { launchConfig: true } });
  if (!compiled.ok) throw new Error(compiled.formatDiagnostics());
  const emitted = emitModule(env, workspace, module, { artifactFormat: "wgsl" });
  if (!emitted.ok) throw new Error(emitted.formatDiagnostics());
  const record = parseExecutableInterface(emitted.findArtifact("interface")!.contents);
  const entry = record.kernels.find((k) => k.symbol === symbol)!;
  const program = LaunchConfigProgram.load(compiled.findArtifact("launch-config")!);
  const fn = program.lookupFunction(entry.entryName);
  const types = module.kernels().find((k) => k.symbol === symbol)?.workload.map((a) => a.type) ?? [];
  return { wgsl: emitted.findArtifact("executable")!.contents, record, entry, launch: (w) => program.invoke(fn, w.map((v, i) => workloadBits(v, types[i] ?? ""))) };
}

