/**
 * The kernel suite on a Vulkan device, timed: `node dist/bench/vulkan-suite.js [--quick]`.
 *
 * Every kernel of examples/kernels is compiled for the device's own profile
 * (profileFromDevice; LOOM_VULKAN_DEVICE picks the device), run at its test shapes (0, 1,
 * primes, non-multiples: correctness) and its bench shapes (large), each checked against the
 * manifest's JS reference, then re-dispatched with GPU timestamps. One JSON report goes to
 * stdout (progress to stderr); saxpy at 2²⁸ elements gets its own line with GB/s, bytes =
 * 3 × 4 × n. Exit status 1 when any case fails. Needs only dist/, examples/kernels/*.loom and
 * koffi: no TypeScript, no spirv-val, no interpreter (too slow at these sizes). A case past a
 * device limit (workgroup count, storage-buffer range: `out-of-range` before anything runs) is
 * reported as skipped, not failed.
 *
 *   --quick         the quick shapes only, 3 timed repetitions (a smoke test)
 *   --tests-only    the test shapes alone (correctness; bench/h200.ts times the large shapes)
 *   --repeat N      timed repetitions per case (default 20; test shapes use 3)
 *   --warmup N      untimed dispatches before a bench shape's timed ones (default 200): GPUs
 *                   raise their clocks only under sustained load (H200: 817 → 2148 GB/s on saxpy)
 *   --kernel NAME   only this kernel (repeatable)
 *   --kernels DIR   where the .loom files are (default: examples/kernels of this checkout)
 *   --seed S        input seed (default 1)
 */
