/**
 * Every kernel of the canonical suite (examples/kernels) and of test/spirv/kernels/ (the
 * kernels the suite lacks) compiles for SPIR-V and passes the oracles of verification.md
 * "SPIR-V": spirv-val (vulkan1.3), spirv-dis facts (version, entry point, LocalSize,
 * bindings), the raw-id round trip, and determinism.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { readdirSync } from "node:fs";
import { KERNEL_SUITE, suiteKernel } from "../../examples/kernels/suite.js";
import { compileFile, LAVAPIPE, profile, roundTrip, spirvDis, spirvVal } from "./helpers.js";
import { fromRoot } from "../util/paths.js";
import { requireTool } from "../util/tools.js";

const FIX = "apt-get install -y spirv-tools (docs/toolchain.md §2)";

interface Expectation {
  readonly file: string;
  readonly kernel: string;
  readonly localSize: string;
  readonly bindings: number;
  readonly capabilities?: readonly string[];
}

/** The suite's kernels: what their disassembly must show. */
const SUITE: readonly Expectation[] = [
  { file: "saxpy.loom", kernel: "saxpy", localSize: "128 1 1", bindings: 2 },
  { file: "saxpy4.loom", kernel: "saxpy4", localSize: "256 1 1", bindings: 2 },
  { file: "vector_add_tail.loom", kernel: "vector_add_tail", localSize: "64 1 1", bindings: 3 },
  { file: "block_sum.loom", kernel: "block_sum", localSize: "256 1 1", bindings: 2 },
  { file: "reduce_sum.loom", kernel: "reduce_sum", localSize: "256 1 1", bindings: 2, capabilities: ["GroupNonUniformArithmetic"] },
  { file: "reduce_sum4.loom", kernel: "reduce_sum4", localSize: "256 1 1", bindings: 2 },
  { file: "matmul16.loom", kernel: "matmul16", localSize: "16 16 1", bindings: 3 },
  { file: "matmul_tiled.loom", kernel: "matmul_tiled", localSize: "16 16 1", bindings: 3 },
  { file: "transpose_tile.loom", kernel: "transpose_tile", localSize: "16 16 1", bindings: 2 },
  { file: "transpose32.loom", kernel: "transpose32", localSize: "16 16 1", bindings: 2 },
  { file: "row_softmax.loom", kernel: "row_softmax", localSize: "64 1 1", bindings: 2 },
  { file: "row_softmax4.loom", kernel: "row_softmax4", localSize: "256 1 1", bindings: 2 },
  { file: "histogram.loom", kernel: "histogram", localSize: "256 1 1", bindings: 2 },
  { file: "prefix_sum.loom", kernel: "prefix_sum", localSize: "256 1 1", bindings: 2 },
];

/** The kernels of test/spirv/kernels/ (see the first line of each file for why it is kept). */
const LOCAL: readonly Expectation[] = [
  { file: "subgroup_sum.loom", kernel: "subgroup_sum", localSize: "64 1 1", bindings: 2, capabilities: ["GroupNonUniformArithmetic"] },
  { file: "bounded_scratch.loom", kernel: "bounded_scratch", localSize: "64 1 1", bindings: 1 },
  { file: "ops.loom", kernel: "integer_ops", localSize: "64 1 1", bindings: 1 },
  { file: "ops.loom", kernel: "float_ops", localSize: "64 1 1", bindings: 1, capabilities: ["Float64"] },
  { file: "ops.loom", kernel: "vectors_and_views", localSize: "32 1 1", bindings: 2 },
  { file: "ops.loom", kernel: "collectives", localSize: "64 1 1", bindings: 2, capabilities: ["GroupNonUniformShuffle", "GroupNonUniformBallot", "AtomicFloat32AddEXT"] },
  { file: "dot_iota.loom", kernel: "dot_iota", localSize: "32 1 1", bindings: 5 },
  { file: "ops.loom", kernel: "narrow_types", localSize: "32 1 1", bindings: 3, capabilities: ["Int8", "Float16", "StorageBuffer8BitAccess", "StoragePushConstant16"] },
];

const KERNELS: readonly Expectation[] = [...SUITE, ...LOCAL];

test("the table covers the whole suite and every local kernel file, and no local file shadows a suite kernel", () => {
  assert.deepEqual(
    SUITE.map((k) => [k.file, k.kernel]),
    KERNEL_SUITE.map((k) => [k.file, k.symbol]),
  );
  const local = readdirSync(fromRoot("test", "spirv", "kernels")).filter((f) => f.endsWith(".loom")).sort();
  assert.deepEqual([...new Set(LOCAL.map((k) => k.file))].sort(), local);
  for (const f of local) assert.equal(suiteKernel(f), undefined, `${f} duplicates examples/kernels/${f}`);
});

