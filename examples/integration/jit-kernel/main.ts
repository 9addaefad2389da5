/**
 * The jit-kernel example: the whole embedding lifecycle of one kernel, in memory.
 *
 *   prepare immutable state once → parse → compile (specialize + launch-config companion)
 *   → load and evaluate the companion → emit the executable → hand both to a runtime.
 *
 * Usage: node dist/examples/integration/jit-kernel/main.js [--target gfx1100] [--workload 1009]
 */
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import {
  ARTIFACT_FORMAT,
  Compiler,
  Context,
  LaunchConfigProgram,
  LoomError,
  PassProgram,
  Source,
  Workspace,
  compileModule,
  emitModule,
  type Result,
} from "loomc";
import { createAmdgpuProfile, createAmdgpuTargetEnvironment } from "loomc/target/amdgpu";

const KERNEL_EXPORT_NAME = "workload_grid";

/** Turns a failed Result into an exception carrying its rendered diagnostics. */
function requireSuccess<T>(result: Result<T>, what: string): Result<T> {
  if (!result.ok) throw new Error(`${what}:\n${result.formatDiagnostics()}`);
  return result;
}

function main(argv: string[]): void {
  const { values } = parseArgs({
    args: argv,
    options: {
      target: { type: "string", default: "gfx1100" },
      workload: { type: "string", default: "1009" },
      help: { type: "boolean", short: "h" },
    },
  });
  if (values.help) {
    console.log("usage: jit-kernel [--target gfx1100|gfx942|gfx11-generic|...] [--workload N]");
    return;
  }
  const elementCount = BigInt(values.workload);

  // 1. Immutable prepared state: created once, shareable by every worker.
  const environment = createAmdgpuTargetEnvironment();
  const context = Context.create({ targetEnvironments: [environment] });
  const profile = createAmdgpuProfile(environment, { identifier: "guide-amdgpu", identity: { target: values.target } });
  const compiler = Compiler.create(context);
  const pipeline = requireSuccess(
    PassProgram.fromTargetPipeline(context, { identifier: "guide-prepared-low", kind: "prepared-low", sourceToLowMaxErrors: 20 }),
    "target pipeline preparation failed",
  ).value!;

  // 2. Worker-local state: a workspace and a mutable module parsed from in-memory text.
  const workspace = new Workspace(context);
  const text = readFileSync(fileURLToPath(new URL("../../../../examples/integration/jit-kernel/kernel.loom", import.meta.url)), "utf8");
  const module = requireSuccess(workspace.parseModule(Source.fromText("kernel.loom", text)), "parsing failed").value!;

  // 3. Specialize the exported kernel for the profile and ask for the launch-config companion.
  const compiled = requireSuccess(
    compileModule(compiler, workspace, pipeline, module, {
      moduleName: "guide_jit_kernel",
      specializations: [{ functionSymbol: KERNEL_EXPORT_NAME, targetProfile: profile }],
      artifacts: { launchConfig: true },
    }),
    "kernel compilation failed",
  );

  // 4. Load the host companion (it outlives the compile result) and evaluate the workload.
  const launchArtifact = compiled.findArtifact("launch-config", ARTIFACT_FORMAT.LOOM_BYTECODE);
  if (!launchArtifact) throw new LoomError("not-found", "launch-config artifact was not produced");
  const program = LaunchConfigProgram.load(launchArtifact);
  const fn = program.lookupFunction(KERNEL_EXPORT_NAME); // once per cached kernel version
  const launch = program.invoke(fn, [elementCount]);

  // 5. Emit the executable from the prepared module.
  const emitted = requireSuccess(
    emitModule(environment, workspace, module, {
      artifactFormat: ARTIFACT_FORMAT.AMDGPU_HSACO,
      identifier: "guide_jit_kernel.hsaco",
      primary: true,
    }),
    "executable emission failed",
  );
  const executable = emitted.findArtifact("executable", ARTIFACT_FORMAT.AMDGPU_HSACO)!;

  // 6. The two facts a runtime handoff needs: the evaluated launch and the executable bytes.
  const [gx, gy, gz] = launch.workgroupCount;
  const [sx, sy, sz] = launch.workgroupSize;
  console.log(`workload=${elementCount} workgroups=${gx}x${gy}x${gz} workgroup_size=${sx}x${sy}x${sz}`);
  console.log(`artifact=${executable.identifier} format=${executable.format} bytes=${executable.contents.byteLength}`);
}

try {
  main(process.argv.slice(2));
} catch (e) {
  console.error(e instanceof LoomError ? `error (${e.status}): ${e.message}` : String(e instanceof Error ? e.message : e));
  process.exitCode = 1;
}
