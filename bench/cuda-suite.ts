/**
 * The kernel suite through loom's own PTX on an NVIDIA GPU: `node dist/bench/cuda-suite.js`.
 * Each kernel of examples/kernels is compiled in process for `ptx:sm_90` (parse → prepared-low →
 * PTX + kernel-interface record + launch companion), loaded through `loomc/runtime/cuda`
 * (driver JIT), run on every test shape against the suite's plain-JS reference, and timed on
 * the bench shapes with CUDA events after a time-based warm-up. Prints one JSON object; every
 * failure is reported in it, never thrown. Exit status 1 when any case failed.
 *
 *   --quick        the quick shapes instead of the bench shapes
 *   --tests-only   the test shapes alone (correctness; bench/h200.ts times the large shapes)
 *   --repeat N     timed launches per bench shape (default 20)
 *   --warmup-ms T  sustained load before each timed shape (default 500)
 *   --out FILE     also write the JSON there
 */
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { percentiles } from "./stats.js";
import { parseArgs } from "node:util";
import { performance } from "node:perf_hooks";
import { KERNEL_SUITE } from "../examples/kernels/suite.js";
import { compareOutput, workloadBits, type HostArray, type KernelCase, type OutputCheck, type SuiteKernel } from "../src/harness/index.js";
import { Compiler, Context, LaunchConfigProgram, PassProgram, Source, Workspace, compileModule, emitModule, parseExecutableInterface, type KernelInterface, type LaunchConfig } from "../src/index.js";
import { createPtxProfile, createPtxTargetEnvironment } from "../src/targets/ptx/index.js";
import { CudaRuntime, type ArgValue, type CudaBuffer, type CudaKernel } from "../src/runtime/cuda/index.js";

const { values: opts } = parseArgs({ options: { quick: { type: "boolean" }, "tests-only": { type: "boolean" }, repeat: { type: "string" }, "warmup-ms": { type: "string" }, out: { type: "string" } } });
const here = dirname(fileURLToPath(import.meta.url));
/** examples/kernels beside the source tree (run from dist/bench/ or bench/). */
const kernelDir = [resolve(here, "../../examples/kernels"), resolve(here, "../examples/kernels")].find((d) => existsSync(d)) ?? resolve(here, "../../examples/kernels");
const REPEAT = Number(opts.repeat ?? 20);
const WARMUP_MS = Number(opts["warmup-ms"] ?? 500);

interface CaseReport {
  readonly kernel: string;
  readonly label: string;
  readonly kind: "test" | "bench";
  readonly passed: boolean;
  readonly checks?: readonly OutputCheck[];
  readonly error?: string;
  readonly launch?: { readonly workgroupCount: readonly number[]; readonly workgroupSize: readonly number[] };
  readonly gpuMs?: { readonly median: number; readonly min: number; readonly max: number };
  readonly gbPerS?: number;
}

interface Compiled {
  readonly ptx: Uint8Array;
  readonly record: KernelInterface;
  readonly workloadTypes: readonly string[];
  launch(workload: readonly (number | bigint)[]): LaunchConfig;
  readonly compileMs: number;
}

const env = createPtxTargetEnvironment();
const context = Context.create({ targetEnvironments: [env] });
const profile = createPtxProfile(env, { identifier: "cuda-suite", identity: { target: "sm_90" } });
const pipeline = PassProgram.fromTargetPipeline(context, { kind: "prepared-low" }).value!;

function compile(k: SuiteKernel): Compiled | string {
  const t0 = performance.now();
  const workspace = new Workspace(context);
  const parsed = workspace.parseModule(Source.fromText(k.file, readFileSync(join(kernelDir, k.file), "utf8")));
  if (!parsed.ok || !parsed.value) return parsed.formatDiagnostics();
  const module = parsed.value;
  const compiled = compileModule(Compiler.create(context), workspace, pipeline, module, { specializations: [{ functionSymbol: k.symbol, targetProfile: profile }], artifacts: { launchConfig: true } });
  if (!compiled.ok) return compiled.formatDiagnostics();
  const emitted = emitModule(env, workspace, module, { artifactFormat: "ptx" });
  if (!emitted.ok) return emitted.formatDiagnostics();
  const ptx = emitted.findArtifact("executable")?.contents;
  const recordBytes = emitted.findArtifact("interface")?.contents;
  const launchArtifact = compiled.findArtifact("launch-config");
  if (!ptx || !recordBytes || !launchArtifact) return "a successful compile lacks its executable, interface or launch-config artifact";
  const record = parseExecutableInterface(recordBytes).kernels.find((r) => r.symbol === k.symbol);
  if (!record) return `the interface record has no kernel @${k.symbol}`;
  const program = LaunchConfigProgram.load(launchArtifact);
  const fn = program.lookupFunction(record.entryName);
  const workloadTypes = module.kernels().find((s) => s.symbol === k.symbol)?.workload.map((a) => a.type) ?? [];
  const compileMs = performance.now() - t0;
  return { ptx: ptx.slice(), record, workloadTypes, compileMs, launch: (w) => program.invoke(fn, w.map((v, i) => workloadBits(v, workloadTypes[i] ?? ""))) };
}

