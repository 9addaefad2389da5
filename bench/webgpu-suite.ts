/**
 * The kernel suite through loom's WGSL on a WebGPU device in Node (npm `webgpu`, Dawn):
 * `node dist/bench/webgpu-suite.js`. Each kernel of examples/kernels is compiled for the
 * adapter's own profile and run on every test shape against the suite's plain-JS reference
 * (bench/h200.ts times the large shapes). On an NVIDIA machine Dawn runs on NVIDIA's Vulkan
 * driver (set VK_DRIVER_FILES to its ICD when the loader does not find it). Prints one JSON
 * object; exit status 1 when any case failed.
 *
 *   --kernel NAME   only this kernel (repeatable)
 *   --out FILE      also write the JSON there
 */
import { readFileSync, writeFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { existsSync } from "node:fs";
import { KERNEL_SUITE } from "../examples/kernels/suite.js";
import { compareOutput, type HostArray, type OutputCheck } from "../src/harness/index.js";
import { WebGpuRuntime, type GpuEntry, type WebGpuBuffer } from "../src/runtime/webgpu/index.js";
import { compileWgsl } from "./webgpu-kernel.js";

const { values: opts } = parseArgs({ options: { kernel: { type: "string", multiple: true }, out: { type: "string" } } });
const here = dirname(fileURLToPath(import.meta.url));
const kernelDir = [resolve(here, "../../examples/kernels"), resolve(here, "../examples/kernels")].find((d) => existsSync(d)) ?? resolve(here, "../../examples/kernels");
const SEED = 20261201;
const message = (e: unknown) => (e instanceof Error ? `${e.name}: ${e.message}` : String(e));
const bytesOf = (a: HostArray) => new Uint8Array(a.buffer, a.byteOffset, a.byteLength);
const like = (a: HostArray, bytes: Uint8Array): HostArray => {
  const buf = bytes.slice().buffer;
  return a instanceof Float32Array ? new Float32Array(buf) : a instanceof Int32Array ? new Int32Array(buf) : new Uint32Array(buf);
};

interface CaseReport {
  readonly kernel: string;
  readonly label: string;
  readonly passed: boolean;
  readonly checks?: readonly OutputCheck[];
  readonly error?: string;
  readonly gpuNs?: number;
}

async function main(): Promise<number> {
  const report: Record<string, unknown> = { date: new Date().toISOString(), node: process.version };
  const cases: CaseReport[] = [];
  let rt: WebGpuRuntime | undefined;
  try {
    const mod = (await import("webgpu")) as unknown as { create(options: string[]): GpuEntry };
    const gpu = mod.create(["disable-dawn-features=timestamp_quantization"]);
    const adapter = await gpu.requestAdapter({ powerPreference: "high-performance" });
    if (!adapter) throw new Error("Dawn found no adapter");
    rt = await WebGpuRuntime.create({ gpu, adapter });
    report["device"] = rt.profileFacts().adapter;
    for (const k of KERNEL_SUITE.filter((x) => !opts.kernel || opts.kernel.includes(x.symbol))) {
      let compiled;
      try {
        compiled = compileWgsl(rt, k.file, readFileSync(join(kernelDir, k.file), "utf8"), k.symbol);
      } catch (e) {
        cases.push({ kernel: k.symbol, label: "compile", passed: false, error: message(e) });
        continue;
      }
      const kernel = await rt.createKernel(compiled.wgsl, compiled.record, compiled.entry.entryName);
      for (const shape of k.shapes.test) {
        const c = k.build(shape, SEED);
        const created: WebGpuBuffer[] = [];
        try {
          const byName = new Map<string, { buffer: WebGpuBuffer; data: HostArray }>();
          const buffers: WebGpuBuffer[] = [];
          const args = c.args.map((a) => {
            if (a.kind === "scalar") return a.value;
            const buffer = rt!.createBuffer(Math.max(4, a.data.byteLength));
            created.push(buffer);
            buffers.push(buffer);
            if (a.data.byteLength > 0) buffer.upload(bytesOf(a.data));
            byName.set(a.name, { buffer, data: a.data });
            return kernel.bufferArgument(buffer);
          });
          const r = await rt.dispatch(kernel, { workgroupCount: compiled.launch(c.workload).workgroupCount, args, buffers, timestamps: true });
          const checks: OutputCheck[] = [];
          for (const [name, want] of Object.entries(c.reference())) {
            const b = byName.get(name)!;
            checks.push(compareOutput(name, like(b.data, b.data.byteLength > 0 ? (await b.buffer.download()).slice(0, b.data.byteLength) : new Uint8Array(0)), want));
          }
          cases.push({ kernel: k.symbol, label: c.label, passed: checks.every((x) => x.mismatches === 0), checks, ...(r.gpuNs !== undefined ? { gpuNs: r.gpuNs } : {}) });
        } catch (e) {
          cases.push({ kernel: k.symbol, label: c.label, passed: false, error: message(e) });
        } finally {
          for (const b of created) b.destroy();
        }
      }
      kernel.destroy();
    }
  } catch (e) {
    report["error"] = message(e);
  } finally {
    rt?.destroy();
  }
  const passed = report["error"] === undefined && cases.every((c) => c.passed);
  Object.assign(report, { passed, casesPassed: cases.filter((c) => c.passed).length, cases: cases.length, results: cases });
  const text = JSON.stringify(report, (_k, v: unknown) => (typeof v === "bigint" ? String(v) : v), 1);
  process.stdout.write(`${text}\n`);
  if (opts.out) writeFileSync(opts.out, text);
  return passed ? 0 : 1;
}

process.exitCode = await main();
