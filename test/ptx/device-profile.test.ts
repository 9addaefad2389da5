/**
 * profileFromDevice (loomc/target/ptx): a CUDA runtime's device facts (the shape of
 * CudaRuntime.profileFacts(), here as plain data read off an H200 and an A100) become a PTX
 * profile with the device's own limits; older or odd devices are refused with a LoomError.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { LoomError } from "../../src/core/errors.js";
import { createPtxTargetEnvironment, profileFromDevice, ptxInfoOf, ptxTargetFor, type CudaDeviceFacts } from "../../src/targets/ptx/index.js";

const H200: CudaDeviceFacts = {
  deviceName: "NVIDIA H200",
  computeCapability: [9, 0],
  subgroupSize: 32,
  limits: { maxWorkgroupSize: [1024, 1024, 64], maxFlatWorkgroupSize: 1024, maxWorkgroupCount: [2147483647, 65535, 65535], maxWorkgroupStorageBytes: 232448, maxArgumentBlockBytes: 32764 },
};
const source = (facts: CudaDeviceFacts) => ({ profileFacts: () => facts });
const env = createPtxTargetEnvironment();

test("profileFromDevice: an H200's facts give sm_90 with its limits (static shared memory capped at 48 KiB)", () => {
  const profile = profileFromDevice(env, source(H200));
  assert.equal(profile.identifier, "cuda:NVIDIA H200");
  const info = ptxInfoOf(profile)!;
  assert.equal(info.target, "sm_90");
  assert.equal(info.limits.maxParameterBytes, 32764);
  assert.equal(info.limits.maxSharedMemoryPerBlock, 48 * 1024);
  assert.deepEqual(info.limits.maxGridDim, [2147483647, 65535, 65535]);
  assert.equal(profileFromDevice(env, source(H200), { identifier: "mine" }).identifier, "mine");
});

test("profileFromDevice: targets by compute capability; pre-Ampere devices, odd warps and non-runtimes are refused", () => {
  assert.equal(ptxTargetFor([8, 0]), "sm_80");
  assert.equal(ptxTargetFor([8, 9]), "sm_80");
  assert.equal(ptxTargetFor([9, 0]), "sm_90");
  assert.equal(ptxTargetFor([12, 0]), "sm_90");
  assert.equal(ptxTargetFor([7, 5]), undefined);
  const a100 = profileFromDevice(env, source({ ...H200, deviceName: "NVIDIA A100", computeCapability: [8, 0], limits: { ...H200.limits, maxArgumentBlockBytes: 4096 } }));
  assert.equal(ptxInfoOf(a100)!.target, "sm_80");
  assert.throws(() => profileFromDevice(env, source({ ...H200, computeCapability: [7, 5] })), (e: unknown) => e instanceof LoomError && e.status === "failed-precondition" && /7\.5/.test(e.message));
  assert.throws(() => profileFromDevice(env, source({ ...H200, subgroupSize: 64 })), (e: unknown) => e instanceof LoomError && e.status === "failed-precondition");
  assert.throws(() => profileFromDevice(env, {} as never), (e: unknown) => e instanceof LoomError && e.status === "invalid-argument");
});
