/**
 * `loom run`: compile one kernel for a live device (Vulkan, CUDA: any harness device, see
 * docs/harness.md), run it on generated inputs, run the reference interpreter on the same
 * inputs, compare, summarize. The work is done by the kernel-suite harness (loomc/harness);
 * this file is the command line.
 */
import { openDevice, output, progress, requireOne, say, UsageError, type Command, type Values } from "./common.js";
import { readInput } from "./io.js";
import {
  CaseError,
  compileKernel,
  describeCheck,
  findDeviceProvider,
  findSuiteKernel,
  genericCase,
  median,
  runCase,
  type KernelCase,
} from "../harness/index.js";

// ---- the command --------------------------------------------------------------------------

function parseSizes(values: Values): Record<string, number> {
  const sizes: Record<string, number> = {};
  for (const text of (values.size as string[] | undefined) ?? []) {
    const [, name, value] = /^([A-Za-z_][\w.$-]*)=(.+)$/.exec(text) ?? [];
    const v = value === undefined ? NaN : Number(value);
    if (name === undefined || value === undefined || value.trim() === "" || !Number.isFinite(v)) throw new UsageError(`--size takes NAME=NUMBER, got '${text}'`);
    sizes[name] = v;
  }
  return sizes;
}

function parseWorkload(text: string | undefined): number[] | undefined {
  if (text === undefined) return undefined;
  if (text.trim() === "") return [];
  return text.split(",").map((t) => {
    const v = Number(t.trim());
    if (t.trim() === "" || !Number.isFinite(v)) throw new UsageError(`--workload: '${t}' is not a number`);
    return v;
  });
}

function nonNegativeInt(text: string | boolean | string[] | undefined, what: string, fallback: number): number {
  if (text === undefined) return fallback;
  const v = Number(text);
  if (typeof text !== "string" || !Number.isSafeInteger(v) || v < 0) throw new UsageError(`${what} must be a non-negative integer, got '${String(text)}'`);
  return v;
}

const x3 = (v: readonly number[]) => v.join("x");

export const runCommand: Command = {
  summary: "run a kernel on a device (Vulkan, CUDA, WebGPU, the AMDGPU simulator) and check it against the CPU reference",
  help: `usage: loom run FILE [--kernel NAME] [--device KIND] [--workload V,...] [--size NAME=N]... [--seed S] [--bench [--repeat R]]

Compiles the kernel for the device's own profile, evaluates the launch configuration,
generates deterministic inputs, launches, runs the reference interpreter on the same inputs
and compares.
  --kernel NAME          kernel symbol (default: the file's only kernel.def)
  --device KIND          vulkan (default): a Vulkan 1.3 device (SPIR-V); LOOM_VULKAN_DEVICE picks one
                         cuda: an NVIDIA GPU through libcuda.so.1 (PTX); LOOM_CUDA_DEVICE picks one,
                         LOOM_CUDA_LIBRARY overrides the driver's path
                         webgpu: WebGPU through Node's webgpu package (Dawn; WGSL); sim: AMDGPU code in
                         loom's ISA simulator (gfx1100; --device-index gfx942 for wave64)
  --device-index SEL     the device: an index or part of its name (instead of the variables)
  --workload V,...       one value per workload argument (as in 'loom launch')
  --size NAME=N          suite kernels: an extra size (e.g. k=64 for matmul16);
                         other kernels: element count of buffer NAME, or the value of a
                         device scalar that is not a workload argument (floats allowed)
  --seed S               input seed (default 1)
  --manifest PATH        suite manifest module (default: found next to FILE)
  --skip-interpreter     do not run the interpreter (suite kernels only)
  --max-steps N          the interpreter's budget of executed ops (default 50000000)
  --bench                time --repeat launches (default 20) with device timers (GPU timestamps,
                         CUDA events)
Suite kernels (examples/kernels) take inputs and the JS reference from the manifest and
check device == reference and interpreter == reference; other kernels fill buffers with
seeded random data (f32 in [-4, 4), integers in [0, 1024)) and compare every buffer with
the interpreter (integers exact, f32 within 64 eps relative + 1e-6).
Progress goes to stderr when it is a terminal (or LOOM_PROGRESS=1).
Exit status: 0 pass, 1 mismatch or compile error, 2 usage error, 3 unreadable FILE, 4 no usable device.`,
  options: {
    kernel: { type: "string" },
    device: { type: "string" },
    "device-index": { type: "string" },
    workload: { type: "string" },
    size: { type: "string", multiple: true },
    seed: { type: "string" },
    manifest: { type: "string" },
    "skip-interpreter": { type: "boolean" },
    "max-steps": { type: "string" },
    bench: { type: "boolean" },
    repeat: { type: "string" },
  },
  async run(values, positionals) {
    try {
      return await runKernel(values, positionals);
    } catch (e) {
      // The harness's complaints about the case are usage errors of this command.
      if (e instanceof CaseError) throw new UsageError(e.message);
      throw e;
    }
  },
};

