/** Device selection and VkResult naming: pure functions, no device needed. */
import { test } from "node:test";
import assert from "node:assert/strict";
import { LoomError } from "../../../src/core/errors.js";
import { selectDevice, vkResultName, VulkanError, type DeviceCandidate } from "../../../src/runtime/vulkan/index.js";
import { check } from "../../../src/runtime/vulkan/vk-result.js";

const devices: DeviceCandidate[] = [
  { index: 0, name: "llvmpipe (LLVM 15.0.6, 256 bits)", type: "cpu" },
  { index: 1, name: "NVIDIA H200", type: "discrete-gpu" },
  { index: 2, name: "Old GPU", type: "integrated-gpu", unusable: "device Vulkan 1.0.0 < 1.1" },
  { index: 3, name: "AMD Radeon 780M GPU", type: "integrated-gpu" },
];

function throwsStatus(fn: () => unknown, status: string, message: RegExp): void {
  assert.throws(fn, (e: unknown) => e instanceof LoomError && e.status === status && message.test(e.message));
}

test("without a selector the most capable usable device wins", () => {
  assert.equal(selectDevice(devices, undefined, "LOOM_VULKAN_DEVICE"), 1);
  assert.equal(selectDevice(devices, "  ", "LOOM_VULKAN_DEVICE"), 1);
  assert.equal(selectDevice([devices[0]!, devices[3]!], undefined, "x"), 3);
  assert.equal(selectDevice([devices[0]!], undefined, "x"), 0);
});

test("a selector is an index or a case-insensitive name substring", () => {
  assert.equal(selectDevice(devices, "0", "LOOM_VULKAN_DEVICE"), 0);
  assert.equal(selectDevice(devices, 3, "options.device"), 3);
  assert.equal(selectDevice(devices, "h200", "LOOM_VULKAN_DEVICE"), 1);
  assert.equal(selectDevice(devices, "LLVMpipe", "LOOM_VULKAN_DEVICE"), 0);
  assert.equal(selectDevice(devices, "GPU", "x"), 3, "the usable match comes before the unusable one");
});

test("selection failures name the source and list the devices", () => {
  throwsStatus(() => selectDevice(devices, "7", "LOOM_VULKAN_DEVICE"), "not-found", /LOOM_VULKAN_DEVICE = 7: no Vulkan device with that index; devices: 0: llvmpipe/);
  throwsStatus(() => selectDevice(devices, "mali", "options.device"), "not-found", /options.device = 'mali' matches no Vulkan device name; .*3: AMD Radeon 780M GPU \(integrated-gpu\)/);
  throwsStatus(() => selectDevice(devices, "2", "LOOM_VULKAN_DEVICE"), "failed-precondition", /device 2 \(Old GPU\) chosen by LOOM_VULKAN_DEVICE cannot be used: device Vulkan 1.0.0 < 1.1/);
  throwsStatus(() => selectDevice(devices, -1, "options.device"), "invalid-argument", /non-negative integer index/);
  throwsStatus(() => selectDevice([], undefined, "x"), "not-found", /no Vulkan physical device found/);
  throwsStatus(() => selectDevice([devices[2]!], undefined, "x"), "failed-precondition", /no usable Vulkan device; found 2: Old GPU/);
});

test("check() turns a failed VkResult into a VulkanError carrying its name", () => {
  assert.doesNotThrow(() => check(0, "vkX"));
  const cases: [number, string, string][] = [
    [-13, "VK_ERROR_UNKNOWN", "internal"],
    [-2, "VK_ERROR_OUT_OF_DEVICE_MEMORY", "resource-exhausted"],
    [-9, "VK_ERROR_INCOMPATIBLE_DRIVER", "failed-precondition"],
    [-6, "VK_ERROR_LAYER_NOT_PRESENT", "failed-precondition"],
    [-1000069000, "VK_ERROR_OUT_OF_POOL_MEMORY", "resource-exhausted"],
    [-4, "VK_ERROR_DEVICE_LOST", "internal"],
  ];
  for (const [code, name, status] of cases) {
    assert.throws(
      () => check(code, "vkCreateThing (x)"),
      (e: unknown) =>
        e instanceof VulkanError && e instanceof LoomError && e.vkResult === name && e.code === code && e.status === status &&
        e.message === `vkCreateThing (x) failed: ${name} (${code})`,
    );
  }
  assert.equal(vkResultName(5), "VK_INCOMPLETE");
  assert.equal(vkResultName(-424242), "VkResult(-424242)");
});
