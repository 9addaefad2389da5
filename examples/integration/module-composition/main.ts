/**
 * The module-composition example: a kernel module that declares what it uses, a library
 * that defines it, and one compile that specializes two kernels of the module for two
 * profiles — each selecting its own provider of one template family.
 *
 *   library.loom  public helpers (@ceil_div, @axpy) and three providers of @workgroup_width
 *   kernel.loom   func.decl / template.decl + two kernels using them
 *
 *   LinkIndexBuilder → freeze() → compileModule(..., { linkIndex, specializations: [
 *     composed_saxpy → SPIR-V (Vulkan 1.3, subgroup size 32),
 *     composed_grid  → AMDGPU (gfx942 by default, wave64) ] })
 *   → which provider each kernel selected, its launch geometry, both executables.
 *
 * Usage: node dist/examples/integration/module-composition/main.js [--amdgpu gfx942|gfx1100|...] [--workload 1000]
 */
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import {
  ARTIFACT_FORMAT,
  Compiler,
  Context,
  LaunchConfigProgram,
  LinkIndex,
  LinkIndexBuilder,
  LoomError,
  PassProgram,
  Source,
  Workspace,
  compileModule,
  emitModule,
  type Result,
} from "loomc";
import { createAmdgpuProfile, createAmdgpuTargetEnvironment } from "loomc/target/amdgpu";
import { createSpirvProfile, createSpirvTargetEnvironment } from "loomc/target/spirv";

interface Selection {
  readonly kernel: string;
  readonly profile: string;
  readonly family: string;
  readonly provider: string;
}

function requireSuccess<T>(result: Result<T>, what: string): Result<T> {
  if (!result.ok) throw new Error(`${what}:\n${result.formatDiagnostics()}`);
  return result;
}

function readExample(file: string): string {
  return readFileSync(fileURLToPath(new URL(`../../../../examples/integration/module-composition/${file}`, import.meta.url)), "utf8");
}

function main(argv: string[]): void {
  const { values } = parseArgs({
    args: argv,
    options: { amdgpu: { type: "string", default: "gfx942" }, workload: { type: "string", default: "1000" }, help: { type: "boolean", short: "h" } },
  });
  if (values.help) {
    console.log("usage: module-composition [--amdgpu gfx942|gfx1100|...] [--workload N]");
    return;
  }
  const elementCount = BigInt(values.workload);

  // 1. Immutable state: two target environments, one profile each, and the library index.
  const amdgpu = createAmdgpuTargetEnvironment();
  const spirv = createSpirvTargetEnvironment();
  const context = Context.create({ targetEnvironments: [amdgpu, spirv] });
  const amdgpuProfile = createAmdgpuProfile(amdgpu, { identifier: `amdgpu-${values.amdgpu}`, identity: { target: values.amdgpu } });
  const spirvProfile = createSpirvProfile(spirv, {
    identifier: "vulkan-wave32",
    identity: { environment: "vulkan1.3", features: { shaderInt64: true }, limits: { subgroupSize: 32 } },
  });
  const compiler = Compiler.create(context);
  const pipeline = requireSuccess(PassProgram.fromTargetPipeline(context, { kind: "prepared-low" }), "pipeline").value!;
  const built = requireSuccess(new LinkIndexBuilder().addSource(Source.fromText("library.loom", readExample("library.loom"))).freeze(), "library").value!;
  // A frozen index travels between workers as bytes.
  const linkIndex = LinkIndex.fromBytes(built.toBytes());

  // 2. Parse the kernel module and specialize each kernel for its own profile, in one call.
  const workspace = new Workspace(context);
  const module = requireSuccess(workspace.parseModule(Source.fromText("kernel.loom", readExample("kernel.loom"))), "parsing").value!;
  const compiled = requireSuccess(
    compileModule(compiler, workspace, pipeline, module, {
      moduleName: "composition",
      specializations: [
        { functionSymbol: "composed_saxpy", targetProfile: spirvProfile },
        { functionSymbol: "composed_grid", targetProfile: amdgpuProfile },
      ],
      linkIndex,
      artifacts: { launchConfig: true, templateSelections: true },
    }),
    "compilation",
  );

  // 3. Which provider each kernel's profile selected.
  const report = compiled.findArtifact("report", "json")!;
  const { selections } = JSON.parse(new TextDecoder().decode(report.contents)) as { selections: Selection[] };
  for (const s of selections) console.log(`${s.kernel} [${s.profile}]: template @${s.family} -> @${s.provider}`);

  // 4. Launch geometry per kernel, from the one launch-config companion.
  const program = LaunchConfigProgram.load(compiled.findArtifact("launch-config", ARTIFACT_FORMAT.LOOM_BYTECODE)!);
  for (const name of ["composed_saxpy", "composed_grid"]) {
    const launch = program.invoke(program.lookupFunction(name), [elementCount]);
    console.log(`${name}: workload=${elementCount} workgroups=${launch.workgroupCount.join("x")} workgroup_size=${launch.workgroupSize.join("x")} subgroup_size=${launch.subgroupSize}`);
  }

  // 5. One executable per environment from the same compiled module.
  for (const [env, format] of [[spirv, ARTIFACT_FORMAT.SPIRV], [amdgpu, ARTIFACT_FORMAT.AMDGPU_HSACO]] as const) {
    const emitted = requireSuccess(emitModule(env, workspace, module, { artifactFormat: format, identifier: `composition.${format}` }), `emitting ${format}`);
    const exe = emitted.findArtifact("executable", format)!;
    console.log(`artifact=${exe.identifier} format=${exe.format} bytes=${exe.contents.byteLength}`);
  }
}

try {
  main(process.argv.slice(2));
} catch (e) {
  console.error(e instanceof LoomError ? `error (${e.status}): ${e.message}` : String(e instanceof Error ? e.message : e));
  process.exitCode = 1;
}