async function runKernel(values: Values, positionals: string[]): Promise<number> {
  const file = requireOne(positionals);
  const kind = (values.device as string | undefined) ?? "vulkan";
  const sizes = parseSizes(values);
  const workload = parseWorkload(values.workload as string | undefined);
  const seed = nonNegativeInt(values.seed, "--seed", 1);
  const repeats = values.bench ? Math.max(1, nonNegativeInt(values.repeat, "--repeat", 20)) : 0;
  const maxSteps = values["max-steps"] === undefined ? undefined : Math.max(1, nonNegativeInt(values["max-steps"], "--max-steps", 0));
  const text = new TextDecoder().decode(readInput(file));
  const suite = file === "-" ? undefined : await findSuiteKernel(file, values.manifest as string | undefined);
  const symbol = (values.kernel as string | undefined)?.replace(/^@/, "") ?? suite?.symbol;
  if (suite && symbol !== suite.symbol) throw new UsageError(`the manifest describes @${suite.symbol}, not @${symbol}`);
  if (values["skip-interpreter"] && !suite) throw new UsageError("--skip-interpreter needs a suite kernel (the interpreter is the only reference otherwise)");
  if (!findDeviceProvider(kind)) openDevice(kind, undefined);

  progress(`compiling ${file}`);
  const device = openDevice(kind, values["device-index"] as string | undefined);
  try {
    const compiled = compileKernel(device.target, file === "-" ? "<stdin>" : file, text, symbol);
    if (!compiled.ok) {
      console.error(compiled.diagnostics);
      const errors = (compiled.diagnostics.match(/: error \[/g) ?? []).length;
      output.errors += Math.max(1, errors);
      if (output.json) output.diagnostics.push({ severity: "error", code: "COMPILE", message: compiled.diagnostics, file });
      return 1;
    }
    const kernel = compiled.kernel;
    if (workload !== undefined && workload.length !== kernel.workload.length) {
      throw new UsageError(`@${kernel.symbol} takes ${kernel.workload.length} workload value(s), got ${workload.length}`);
    }
    let c: KernelCase;
    if (suite) {
      const unknown = Object.keys(sizes).filter((k) => !suite.sizeNames.includes(k));
      if (unknown.length) throw new UsageError(`@${suite.symbol} knows the sizes ${suite.sizeNames.join(", ") || "(none)"}, not ${unknown.join(", ")}`);
      c = suite.build({ workload: workload ?? suite.shapes.quick[suite.shapes.quick.length - 1]!.workload, sizes }, seed);
    } else {
      if (workload === undefined && kernel.workload.length > 0) throw new UsageError("--workload V[,V...] is required");
      c = genericCase(kernel, workload ?? [], sizes, seed);
    }
    let result;
    try {
      result = runCase(device, kernel, c, {
        interpret: !values["skip-interpreter"],
        referenceFromInterpreter: !suite,
        repeats,
        ...(maxSteps === undefined ? {} : { maxInterpreterSteps: maxSteps }),
        progress: (stage) => progress(`${stage} @${kernel.symbol} (${c.label})`),
      });
    } catch (e) {
      if (e instanceof Error && /step-budget|budget of \d+ executed ops/.test(e.message)) {
        throw new UsageError(`the interpreter ran out of steps: ${e.message.replace(/raise maxSteps/, "raise it with --max-steps N")}`);
      }
      throw e;
    }
    const ns = median(result.gpuNs);
    const summary = {
      file,
      kernel: kernel.symbol,
      deviceKind: kind,
      deviceName: device.name,
      suite: suite !== undefined,
      seed,
      ...result,
      medianGpuNs: ns,
      gbPerSecond: result.bytesMoved / ns,
    };
    output.result = JSON.parse(JSON.stringify(summary, (_k, v: unknown) => (typeof v === "bigint" ? v.toString() : typeof v === "number" && !Number.isFinite(v) ? null : v))) as Record<string, unknown>;
    const l = result.launch;
    const reference = suite ? "JS reference" : "interpreter";
    const lines = [
      `kernel    @${kernel.symbol} (${file})${suite ? " [suite]" : ""}`,
      `device    ${device.name} (${device.description})`,
      `case      ${result.label} (seed ${seed})`,
      `launch    workgroups=${x3(l.workgroupCount)} workgroup_size=${x3(l.workgroupSize)}${result.dispatched ? "" : " (empty: nothing dispatched)"}`,
      `bytes     ${result.bytesMoved}`,
      ...result.device.map((d) => `${d.name.padEnd(9)} device vs ${reference}: ${describeCheck(d)}`),
      ...(result.interpreter ?? []).map((d) => `${d.name.padEnd(9)} interpreter vs JS reference: ${describeCheck(d)}`),
    ];
    if (values.bench) {
      lines.push(
        result.gpuNs.length
          ? `time      median ${(ns / 1000).toFixed(2)} us over ${result.gpuNs.length} runs (min ${(Math.min(...result.gpuNs) / 1000).toFixed(2)} us), ${(result.bytesMoved / ns).toFixed(2)} GB/s`
          : "time      no timestamps (nothing dispatched, or the device has no timer)",
      );
    }
    lines.push(`result    ${result.passed ? "PASS" : "FAIL"}`);
    say(lines.join("\n"));
    return result.passed ? 0 : 1;
  } finally {
    device.destroy();
  }
}
