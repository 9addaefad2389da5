/**
 * The kernel-interface record (docs/abi.md) states what the executable beside it holds: checked
 * against the SPIR-V disassembly (OpEntryPoint, LocalSize, DescriptorSet/Binding, capabilities)
 * and the HSACO metadata note (.args, .kernarg_segment_size, .group_segment_fixed_size), each
 * read by an independent tool. The record's own checks and the ABI table are tested too.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import {
  Compiler,
  Context,
  PassProgram,
  Source,
  Workspace,
  compileModule,
  emitModule,
  parseExecutableInterface,
  type ExecutableInterface,
  type TargetEnvironment,
  type TargetProfile,
} from "../../src/index.js";
import { checkExecutableInterface, crc32, layoutArgumentBlock, InterfaceRecordError } from "../../src/abi/index.js";
import { createSpirvProfile, createSpirvTargetEnvironment } from "../../src/targets/spirv/index.js";
import { createAmdgpuProfile, createAmdgpuTargetEnvironment } from "../../src/targets/amdgpu/index.js";
import { requireTool, runTool } from "../util/tools.js";
import { fromRoot } from "../util/paths.js";
import { withFile } from "../amdgpu/llvm.js";
import { parseYaml, type YamlValue } from "../amdgpu/yaml.js";

const spirv = createSpirvTargetEnvironment();
const amdgpu = createAmdgpuTargetEnvironment();
const SPIRV_PROFILE = createSpirvProfile(spirv, {
  identifier: "record-test",
  identity: {
    environment: "vulkan1.3",
    features: { shaderInt64: true, subgroupOperations: ["basic", "arithmetic"] },
    limits: { maxComputeWorkGroupInvocations: 1024, maxComputeWorkGroupSize: [1024, 1024, 64] },
  },
});
const AMDGPU_PROFILE = createAmdgpuProfile(amdgpu, { identifier: "record-test", identity: { target: "gfx1100" } });

const kernelFile = (name: string) => readFileSync(fromRoot("examples", "kernels", name), "utf8");

/** Compiles `symbols` of `text` for `profile` and emits; returns the executable and its parsed record. */
function build(env: TargetEnvironment, profile: TargetProfile, format: string, text: string, symbols: readonly string[]): { bytes: Uint8Array; record: ExecutableInterface } {
  const context = Context.create({ targetEnvironments: [env] });
  const workspace = new Workspace(context);
  const parsed = workspace.parseModule(Source.fromText("k.loom", text));
  assert.ok(parsed.ok && parsed.value, parsed.formatDiagnostics());
  const module = parsed.value;
  const pipeline = PassProgram.fromTargetPipeline(context, { kind: "prepared-low" }).value!;
  const compiled = compileModule(Compiler.create(context), workspace, pipeline, module, { specializations: symbols.map((s) => ({ functionSymbol: s, targetProfile: profile })) });
  assert.ok(compiled.ok, compiled.formatDiagnostics());
  const emitted = emitModule(env, workspace, module, { artifactFormat: format, identifier: `k.${format}` });
  assert.ok(emitted.ok, emitted.formatDiagnostics());
  const [exe, iface] = emitted.artifacts;
  assert.equal(exe?.kind, "executable");
  assert.equal(iface?.kind, "interface", "the record comes right after its executable");
  assert.equal(iface.identifier, `k.${format}.interface.json`);
  return { bytes: exe.contents, record: parseExecutableInterface(iface.contents) };
}

const TWO_KERNELS = `${kernelFile("saxpy.loom")}\n${kernelFile("reduce_sum.loom")}`;

