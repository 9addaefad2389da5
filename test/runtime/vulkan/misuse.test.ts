/**
 * Runtime misuse is a LoomError with the right status before anything reaches the queue, and
 * driver failures carry their VkResult names. Device work runs in a child process.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import type { CaughtError } from "./child.js";
import { requireGlslang, requireLavapipe, requireValidationLayer } from "./probe.js";
import { runChild } from "./run-child.js";
import { shaderPath } from "./shaders.js";
import { fromBase64, saxpyReference, ulpDistance } from "./cases.js";

type Outcome = CaughtError | { ok: true };

interface MisuseResult {
  results: Record<string, Outcome>;
  access: "mapped" | "staged";
  untouched: boolean;
  zeroDispatched: boolean;
  untouchedAfterZero: boolean;
  okDispatched: boolean;
  afterKernelDestroy: Outcome;
  afterRuntimeDestroy: Outcome;
  downloadAfterDestroy: Outcome;
}

/** Expected status and a fragment of the message for every misuse the child tries. */
const EXPECTED: Record<string, [string, RegExp]> = {
  "one buffer short": ["invalid-argument", /takes 2 buffers, got 1/],
  "one buffer too many": ["invalid-argument", /takes 2 buffers, got 3/],
  "arg block too short": ["invalid-argument", /argument block is 40 bytes.*expects 48/],
  "arg block too long": ["invalid-argument", /argument block is 56 bytes.*expects 48/],
  "buffer smaller than declared": ["out-of-range", /buffer 1 is declared as 400 bytes.*only 396/],
  "nonzero address in bindings mode": ["invalid-argument", /holds address 0x1000, expected 0x0 \(bindings addressing\)/],
  "workgroup count over the device limit": ["out-of-range", /workgroupCount\[0\] = \d+ exceeds the device limit/],
  "negative workgroup count": ["invalid-argument", /workgroupCount\[0\] must be a non-negative integer/],
  "fractional workgroup count": ["invalid-argument", /workgroupCount\[0\] must be a non-negative integer, got 1.5/],
  "two-element workgroup count": ["invalid-argument", /workgroupCount must be \[x, y, z\]/],
  "buffer of another runtime": ["invalid-argument", /buffers\[1\] belongs to another runtime/],
  "destroyed buffer": ["failed-precondition", /buffers\[1\]: the buffer was destroyed/],
  "not a buffer": ["invalid-argument", /buffers\[1\] is not a VulkanBuffer/],
  "upload past the end": ["out-of-range", /upload: bytes \[396, 404\) exceed the buffer's 400 bytes/],
  "download past the end": ["out-of-range", /download: bytes \[4, 404\) exceed/],
  "negative buffer size": ["invalid-argument", /byteLength must be a non-negative integer/],
  "unknown buffer memory": ["invalid-argument", /options\.memory must be "device" or "host-visible", got shared/],
  "upload of a non-view": ["invalid-argument", /upload: data must be a typed array or DataView/],
  "zero workgroup size": ["invalid-argument", /workgroupSize must be three positive integers/],
  "workgroup size over the device limit": ["out-of-range", /workgroup size \[\d+, 1, 1\] exceeds the device's maxComputeWorkGroupSize/],
  "record of another module": ["invalid-argument", /record and the module disagree/],
  "missing record": ["invalid-argument", /kernel-interface record is missing/],
  "record of another version": ["invalid-argument", /version 2 is not 1/],
  "unknown entry in the record": ["not-found", /has no kernel 'no_such_entry' \(has: main\)/],
  "feature the device lacks": ["failed-precondition", /needs the Vulkan feature\(s\) noSuchFeature/],
  "arg block over the push-constant limit": ["out-of-range", /exceeds the device's push-constant limit of \d+ bytes/],
  "arg block size not a multiple of 4": ["invalid-argument", /argument block of 46 bytes is not a multiple of 4/],
  "overlapping buffer fields": ["invalid-argument", /arguments\[1\] (overlaps|\(buffer at 8\) is not)/],
  "buffer field outside the block": ["invalid-argument", /arguments\[1\] \(buffer at 40\) is not a 16-byte, 8-aligned field inside the 48-byte block/],
  "SPIR-V of odd length": ["invalid-argument", /whole number of 32-bit words/],
  "not SPIR-V": ["invalid-argument", /not little-endian SPIR-V/],
  "empty entry name": ["invalid-argument", /entryName must be a non-empty string/],
};

for (const forceStaging of [false, true]) {
  test(`misuse is rejected with LoomError before anything is submitted, validation-clean${forceStaging ? " (forced staging)" : ""}`, (t) => {
    if (!requireValidationLayer(t) || !requireGlslang(t)) return;
    const run = runChild<MisuseResult>({ scenario: "misuse", shaders: { saxpy: shaderPath("saxpy") }, forceStaging });
    assert.deepEqual(run.validationErrors, []);
    const r = run.result;
    if (forceStaging) assert.equal(r.access, "staged");
    assert.deepEqual(Object.keys(r.results).sort(), Object.keys(EXPECTED).sort());
    for (const [name, [status, message]] of Object.entries(EXPECTED)) {
      const got = r.results[name]!;
      assert.ok(!("ok" in got), `${name}: expected a LoomError, the call succeeded`);
      assert.equal(got.isLoomError, true, `${name}: ${got.message}`);
      assert.equal(got.status, status, `${name}: ${got.message}`);
      assert.match(got.message, message, name);
    }
    assert.equal(r.untouched, true, "a rejected dispatch must not run");
    assert.equal(r.zeroDispatched, false);
    assert.equal(r.untouchedAfterZero, true, "a zero workgroup count must not run");
    assert.equal(r.okDispatched, true);
    for (const [what, outcome] of [
      ["dispatch after kernel.destroy()", r.afterKernelDestroy],
      ["createBuffer after runtime.destroy()", r.afterRuntimeDestroy],
      ["download after runtime.destroy()", r.downloadAfterDestroy],
    ] as const) {
      assert.ok(!("ok" in outcome), `${what} must throw`);
      assert.equal(outcome.status, "failed-precondition", `${what}: ${outcome.message}`);
    }
  });
}

test("driver failures carry the VkResult name (invalid SPIR-V, unknown entry point)", (t) => {
  if (!requireLavapipe(t) || !requireGlslang(t)) return;
  // Without the validation layer: it would (rightly) reject the module before the driver sees it.
  const run = runChild<{ garbage: Outcome; wrongEntry: Outcome; stillWorks: boolean }>(
    { scenario: "invalid-spirv", shaders: { saxpy: shaderPath("saxpy") } },
    { validation: false },
  );
  for (const [what, outcome, entry] of [
    ["garbage SPIR-V", run.result.garbage, "main"],
    ["unknown entry point", run.result.wrongEntry, "no_such_entry"],
  ] as const) {
    assert.ok(!("ok" in outcome), `${what} must fail`);
    assert.equal(outcome.isLoomError, true);
    assert.equal(outcome.vkResult, "VK_ERROR_UNKNOWN", `${what}: ${outcome.message}`);
    assert.equal(outcome.message, `vkCreateComputePipelines (entry '${entry}') failed: VK_ERROR_UNKNOWN (-13)`);
  }
  assert.equal(run.result.stillWorks, true, "the runtime stays usable after a failed pipeline");
});

test("a missing Vulkan loader is a failed-precondition that says how to install one", (t) => {
  if (!requireLavapipe(t)) return;
  const run = runChild<{ error?: CaughtError }>({ scenario: "open", shaders: {} }, { validation: false, env: { LOOM_VULKAN_LIBRARY: "/nonexistent/libvulkan.so.1" } });
  const e = run.result.error;
  assert.ok(e, "opening must fail");
  assert.equal(e.status, "failed-precondition");
  assert.match(e.message, /cannot load the Vulkan loader \/nonexistent\/libvulkan\.so\.1/);
  assert.match(e.message, /apt-get install libvulkan1 mesa-vulkan-drivers/);
});

test("LOOM_VULKAN_DEVICE selects by name or index; unknown selectors are not-found", (t) => {
  if (!requireLavapipe(t)) return;
  const open = (selector: string) => runChild<{ device?: string; index?: number; error?: CaughtError }>({ scenario: "open", shaders: {} }, { validation: false, env: { LOOM_VULKAN_DEVICE: selector } }).result;
  const byName = open("LLVMPIPE");
  assert.match(byName.device ?? "", /llvmpipe/);
  const byIndex = open(String(byName.index));
  assert.equal(byIndex.device, byName.device);
  for (const bad of ["no-such-gpu-anywhere", "99"]) {
    const r = open(bad);
    assert.equal(r.error?.status, "not-found", bad);
    assert.match(r.error!.message, new RegExp(`LOOM_VULKAN_DEVICE = '?${bad}'?`));
    assert.match(r.error!.message, /llvmpipe/, "the message lists the devices");
  }
});

test("saxpy reference sanity: the f32 comparison helper distinguishes neighbours", () => {
  const want = saxpyReference(3);
  const next = new Float32Array(new Uint32Array([new Uint32Array(want.buffer)[2]! + 1]).buffer)[0]!;
  assert.equal(ulpDistance(want[2]!, next), 1);
  assert.equal(fromBase64(Buffer.from([1, 2, 3]).toString("base64")).length, 3);
});
