/**
 * Compile-time scaling (issue 12 item 8): constant folding of 80k/160k/320k ops in one
 * kernel, and modules of 4k/8k/16k kernels compiled in one `compileModule`. Prints JSON:
 * per size the median wall time (parse, and compile through the prepared-low pipeline with
 * SPIR-V checks) and the ratio of each size to the one before (linear: ≈2 per doubling).
 *
 *   npm run build && node dist/bench/scaling.js [--samples N] [--quick]
 */
import { Compiler, Context, PassProgram, Source, Workspace, compileModule } from "../src/index.js";
import { createSpirvProfile, createSpirvTargetEnvironment } from "../src/targets/spirv/index.js";
import { performance } from "node:perf_hooks";

const args = process.argv.slice(2);
const samples = Number(args[args.indexOf("--samples") + 1] ?? 3) || 3;
const quick = args.includes("--quick");

/** One kernel whose body is a chain of `ops` foldable i32 additions, the last one stored. */
export function foldChain(ops: number): string {
  const lines = [
    `kernel.def export("fold") @fold(%n: index) {`,
    `  %c1 = index.constant 1 : index`,
    `  kernel.launch.config workgroups(%c1, %c1, %c1) workgroup_size(%c1, %c1, %c1) : index`,
    `} launch(%n: index, %b: buffer) {`,
    `  %o = index.constant 0 : offset`,
    `  %v = buffer.view %b[%o] : buffer -> view<[%n]xi32>`,
    `  %z = index.constant 0 : index`,
    `  %one = scalar.constant 1 : i32`,
    `  %x0 = scalar.constant 0 : i32`,
  ];
  for (let i = 1; i <= ops; i++) lines.push(`  %x${i} = scalar.addi %x${i - 1}, %one : i32`);
  lines.push(`  view.store %x${ops}, %v[%z] : i32, view<[%n]xi32>`, `  kernel.return`, `}`, ``);
  return lines.join("\n");
}

/** A module of `count` small kernels (one store each). */
export function manyKernels(count: number): string {
  const out: string[] = [];
  for (let k = 0; k < count; k++) {
    out.push(
      `kernel.def export("k${k}") @k${k}(%n: index) {`,
      `  %c1 = index.constant 1 : index`,
      `  %c64 = index.constant 64 : index`,
      `  kernel.launch.config workgroups(%n, %c1, %c1) workgroup_size(%c64, %c1, %c1) : index`,
      `} launch(%n: index, %b: buffer) {`,
      `  %o = index.constant 0 : offset`,
      `  %v = buffer.view %b[%o] : buffer -> view<[%n]xf32>`,
      `  %i = kernel.workitem.dispatch.id<x> : index`,
      `  %x = scalar.constant ${k}.0 : f32`,
      `  view.store %x, %v[%i] : f32, view<[%n]xf32>`,
      `  kernel.return`,
      `}`,
    );
  }
  return `${out.join("\n")}\n`;
}

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return Math.round(s[Math.floor(s.length / 2)]! * 10) / 10;
}

function measure(text: string, kernels: string[]): { sourceBytes: number; parseMs: number; compileMs: number } {
  const parse: number[] = [];
  const compile: number[] = [];
  for (let s = 0; s < samples; s++) {
    const env = createSpirvTargetEnvironment();
    const context = Context.create({ targetEnvironments: [env] });
    const profile = createSpirvProfile(env, { identifier: "vk", identity: { environment: "vulkan1.3", features: { shaderInt64: true } } });
    const compiler = Compiler.create(context);
    const pipeline = PassProgram.fromTargetPipeline(context, { kind: "prepared-low", verifyEachPass: false }).value!;
    const workspace = new Workspace(context);
    const t0 = performance.now();
    const parsed = workspace.parseModule(Source.fromText("scaling.loom", text));
    const t1 = performance.now();
    if (!parsed.ok) throw new Error(parsed.formatDiagnostics());
    const result = compileModule(compiler, workspace, pipeline, parsed.value!, { specializations: kernels.map((functionSymbol) => ({ functionSymbol, targetProfile: profile })) });
    const t2 = performance.now();
    if (!result.ok) throw new Error(result.formatDiagnostics());
    parse.push(t1 - t0);
    compile.push(t2 - t1);
  }
  return { sourceBytes: text.length, parseMs: median(parse), compileMs: median(compile) };
}

function series(sizes: number[], make: (n: number) => { text: string; kernels: string[] }) {
  const rows: { size: number; sourceBytes: number; parseMs: number; compileMs: number; compileRatio?: number }[] = [];
  for (const size of sizes) {
    const { text, kernels } = make(size);
    const m = measure(text, kernels);
    const prev = rows[rows.length - 1];
    rows.push({ size, ...m, ...(prev ? { compileRatio: Math.round((m.compileMs / prev.compileMs) * 100) / 100 } : {}) });
  }
  return rows;
}

const foldSizes = quick ? [10_000, 20_000, 40_000] : [80_000, 160_000, 320_000];
const kernelSizes = quick ? [500, 1000, 2000] : [4_000, 8_000, 16_000];
const report = {
  bench: "scaling",
  samples,
  node: process.version,
  foldedOps: series(foldSizes, (n) => ({ text: foldChain(n), kernels: ["fold"] })),
  kernels: series(kernelSizes, (n) => ({ text: manyKernels(n), kernels: Array.from({ length: n }, (_, k) => `k${k}`) })),
};
console.log(JSON.stringify(report, null, 2));
