/**
 * `loom run`: compile one kernel for a live Vulkan device, run it on generated inputs,
 * run the reference interpreter on the same inputs, compare, summarize. The work is done by
 * the kernel-suite harness (loomc/harness); this file is the command line.
 */
import { readFile } from "node:fs/promises";
import { VulkanRuntime } from "../runtime/vulkan/index.js";
import { UsageError, type Command, type Values } from "./common.js";
import { CaseError, compileForDevice, describeCheck, deviceProfile, findSuiteKernel, genericCase, median, runCase, type KernelCase } from "../harness/index.js";

// ---- the command --------------------------------------------------------------------------

function parseSizes(values: Values): Record<string, number> {
  const sizes: Record<string, number> = {};
  for (const text of (values.size as string[] | undefined) ?? []) {
    const m = /^([A-Za-z_][\w.$-]*)=(-?\d+)$/.exec(text);
    if (!m) throw new UsageError(`--size takes NAME=INTEGER, got '${text}'`);
    sizes[m[1]!] = Number(m[2]);
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

function positiveInt(text: string | boolean | string[] | undefined, what: string, fallback: number): number {
  if (text === undefined) return fallback;
  const v = Number(text);
  if (typeof text !== "string" || !Number.isSafeInteger(v) || v < 0) throw new UsageError(`${what} must be a non-negative integer, got '${String(text)}'`);
  return v;
}

const x3 = (v: readonly number[]) => v.join("x");

export const runCommand: Command = {
  summary: "run a kernel on a Vulkan device and check it against the CPU reference",
  help: `usage: loom run FILE [--kernel NAME] --device vulkan [--workload V,...] [--size NAME=N]... [--seed S] [--bench [--repeat R]]

Compiles the kernel for the Vulkan device's own profile (LOOM_VULKAN_DEVICE picks the device:
an index or part of its name), evaluates the launch configuration, generates deterministic
inputs, dispatches, runs the reference interpreter on the same inputs and compares.
  --kernel NAME          kernel symbol (default: the file's only kernel.def)
  --device vulkan        the runtime (only vulkan)
  --workload V,...       one value per workload argument (as in 'loom launch')
  --size NAME=N          suite kernels: an extra size (e.g. k=64 for matmul16);
                         other kernels: element count of buffer NAME, or the value of a
                         device scalar that is not a workload argument
  --seed S               input seed (default 1)
  --manifest PATH        suite manifest module (default: found next to FILE)
  --skip-interpreter     do not run the interpreter (suite kernels only)
  --bench                time --repeat dispatches (default 20) with GPU timestamps
  --json                 print the result as JSON
Suite kernels (examples/kernels) take inputs and the JS reference from the manifest and
check device == reference and interpreter == reference; other kernels fill buffers with
seeded random data (f32 in [-4, 4), integers in [0, 1024)) and compare every buffer with
the interpreter (integers exact, f32 within 64 eps relative + 1e-6).
Exit status: 0 pass, 1 mismatch or compile error, 2 usage error.`,
  options: {
    kernel: { type: "string" },
    device: { type: "string" },
    workload: { type: "string" },
    size: { type: "string", multiple: true },
    seed: { type: "string" },
    manifest: { type: "string" },
    "skip-interpreter": { type: "boolean" },
    bench: { type: "boolean" },
    repeat: { type: "string" },
    json: { type: "boolean" },
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
  if (positionals.length !== 1) throw new UsageError(`expected exactly one FILE, got ${positionals.length}`);
  const file = positionals[0]!;
  const deviceKind = values.device ?? "vulkan";
  if (deviceKind !== "vulkan") throw new UsageError(`--device: only 'vulkan' is supported, got '${String(deviceKind)}'`);
  const sizes = parseSizes(values);
  const workload = parseWorkload(values.workload as string | undefined);
  const seed = positiveInt(values.seed, "--seed", 1);
  const repeats = values.bench ? Math.max(1, positiveInt(values.repeat, "--repeat", 20)) : 0;
  const json = values.json === true;
  let text: string;
  try {
    text = await readFile(file, "utf8");
  } catch (e) {
    throw new UsageError(`cannot read '${file}': ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}`);
  }
  const suite = await findSuiteKernel(file, values.manifest as string | undefined);
  const symbol = (values.kernel as string | undefined)?.replace(/^@/, "") ?? suite?.symbol;
  if (suite && symbol !== suite.symbol) throw new UsageError(`the manifest describes @${suite.symbol}, not @${symbol}`);
  if (values["skip-interpreter"] && !suite) throw new UsageError("--skip-interpreter needs a suite kernel (the interpreter is the only reference otherwise)");

  const rt = VulkanRuntime.create();
  try {
    const info = rt.deviceInfo();
    const compiled = compileForDevice(file, text, deviceProfile(rt), symbol);
    if (!compiled.ok) {
      console.error(compiled.diagnostics);
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
    const result = runCase(rt, kernel, c, { interpret: !values["skip-interpreter"], referenceFromInterpreter: !suite, repeats });
    const ns = median(result.gpuNs);
    if (json) {
      console.log(JSON.stringify({ file, kernel: kernel.symbol, deviceName: info.name, seed, ...result, medianGpuNs: ns, gbPerSecond: result.bytesMoved / ns }));
    } else {
      const l = result.launch;
      const lines = [
        `kernel    @${kernel.symbol} (${file})${suite ? " [suite]" : ""}`,
        `device    ${info.name} (Vulkan ${info.apiVersion}, subgroup ${info.subgroupSize})`,
        `case      ${result.label} (seed ${seed})`,
        `launch    workgroups=${x3(l.workgroupCount)} workgroup_size=${x3(l.workgroupSize)}${result.dispatched ? "" : " (empty: nothing dispatched)"}`,
        `bytes     ${result.bytesMoved}`,
        ...result.device.map((d) => `${d.name.padEnd(9)} device vs ${suite ? "JS reference" : "interpreter"}: ${describeCheck(d)}`),
        ...(result.interpreter ?? []).map((d) => `${d.name.padEnd(9)} interpreter vs JS reference: ${describeCheck(d)}`),
      ];
      if (values.bench) {
        lines.push(
          result.gpuNs.length
            ? `time      median ${(ns / 1000).toFixed(2)} us over ${result.gpuNs.length} runs (min ${(Math.min(...result.gpuNs) / 1000).toFixed(2)} us), ${(result.bytesMoved / ns).toFixed(2)} GB/s`
            : "time      no timestamps (nothing dispatched, or the queue has no timestamp support)",
        );
      }
      lines.push(`result    ${result.passed ? "PASS" : "FAIL"}`);
      console.log(lines.join("\n"));
    }
    return result.passed ? 0 : 1;
  } finally {
    rt.destroy();
  }
}