import { existsSync, readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { KERNEL_SUITE } from "../examples/kernels/suite.js";
import { compileForDevice, deviceProfile, median, runCase, type CaseResult, type CaseShape, type SuiteKernel } from "../src/harness/index.js";
import { LoomError } from "../src/core/errors.js";
import { VulkanRuntime } from "../src/runtime/vulkan/index.js";

const SAXPY_HEADLINE_N = 1 << 28;

interface CaseReport {
  readonly kernel: string;
  readonly label: string;
  readonly kind: "test" | "bench" | "quick";
  readonly passed: boolean;
  /** Set when the case exceeds a device limit (out-of-range before anything ran): not a failure. */
  readonly skipped?: string;
  readonly error?: string;
  readonly mismatches?: number;
  readonly maxError?: number;
  readonly firstMismatch?: unknown;
  readonly workgroups?: readonly number[];
  readonly workgroupSize?: readonly number[];
  readonly bytesMoved: number;
  readonly repeats: number;
  readonly medianGpuNs: number | null;
  readonly minGpuNs: number | null;
  readonly gbPerSecond: number | null;
}

function usage(message: string): never {
  process.stderr.write(`vulkan-suite: ${message}\nusage: node dist/bench/vulkan-suite.js [--quick] [--repeat N] [--warmup N] [--kernel NAME]... [--kernels DIR] [--seed S]\n`);
  process.exit(2);
}

function count(text: string | undefined, what: string, fallback: number): number {
  if (text === undefined) return fallback;
  const v = Number(text);
  if (!Number.isSafeInteger(v) || v < 0) usage(`${what} must be a non-negative integer, got '${text}'`);
  return v;
}

const parsed = (() => {
  try {
    return parseArgs({
      options: {
        quick: { type: "boolean" },
        "tests-only": { type: "boolean" },
        repeat: { type: "string" },
        warmup: { type: "string" },
        kernel: { type: "string", multiple: true },
        kernels: { type: "string" },
        seed: { type: "string" },
      },
    }).values;
  } catch (e) {
    return usage((e as Error).message);
  }
})();
const quick = parsed.quick === true;
const repeat = count(parsed.repeat, "--repeat", quick ? 3 : 20);
const warmup = count(parsed.warmup, "--warmup", quick ? 0 : 200);
const seed = count(parsed.seed, "--seed", 1);
// dist/bench/vulkan-suite.js → the checkout's examples/kernels.
const kernelDir = resolve(parsed.kernels ?? join(fileURLToPath(new URL(".", import.meta.url)), "..", "..", "examples", "kernels"));
if (!existsSync(kernelDir)) usage(`no kernel directory at ${kernelDir} (pass --kernels DIR)`);
const only = parsed.kernel;
const unknown = (only ?? []).filter((k) => !KERNEL_SUITE.some((s) => s.symbol === k));
if (unknown.length) usage(`unknown kernel(s) ${unknown.join(", ")} (known: ${KERNEL_SUITE.map((k) => k.symbol).join(", ")})`);

function report(kernel: SuiteKernel, kind: CaseReport["kind"], label: string, bytesMoved: number, r: CaseResult | Error, repeats: number): CaseReport {
  if (r instanceof Error) {
    const skipped = r instanceof LoomError && r.status === "out-of-range";
    return { kernel: kernel.symbol, label, kind, passed: skipped, ...(skipped ? { skipped: r.message } : { error: r.message }), bytesMoved, repeats: 0, medianGpuNs: null, minGpuNs: null, gbPerSecond: null };
  }
  const bad = r.device.find((d) => d.mismatches > 0);
  const ns = median(r.gpuNs);
  return {
    kernel: kernel.symbol,
    label: r.label,
    kind,
    passed: r.passed,
    mismatches: r.device.reduce((s, d) => s + d.mismatches, 0),
    maxError: Math.max(0, ...r.device.map((d) => d.maxError)),
    ...(bad?.first ? { firstMismatch: { output: bad.name, ...bad.first } } : {}),
    workgroups: r.launch.workgroupCount,
    workgroupSize: r.launch.workgroupSize,
    bytesMoved: r.bytesMoved,
    repeats: r.gpuNs.length,
    medianGpuNs: r.gpuNs.length ? ns : null,
    minGpuNs: r.gpuNs.length ? Math.min(...r.gpuNs) : null,
    gbPerSecond: r.gpuNs.length && ns > 0 ? r.bytesMoved / ns : null,
  };
}

const rt = VulkanRuntime.create();
const cases: CaseReport[] = [];
const compileErrors: { kernel: string; diagnostics: string }[] = [];
try {
  const info = rt.deviceInfo();
  process.stderr.write(`device: ${info.name} (Vulkan ${info.apiVersion}, subgroup ${info.subgroupSize})\n`);
  const profile = deviceProfile(rt);
  for (const kernel of KERNEL_SUITE.filter((k) => !only || only.includes(k.symbol))) {
    const compiled = compileForDevice(kernel.file, readFileSync(join(kernelDir, kernel.file), "utf8"), profile, kernel.symbol);
    if (!compiled.ok) {
      compileErrors.push({ kernel: kernel.symbol, diagnostics: compiled.diagnostics });
      continue;
    }
    const plan: [CaseReport["kind"], CaseShape, number][] = quick
      ? kernel.shapes.quick.map((s) => ["quick", s, repeat])
      : [
          ...kernel.shapes.test.map((s): [CaseReport["kind"], CaseShape, number] => ["test", s, Math.min(repeat, 3)]),
          ...(parsed["tests-only"] ? [] : kernel.shapes.bench.map((s): [CaseReport["kind"], CaseShape, number] => ["bench", s, repeat])),
        ];
    for (const [kind, shape, repeats] of plan) {
      const c = kernel.build(shape, seed);
      process.stderr.write(`${kernel.symbol} ${c.label} ...`);
      let r: CaseResult | Error;
      try {
        const extra = kind === "bench" ? warmup : 0;
        r = runCase(rt, compiled.kernel, c, { repeats: repeats + extra });
        // Only the last `repeats` dispatches count: the first `extra` warm the clocks up.
        if (extra) r = { ...r, gpuNs: r.gpuNs.slice(extra) };
      } catch (e) {
        r = e instanceof Error ? e : new Error(String(e));
      }
      const line = report(kernel, kind, c.label, c.bytesMoved, r, repeats);
      process.stderr.write(` ${line.skipped ? `skipped (${line.skipped})` : line.passed ? "ok" : `FAIL ${line.error ?? ""}`}${line.gbPerSecond !== null ? ` ${line.gbPerSecond.toFixed(1)} GB/s` : ""}\n`);
      cases.push(line);
    }
  }
  const headline = cases.find((c) => c.kernel === "saxpy" && c.label === `n=${SAXPY_HEADLINE_N}`);
  const passed = compileErrors.length === 0 && cases.every((c) => c.passed);
  const out = {
    device: { name: info.name, type: info.type, apiVersion: info.apiVersion, vendorId: info.vendorId, subgroupSize: info.subgroupSize, timestampPeriodNs: info.limits.timestampPeriod },
    node: process.version,
    date: new Date().toISOString(),
    mode: quick ? "quick" : "full",
    seed,
    passed,
    skipped: cases.filter((c) => c.skipped).length,
    saxpy: headline
      ? { n: SAXPY_HEADLINE_N, bytes: 3 * 4 * SAXPY_HEADLINE_N, passed: headline.passed, medianGpuNs: headline.medianGpuNs, gbPerSecond: headline.gbPerSecond, error: headline.error }
      : null,
    compileErrors,
    cases,
  };
  console.log(JSON.stringify(out, (_k, v) => (typeof v === "number" && !Number.isFinite(v) ? String(v) : v), 2));
  process.exitCode = passed ? 0 : 1;
} finally {
  rt.destroy();
}
