/** `loom compile`: text → executable (+ launch-config companion, interface record), or a listing. */
import { Compiler, PassProgram, compileModule, emitModule } from "../index.js";
import { amdgpuListingOf } from "../targets/amdgpu/index.js";
import { disassembleSpirv } from "../targets/spirv/index.js";
import { buildLinkIndex, list, loadModule, output, report, requireOne, UsageError, type Command, type Values } from "./common.js";
import { OutputPlan } from "./io.js";
import { resolveTarget, type DeviceFacts } from "./targets.js";

const EMIT_KINDS = ["executable", "asm", "ir", "loombc"] as const;

/** Target flags shared by compile, launch and run. */
export const TARGET_OPTIONS = {
  target: { type: "string" },
  feature: { type: "string", multiple: true },
  limit: { type: "string", multiple: true },
  "subgroup-ops": { type: "string", multiple: true },
} as const;

export const TARGET_HELP = `  --target ENV:DEVICE    ptx:sm_80 | ptx:sm_90 | ptx:sm_90a       (NVIDIA, PTX ISA 8.0)
                         spirv:vulkan1.3                          (the Vulkan 1.3 guaranteed minimum)
                         spirv:lavapipe | spirv:swiftshader | spirv:nvidia | spirv:amd-rdna
                                                                  (named device classes, docs/cli.md)
                         spirv:device | cuda:device               (the live device's own profile)
                         amdgpu:gfx1100 | amdgpu:gfx942 | amdgpu:gfx11-generic | …
  --feature NAME         spirv: a Vulkan feature the device has (repeatable), e.g. --feature shaderInt64
  --limit NAME=VALUE     spirv: a Vulkan limit of the device (repeatable; default the Vulkan 1.3
                         minimum), e.g. --limit maxComputeWorkGroupInvocations=1024
                         --limit maxComputeWorkGroupSize=1024,1024,64
  --subgroup-ops OPS     spirv: the device's subgroup operations, comma-separated or 'all'
                         (basic, vote, arithmetic, ballot, shuffle, shuffle-relative, clustered, quad)`;

export function deviceFacts(values: Values): DeviceFacts {
  return { features: list(values.feature), limits: list(values.limit), subgroupOps: list(values["subgroup-ops"]) };
}

