/**
 * The built-in packages' record ops: the AMDGPU processor list is the processor table's
 * (one list for records, profiles and `--target`), and record attributes survive bytecode
 * whatever order the source wrote them in.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { Compiler, Context, PassProgram, Source, Workspace, compileModule, emitModule } from "../../src/index.js";
import { resolveTarget } from "../../src/cli/targets.js";
import { AMDGPU_PROCESSORS, AMDGPU_TARGET_RECORD, amdgpuInfoOf } from "../../src/targets/amdgpu/index.js";

function parse(context: Context, text: string) {
  const workspace = new Workspace(context);
  return { workspace, result: workspace.parseModule(Source.fromText("t.loom", text)) };
}

const KERNEL = `kernel.def target(@gpu) @k(%n: index) {
  %c1 = index.constant 1 : index
  %c64 = index.constant 64 : index
  kernel.launch.config workgroups(%n, %c1, %c1) workgroup_size(%c64, %c1, %c1) : index
} launch() {
  kernel.return
}
`;

test("amdgpu.target takes every processor of the table, and only those", () => {
  assert.deepEqual(AMDGPU_TARGET_RECORD.param.values, [...AMDGPU_PROCESSORS.keys()]);
  const context = Context.create();
  for (const chip of ["gfx1201", "gfx950", "gfx90a", "gfx1152"]) {
    const { result } = parse(context, `amdgpu.target<${chip}> @gpu\n\n${KERNEL}`);
    assert.ok(result.ok, `${chip}: ${result.formatDiagnostics()}`);
  }
  const { result } = parse(context, "amdgpu.target<gfx908> @gpu\n");
  assert.deepEqual(result.diagnostics.map((d) => `${d.code}@${d.location?.column}`), ["PARSE/017@15"]);
  assert.match(result.diagnostics[0]!.message, /gfx1201/);
});

test("gfx950 is a profile: CDNA4 facts, --target amdgpu:gfx950, and a kernel for it compiles and emits", () => {
  const { environment, profile, format } = resolveTarget("amdgpu:gfx950");
  const info = amdgpuInfoOf(profile)!;
  assert.equal(info.processor.family, "gfx9");
  assert.equal(info.processor.mach, 0x4f);
  assert.equal(profile.facts.subgroupSize, 64);
  assert.equal(profile.facts.maxWorkgroupStorageBytes, 160 * 1024);
  const context = Context.create({ targetEnvironments: [environment] });
  const { workspace, result } = parse(context, `amdgpu.target<gfx950> @gpu\n\n${KERNEL}`);
  assert.ok(result.ok, result.formatDiagnostics());
  const pipeline = PassProgram.fromTargetPipeline(context, { kind: "prepared-low" }).value!;
  const compiled = compileModule(Compiler.create(context), workspace, pipeline, result.value!, { specializations: [{ functionSymbol: "k", targetProfile: profile }] });
  assert.ok(compiled.ok, compiled.formatDiagnostics());
  const emitted = emitModule(environment, workspace, result.value!, { artifactFormat: format });
  assert.ok(emitted.ok, emitted.formatDiagnostics());
  const elf = emitted.artifacts[0]!.contents;
  // e_flags (offset 48): the gfx950 machine value, xnack and sramecc "any" (v4+ encoding).
  assert.equal(new DataView(elf.buffer, elf.byteOffset).getUint32(48, true), 0x4f | 0x100 | 0x400);
});

test("record attributes written out of order are stored in canonical order, so bytecode round-trips", () => {
  const context = Context.create();
  const { workspace, result } = parse(context, "amdgpu.target<gfx1100> @t {xnack = off, subgroup_size = 32, index_bitwidth = 64}\n\nspirv.target<vulkan1_3> @s {abi = hal_kernel, max_workgroup_size_x = 128}\n");
  assert.ok(result.ok, result.formatDiagnostics());
  const canonical = "amdgpu.target<gfx1100> @t {index_bitwidth = 64, subgroup_size = 32, xnack = off}\n\nspirv.target<vulkan1_3> @s {max_workgroup_size_x = 128, abi = hal_kernel}\n";
  assert.equal(result.value!.print(), canonical);
  const back = workspace.parseModule(Source.fromBytes("t.loombc", result.value!.toBytecode()));
  assert.ok(back.ok, back.formatDiagnostics());
  assert.equal(back.value!.print(), canonical);
});
