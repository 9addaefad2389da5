/** env.check and env.emit diagnostics and request errors. */
import { test } from "node:test";
import assert from "node:assert/strict";
import { LoomError } from "../../src/core/errors.js";
import { Op, type Region } from "../../src/ir/core.js";
import { T } from "../../src/ir/types.js";
import type { PreparedModule } from "../../src/core/prepared.js";
import { readElf, section } from "./elf-reader.js";
import { compileModule, emitModule } from "../../src/index.js";
import { prepared, SEED_KERNEL } from "../api/helpers.js";
import { emitHsaco, env, kernel, preparedModule, profile, SAXPY, SEED, type KernelSpec } from "./fixtures.js";

const gfx1100 = profile("gfx1100");
const codes = (m: PreparedModule) => env.check(m).map((d) => d.code);
const request = { artifactFormat: "amdgpu-hsaco", identifier: "k.hsaco", primary: true };

function addOp(body: Region, name: string, line: number, operands: Op["operands"] = [], result = true): Op {
  const op = new Op(name, { source: "k.loom", line, column: 5, endLine: line, endColumn: 30 });
  op.operands = operands;
  if (result) op.addResult(`v${line}`, T.index);
  op.parent = body;
  body.ops.push(op);
  return op;
}

test("the seed and saxpy kernels pass", () => {
  assert.deepEqual(env.check(preparedModule(gfx1100, [SEED, SAXPY])), []);
});

test("unused effect-free ops are dropped by the pipeline, transitively, before the backend sees them", () => {
  const s = prepared();
  const text = SEED_KERNEL.replace("} launch() {\n", "} launch() {\n  %id = kernel.workitem.id<x> : index\n  %twice = index.add %id, %id : index\n");
  const module = s.parse(text).value!;
  const compiled = compileModule(s.compiler, s.workspace, s.pipeline, module, { specializations: [{ functionSymbol: "workload_grid", targetProfile: s.profile }] });
  assert.deepEqual(compiled.diagnostics, []);
  const emitted = emitModule(s.env, s.workspace, module, { artifactFormat: "amdgpu-hsaco" });
  assert.deepEqual(emitted.diagnostics, []);
  assert.ok(emitted.artifacts[0]!.contents.length > 0);
  // A hand-built body that still holds them compiles too: dead code is harmless to select.
  const spec: KernelSpec = {
    name: "dead",
    ops: (body) => {
      const id = addOp(body, "kernel.workitem.id", 2);
      addOp(body, "index.add", 3, [id.results[0]!, id.results[0]!]);
    },
  };
  assert.deepEqual(codes(preparedModule(gfx1100, [spec])), []);
});

test("an op the backend cannot select yet is TARGET/001 at the op; what it uses lowers", () => {
  const spec: KernelSpec = {
    name: "reduce",
    staticWorkgroupSize: [64, 1, 1],
    ops: (body) => {
      const id = addOp(body, "kernel.workitem.id", 7);
      const r = addOp(body, "kernel.workgroup.reduce", 8, [id.results[0]!]);
      r.props.kind = "addi";
    },
  };
  const diags = env.check(preparedModule(gfx1100, [spec]));
  assert.deepEqual(diags.map((d) => [d.code, d.location?.line]), [["TARGET/001", 8]]);
  assert.match(diags[0]!.message, /'kernel\.workgroup\.reduce<addi>' on i64 .* is not supported on .*gfx1100/);
  assert.ok(diags[0]!.help);
  const out = env.emit(preparedModule(gfx1100, [spec]), request);
  assert.equal(out.contents, undefined, "no partial code object");
  assert.deepEqual(out.diagnostics.map((d) => d.code), ["TARGET/001"]);
});

test("a subgroup size the processor lacks is TARGET/001; a supported one selects the wave size", () => {
  assert.deepEqual(codes(preparedModule(profile("gfx942"), [{ name: "w", subgroupSize: 32 }])), ["TARGET/001"]);
  assert.deepEqual(codes(preparedModule(gfx1100, [{ name: "w", subgroupSize: 64 }])), []);
  const out = env.emit(preparedModule(gfx1100, [{ name: "w32" }, { name: "w64", subgroupSize: 64 }]), request);
  const rodata = section(readElf(out.contents!), ".rodata").data;
  const wave32Bit = (kd: number) => (rodata[kd * 64 + 57]! >> 2) & 1; // kernel_code_properties bit 10
  assert.deepEqual([wave32Bit(0), wave32Bit(1)], [1, 0]);
});

test("unpassable argument types are TARGET/001", () => {
  const m = preparedModule(gfx1100, [{ name: "l", args: [["layout", T.layout]] }]);
  assert.deepEqual(codes(m), ["TARGET/001"]);
});

test("kernels for other environments are ignored by check", () => {
  const k = kernel({ ...gfx1100, environment: "spirv" }, { name: "s", workgroupStorageBytes: 1 << 20 });
  assert.deepEqual(env.check({ moduleName: "m", kernels: [k] }), []);
});

