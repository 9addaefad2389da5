/**
 * The compile-benchmark kernels (bench/kernels/: a 16-step dependent i32 chain and an f32
 * FFN gate/up projection) compile for gfx1100 and gfx942, every .text word decodes under
 * llvm-objdump-19 (no unknown words) exactly as the simulator's decoder decodes it, and the
 * simulator running our bytes reproduces a CPU reference at several sizes (0, 1, primes,
 * non-multiples of the workgroup size).
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { Compiler, Context, PassProgram, Source, Workspace, compileModule, emitModule } from "../../src/index.js";
import { createAmdgpuProfile, createAmdgpuTargetEnvironment } from "../../src/targets/amdgpu/index.js";
import { SimRuntime, decodeRange, loadCodeObject, type SimModule } from "../../src/runtime/sim/index.js";
import { withFile } from "./llvm.js";
import { requireTool } from "../util/tools.js";
import { llvmListing } from "../sim/llvm-listing.js";

const kernelSource = (name: string) => readFileSync(fileURLToPath(new URL(`../../../bench/kernels/${name}.loom`, import.meta.url)), "utf8");

function build(name: string, target: string): Uint8Array {
  const env = createAmdgpuTargetEnvironment();
  const profile = createAmdgpuProfile(env, { identifier: `bench-${target}`, identity: { target } });
  const context = Context.create({ targetEnvironments: [env] });
  const workspace = new Workspace(context);
  const parsed = workspace.parseModule(Source.fromText(`${name}.loom`, kernelSource(name)));
  assert.ok(parsed.ok && parsed.value, parsed.formatDiagnostics());
  const pipeline = PassProgram.fromTargetPipeline(context, { kind: "prepared-low" }).value;
  assert.ok(pipeline);
  const compiled = compileModule(Compiler.create(context), workspace, pipeline, parsed.value, { specializations: [{ functionSymbol: name, targetProfile: profile }] });
  assert.ok(compiled.ok, compiled.formatDiagnostics());
  const emitted = emitModule(env, workspace, parsed.value, { artifactFormat: "amdgpu-hsaco" });
  assert.ok(emitted.ok, emitted.formatDiagnostics());
  const hsaco = emitted.artifacts[0];
  assert.ok(hsaco);
  return hsaco.contents;
}

/** Runs the chain on `n` elements; returns what the kernel wrote and the reference. */
function runChain(module: SimModule, rt: SimRuntime, n: number): { got: Int32Array; want: Int32Array } {
  const input = Int32Array.from({ length: n }, (_, i) => (i * 2654435761) | 0);
  const want = input.map((x) => Math.imul(x, 17));
  const inBuf = rt.allocate(Math.max(4, input.byteLength), "input");
  const outBuf = rt.allocate(Math.max(4, input.byteLength), "output");
  rt.upload(inBuf, input);
  rt.launch(module.kernel("i32_chain16"), [Math.ceil(n / 64), 1, 1], [n, inBuf, outBuf], { workgroupSize: [64, 1, 1] });
  const got = new Int32Array(rt.download(outBuf).slice().buffer).subarray(0, n);
  return { got, want };
}

/** Runs the FFN gate/up kernel; values are small multiples of 1/4, so every f32 sum is exact. */
function runFfn(module: SimModule, rt: SimRuntime, tokens: number, channels: number, width: number): { got: Float32Array; want: Float32Array } {
  const x = Float32Array.from({ length: tokens * width }, (_, i) => ((i * 7) % 9) / 4 - 1);
  const wg = Float32Array.from({ length: channels * width }, (_, i) => ((i * 5) % 7) / 4 - 0.75);
  const wu = Float32Array.from({ length: channels * width }, (_, i) => ((i * 3) % 5) / 4 - 0.5);
  const want = new Float32Array(tokens * channels);
  for (let t = 0; t < tokens; t++) {
    for (let c = 0; c < channels; c++) {
      let g = 0;
      let u = 0;
      for (let k = 0; k < width; k++) {
        g += (x[t * width + k] ?? 0) * (wg[c * width + k] ?? 0);
        u += (x[t * width + k] ?? 0) * (wu[c * width + k] ?? 0);
      }
      want[t * channels + c] = g * (0.5 + 0.25 * g) * u;
    }
  }
  const bufs = [x, wg, wu, want].map((a, i) => {
    const b = rt.allocate(Math.max(4, a.byteLength), `b${i}`);
    if (i < 3) rt.upload(b, a);
    return b;
  });
  rt.launch(module.kernel("ffn_gate_up"), [Math.ceil(channels / 64), tokens, 1], [tokens, channels, width, ...bufs], { workgroupSize: [64, 1, 1] });
  const out = bufs[3];
  assert.ok(out);
  return { got: new Float32Array(rt.download(out).slice().buffer).subarray(0, tokens * channels), want };
}

for (const target of ["gfx1100", "gfx942"]) {
  for (const name of ["i32_chain16", "ffn_gate_up"]) {
    test(`bench kernel ${name} for ${target}: every .text word decodes under llvm-objdump-19 as the simulator decodes it`, (t) => {
      if (!requireTool(t, "llvm-objdump-19", "apt-get install llvm-19")) return;
      const bytes = build(name, target);
      const co = loadCodeObject(bytes);
      const text = co.elf.sections.find((s) => s.name === ".text");
      assert.ok(text);
      const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
      const ours = decodeRange(co.family, (a) => view.getUint32(text.offset + (a - text.address), true), text.address, text.address + text.size);
      const theirs = withFile(bytes, (path) => llvmListing(path, target));
      assert.ok(theirs.every((r) => !r.text.includes("<unknown>")), "llvm-objdump-19 found unknown words");
      assert.deepEqual(
        ours.map((i) => [i.address, i.name, i.size]),
        theirs.map((r) => [r.address, r.mnemonic, r.size]),
      );
    });
  }

  test(`bench kernel i32_chain16 for ${target} reproduces x * 17 in the simulator`, () => {
    const rt = new SimRuntime();
    const module = rt.loadCodeObject(build("i32_chain16", target));
    for (const n of [0, 1, 37, 64, 131]) {
      const { got, want } = runChain(module, rt, n);
      assert.deepEqual([...got], [...want], `n = ${n}`);
    }
  });

  test(`bench kernel ffn_gate_up for ${target} reproduces the gate/up reference in the simulator`, () => {
    const rt = new SimRuntime();
    const module = rt.loadCodeObject(build("ffn_gate_up", target));
    for (const [tokens, channels, width] of [[1, 1, 4], [3, 5, 8], [2, 67, 12], [1, 0, 4]] as const) {
      const { got, want } = runFfn(module, rt, tokens, channels, width);
      assert.deepEqual([...got], [...want], `tokens ${tokens}, channels ${channels}, width ${width}`);
    }
  });
}