const bytesOf = (a: HostArray) => new Uint8Array(a.buffer, a.byteOffset, a.byteLength);
const like = (a: HostArray, bytes: Uint8Array): HostArray => {
  const buf = bytes.slice().buffer;
  return a instanceof Float32Array ? new Float32Array(buf) : a instanceof Int32Array ? new Int32Array(buf) : new Uint32Array(buf);
};
const message = (e: unknown) => (e instanceof Error ? `${e.name}: ${e.message}` : String(e));

function runCase(rt: CudaRuntime, kernel: CudaKernel, compiled: Compiled, k: SuiteKernel, c: KernelCase, kind: "test" | "bench"): CaseReport {
  const created: CudaBuffer[] = [];
  try {
    const launch = compiled.launch(c.workload);
    const byName = new Map<string, { buffer: CudaBuffer; data: HostArray }>();
    const args: ArgValue[] = c.args.map((a) => {
      if (a.kind === "scalar") return a.value;
      const buffer = rt.createBuffer(a.data.byteLength);
      created.push(buffer);
      if (a.data.byteLength > 0) buffer.upload(bytesOf(a.data));
      byName.set(a.name, { buffer, data: a.data });
      return { address: buffer.address, byteLength: buffer.byteLength };
    });
    const shape = { workgroupCount: launch.workgroupCount, workgroupSize: launch.workgroupSize, args };
    rt.dispatch(kernel, shape);
    rt.synchronize();
    const checks = Object.entries(c.reference()).map(([name, want]) => {
      const b = byName.get(name);
      if (!b) throw new Error(`the reference names '${name}', which is not a buffer argument`);
      return compareOutput(name, like(b.data, b.data.byteLength > 0 ? b.buffer.download() : new Uint8Array(0)), want);
    });
    const passed = checks.every((x) => x.mismatches === 0);
    const report = { kernel: k.symbol, label: c.label, kind, passed, checks, launch: { workgroupCount: [...launch.workgroupCount], workgroupSize: [...launch.workgroupSize] } };
    if (kind === "test" || !passed) return report;
    // Time-based warm-up: the SM clock falls within seconds of light load.
    const until = performance.now() + WARMUP_MS;
    while (performance.now() < until) {
      for (let i = 0; i < 20; i++) rt.launch(kernel, shape);
      rt.synchronize();
    }
    const times: number[] = [];
    for (let i = 0; i < REPEAT; i++) times.push(rt.dispatch(kernel, { ...shape, timing: true }).gpuMs ?? NaN);
    const ms = percentiles(times).p50;
    return { ...report, gpuMs: { median: ms, min: Math.min(...times), max: Math.max(...times) }, gbPerS: c.bytesMoved / (ms * 1e6) };
  } catch (e) {
    return { kernel: k.symbol, label: c.label, kind, passed: false, error: message(e) };
  } finally {
    for (const b of created) b.destroy();
  }
}

function main(): number {
  const report: { device?: unknown; kernels: unknown[]; cases: CaseReport[]; error?: string } = { kernels: [], cases: [] };
  let rt: CudaRuntime | undefined;
  try {
    rt = CudaRuntime.create();
    report.device = rt.deviceInfo();
    for (const k of KERNEL_SUITE) {
      const compiled = compile(k);
      if (typeof compiled === "string") {
        report.kernels.push({ kernel: k.symbol, ok: false, diagnostics: compiled });
        continue;
      }
      let kernel: CudaKernel;
      const j0 = performance.now();
      try {
        // loom's PTX declares its workgroup memory statically (docs/ptx.md): no dynamic shared memory.
        kernel = rt.createKernel(compiled.ptx, compiled.record, { dynamicSharedMemory: false });
      } catch (e) {
        report.kernels.push({ kernel: k.symbol, ok: false, error: message(e) });
        continue;
      }
      report.kernels.push({ kernel: k.symbol, ok: true, compileMs: compiled.compileMs, jitMs: performance.now() - j0, ptxBytes: compiled.ptx.byteLength });
      k.shapes.test.forEach((shape, i) => report.cases.push(runCase(rt!, kernel, compiled, k, k.build(shape, 1000 + i), "test")));
      const timed = opts["tests-only"] ? [] : opts.quick ? k.shapes.quick : k.shapes.bench;
      timed.forEach((shape, i) => report.cases.push(runCase(rt!, kernel, compiled, k, k.build(shape, 2000 + i), "bench")));
      process.stderr.write(`${k.symbol}: ${report.cases.filter((c) => c.kernel === k.symbol && c.passed).length}/${report.cases.filter((c) => c.kernel === k.symbol).length} passed\n`);
    }
  } catch (e) {
    report.error = message(e);
  } finally {
    rt?.destroy();
  }
  const failed = report.error !== undefined || report.cases.some((c) => !c.passed) || report.kernels.some((k) => !(k as { ok: boolean }).ok);
  const text = JSON.stringify({ passed: !failed, ...report }, null, 1);
  process.stdout.write(`${text}\n`);
  if (opts.out) writeFileSync(opts.out, text);
  return failed ? 1 : 0;
}

process.exitCode = main();
