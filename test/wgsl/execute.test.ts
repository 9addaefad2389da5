/**
 * The suite's kernels compiled to WGSL run on Dawn with SwiftShader's Vulkan ICD (Node's
 * `webgpu` package) and match the suite's plain-JS references (examples/kernels/suite.ts)
 * at the quick shapes, and coverage kernels (every scalar rule, vector dot/iota) match the
 * reference interpreter. The profile comes from the real adapter (`profileFromAdapter`). The
 * harness here is minimal on purpose — buffers, the uniform argument block and the bind
 * group laid out as docs/abi.md "WGSL" states, from the kernel-interface record — so it
 * checks the ABI independently of the runtime package.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { existsSync, readFileSync } from "node:fs";
import type { TestContext } from "node:test";
import { Compiler, Context, LaunchConfigProgram, PassProgram, Source, Workspace, compileModule, emitModule, parseExecutableInterface, prepareReferenceKernel, type KernelInterface, type Module } from "../../src/index.js";
import { compareOutput, describeCheck, random, type CaseArgument, type HostArray } from "../../src/harness/index.js";
import type { TargetProfile } from "../../src/core/target.js";
import { createWgslProfile, createWgslTargetEnvironment, profileFromAdapter } from "../../src/targets/wgsl/index.js";
import { KERNEL_SUITE } from "../../examples/kernels/suite.js";
import { fromRoot } from "../util/paths.js";

const ICD = "/usr/lib/chromium/vk_swiftshader_icd.json";

/* eslint-disable @typescript-eslint/no-explicit-any */
type Gpu = any;

let device: Promise<{ gpu: Gpu; adapter: Gpu; device: Gpu } | string> | undefined;

function swiftShader(): Promise<{ gpu: Gpu; adapter: Gpu; device: Gpu } | string> {
  device ??= (async () => {
    if (!existsSync(ICD)) return `SwiftShader's Vulkan ICD is missing (${ICD}; apt-get install chromium)`;
    process.env.VK_ICD_FILENAMES = ICD;
    process.env.XDG_RUNTIME_DIR ??= "/tmp/xdg";
    let mod: { create(flags: string[]): Gpu; globals: Record<string, unknown> };
    try {
      mod = (await import("webgpu")) as never;
    } catch (e) {
      return `npm package 'webgpu' (Dawn) is not installed (${(e as Error).message}; npm ci)`;
    }
    Object.assign(globalThis, mod.globals);
    const gpu = mod.create(["backend=vulkan"]);
    const adapter = await gpu.requestAdapter();
    if (!adapter) return "Dawn found no Vulkan adapter on the SwiftShader ICD";
    const requiredFeatures = ["subgroups", "shader-f16"].filter((f) => adapter.features.has(f));
    return { gpu, adapter, device: await adapter.requestDevice({ requiredFeatures }) };
  })();
  return device;
}

function skip(t: TestContext, reason: string): void {
  if (process.env.REQUIRE_ALL_TOOLS === "1") throw new Error(`REQUIRE_ALL_TOOLS=1 but ${reason}`);
  console.log(`SKIP ${t.name}: ${reason}`);
  t.skip(reason);
}

const STORAGE = 0x80, COPY_SRC = 0x4, COPY_DST = 0x8, MAP_READ = 0x1, UNIFORM = 0x40;

/** The argument block of language.md §7 from the case's values, as the record lays it out. */
function argumentBlock(k: KernelInterface, values: readonly (number | bigint | { byteLength: number })[]): Uint8Array {
  const block = new Uint8Array(k.argumentBlockBytes);
  const view = new DataView(block.buffer);
  k.arguments.forEach((a, i) => {
    const v = values[i]!;
    if (a.type === "buffer") return view.setBigUint64(a.offset + 8, BigInt((v as { byteLength: number }).byteLength), true);
    if (a.type === "index" || a.type === "i64") return view.setBigInt64(a.offset, BigInt(v as number), true);
    if (a.type === "offset") return view.setBigUint64(a.offset, BigInt(v as number), true);
    if (a.type === "f32") return view.setFloat32(a.offset, Number(v), true);
    if (a.type === "i32" || a.type === "i1") return view.setInt32(a.offset, Number(v), true);
    throw new Error(`argument type ${a.type} is not in this harness`);
  });
  return block;
}

function sameKind(like: HostArray, bytes: ArrayBuffer): HostArray {
  return like instanceof Float32Array ? new Float32Array(bytes) : like instanceof Uint32Array ? new Uint32Array(bytes) : new Int32Array(bytes);
}

const env = createWgslTargetEnvironment();
const context = Context.create({ targetEnvironments: [env] });
const pipeline = PassProgram.fromTargetPipeline(context, { kind: "prepared-low" }).value!;

interface Built {
  readonly module: Module;
  readonly code: string;
  readonly kernel: KernelInterface;
  /** The launch config's workgroup count and size for a workload. */
  readonly launch: (workload: readonly (number | bigint)[]) => { workgroupCount: [number, number, number]; workgroupSize: [number, number, number] };
}