export const compileCommand: Command = {
  summary: "compile kernels to an executable (PTX, SPIR-V, AMDGPU), a listing, IR or bytecode",
  help: `usage: loom compile FILE --target ENV:DEVICE [--kernel NAME]... [--library LIB]... -o OUT
                    [--launch-config OUT] [--interface OUT] [--emit KIND] [-g]
       loom compile FILE --target ptx:sm_90 --kernel saxpy -o saxpy.ptx
       loom compile FILE --emit loombc -o OUT.loombc

FILE is .loom text or .loombc bytecode (detected by content); '-' reads stdin, '-o -' writes stdout.
  --emit KIND            executable (default): the target's artifact (.ptx text, .spv, .hsaco)
                         asm: a readable listing (PTX or WGSL text; SPIR-V disassembly; AMDGPU assembly)
                         ir: the prepared-low IR the back end lowers, as Loom text
                         loombc: the parsed module as .loombc bytecode (no target needed)
${TARGET_HELP}
  --kernel NAME          kernel symbol to compile (repeatable; default: every kernel.def)
  --library LIB          a library module to link declared symbols from (repeatable)
  -o, --output OUT       the artifact (required)
  --launch-config OUT    also write the launch-config companion (.loombc)
  --interface OUT        also write the kernel-interface record (JSON, docs/abi.md)
  -g                     source line info: SPIR-V gets OpString/OpSource and an OpLine before
                         each op's instructions (other targets: no effect yet)
No output is written unless every output can be: an output that is an input, or two outputs
naming one file, is refused.`,
  options: {
    ...TARGET_OPTIONS,
    emit: { type: "string" },
    library: { type: "string", multiple: true },
    kernel: { type: "string", multiple: true },
    output: { type: "string", short: "o" },
    "launch-config": { type: "string" },
    interface: { type: "string" },
    g: { type: "boolean", short: "g" },
  },
  async run(values, positionals) {
    const file = requireOne(positionals);
    if (typeof values.output !== "string") throw new UsageError("-o OUT is required");
    const emit = (values.emit as string | undefined) ?? "executable";
    if (!(EMIT_KINDS as readonly string[]).includes(emit)) throw new UsageError(`--emit must be one of ${EMIT_KINDS.join(", ")}, got '${emit}'`);
    if (emit === "loombc") return writeBytecode(file, values);
    if (typeof values.target !== "string") throw new UsageError("--target is required (e.g. --target ptx:sm_90)");
    const target = resolveTarget(values.target, deviceFacts(values));
    try {
      const { module, workspace, context } = await loadModule(file, output.json, [target.environment]);
      if (!module) return 1;
      const kernels = list(values.kernel).map((k) => k.replace(/^@/, ""));
      const defined = module.kernels().filter((k) => k.defined).map((k) => k.symbol);
      const declared = module.kernels().map((k) => k.symbol);
      for (const k of kernels) if (!declared.includes(k)) throw new UsageError(`'${file}' has no kernel @${k} (has: ${declared.map((d) => `@${d}`).join(", ") || "none"})`);
      const chosen = kernels.length > 0 ? kernels : defined;
      if (chosen.length === 0) throw new UsageError(`'${file}' has no kernel.def to compile`);
      const linkIndex = await buildLinkIndex(list(values.library));
      if (linkIndex === null) return 1;
      const pipeline = PassProgram.fromTargetPipeline(context, { kind: "prepared-low" }).value!;
      const compiled = compileModule(Compiler.create(context), workspace, pipeline, module, {
        moduleName: file === "-" ? "stdin" : file.replace(/^.*\//, "").replace(/\.loom(bc)?$/, ""),
        specializations: chosen.map((k) => ({ functionSymbol: k, targetProfile: target.profile })),
        artifacts: { launchConfig: typeof values["launch-config"] === "string" },
        ...(linkIndex ? { linkIndex } : {}),
      });
      report(compiled, output.json, file);
      if (!compiled.ok) return 1;
      const plan = new OutputPlan();
      const launch = compiled.findArtifact("launch-config");
      if (emit === "ir") {
        plan.add("-o", values.output, module.print());
      } else {
        const emitted = emitModule(target.environment, workspace, module, {
          artifactFormat: target.format,
          identifier: values.output.replace(/^.*\//, ""),
          ...(values.g === true && target.format === "spirv" ? { target: { debugInfo: true } } : {}),
        });
        report(emitted, output.json, file);
        if (!emitted.ok) return 1;
        const [executable] = emitted.artifacts;
        if (!executable) throw new Error("emitModule succeeded without an executable artifact");
        plan.add("-o", values.output, emit === "asm" ? listing(target.format, executable.contents) : executable.contents);
        const record = emitted.findArtifact("interface");
        if (typeof values.interface === "string" && record) plan.add("--interface", values.interface, record.contents);
      }
      if (launch && typeof values["launch-config"] === "string") plan.add("--launch-config", values["launch-config"], launch.contents);
      plan.commit();
      output.result = {
        target: values.target,
        emit,
        format: emit === "ir" ? "loom" : emit === "asm" ? `${target.format}-asm` : target.format,
        kernels: chosen,
        outputs: [values.output, ...(typeof values["launch-config"] === "string" ? [values["launch-config"]] : []), ...(typeof values.interface === "string" ? [values.interface] : [])],
      };
      return 0;
    } finally {
      target.release();
    }
  },
};

/**
 * A readable listing of an executable: PTX and WGSL are text already; SPIR-V is disassembled by
 * loom itself; an HSACO comes with the assembly listing its back end kept for these bytes.
 */
function listing(format: string, bytes: Uint8Array): string {
  if (format === "ptx" || format === "wgsl") return new TextDecoder().decode(bytes);
  if (format === "spirv") return disassembleSpirv(bytes);
  const amdgpu = format === "amdgpu-hsaco" ? amdgpuListingOf(bytes) : undefined;
  if (amdgpu !== undefined) return amdgpu;
  throw new UsageError(`--emit asm: no listing for ${format} (disassemble the executable with its vendor's tool)`);
}

/** `--emit loombc`: the parsed, verified module as bytecode. */
async function writeBytecode(file: string, values: Values): Promise<number> {
  const { module } = await loadModule(file);
  if (!module) return 1;
  const plan = new OutputPlan();
  plan.add("-o", values.output as string, module.toBytecode());
  plan.commit();
  output.result = { emit: "loombc", format: "loombc", outputs: [values.output] };
  return 0;
}
