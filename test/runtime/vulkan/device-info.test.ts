/**
 * deviceInfo() and profileFacts() agree with `vulkaninfo` (an independent reader of the same
 * device) on the facts a SPIR-V profile is built from. Limits are read at run time, never
 * hard-coded.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { REPORTED_FEATURES, type VulkanDeviceInfo, type VulkanProfileFacts } from "../../../src/runtime/vulkan/index.js";
import { createSpirvTargetEnvironment, profileFromDevice, spirvInfoOf } from "../../../src/targets/spirv/index.js";
import { pickComputeQueueFamily } from "../../../src/runtime/vulkan/device-info.js";
import { quietEnv, requireValidationLayer } from "./probe.js";
import { runChild } from "./run-child.js";

/** The GPU0 section of `vulkaninfo`'s text output, as scalars and lists by field name (first occurrence wins). */
function vulkaninfoGpu0(): { scalar: Map<string, string>; list: Map<string, string[]> } {
  const r = spawnSync("vulkaninfo", [], { encoding: "utf8", env: quietEnv(), maxBuffer: 64 << 20, timeout: 60_000 });
  assert.equal(r.status, 0, `vulkaninfo failed: ${r.stderr}`);
  const lines = r.stdout.split("\n");
  const start = lines.findIndex((l) => l.startsWith("GPU0:"));
  const end = lines.findIndex((l, i) => i > start && /^GPU\d+:/.test(l));
  const section = lines.slice(start, end < 0 ? undefined : end);
  const scalar = new Map<string, string>();
  const list = new Map<string, string[]>();
  for (let i = 0; i < section.length; i++) {
    const s = /^\t(\w+)\s*= (.*)$/.exec(section[i]!);
    if (s && !scalar.has(s[1]!)) scalar.set(s[1]!, s[2]!.trim());
    const l = /^\t(\w+): count = (\d+)$/.exec(section[i]!);
    if (l && !list.has(l[1]!)) list.set(l[1]!, section.slice(i + 1, i + 1 + Number(l[2])).map((x) => x.trim()));
  }
  return { scalar, list };
}

test("deviceInfo and profileFacts agree with vulkaninfo for device 0", (t) => {
  if (!requireValidationLayer(t)) return;
  const run = runChild<{ info: VulkanDeviceInfo; facts: VulkanProfileFacts; devices: string[] }>(
    { scenario: "device-info", shaders: {} },
    { env: { LOOM_VULKAN_DEVICE: "0" } },
  );
  assert.deepEqual(run.validationErrors, []);
  const { info, facts, devices } = run.result;
  const vi = vulkaninfoGpu0();
  const num = (name: string) => Number(vi.scalar.get(name));
  const bool = (name: string) => vi.scalar.get(name) === "true";

  assert.equal(info.index, 0);
  assert.equal(info.name, vi.scalar.get("deviceName"));
  assert.equal(devices[0], info.name);
  assert.equal(info.apiVersion, vi.scalar.get("apiVersion")!.split(" ")[0]);
  assert.equal(`PHYSICAL_DEVICE_TYPE_${info.type.toUpperCase().replace("-", "_")}`, vi.scalar.get("deviceType"));
  assert.equal(info.subgroupSize, num("subgroupSize"));
  assert.equal(info.subgroupSizeRange.min, num("minSubgroupSize"));
  assert.equal(info.subgroupSizeRange.max, num("maxSubgroupSize"));
  assert.deepEqual(
    info.subgroupOperations,
    vi.list.get("supportedOperations")!.map((op) => op.replace(/^SUBGROUP_FEATURE_|_BIT$/g, "").toLowerCase().replace("_", "-")),
  );
  const l = info.limits;
  assert.deepEqual(l.maxComputeWorkGroupSize, vi.list.get("maxComputeWorkGroupSize")!.map(Number));
  assert.deepEqual(l.maxComputeWorkGroupCount, vi.list.get("maxComputeWorkGroupCount")!.map(Number));
  for (const name of ["maxComputeWorkGroupInvocations", "maxComputeSharedMemorySize", "maxPushConstantsSize", "maxStorageBufferRange", "timestampPeriod"] as const) {
    assert.equal(l[name], num(name), name);
  }
  for (const f of REPORTED_FEATURES) {
    if (vi.scalar.has(f)) assert.equal(info.features[f], bool(f), f);
  }
  // lavapipe offers these; vulkaninfo must have listed them (else the loop above skipped them).
  for (const f of [
    "shaderInt64",
    "bufferDeviceAddress",
    "computeFullSubgroups",
    "shaderSubgroupExtendedTypes",
    "shaderBufferFloat32Atomics",
    "shaderBufferFloat32AtomicAdd",
    "shaderSharedFloat32Atomics",
    "shaderSharedFloat32AtomicAdd",
  ] as const) {
    assert.equal(info.features[f], true, `${f} (vulkaninfo: ${vi.scalar.get(f)})`);
  }

  // profileFromDevice passes the new features on to the SPIR-V profile.
  const profile = profileFromDevice(createSpirvTargetEnvironment(), { profileFacts: () => facts });
  const spirv = spirvInfoOf(profile)!;
  assert.equal(spirv.features.shaderSubgroupExtendedTypes, true);
  assert.equal(spirv.features.shaderBufferFloat32AtomicAdd, true);
  assert.equal(spirv.features.shaderSharedFloat32AtomicAdd, true);
  assert.equal(info.timestamps, true, "lavapipe's queue writes timestamps");

  // The profile facts are the same numbers under TargetFacts-like names.
  assert.equal(facts.environment, "vulkan1.3");
  assert.equal(facts.subgroupSize, info.subgroupSize);
  assert.deepEqual(facts.limits.maxWorkgroupSize, l.maxComputeWorkGroupSize);
  assert.equal(facts.limits.maxFlatWorkgroupSize, l.maxComputeWorkGroupInvocations);
  assert.deepEqual(facts.limits.maxWorkgroupCount, l.maxComputeWorkGroupCount);
  assert.equal(facts.limits.maxWorkgroupStorageBytes, l.maxComputeSharedMemorySize);
  assert.equal(facts.limits.maxArgumentBlockBytes, l.maxPushConstantsSize);
  assert.deepEqual(facts.features, info.features);
  assert.deepEqual(facts.subgroupOperations, info.subgroupOperations);
});

test("pickComputeQueueFamily: a compute-only family with timestamps wins, else the first compute family", () => {
  const family = (index: number, computeOnly: boolean, timestampValidBits = 64) => ({ index, computeOnly, timestampValidBits });
  assert.deepEqual(pickComputeQueueFamily([family(0, false), family(2, true)]), { index: 2, timestampValidBits: 64 });
  assert.deepEqual(pickComputeQueueFamily([family(0, false), family(2, true, 0)]), { index: 0, timestampValidBits: 64 });
  assert.deepEqual(pickComputeQueueFamily([family(1, false)]), { index: 1, timestampValidBits: 64 });
  assert.equal(pickComputeQueueFamily([]), undefined);
});
