/** `loom launch`: evaluate a kernel's launch configuration for workload values. */
import { Compiler, LaunchConfigProgram, PassProgram, compileModule } from "../index.js";
import { loadModule, report, requireOne, UsageError, type Command } from "./common.js";
import { resolveTarget } from "./targets.js";

export const launchCommand: Command = {
  summary: "evaluate a kernel's launch configuration for workload values",
  help: `usage: loom launch FILE --kernel NAME --workload V[,V...] [--target ENV:DEVICE] [--json]

Compiles the kernel's launch-config companion and evaluates it, printing
  workgroups=XxYxZ workgroup_size=XxYxZ cluster_size=XxYxZ subgroup_size=N workgroup_storage_bytes=N
  --kernel NAME          kernel symbol (with or without '@')
  --workload V,...       one value per workload argument (integers; floats for float arguments)
  --target ENV:DEVICE    profile to specialize for (default amdgpu:gfx1100)
  --feature NAME         a Vulkan feature of the device (spirv targets; repeatable)
  --limit NAME=VALUE     a Vulkan limit of the device (spirv targets; repeatable)
  --json                 print the launch as JSON`,
  options: {
    kernel: { type: "string" },
    workload: { type: "string" },
    target: { type: "string" },
    feature: { type: "string", multiple: true },
    limit: { type: "string", multiple: true },
    json: { type: "boolean" },
  },
  async run(values, positionals) {
    const file = requireOne(positionals);
    if (typeof values.kernel !== "string") throw new UsageError("--kernel NAME is required");
    if (typeof values.workload !== "string") throw new UsageError("--workload V[,V...] is required");
    const json = values.json === true;
    const facts = { features: (values.feature as string[] | undefined) ?? [], limits: (values.limit as string[] | undefined) ?? [] };
    const target = resolveTarget(typeof values.target === "string" ? values.target : "amdgpu:gfx1100", facts);
    const { module, workspace, context } = await loadModule(file, false, [target.environment]);
    if (!module) return 1;
    const symbol = values.kernel.replace(/^@/, "");
    const kernel = module.kernels().find((k) => k.symbol === symbol && k.defined);
    if (!kernel) throw new UsageError(`'${file}' has no kernel.def @${symbol}`);
    const types = kernel.workload.map((a) => a.type);
    const texts = values.workload === "" ? [] : values.workload.split(",");
    if (texts.length !== types.length) throw new UsageError(`@${symbol} takes ${types.length} workload value(s), got ${texts.length}`);
    const bits = texts.map((t, i) => toBits(t.trim(), types[i]!));
    const pipeline = PassProgram.fromTargetPipeline(context, { kind: "prepared-low" }).value!;
    const compiled = compileModule(Compiler.create(context), workspace, pipeline, module, {
      specializations: [{ functionSymbol: symbol, targetProfile: target.profile }],
      artifacts: { launchConfig: true },
    });
    if (!compiled.ok) {
      report(compiled, json, file);
      return 1;
    }
    const program = LaunchConfigProgram.load(compiled.findArtifact("launch-config")!);
    const fn = program.lookupFunction(kernel.exportName);
    const l = program.invoke(fn, bits);
    if (json) {
      console.log(JSON.stringify({ ...l, workgroupStorageBytes: Number(l.workgroupStorageBytes) }));
    } else {
      const x = (v: readonly number[]) => v.join("x");
      console.log(
        `workgroups=${x(l.workgroupCount)} workgroup_size=${x(l.workgroupSize)} cluster_size=${x(l.workgroupClusterSize)} subgroup_size=${l.subgroupSize} workgroup_storage_bytes=${l.workgroupStorageBytes}`,
      );
    }
    return 0;
  },
};

/** Raw 64-bit argument bits of a command-line value for a declared type (language.md §6). */
function toBits(text: string, name: string): bigint {
  if (name === "f32" || name === "f64" || name === "f16" || name === "bf16") {
    const x = Number(text);
    if (text === "" || Number.isNaN(x) && text !== "nan") throw new UsageError(`'${text}' is not a number`);
    const buf = new DataView(new ArrayBuffer(8));
    if (name === "f64") {
      buf.setFloat64(0, x, true);
      return buf.getBigUint64(0, true);
    }
    buf.setFloat32(0, x, true);
    const f32 = BigInt(buf.getUint32(0, true));
    if (name === "f32") return f32;
    throw new UsageError(`${name} workload values are not supported on the command line`);
  }
  if (!/^-?(0x[0-9a-fA-F]+|[0-9]+)$/.test(text)) throw new UsageError(`'${text}' is not an integer`);
  const neg = text.startsWith("-");
  const v = BigInt(neg ? text.slice(1) : text);
  return BigInt.asUintN(64, neg ? -v : v);
}
