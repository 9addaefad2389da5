/**
 * Profiles (validation, defaults, freezing) and TARGET diagnostics when a kernel needs more
 * than its profile offers (language.md §8, api.md §6).
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { LoomError } from "../../src/core/errors.js";
import { createSpirvProfile } from "../../src/targets/spirv/index.js";
import { codes, compileFile, compileText, env, kernelText, LAVAPIPE, profile } from "./helpers.js";

test("unknown environment, ABI or feature names throw invalid-argument listing the known ones", () => {
  const bad = (options: unknown, pattern: RegExp) =>
    assert.throws(() => createSpirvProfile(env, options as never), (e: unknown) => e instanceof LoomError && e.status === "invalid-argument" && pattern.test(e.message));
  bad({ identifier: "x", identity: { environment: "vulkan1.4" } }, /known: vulkan1\.3/);
  bad({ identifier: "x", identity: { environment: "vulkan1.3" }, abi: "hal" }, /known: bindings, device-address/);
  bad({ identifier: "x", identity: { environment: "vulkan1.3", features: { int64: true } } }, /known: shaderInt64/);
  bad({ identifier: "x", identity: { environment: "vulkan1.3", features: { subgroupOperations: ["rotate"] } } }, /known: basic, vote/);
  bad({ identifier: "x", identity: { environment: "vulkan1.3", limits: { subgroupSize: 12 } } }, /power of two/);
  bad({ identifier: "", identity: { environment: "vulkan1.3" } }, /identifier/);
  bad({ identifier: "x", identity: { environment: "vulkan1.3", features: { bufferDeviceAddress: false } }, abi: "device-address" }, /bufferDeviceAddress/);
  assert.throws(() => createSpirvProfile({ name: "spirv" } as never, { identifier: "x", identity: { environment: "vulkan1.3" } }), LoomError);
});

test("defaults are the Vulkan 1.3 minimums, and profiles are deeply frozen", () => {
  const p = profile({ environment: "vulkan1.3" });
  assert.equal(p.environment, "spirv");
  assert.equal(p.target, "vulkan1.3");
  assert.deepEqual(p.facts.maxWorkgroupSize, [128, 128, 64]);
  assert.equal(p.facts.maxFlatWorkgroupSize, 128);
  assert.equal(p.facts.maxWorkgroupStorageBytes, 16384);
  assert.equal(p.facts.maxArgumentBlockBytes, 128);
  assert.equal(p.facts.subgroupSize, 0);
  assert.equal(LAVAPIPE.facts.subgroupSize, 8);
  assert.ok(Object.isFrozen(p) && Object.isFrozen(p.facts) && Object.isFrozen(p.facts.maxWorkgroupSize));
  assert.throws(() => ((p.facts as { subgroupSize: number }).subgroupSize = 4));
});

test("without shaderInt64, index arithmetic is TARGET/001 at the op", () => {
  const c = compileFile("saxpy.loom", ["saxpy"], profile({ environment: "vulkan1.3", limits: { maxComputeWorkGroupInvocations: 1024 } }));
  assert.equal(c.ok, false);
  assert.ok(codes(c).length > 0 && codes(c).every((x) => x === "TARGET/001"), JSON.stringify(c.diagnostics));
  assert.ok(c.diagnostics.some((d) => d.help?.includes("shaderInt64") && d.location?.line !== undefined));
});

const INT64_ONLY = profile({ environment: "vulkan1.3", features: { shaderInt64: true }, limits: { maxComputeWorkGroupInvocations: 1024, maxComputeWorkGroupSize: [1024, 1024, 64] } });

test("f64, f16, 8-bit storage and subgroup arithmetic need their features", () => {
  const narrow = compileFile("ops.loom", ["narrow_types"], INT64_ONLY);
  assert.equal(narrow.ok, false);
  const messages = narrow.diagnostics.map((d) => `${d.code} ${d.message} ${d.help ?? ""}`).join("\n");
  for (const feature of ["shaderFloat16", "shaderInt16", "shaderInt8", "shaderFloat64"]) assert.match(messages, new RegExp(feature));
  const reduce = compileFile("subgroup_sum.loom", ["subgroup_sum"], INT64_ONLY);
  assert.deepEqual(codes(reduce), ["TARGET/001"]);
  assert.match(reduce.diagnostics[0]!.help!, /arithmetic/);
});

test("workgroup size, storage and argument block limits", () => {
  const small = profile({ environment: "vulkan1.3", features: { shaderInt64: true }, limits: { maxComputeWorkGroupInvocations: 128, maxComputeSharedMemorySize: 1024, maxPushConstantsSize: 32 } });
  assert.ok(codes(compileFile("block_sum.loom", ["block_sum"], small)).includes("TARGET/025"));
  assert.ok(codes(compileFile("matmul16.loom", ["matmul16"], small)).includes("TARGET/051"));
  assert.ok(codes(compileFile("saxpy.loom", ["saxpy"], small)).includes("TARGET/901"));
});

test("a dynamic workgroup size is TARGET/902; kernel.assert is TARGET/001", () => {
  const dynamic = kernelText("saxpy.loom").replace("workgroup_size(%block, %c1, %c1)", "workgroup_size(%n, %c1, %c1)");
  assert.ok(codes(compileText("dyn.loom", dynamic, ["saxpy"], LAVAPIPE)).includes("TARGET/902"));
  const asserting = kernelText("saxpy.loom").replace("kernel.return", "kernel.assert %in_range : i1\n  kernel.return");
  const c = compileText("assert.loom", asserting, ["saxpy"], LAVAPIPE);
  assert.deepEqual(codes(c), ["TARGET/001"]);
  assert.match(c.diagnostics[0]!.message, /kernel\.assert/);
});
