/**
 * `loom check`: runs the `check.case` programs of a file on a device (the reference Loom's
 * check harness, docs/language.md §11) and prints one line per case sample, with the values
 * of the first mismatch; `check.benchmark` records print their median time. The work is done
 * by `runCheckModule` (loomc/harness) over the public `CheckProgram`.
 */
import { linkModule } from "../index.js";
import { buildLinkIndex, list, loadModule, openDevice, output, progress, readSource, report, requireOne, say, UsageError, type Command, type Values } from "./common.js";
import { CaseError, findDeviceProvider, runCheckModule, type CheckReport, type CheckSampleReport } from "../harness/index.js";

function count(values: Values, key: string, fallback: number, min: number): number {
  const text = values[key];
  if (text === undefined) return fallback;
  const v = Number(text);
  if (typeof text !== "string" || !Number.isSafeInteger(v) || v < min) throw new UsageError(`--${key} must be an integer >= ${min}, got '${String(text)}'`);
  return v;
}

function sampleText(s: CheckSampleReport): string {
  const entries = Object.entries(s.sample);
  return entries.length ? ` [${entries.map(([k, v]) => `${k}=${v}`).join(", ")}]` : "";
}

function ns(x: number): string {
  return x >= 1e6 ? `${(x / 1e6).toFixed(3)} ms` : `${(x / 1e3).toFixed(2)} us`;
}

function printReport(file: string, r: CheckReport): void {
  const detail = (s: CheckSampleReport) => {
    if (s.status === "error") {
      say(`    ${s.reason}`);
      if ("diagnostics" in s && s.diagnostics) say(s.diagnostics.replace(/^/gm, "    ").trimEnd());
      return;
    }
    if (s.status === "unsupported") say(`    ${s.reason ?? "unsupported"}`);
    for (const e of s.expectations) {
      if (e.passed) continue;
      const where = `${file}:${e.line}:${e.column}`;
      if (e.first) {
        const at = e.first.coordinates.length > 1 ? `[${e.first.coordinates.join(", ")}] (element ${e.first.index})` : `${e.first.index}`;
        say(`    ${where}: ${e.op}: ${e.mismatches} of ${e.count} element(s) differ; first at index ${at}: actual ${e.first.actual}, expected ${e.first.expected}`);
        if (e.actualPreview) say(`      actual   [${e.actualPreview.join(", ")}]`);
        if (e.expectedPreview) say(`      expected [${e.expectedPreview.join(", ")}]`);
      } else say(`    ${where}: ${e.op}: ${e.message ?? "failed"}`);
    }
  };
  for (const c of r.cases) {
    for (const s of c.samples) {
      say(`${s.status.toUpperCase().padEnd(11)} ${file}:${c.line} @${c.case}${sampleText(s)}`);
      detail(s);
    }
    if (c.skippedSamples > 0) say(`    (${c.skippedSamples} more sample(s) not run: --max-samples)`);
  }
  for (const b of r.benchmarks) {
    for (const row of b.samples) {
      const t = row.timing;
      const timing = t ? ` median ${ns(t.medianNs)} (min ${ns(t.minNs)}, max ${ns(t.maxNs)}; ${t.runs} runs after ${t.warmupRuns} warm-up, ${t.clock} clock)` : "";
      say(`${(row.outcome.status === "pass" ? "BENCH" : row.outcome.status.toUpperCase()).padEnd(11)} ${file}:${b.line} ${b.name} (@${b.case})${sampleText(row.outcome)}${timing}`);
      if (!t) detail(row.outcome);
    }
  }
}

/** JSON-safe copy: bigints as strings, non-finite numbers as null. */
function plain(x: unknown): unknown {
  return JSON.parse(JSON.stringify(x, (_k, v: unknown) => (typeof v === "bigint" ? v.toString() : typeof v === "number" && !Number.isFinite(v) ? null : v)));
}

export const checkCommand: Command = {
  summary: "run the check.case programs of a file on a device and compare their expectations",
  help: `usage: loom check FILE [--device KIND] [--library LIB]... [--case NAME] [--no-bench] [--json]

Runs every check.case of FILE (each parameter sample in plan order) on the device: kernels
compile for the device's own profile, kernel.launch evaluates the launch configuration for
its workload values, tensors are uploaded and read back, and each check.expect.* compares
(equal, bitwise, close with atol/rtol/nan, shape). A mismatch prints the first differing
index with both values. check.benchmark records run their case, then time its launches
(a warm-up of --warmup-ms, then --repeat runs; median, min, max).
  --device KIND          vulkan (default), cuda, sim, webgpu, or interp (the reference
                         interpreter on the CPU; no driver needed)
  --device-index SEL     the device: an index or part of its name
  --library LIB          a module defining the kernels FILE declares (kernel.decl); repeatable
  --case NAME            run only this case (and its benchmarks)
  --max-samples N        samples per case at most (default 64)
  --no-bench             skip check.benchmark records
  --warmup-ms N          benchmark warm-up time (default 100)
  --repeat N             timed runs per benchmark sample (default 20)
Exit status: 0 every case passed (unsupported cases are reported, not failures), 1 a
failed expectation, a program error or a kernel that does not compile, 2 usage error,
3 unreadable FILE, 4 no usable device.`,
  options: {
    device: { type: "string" },
    "device-index": { type: "string" },
    library: { type: "string", multiple: true },
    case: { type: "string" },
    "max-samples": { type: "string" },
    "no-bench": { type: "boolean" },
    "warmup-ms": { type: "string" },
    repeat: { type: "string" },
  },
  async run(values, positionals) {
    const file = requireOne(positionals);
    const kind = (values.device as string | undefined) ?? "vulkan";
    const sampleLimit = count(values, "max-samples", 64, 1);
    const warmupMs = count(values, "warmup-ms", 100, 0);
    const repetitions = count(values, "repeat", 20, 1);
    if (!findDeviceProvider(kind)) openDevice(kind, undefined);
    const source = readSource(file);
    const device = openDevice(kind, values["device-index"] as string | undefined);
    try {
      const { module } = await loadModule(source, output.json, [device.target.environment]);
      if (!module) return 1;
      let text = new TextDecoder().decode(source.bytes);
      const libraries = list(values.library);
      if (libraries.length > 0) {
        // The case's kernel.decl ops take their definitions from the libraries; kernels then
        // compile from the linked module's text.
        const index = await buildLinkIndex(libraries);
        if (!index) return 1;
        const linked = linkModule(module, index);
        report(linked, output.json, file);
        if (!linked.ok) return 1;
        text = module.print();
      }
      let checked: CheckReport;
      try {
        checked = runCheckModule(device, module, source.name, text, {
          ...(values.case === undefined ? {} : { case: values.case as string }),
          benchmarks: values["no-bench"] !== true,
          sampleLimit,
          warmupMs,
          repetitions,
          progress: (what) => progress(what),
        });
      } catch (e) {
        if (e instanceof CaseError) throw new UsageError(e.message);
        throw e;
      }
      output.result = plain({ ...checked, deviceName: device.name }) as Record<string, unknown>;
      printReport(source.name, checked);
      say(`loom check: ${checked.passed} passed, ${checked.failed} failed, ${checked.unsupported} unsupported, ${checked.errors} errors (${device.name})`);
      return checked.failed > 0 || checked.errors > 0 ? 1 : 0;
    } finally {
      device.destroy();
    }
  },
};