test("emit: two kernels must share one target; export names must be distinct", () => {
  const mixed: PreparedModule = { moduleName: "m", kernels: [kernel(gfx1100, SEED), kernel(profile("gfx1101"), SAXPY, 20)] };
  const out = env.emit(mixed, request);
  assert.equal(out.contents, undefined);
  assert.deepEqual(out.diagnostics.map((d) => [d.code, d.location?.line]), [["BACKEND/001", 20]]);
  const dup = env.emit(preparedModule(gfx1100, [SEED, SEED]), request);
  assert.equal(dup.contents, undefined);
  assert.ok(dup.diagnostics.every((d) => d.code === "BACKEND/001") && dup.diagnostics.length === 2);
});

test("emit: bad requests are LoomErrors naming the problem", () => {
  const m = preparedModule(gfx1100, [SEED]);
  const fails = (status: string, fn: () => unknown, mention: string) =>
    assert.throws(fn, (e: unknown) => e instanceof LoomError && e.status === status && e.message.includes(mention));
  fails("invalid-argument", () => env.emit(m, { ...request, artifactFormat: "spirv" }), "spirv");
  fails("invalid-argument", () => env.emit(m, { ...request, target: { optimize: true } }), "request.target.optimize");
  fails("invalid-argument", () => env.emit(m, { ...request, target: { codeObjectVersion: 4 } }), "codeObjectVersion");
  fails("invalid-argument", () => env.emit(preparedModule(profile("gfx11-generic"), [SEED]), { ...request, target: { codeObjectVersion: 5 } }), "version 6");
  fails("failed-precondition", () => env.emit({ moduleName: "empty", kernels: [] }, request), "empty");
});

test("emit: codeObjectVersion 6 on a specific processor sets ELF ABI version 4", () => {
  const v6 = env.emit(preparedModule(gfx1100, [SEED]), { ...request, target: { codeObjectVersion: 6 } });
  assert.equal(v6.contents![8], 4);
  const v5 = env.emit(preparedModule(gfx1100, [SEED]), request);
  assert.equal(v5.contents![8], 3);
});

test("subgroup id and count select with a static workgroup size and with one chosen at launch (hidden_group_size_*)", () => {
  const ops = (body: Region) => {
    addOp(body, "kernel.subgroup.id", 4);
    addOp(body, "kernel.subgroup.count", 5);
  };
  for (const target of ["gfx1100", "gfx942"]) {
    assert.deepEqual(codes(preparedModule(profile(target), [{ name: "sg", ops }])), []);
    assert.deepEqual(codes(preparedModule(profile(target), [{ name: "sg", staticWorkgroupSize: [16, 16, 1], ops }])), []);
    // The launched size is read from the hidden arguments, which the metadata then lists.
    const note = new TextDecoder().decode(emitHsaco(profile(target), [{ name: "sg", ops }]));
    for (const d of ["x", "y", "z"]) assert.ok(note.includes(`hidden_group_size_${d}`), `${target} lists hidden_group_size_${d}`);
    assert.ok(!new TextDecoder().decode(emitHsaco(profile(target), [{ name: "sg", staticWorkgroupSize: [16, 16, 1], ops }])).includes("hidden_group_size"));
  }
});

test("values that do not fit the VGPR file are TARGET/001 at the op that needed one more register", () => {
  // 70 four-lane loads all live until the stores after the last of them: 280 VGPRs > 256.
  const n = 70;
  const loads = Array.from({ length: n }, (_, i) => `  %o${i} = index.constant ${4 * i} : index\n  %v${i} = vector.load %view[%o${i}] : view<[%n]xf32> -> vector<4xf32>`);
  const stores = Array.from({ length: n }, (_, i) => `  vector.store %v${i}, %view[%o${n - 1 - i}] : vector<4xf32>, view<[%n]xf32>`);
  const text = SEED_KERNEL.replace("workload_grid(%element_count: index)", "workload_grid(%element_count: index)")
    .replace("} launch() {\n", `} launch(%n: index, %data: buffer) {\n  %origin = index.constant 0 : offset\n  %view = buffer.view %data[%origin] : buffer -> view<[%n]xf32>\n${loads.join("\n")}\n${stores.join("\n")}\n`);
  const s = prepared();
  const module = s.parse(text).value!;
  const compiled = compileModule(s.compiler, s.workspace, s.pipeline, module, { specializations: [{ functionSymbol: "workload_grid", targetProfile: s.profile }] });
  const d = compiled.diagnostics.find((x) => x.code === "TARGET/001");
  assert.ok(d, compiled.formatDiagnostics());
  assert.match(d.message, /more than 256 VGPRs/);
  // Not the kernel header: a load whose result found no register, once 64 quads are live.
  const at = text.split("\n")[(d.location?.line ?? 0) - 1] ?? "";
  const quad = /%v(\d+) = vector.load/.exec(at);
  assert.ok(quad && Number(quad[1]) >= 60, `${at}\n${compiled.formatDiagnostics()}`);
});