function build(file: string, text: string, symbol: string, profile: TargetProfile): Built {
  const ws = new Workspace(context);
  const module = ws.parseModule(Source.fromText(file, text)).value!;
  const compiled = compileModule(Compiler.create(context), ws, pipeline, module, { specializations: [{ functionSymbol: symbol, targetProfile: profile }], artifacts: { launchConfig: true } });
  assert.ok(compiled.ok, compiled.formatDiagnostics());
  const emitted = emitModule(env, ws, module, { artifactFormat: "wgsl" });
  assert.ok(emitted.ok, emitted.formatDiagnostics());
  const record = parseExecutableInterface(emitted.findArtifact("interface")!.contents);
  const kernel = record.kernels[0]!;
  const program = LaunchConfigProgram.load(compiled.findArtifact("launch-config")!);
  const fn = program.lookupFunction(kernel.entryName);
  return {
    module,
    code: new TextDecoder().decode(emitted.findArtifact("executable")!.contents),
    kernel,
    launch: (workload) => {
      const l = program.invoke(fn, workload.map((v) => BigInt(v)));
      return { workgroupCount: [...l.workgroupCount] as [number, number, number], workgroupSize: [...l.workgroupSize] as [number, number, number] };
    },
  };
}

/** One dispatch of `b` with `args` (the suite's case-argument shape); returns each named buffer's final bytes. */
async function dispatch(dev: Gpu, b: Built, args: readonly CaseArgument[], count: readonly number[], outputs: readonly string[]): Promise<Map<string, ArrayBuffer>> {
  const k = b.kernel;
  const shader = dev.createShaderModule({ code: b.code });
  const entries: unknown[] = k.bindings.map((x) => ({ binding: x.binding, visibility: 4, buffer: { type: x.readOnly ? "read-only-storage" : "storage" } }));
  if (k.argumentBlockBytes > 0) entries.push({ binding: k.bindings.length, visibility: 4, buffer: { type: "uniform" } });
  const layout = dev.createBindGroupLayout({ entries });
  dev.pushErrorScope("validation");
  const pipe = dev.createComputePipeline({ layout: dev.createPipelineLayout({ bindGroupLayouts: [layout] }), compute: { module: shader, entryPoint: k.entryName } });
  const made = await dev.popErrorScope();
  assert.equal(made, null, made?.message);
  const buffers = new Map<string, { buffer: Gpu; bytes: number }>();
  const values = args.map((a) => {
    if (a.kind === "scalar") return a.value;
    // A binding needs at least one element; the length field carries the true size.
    const buffer = dev.createBuffer({ size: Math.max(16, Math.ceil(a.data.byteLength / 4) * 4), usage: STORAGE | COPY_SRC | COPY_DST });
    if (a.data.byteLength > 0) dev.queue.writeBuffer(buffer, 0, a.data);
    buffers.set(a.name, { buffer, bytes: a.data.byteLength });
    return a.data;
  });
  const block = argumentBlock(k, values);
  const bindEntries: unknown[] = k.bindings.map((x) => ({ binding: x.binding, resource: { buffer: buffers.get(k.arguments[x.argument]!.name)!.buffer } }));
  let uniform: Gpu | undefined;
  if (k.argumentBlockBytes > 0) {
    uniform = dev.createBuffer({ size: Math.ceil(block.byteLength / 16) * 16, usage: UNIFORM | COPY_DST });
    dev.queue.writeBuffer(uniform, 0, block);
    bindEntries.push({ binding: k.bindings.length, resource: { buffer: uniform } });
  }
  const [gx = 0, gy = 0, gz = 0] = count;
  const encoder = dev.createCommandEncoder();
  if (gx * gy * gz > 0) {
    const pass = encoder.beginComputePass();
    pass.setPipeline(pipe);
    pass.setBindGroup(0, dev.createBindGroup({ layout, entries: bindEntries }));
    pass.dispatchWorkgroups(gx, gy, gz);
    pass.end();
  }
  const reads: [string, Gpu, number][] = [];
  for (const name of outputs) {
    const src = buffers.get(name)!;
    const staging = dev.createBuffer({ size: Math.max(16, Math.ceil(src.bytes / 4) * 4), usage: MAP_READ | COPY_DST });
    encoder.copyBufferToBuffer(src.buffer, 0, staging, 0, staging.size);
    reads.push([name, staging, src.bytes]);
  }
  dev.queue.submit([encoder.finish()]);
  const out = new Map<string, ArrayBuffer>();
  for (const [name, staging, bytes] of reads) {
    await staging.mapAsync(MAP_READ);
    out.set(name, staging.getMappedRange().slice(0, bytes));
    staging.unmap();
    staging.destroy();
  }
  for (const { buffer } of buffers.values()) buffer.destroy();
  uniform?.destroy();
  return out;
}

