/**
 * profileFromDevice maps a device's facts onto a SPIR-V profile (plain data here, so no device
 * is needed; the suite test compiles against a live lavapipe profile).
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { LoomError } from "../../src/core/errors.js";
import type { VulkanProfileFacts } from "../../src/runtime/vulkan/index.js";
import { createSpirvTargetEnvironment, profileFromDevice, spirvInfoOf } from "../../src/targets/spirv/index.js";
import { REPORTED_FEATURES } from "../../src/runtime/vulkan/index.js";

const env = createSpirvTargetEnvironment();

function fakeDevice(overrides: { environment?: string; subgroup?: [number, number, number]; ops?: string[]; features?: Partial<Record<string, boolean>> } = {}) {
  const [size, min, max] = overrides.subgroup ?? [32, 32, 32];
  const features = Object.fromEntries(REPORTED_FEATURES.map((f) => [f, overrides.features?.[f] ?? false])) as VulkanProfileFacts["features"];
  const facts: VulkanProfileFacts = {
    environment: overrides.environment ?? "vulkan1.3",
    deviceName: "Fake GPU",
    subgroupSize: size,
    subgroupSizeRange: { min, max },
    subgroupOperations: overrides.ops ?? ["basic", "vote", "arithmetic", "shuffle"],
    limits: {
      maxWorkgroupSize: [1024, 1024, 64],
      maxFlatWorkgroupSize: 1024,
      maxWorkgroupCount: [2147483647, 65535, 65535],
      maxWorkgroupStorageBytes: 49152,
      maxArgumentBlockBytes: 256,
      maxStorageBufferRange: 4294967295,
    },
    features,
  };
  // The runtime's facts are plain data; the SPIR-V target reads them by shape.
  return { profileFacts: () => facts };
}

test("profileFromDevice: limits, features and subgroup operations follow the device", () => {
  const p = profileFromDevice(env, fakeDevice({ features: { shaderInt64: true, shaderFloat64: true, bufferDeviceAddress: true } }));
  assert.equal(p.identifier, "vulkan:Fake GPU");
  assert.equal(p.environment, "spirv");
  assert.equal(p.target, "vulkan1.3");
  assert.deepEqual(p.facts, {
    subgroupSize: 32,
    maxWorkgroupSize: [1024, 1024, 64],
    maxFlatWorkgroupSize: 1024,
    maxWorkgroupCount: [2147483647, 65535, 65535],
    maxWorkgroupStorageBytes: 49152,
    maxArgumentBlockBytes: 256,
  });
  const info = spirvInfoOf(p)!;
  assert.ok(info, "a profile the SPIR-V backend recognizes");
  assert.equal(info.abi, "bindings");
  assert.equal(info.features.shaderInt64, true);
  assert.equal(info.features.shaderFloat64, true);
  assert.equal(info.features.shaderInt8, false);
  assert.equal(info.features.bufferDeviceAddress, true);
  // Not reported by the runtime: never promised.
  assert.equal(info.features.shaderSubgroupExtendedTypes, false);
  assert.equal(info.features.shaderBufferFloat32AtomicAdd, false);
  assert.deepEqual(info.features.subgroupOperations, ["basic", "vote", "arithmetic", "shuffle"]);
});

test("profileFromDevice: the subgroup size is fixed only when the device cannot vary it", () => {
  assert.equal(profileFromDevice(env, fakeDevice({ subgroup: [64, 32, 64] })).facts.subgroupSize, 0);
  assert.equal(profileFromDevice(env, fakeDevice({ subgroup: [8, 8, 8] })).facts.subgroupSize, 8);
});

test("profileFromDevice: options and refusals", () => {
  const p = profileFromDevice(env, fakeDevice({ features: { bufferDeviceAddress: true } }), { identifier: "mine", abi: "device-address" });
  assert.equal(p.identifier, "mine");
  assert.equal(spirvInfoOf(p)!.abi, "device-address");
  const status = (f: () => unknown) => {
    try {
      f();
    } catch (e) {
      assert.ok(e instanceof LoomError, String(e));
      return e.status;
    }
    return "no error";
  };
  assert.equal(status(() => profileFromDevice(env, fakeDevice({ environment: "vulkan1.2" }))), "failed-precondition");
  assert.equal(status(() => profileFromDevice(env, fakeDevice(), { abi: "device-address" })), "invalid-argument");
  assert.equal(status(() => profileFromDevice(env, {} as never)), "invalid-argument");
  assert.equal(status(() => profileFromDevice({} as never, fakeDevice())), "invalid-argument");
});
