/**
 * The suite's kernels compiled to WGSL run on Dawn with SwiftShader's Vulkan ICD (Node's
 * `webgpu` package) and match the suite's plain-JS references (examples/kernels/suite.ts)
 * at the quick shapes. The profile comes from the real adapter (`profileFromAdapter`). The
 * harness here is minimal on purpose — buffers, the uniform argument block and the bind
 * group laid out as docs/abi.md "WGSL" states, from the kernel-interface record — so it
 * checks the ABI independently of the runtime package.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { existsSync, readFileSync } from "node:fs";
import type { TestContext } from "node:test";
import { Compiler, Context, LaunchConfigProgram, PassProgram, Source, Workspace, compileModule, emitModule, parseExecutableInterface, type KernelInterface } from "../../src/index.js";
import { compareOutput, describeCheck, type HostArray } from "../../src/harness/index.js";
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

for (const suite of KERNEL_SUITE) {
  test(`${suite.symbol} on Dawn + SwiftShader matches the suite's reference`, async (t) => {
    const d = await swiftShader();
    if (typeof d === "string") return skip(t, d);
    const { device: dev } = d;
    const profile = createWgslProfile(env, profileFromAdapter(d.adapter, "swiftshader"));
    const ws = new Workspace(context);
    const module = ws.parseModule(Source.fromText(suite.file, readFileSync(fromRoot("examples", "kernels", suite.file), "utf8"))).value!;
    const compiled = compileModule(Compiler.create(context), ws, pipeline, module, { specializations: [{ functionSymbol: suite.symbol, targetProfile: profile }], artifacts: { launchConfig: true } });
    assert.ok(compiled.ok, compiled.formatDiagnostics());
    const emitted = emitModule(env, ws, module, { artifactFormat: "wgsl" });
    assert.ok(emitted.ok, emitted.formatDiagnostics());
    const code = new TextDecoder().decode(emitted.findArtifact("executable")!.contents);
    const record = parseExecutableInterface(emitted.findArtifact("interface")!.contents);
    const k = record.kernels[0]!;
    const program = LaunchConfigProgram.load(compiled.findArtifact("launch-config")!);
    const fn = program.lookupFunction(k.entryName);

    const shader = dev.createShaderModule({ code });
    const entries: unknown[] = k.bindings.map((b) => ({ binding: b.binding, visibility: 4, buffer: { type: b.readOnly ? "read-only-storage" : "storage" } }));
    if (k.argumentBlockBytes > 0) entries.push({ binding: k.bindings.length, visibility: 4, buffer: { type: "uniform" } });
    const layout = dev.createBindGroupLayout({ entries });
    dev.pushErrorScope("validation");
    const pipe = dev.createComputePipeline({ layout: dev.createPipelineLayout({ bindGroupLayouts: [layout] }), compute: { module: shader, entryPoint: k.entryName } });
    const made = await dev.popErrorScope();
    assert.equal(made, null, made?.message);

    for (const shape of suite.shapes.quick) {
      const c = suite.build(shape, 1);
      const launch = program.invoke(fn, c.workload.map((v) => BigInt(v)));
      const buffers = new Map<string, { buffer: Gpu; like: HostArray }>();
      const values = c.args.map((a) => {
        if (a.kind === "scalar") return a.value;
        // A binding needs at least one element; the length field carries the true size.
        const buffer = dev.createBuffer({ size: Math.max(16, Math.ceil(a.data.byteLength / 4) * 4), usage: STORAGE | COPY_SRC | COPY_DST });
        if (a.data.byteLength > 0) dev.queue.writeBuffer(buffer, 0, a.data);
        buffers.set(a.name, { buffer, like: a.data });
        return a.data;
      });
      const block = argumentBlock(k, values);
      const bindEntries: unknown[] = k.bindings.map((b) => ({ binding: b.binding, resource: { buffer: buffers.get(k.arguments[b.argument]!.name)!.buffer } }));
      let uniform: Gpu | undefined;
      if (k.argumentBlockBytes > 0) {
        uniform = dev.createBuffer({ size: Math.ceil(block.byteLength / 16) * 16, usage: UNIFORM | COPY_DST });
        dev.queue.writeBuffer(uniform, 0, block);
        bindEntries.push({ binding: k.bindings.length, resource: { buffer: uniform } });
      }
      const [gx, gy, gz] = launch.workgroupCount;
      const encoder = dev.createCommandEncoder();
      if (gx * gy * gz > 0) {
        const pass = encoder.beginComputePass();
        pass.setPipeline(pipe);
        pass.setBindGroup(0, dev.createBindGroup({ layout, entries: bindEntries }));
        pass.dispatchWorkgroups(gx, gy, gz);
        pass.end();
      }
      const expected = c.reference();
      const reads: [string, Gpu, HostArray][] = [];
      for (const name of Object.keys(expected)) {
        const b = buffers.get(name)!;
        const staging = dev.createBuffer({ size: Math.max(16, Math.ceil(b.like.byteLength / 4) * 4), usage: MAP_READ | COPY_DST });
        encoder.copyBufferToBuffer(b.buffer, 0, staging, 0, staging.size);
        reads.push([name, staging, b.like]);
      }
      dev.queue.submit([encoder.finish()]);
      for (const [name, staging, like] of reads) {
        await staging.mapAsync(MAP_READ);
        const got = sameKind(like, staging.getMappedRange().slice(0, like.byteLength));
        staging.unmap();
        staging.destroy();
        const check = compareOutput(name, got, expected[name]!);
        assert.equal(check.mismatches, 0, `${suite.symbol} ${c.label}: ${describeCheck(check)}`);
      }
      for (const { buffer } of buffers.values()) buffer.destroy();
      uniform?.destroy();
    }
  });
}
