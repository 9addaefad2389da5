/** `loom compile`: text → executable (+ launch-config companion), written to files. */
import { writeFile } from "node:fs/promises";
import { Compiler, PassProgram, compileModule, emitModule } from "../index.js";
import { buildLinkIndex, loadModule, report, requireOne, UsageError, type Command } from "./common.js";
import { resolveTarget } from "./targets.js";

export const compileCommand: Command = {
  summary: "compile a kernel to an executable and its launch-config companion",
  help: `usage: loom compile FILE --target ENV:DEVICE [--kernel NAME]... [--library LIB]... -o OUT [--launch-config OUT] [--interface OUT] [--json]
       loom compile FILE --emit loombc -o OUT.loombc

FILE is .loom text or .loombc bytecode (detected by content).
  --emit KIND            executable (default) or loombc (the module as .loombc bytecode, no target)

  --target ENV:DEVICE    e.g. amdgpu:gfx1100, amdgpu:gfx942, amdgpu:gfx11-generic, spirv:vulkan1.3
  --feature NAME         a Vulkan feature the device has, for spirv targets (repeatable),
                         e.g. --feature shaderInt64 --feature shaderFloat64
  --limit NAME=VALUE     a Vulkan limit of the device, for spirv targets (repeatable; the
                         default is the Vulkan 1.3 minimum), e.g.
                         --limit maxComputeWorkGroupInvocations=1024 --limit maxComputeWorkGroupSize=1024,1024,64
  --kernel NAME          kernel symbol to compile (repeatable; default: every kernel.def)
  --library LIB          a library module to link declared symbols from (repeatable)
  -o, --output OUT       the executable artifact
  --launch-config OUT    also write the launch-config companion (.loombc)
  --interface OUT        also write the kernel-interface record (JSON, docs/abi.md)
  --json                 diagnostics and artifact descriptors as JSON on stdout`,
  options: {
    target: { type: "string" },
    emit: { type: "string" },
    library: { type: "string", multiple: true },
    feature: { type: "string", multiple: true },
    limit: { type: "string", multiple: true },
    kernel: { type: "string", multiple: true },
    output: { type: "string", short: "o" },
    "launch-config": { type: "string" },
    interface: { type: "string" },
    json: { type: "boolean" },
  },
  async run(values, positionals) {
    const file = requireOne(positionals);
    if (typeof values.output !== "string") throw new UsageError("-o OUT is required");
    const json = values.json === true;
    const emit = values.emit ?? "executable";
    if (emit === "loombc") return writeBytecode(file, values.output, json);
    if (emit !== "executable") throw new UsageError(`--emit must be 'executable' or 'loombc', got '${emit}'`);
    if (typeof values.target !== "string") throw new UsageError("--target is required");
    const target = resolveTarget(values.target, { features: (values.feature as string[] | undefined) ?? [], limits: (values.limit as string[] | undefined) ?? [] });
    const { module, workspace, context } = await loadModule(file, false, [target.environment]);
    if (!module) return 1;
    const kernels = (values.kernel as string[] | undefined) ?? module.kernels().filter((k) => k.defined).map((k) => k.symbol);
    if (kernels.length === 0) throw new UsageError(`'${file}' has no kernel.def to compile`);
    const linkIndex = await buildLinkIndex((values.library as string[] | undefined) ?? [], json);
    if (linkIndex === null) return 1;
    const pipeline = PassProgram.fromTargetPipeline(context, { kind: "prepared-low" }).value!;
    const compiled = compileModule(Compiler.create(context), workspace, pipeline, module, {
      moduleName: file.replace(/^.*\//, "").replace(/\.loom(bc)?$/, ""),
      specializations: kernels.map((k) => ({ functionSymbol: k, targetProfile: target.profile })),
      artifacts: { launchConfig: typeof values["launch-config"] === "string" },
      ...(linkIndex ? { linkIndex } : {}),
    });
    if (!compiled.ok) {
      report(compiled, json, file);
      return 1;
    }
    const emitted = emitModule(target.environment, workspace, module, { artifactFormat: target.format, identifier: values.output.replace(/^.*\//, "") });
    if (json) console.log(JSON.stringify({ file, compile: compiled.toJSON(), emit: emitted.toJSON() }));
    else report(emitted, false, file);
    if (!emitted.ok) return 1;
    await writeFile(values.output, emitted.artifacts[0]!.contents);
    const launch = compiled.findArtifact("launch-config");
    if (launch) await writeFile(values["launch-config"] as string, launch.contents);
    const record = emitted.findArtifact("interface");
    if (typeof values.interface === "string" && record) await writeFile(values.interface, record.contents);
    return 0;
  },
};

/** `--emit loombc`: the parsed, verified module as bytecode. */
async function writeBytecode(file: string, out: string, json: boolean): Promise<number> {
  const { module } = await loadModule(file, json);
  if (!module) return 1;
  await writeFile(out, module.toBytecode());
  return 0;
}
