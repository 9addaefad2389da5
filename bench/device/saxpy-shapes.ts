/**
 * Device experiment: GPU time of a saxpy-shaped kernel at several sizes, no reference check
 * (the suite checks correctness). `node dist/bench/device/saxpy-shapes.js FILE N...`;
 * REPEAT=N timed dispatches (default 10); FILL=zero fills the buffers with zeros instead of random data (compressibility probe).
 */
import { readFileSync } from "node:fs";
import { VulkanRuntime } from "../../src/runtime/vulkan/runtime.js";
import { compileForDevice, deviceProfile, genericCase, median, runCase } from "../../src/harness/index.js";

const [file, ...sizes] = process.argv.slice(2);
const rt = VulkanRuntime.create();
const compiled = compileForDevice(file!, readFileSync(file!, "utf8"), deviceProfile(rt));
if (!compiled.ok) throw new Error(compiled.diagnostics);
for (const n of sizes.map(Number)) {
  // Timing only: an empty reference (the suite checks correctness).
  const base = genericCase(compiled.kernel, [n], { x: n, y: n, alpha: 2 }, 1);
  const args = process.env.FILL === "zero" ? base.args.map((a) => (a.kind === "buffer" ? { ...a, data: new Float32Array(a.data.length) } : a)) : base.args;
  const c = { ...base, args, reference: () => ({}) };
  const r = runCase(rt, compiled.kernel, c, { repeats: Number(process.env.REPEAT ?? 10), referenceFromInterpreter: false });
  const ns = median(r.gpuNs);
  const tail = median(r.gpuNs.slice(Math.floor(r.gpuNs.length / 2))); // after any clock ramp-up
  console.log(JSON.stringify({ file, fill: process.env.FILL ?? "random", n, workgroups: r.launch.workgroupCount, medianGpuUs: ns / 1000, gbPerSecond: (12 * n) / ns, secondHalfGbPerSecond: (12 * n) / tail }));
}
rt.destroy();