/** Kernels whose features the device-address profile below lacks on purpose. */
const NEEDS_MORE_THAN_BASELINE = new Set(["float_ops", "collectives", "narrow_types", "integer_ops"]);

const DEVICE_ADDRESS = profile(
  {
    environment: "vulkan1.3",
    features: { shaderInt64: true, bufferDeviceAddress: true, subgroupOperations: ["basic", "arithmetic"] },
    limits: { maxComputeWorkGroupInvocations: 1024, maxComputeWorkGroupSize: [1024, 1024, 64], maxComputeSharedMemorySize: 32768 },
  },
  "device-address",
);

for (const k of KERNELS) {
  test(`${k.kernel}: valid SPIR-V with the ABI's entry point, LocalSize and bindings`, (t) => {
    if (!requireTool(t, "spirv-val", FIX)) return;
    const c = compileFile(k.file, [k.kernel]);
    assert.ok(c.ok, JSON.stringify(c.diagnostics));
    const val = spirvVal(c.bytes!);
    assert.equal(val.status, 0, val.output);
    assert.equal(val.output, "");

    const text = spirvDis(c.bytes!);
    assert.match(text, /^; Version: 1\.6$/m);
    assert.match(text, new RegExp(`OpEntryPoint GLCompute %\\w+ "${k.kernel}"`));
    assert.match(text, new RegExp(`OpExecutionMode %\\w+ LocalSize ${k.localSize}$`, "m"));
    const bindings = [...text.matchAll(/OpDecorate %\w+ Binding (\d+)/g)].map((m) => Number(m[1]));
    assert.deepEqual([...new Set(bindings)].sort(), [...Array(k.bindings).keys()]);
    assert.ok(!/DescriptorSet [1-9]/.test(text), "every buffer lives in descriptor set 0");
    for (const cap of k.capabilities ?? []) assert.match(text, new RegExp(`OpCapability ${cap}$`, "m"));
    // Only capabilities the profile allows.
    for (const m of text.matchAll(/OpCapability (\w+)/g)) {
      assert.ok(!["Float64", "Int8", "Int16", "Float16"].includes(m[1]!) || /OpType(Float|Int) (64|8|16)/.test(text), `${m[1]} is declared without a use`);
    }
  });

  test(`${k.kernel}: raw-id round trip through spirv-as is byte-identical`, (t) => {
    if (!requireTool(t, "spirv-as", FIX)) return;
    const c = compileFile(k.file, [k.kernel]);
    assert.ok(c.ok);
    assert.deepEqual(roundTrip(c.bytes!).subarray(12), c.bytes!.subarray(12));
  });

  test(`${k.kernel}: deterministic bytes`, () => {
    const a = compileFile(k.file, [k.kernel]);
    const b = compileFile(k.file, [k.kernel]);
    assert.ok(a.ok && b.ok);
    assert.deepEqual(a.bytes, b.bytes);
  });

  if (NEEDS_MORE_THAN_BASELINE.has(k.kernel)) continue;
  test(`${k.kernel}: device-address ABI is valid and has no descriptor sets`, (t) => {
    if (!requireTool(t, "spirv-val", FIX)) return;
    const c = compileFile(k.file, [k.kernel], DEVICE_ADDRESS);
    assert.ok(c.ok, JSON.stringify(c.diagnostics));
    const val = spirvVal(c.bytes!, "da.spv");
    assert.equal(val.status, 0, val.output);
    const text = spirvDis(c.bytes!);
    assert.match(text, /OpMemoryModel PhysicalStorageBuffer64 GLSL450/);
    assert.ok(!/DescriptorSet/.test(text));
  });
}

test("a module with several kernels has one entry point per kernel", (t) => {
  if (!requireTool(t, "spirv-val", FIX)) return;
  const c = compileFile("ops.loom", ["integer_ops", "float_ops"]);
  assert.ok(c.ok, JSON.stringify(c.diagnostics));
  assert.equal(spirvVal(c.bytes!).status, 0, spirvVal(c.bytes!).output);
  const entries = [...spirvDis(c.bytes!).matchAll(/OpEntryPoint GLCompute %\w+ "(\w+)"/g)].map((m) => m[1]);
  assert.deepEqual(entries, ["integer_ops", "float_ops"]);
});

test("spirv-val catches a broken module (the oracle bites)", (t) => {
  if (!requireTool(t, "spirv-val", FIX)) return;
  const c = compileFile("saxpy.loom", ["saxpy"]);
  const broken = c.bytes!.slice();
  // Word 5 is the first OpCapability; turn it into an unknown opcode.
  broken[20] = 0xff;
  broken[21] = 0x7f;
  assert.notEqual(spirvVal(broken, "broken.spv").status, 0);
  assert.equal(LAVAPIPE.environment, "spirv");
});