for (const suite of KERNEL_SUITE) {
  test(`${suite.symbol} on Dawn + SwiftShader matches the suite's reference`, async (t) => {
    const d = await swiftShader();
    if (typeof d === "string") return skip(t, d);
    const profile = createWgslProfile(env, profileFromAdapter(d.adapter, "swiftshader"));
    const b = build(suite.file, readFileSync(fromRoot("examples", "kernels", suite.file), "utf8"), suite.symbol, profile);
    for (const shape of suite.shapes.quick) {
      const c = suite.build(shape, 1);
      const expected = c.reference();
      const got = await dispatch(d.device, b, c.args, b.launch(c.workload).workgroupCount, Object.keys(expected));
      for (const [name, want] of Object.entries(expected)) {
        const like = c.args.find((a) => a.kind === "buffer" && a.name === name) as { data: HostArray };
        const check = compareOutput(name, sameKind(like.data, got.get(name)!), want);
        assert.equal(check.mismatches, 0, `${suite.symbol} ${c.label}: ${describeCheck(check)}`);
      }
    }
  });
}

/**
 * The coverage kernels of test/wgsl/kernels (every scalar rule: integer division variants,
 * shifts, unsigned compares, 64-bit bit counts of index values, conversions, float math) on
 * the device against the reference interpreter — integers exactly, floats within WGSL's
 * accuracy (docs/wgsl.md "Math accuracy").
 */
const grid = (count: number, seed: number): Float32Array => {
  const r = random(seed);
  return Float32Array.from({ length: count }, () => Math.round((r() * 2 - 1) * 4 * 4096) / 4096);
};

interface Coverage {
  readonly dir: readonly string[];
  readonly file: string;
  readonly kernel: string;
  readonly workload: readonly number[];
  readonly args: readonly CaseArgument[];
  /** Output buffers, each with its float tolerance (absolute, plus 64 ε relative) or exact. */
  readonly outputs: Readonly<Record<string, number | "exact">>;
}

const WGSL_OPS = ["test", "wgsl", "kernels"];
const COVERAGE: readonly Coverage[] = [
  {
    dir: WGSL_OPS, file: "wgsl_ops.loom", kernel: "wgsl_integer_ops", workload: [],
    args: [{ kind: "scalar", name: "a", value: -29 }, { kind: "scalar", name: "b", value: 5 }, { kind: "scalar", name: "flag", value: 1 }, { kind: "buffer", name: "out", data: new Int32Array(64 * 32) }],
    outputs: { out: "exact" },
  },
  {
    dir: WGSL_OPS, file: "wgsl_ops.loom", kernel: "wgsl_float_ops", workload: [],
    args: [{ kind: "scalar", name: "x", value: 1.25 }, { kind: "scalar", name: "y", value: 0.75 }, { kind: "buffer", name: "out", data: new Float32Array(64 * 32) }],
    outputs: { out: 2 ** -11 }, // WGSL: sin/cos within 2⁻¹¹ absolute
  },
  {
    dir: ["test", "spirv", "kernels"], file: "dot_iota.loom", kernel: "dot_iota", workload: [37],
    args: [
      { kind: "scalar", name: "n", value: 37 }, { kind: "scalar", name: "step", value: 3 },
      { kind: "buffer", name: "a", data: grid(37 * 16, 1) }, { kind: "buffer", name: "b", data: grid(37 * 16, 2) }, { kind: "buffer", name: "acc", data: grid(37, 3) },
      { kind: "buffer", name: "dots", data: new Float32Array(37) }, { kind: "buffer", name: "lanes", data: new Int32Array(37 * 16) },
    ],
    outputs: { dots: 1e-6, lanes: "exact" },
  },
];

for (const cov of COVERAGE) {
  test(`${cov.kernel} on Dawn + SwiftShader matches the reference interpreter`, async (t) => {
    const d = await swiftShader();
    if (typeof d === "string") return skip(t, d);
    const profile = createWgslProfile(env, profileFromAdapter(d.adapter, "swiftshader"));
    const b = build(cov.file, readFileSync(fromRoot(...cov.dir, cov.file), "utf8"), cov.kernel, profile);
    const launch = b.launch(cov.workload);
    const got = await dispatch(d.device, b, cov.args, launch.workgroupCount, Object.keys(cov.outputs));
    const expected = new Map<string, HostArray>();
    const interpreterArgs = cov.args.map((a, i) => {
      if (a.kind === "buffer") {
        const copy = a.data.slice();
        expected.set(a.name, copy);
        return new Uint8Array(copy.buffer);
      }
      const type = b.kernel.arguments[i]!.type;
      return type === "f32" ? a.value : BigInt(a.value);
    });
    prepareReferenceKernel(b.module, cov.kernel).run({ ...launch, subgroupSize: 32, args: interpreterArgs });
    for (const [name, tolerance] of Object.entries(cov.outputs)) {
      const want = expected.get(name)!;
      const check = compareOutput(name, sameKind(want, got.get(name)!), tolerance === "exact" ? { values: want, compare: { kind: "exact" } } : { values: want, compare: { kind: "float", epsilons: 64, absolute: tolerance } });
      assert.equal(check.mismatches, 0, `${cov.kernel}: ${describeCheck(check)}`);
    }
  });
}
