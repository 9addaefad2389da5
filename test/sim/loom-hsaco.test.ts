/**
 * loom's own HSACO in the simulator: what loomc/target/amdgpu emits today (kernels whose body
 * lowers to s_endpgm) loads with its kernel-interface record, packs its arguments from the
 * record, runs one wave per workgroup of wave size, and every instruction word of its .text
 * decodes as llvm-objdump-19 decodes it — for gfx1100 (wave32) and gfx942 (wave64).
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { Compiler, Context, PassProgram, Source, Workspace, compileModule, emitModule, parseExecutableInterface, type ExecutableInterface } from "../../src/index.js";
import { createAmdgpuProfile, createAmdgpuTargetEnvironment } from "../../src/targets/amdgpu/index.js";
import { LoomError } from "../../src/core/errors.js";
import { SimRuntime, decodeRange, loadCodeObject } from "../../src/runtime/sim/index.js";
import { withFile } from "../amdgpu/llvm.js";
import { requireTool } from "../util/tools.js";
import { llvmListing } from "./llvm-listing.js";

const SOURCE = `
kernel.def export("args") @args(%n: index) {
  %c1 = index.constant 1 : index
  %c64 = index.constant 64 : index
  kernel.launch.config workgroups(%n, %c1, %c1) workgroup_size(%c64, %c1, %c1) : index
} launch(%n: index, %alpha: f32, %x: buffer) {
  kernel.return
}
`;

function build(target: string): { bytes: Uint8Array; record: ExecutableInterface } {
  const env = createAmdgpuTargetEnvironment();
  const profile = createAmdgpuProfile(env, { identifier: `sim-${target}`, identity: { target } });
  const context = Context.create({ targetEnvironments: [env] });
  const workspace = new Workspace(context);
  const parsed = workspace.parseModule(Source.fromText("k.loom", SOURCE));
  assert.ok(parsed.ok && parsed.value, parsed.formatDiagnostics());
  const pipeline = PassProgram.fromTargetPipeline(context, { kind: "prepared-low" }).value!;
  const compiled = compileModule(Compiler.create(context), workspace, pipeline, parsed.value, { specializations: [{ functionSymbol: "args", targetProfile: profile }] });
  assert.ok(compiled.ok, compiled.formatDiagnostics());
  const emitted = emitModule(env, workspace, parsed.value, { artifactFormat: "amdgpu-hsaco", identifier: "k.hsaco" });
  assert.ok(emitted.ok, emitted.formatDiagnostics());
  const [exe, iface] = emitted.artifacts;
  return { bytes: exe!.contents, record: parseExecutableInterface(iface!.contents) };
}

for (const [target, wave] of [["gfx1100", 32], ["gfx942", 64]] as const) {
  test(`loom's ${target} HSACO runs in the simulator with arguments packed from its record`, () => {
    const { bytes, record } = build(target);
    const rt = new SimRuntime();
    const module = rt.loadCodeObject(bytes, record);
    assert.equal(module.processor, target);
    const kernel = module.kernel("args");
    assert.equal(kernel.metadata.wavefrontSize, wave);
    const x = rt.allocate(64, "x");
    const stats = rt.launch(kernel, [3, 1, 1], [3, 2.5, x], { workgroupSize: [64, 1, 1] });
    assert.equal(stats.workgroups, 3);
    assert.equal(stats.waves, 3 * (64 / wave));
    assert.ok(stats.instructions >= stats.waves, "every wave executed at least its s_endpgm");
    // The record's arity is enforced, and a record for other bytes is refused.
    assert.throws(() => rt.launch(kernel, [1, 1, 1], [3, x], { workgroupSize: [64, 1, 1] }), (e: unknown) => e instanceof LoomError && /takes 3 arguments/.test(e.message));
    assert.throws(() => rt.loadCodeObject(bytes.subarray(0, bytes.length - 4), record), (e: unknown) => e instanceof LoomError && /describes other bytes/.test(e.message));
  });

  test(`every word of loom's ${target} .text decodes as llvm-objdump-19 decodes it`, (t) => {
    if (!requireTool(t, "llvm-objdump-19", "apt-get install llvm-19")) return;
    const { bytes } = build(target);
    const co = loadCodeObject(bytes);
    const text = co.elf.sections.find((s) => s.name === ".text")!;
    const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    const ours = decodeRange(co.family, (a) => view.getUint32(text.offset + (a - text.address), true), text.address, text.address + text.size);
    const theirs = withFile(bytes, (path) => llvmListing(path, target));
    assert.deepEqual(
      ours.map((i) => [i.address, i.name, i.size]),
      theirs.map((r) => [r.address, r.mnemonic, r.size]),
    );
  });
}
