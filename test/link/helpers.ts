/** Shared setup for linking and template tests: AMDGPU + SPIR-V environments, compile helpers. */
import { Compiler, Context, LaunchConfigProgram, LinkIndexBuilder, PassProgram, Source, Workspace, compileModule, type LinkIndex } from "../../src/index.js";
import type { CompileOptions } from "../../src/api/compile.js";
import { createAmdgpuProfile, createAmdgpuTargetEnvironment } from "../../src/targets/amdgpu/index.js";
import { createSpirvProfile, createSpirvTargetEnvironment } from "../../src/targets/spirv/index.js";
import type { TargetProfile } from "../../src/core/target.js";

export const amdgpu = createAmdgpuTargetEnvironment();
export const spirv = createSpirvTargetEnvironment();
export const context = Context.create({ targetEnvironments: [amdgpu, spirv] });
export const compiler = Compiler.create(context);
export const pipeline = PassProgram.fromTargetPipeline(context, { kind: "prepared-low", verifyEachPass: true }).value!;

export const gfx1100 = createAmdgpuProfile(amdgpu, { identifier: "gfx1100", identity: { target: "gfx1100" } });
export const gfx942 = createAmdgpuProfile(amdgpu, { identifier: "gfx942", identity: { target: "gfx942" } });
/** A Vulkan device without a fixed subgroup size. */
export const vulkan = createSpirvProfile(spirv, { identifier: "vulkan", identity: { environment: "vulkan1.3", features: { shaderInt64: true } } });

/** Freezes an index over `libraries` (name → text); throws with rendered diagnostics on failure. */
export function index(libraries: Record<string, string>): LinkIndex {
  const b = new LinkIndexBuilder();
  for (const [name, text] of Object.entries(libraries)) b.addSource(Source.fromText(name, text));
  const r = b.freeze();
  if (!r.ok) throw new Error(r.formatDiagnostics());
  return r.value!;
}

export function parse(text: string, name = "root.loom") {
  const workspace = new Workspace(context);
  const r = workspace.parseModule(Source.fromText(name, text));
  if (!r.ok) throw new Error(r.formatDiagnostics());
  return { workspace, module: r.value! };
}

/** Compiles `text` with one specialization per [kernel, profile] pair. */
export function compile(text: string, kernels: readonly (readonly [string, TargetProfile])[], extra: Omit<CompileOptions, "specializations"> = {}) {
  const { workspace, module } = parse(text);
  const result = compileModule(compiler, workspace, pipeline, module, {
    specializations: kernels.map(([functionSymbol, targetProfile]) => ({ functionSymbol, targetProfile })),
    ...extra,
    artifacts: { launchConfig: true, templateSelections: true, ...extra.artifacts },
  });
  return { workspace, module, result };
}

/** Evaluates a compiled kernel's launch config for `workload`. */
export function launch(result: ReturnType<typeof compile>["result"], exportName: string, workload: bigint[]) {
  const program = LaunchConfigProgram.load(result.findArtifact("launch-config")!);
  return program.invoke(program.lookupFunction(exportName), workload);
}

/** Provider choices from the template-selections report. */
export function selections(result: ReturnType<typeof compile>["result"]): { kernel: string; profile: string; family: string; provider: string }[] {
  const a = result.findArtifact("report", "json");
  return a ? JSON.parse(new TextDecoder().decode(a.contents)).selections : [];
}

/** A kernel whose config region computes `%groups` and `%width` from `lines`; empty body. */
export function gridKernel(name: string, lines: string, args = "%n: index"): string {
  return `kernel.def @${name}(${args}) {
  %c1 = index.constant 1 : index
${lines}
  kernel.launch.config workgroups(%groups, %c1, %c1) workgroup_size(%width, %c1, %c1) : index
} launch() {
  kernel.return
}
`;
}