test("SPIR-V: entry points, LocalSize, bindings and capabilities are what the record says", (t) => {
  if (!requireTool(t, "spirv-dis", "apt-get install spirv-tools")) return;
  const { bytes, record } = build(spirv, SPIRV_PROFILE, "spirv", TWO_KERNELS, ["saxpy", "reduce_sum"]);
  assert.deepEqual(record.executable, { byteLength: bytes.byteLength, crc32: crc32(bytes) });
  assert.equal(record.format, "spirv");
  assert.equal(record.environment, "spirv");
  assert.equal(record.target, "vulkan1.3");
  const dis = runTool("spirv-dis", ["--raw-id", "-"], bytes);
  assert.equal(dis.status, 0, dis.stderr);
  const text = dis.stdout;
  const entries = new Map([...text.matchAll(/OpEntryPoint GLCompute %(\d+) "([^"]+)"/g)].map((m) => [m[2]!, m[1]!]));
  assert.deepEqual([...entries.keys()].sort(), record.kernels.map((k) => k.entryName).sort());
  for (const k of record.kernels) {
    const id = entries.get(k.entryName)!;
    const local = new RegExp(`OpExecutionMode %${id} LocalSize (\\d+) (\\d+) (\\d+)`).exec(text);
    assert.deepEqual(local?.slice(1).map(Number), k.workgroupSize, `${k.entryName}: LocalSize`);
  }
  // Every descriptor the module declares is a binding of the record (set 0, binding k = buffer k).
  const bindingOf = new Map([...text.matchAll(/OpDecorate %(\d+) Binding (\d+)/g)].map((m) => [m[1]!, Number(m[2])]));
  const sets = [...text.matchAll(/OpDecorate %(\d+) DescriptorSet (\d+)/g)].map((m) => [m[1]!, Number(m[2])] as const);
  assert.ok(sets.length > 0);
  const recorded = new Set(record.kernels.flatMap((k) => k.bindings.map((b) => `${b.set}:${b.binding}`)));
  for (const [id, set] of sets) assert.ok(recorded.has(`${set}:${bindingOf.get(id)}`), `descriptor ${set}:${bindingOf.get(id)} is in the record`);

  const saxpy = record.kernels.find((k) => k.symbol === "saxpy")!;
  assert.deepEqual(
    saxpy.arguments.map((a) => [a.name, a.type, a.offset, a.size]),
    [["n", "index", 0, 8], ["alpha", "f32", 8, 4], ["x", "buffer", 16, 16], ["y", "buffer", 32, 16]],
  );
  assert.equal(saxpy.argumentBlockBytes, 48);
  assert.equal(saxpy.bufferAddressing, "bindings");
  assert.deepEqual(saxpy.bindings, [{ set: 0, binding: 0, argument: 2 }, { set: 0, binding: 1, argument: 3 }]);
  assert.deepEqual(saxpy.arguments[2]!.elementTypes, ["f32"]);
  assert.deepEqual(saxpy.subgroup, { size: 0, fullSubgroups: false, operations: [] });
  const reduce = record.kernels.find((k) => k.symbol === "reduce_sum")!;
  assert.deepEqual(reduce.subgroup, { size: 0, fullSubgroups: true, operations: ["basic", "arithmetic"] });
  assert.match(text, /OpCapability GroupNonUniformArithmetic/);
  // Features: the module's capabilities, named as Vulkan features (the device must enable them to load it).
  assert.match(text, /OpCapability Int64/);
  for (const k of record.kernels) assert.ok(k.requiredFeatures.includes("shaderInt64"), k.entryName);
  assert.ok(!/OpCapability Float64/.test(text) && !saxpy.requiredFeatures.includes("shaderFloat64"));
});

function metadataKernels(bytes: Uint8Array): Record<string, YamlValue>[] {
  return withFile(bytes, (path) => {
    const r = runTool("llvm-readobj-19", ["--notes", "--elf-output-style=JSON", path]);
    assert.equal(r.status, 0, r.stderr);
    const notes = (JSON.parse(r.stdout) as { NoteSections?: { NoteSection: { Notes: Record<string, string>[] } }[] }[])[0]?.NoteSections?.flatMap((s) => s.NoteSection.Notes) ?? [];
    const text = notes.find((n) => n.Type?.startsWith("NT_AMDGPU_METADATA"))?.["AMDGPU Metadata"];
    assert.equal(typeof text, "string");
    const doc = parseYaml(text!) as Record<string, YamlValue>;
    return doc["amdhsa.kernels"] as Record<string, YamlValue>[];
  });
}

test("HSACO: .args, .kernarg_segment_size and .group_segment_fixed_size are what the record says", (t) => {
  if (!requireTool(t, "llvm-readobj-19", "apt-get install llvm-19")) return;
  // The AMDGPU backend lowers only kernel.return so far: the interface is in the signatures.
  const text = `kernel.def export("mixed") @mixed(%n: index) {
  %c1 = index.constant 1 : index
  %c64 = index.constant 64 : index
  kernel.launch.config workgroups(%n, %c1, %c1) workgroup_size(%c64, %c1, %c1) : index
} launch(%n: index, %flag: i1, %a: buffer, %h: f16, %b: buffer) {
  kernel.return
}
kernel.def @scalar_only(%n: index) {
  %c1 = index.constant 1 : index
  kernel.launch.config workgroups(%n, %c1, %c1) workgroup_size(%c1, %c1, %c1) : index
} launch(%x: f32) {
  kernel.return
}
`;
  const { bytes, record } = build(amdgpu, AMDGPU_PROFILE, "amdgpu-hsaco", text, ["mixed", "scalar_only"]);
  assert.deepEqual(record.executable, { byteLength: bytes.byteLength, crc32: crc32(bytes) });
  const metadata = metadataKernels(bytes);
  assert.deepEqual(metadata.map((m) => m[".name"]).sort(), record.kernels.map((k) => k.entryName).sort());
  for (const k of record.kernels) {
    const m = metadata.find((x) => x[".name"] === k.entryName)!;
    assert.equal(m[".kernarg_segment_size"], k.argumentBlockBytes, `${k.entryName}: kernarg size`);
    assert.equal(m[".group_segment_fixed_size"], k.workgroupStorageBytes, `${k.entryName}: group segment`);
    // A buffer is two 8-byte metadata args (address, length) at its 16-byte slot; a scalar one.
    const args = (m[".args"] as Record<string, YamlValue>[]).map((a) => [a[".offset"], a[".size"]]);
    const expected = k.arguments.flatMap((a) => (a.type === "buffer" ? [[a.offset, 8], [a.offset + 8, 8]] : [[a.offset, a.size]]));
    assert.deepEqual(args, expected, `${k.entryName}: .args`);
    assert.equal(k.bufferAddressing, "kernarg");
    assert.deepEqual(k.bindings, []);
  }
  assert.deepEqual(record.kernels.map((k) => [k.entryName, k.argumentBlockBytes, k.workgroupSize]), [["mixed", 56, [64, 1, 1]], ["scalar_only", 8, [1, 1, 1]]]);
});

test("a workgroup size that depends on the workload is left to the launch configuration", () => {
  const text = `kernel.def @dyn(%n: index) {
  %c1 = index.constant 1 : index
  kernel.launch.config workgroups(%c1, %c1, %c1) workgroup_size(%n, %c1, %c1) : index
} launch(%n: index) {
  kernel.return
}
`;
  const { record } = build(amdgpu, AMDGPU_PROFILE, "amdgpu-hsaco", text, ["dyn"]);
  assert.equal(record.kernels[0]!.workgroupSize, "launch-config");
});

test("checkExecutableInterface refuses malformed records, naming the problem", () => {
  const { record } = build(spirv, SPIRV_PROFILE, "spirv", kernelFile("saxpy.loom"), ["saxpy"]);
  assert.doesNotThrow(() => checkExecutableInterface(JSON.parse(JSON.stringify(record))), "a record survives JSON");
  const k = record.kernels[0]!;
  const broken: [string, unknown, RegExp][] = [
    ["version", { ...record, version: 7 }, /version 7 is not 1/],
    ["no kernels", { ...record, kernels: undefined }, /'kernels' must be an array/],
    ["misaligned slot", { ...record, kernels: [{ ...k, arguments: [{ ...k.arguments[0]!, offset: 4 }] }] }, /index at 4\) is not a 8-byte, 8-aligned field/],
    ["overlap", { ...record, kernels: [{ ...k, arguments: [k.arguments[0], { ...k.arguments[0]!, name: "m" }] }] }, /arguments\[1\] overlaps/],
    ["binding to a scalar", { ...record, kernels: [{ ...k, bindings: [{ set: 0, binding: 0, argument: 0 }] }] }, /bindings\[0\] must be .* naming a buffer argument/],
    ["bad workgroup size", { ...record, kernels: [{ ...k, workgroupSize: [0, 1, 1] }] }, /workgroupSize must be three positive integers/],
    ["unknown addressing", { ...record, kernels: [{ ...k, bufferAddressing: "magic" }] }, /bufferAddressing is unknown/],
  ];
  for (const [what, value, message] of broken) assert.throws(() => checkExecutableInterface(value), (e: unknown) => e instanceof InterfaceRecordError && message.test(e.message), what);
  assert.throws(() => parseExecutableInterface("{"), /not JSON/);
});

test("the ABI table lays out language.md §7's example blocks", () => {
  const layout = (types: string[]) => {
    const l = layoutArgumentBlock(types);
    return "unsupported" in l ? l : { offsets: l.slots.map((s) => s.offset), size: l.size };
  };
  assert.deepEqual(layout([]), { offsets: [], size: 0 });
  assert.deepEqual(layout(["i1", "buffer"]), { offsets: [0, 8], size: 24 });
  assert.deepEqual(layout(["i8", "i16", "f32", "i8", "f64"]), { offsets: [0, 2, 4, 8, 16], size: 24 });
  assert.deepEqual(layout(["bf16", "index"]), { offsets: [0, 8], size: 16 });
  assert.deepEqual(layout(["f32", "vector<4xf32>"]), { unsupported: 1 });
  assert.equal(crc32(new TextEncoder().encode("123456789")), 0xcbf43926, "the standard CRC-32 check value");
});
