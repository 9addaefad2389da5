/**
 * Device-local buffers with staged transfers: the memory-type choice (pure, on the memory
 * types of a real H200 and of lavapipe), and on lavapipe — whose one memory type is both
 * device-local and host-visible, so `forceStaging` is what makes it stage — saxpy and the
 * reduction in every memory mode, and uploads/downloads with offsets, odd sizes and chunk
 * boundaries, compared byte for byte with a JS model, under the validation layer.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { chooseMemoryType } from "../../../src/runtime/vulkan/memory.js";
import { SIZES, fromBase64, reduceReference, saxpyReference, ulpDistance } from "./cases.js";
import { requireGlslang, requireValidationLayer } from "./probe.js";
import { runChild } from "./run-child.js";
import { shaderPath } from "./shaders.js";

/** (propertyFlags, heapIndex) as an NVIDIA H200 reports them. */
const H200_TYPES = [
  { propertyFlags: 0, heapIndex: 1 },
  { propertyFlags: 1, heapIndex: 0 },
  { propertyFlags: 6, heapIndex: 1 },
  { propertyFlags: 14, heapIndex: 1 },
  { propertyFlags: 7, heapIndex: 0 },
];
const LAVAPIPE_TYPES = [{ propertyFlags: 0xf, heapIndex: 0 }];
const ALL = 0xffffffff;

test("memory types: device buffers avoid the ReBAR type; staging prefers cached system memory", () => {
  assert.deepEqual(chooseMemoryType(H200_TYPES, ALL, "device"), { typeIndex: 1, mapped: false });
  assert.deepEqual(chooseMemoryType(H200_TYPES, ALL, "host-visible"), { typeIndex: 4, mapped: true });
  assert.deepEqual(chooseMemoryType(H200_TYPES, ALL, "staging"), { typeIndex: 3, mapped: true });
  // Only the types the buffer allows count.
  assert.deepEqual(chooseMemoryType(H200_TYPES, 0b10100, "device"), { typeIndex: 4, mapped: true });
  assert.deepEqual(chooseMemoryType(H200_TYPES, 0b00100, "staging"), { typeIndex: 2, mapped: true });
  assert.equal(chooseMemoryType(H200_TYPES, 0b00011, "staging"), undefined);
  assert.equal(chooseMemoryType(H200_TYPES, 0b00001, "device"), undefined);
  // One all-purpose type: mapped, unless staging is forced.
  assert.deepEqual(chooseMemoryType(LAVAPIPE_TYPES, ALL, "device"), { typeIndex: 0, mapped: true });
  assert.deepEqual(chooseMemoryType(LAVAPIPE_TYPES, ALL, "device", true), { typeIndex: 0, mapped: false });
  assert.deepEqual(chooseMemoryType(LAVAPIPE_TYPES, ALL, "host-visible", true), { typeIndex: 0, mapped: true });
  assert.deepEqual(chooseMemoryType(LAVAPIPE_TYPES, ALL, "staging", true), { typeIndex: 0, mapped: true });
});

type Access = "mapped" | "staged";
interface Mode {
  readonly name: string;
  readonly forceStaging?: boolean;
  readonly memory?: "device" | "host-visible";
  readonly stagingBytes?: number;
  /** What lavapipe must do in this mode. */
  readonly access: Access;
}

const MODES: readonly Mode[] = [
  { name: "device memory (lavapipe: mapped)", access: "mapped" },
  { name: "host-visible memory", memory: "host-visible", access: "mapped" },
  { name: "forced staging", forceStaging: true, access: "staged" },
  { name: "forced staging, 1000-byte chunks", forceStaging: true, stagingBytes: 1000, access: "staged" },
  { name: "host-visible memory under forced staging", forceStaging: true, memory: "host-visible", access: "mapped" },
];

function modeJob(mode: Mode) {
  return {
    ...(mode.forceStaging !== undefined ? { forceStaging: mode.forceStaging } : {}),
    ...(mode.memory !== undefined ? { memory: mode.memory } : {}),
    ...(mode.stagingBytes !== undefined ? { stagingBytes: mode.stagingBytes } : {}),
  };
}

for (const mode of MODES) {
  for (const addressing of ["bindings", "device-address"] as const) {
    test(`saxpy (${addressing}, ${mode.name}) matches the CPU reference, validation-clean`, (t) => {
      if (!requireValidationLayer(t) || !requireGlslang(t)) return;
      const run = runChild<{ runs: { n: number; dispatched: boolean; y: string; access: Access }[] }>({
        scenario: "saxpy",
        shaders: { saxpy: shaderPath("saxpy"), saxpy_address: shaderPath("saxpy_address") },
        sizes: [...SIZES],
        addressing,
        ...modeJob(mode),
      });
      assert.deepEqual(run.validationErrors, []);
      for (const r of run.result.runs) {
        assert.equal(r.access, mode.access, `n=${r.n}`);
        assert.equal(r.dispatched, r.n > 0);
        const got = new Float32Array(fromBase64(r.y).buffer);
        const want = saxpyReference(r.n);
        assert.equal(got.length, r.n);
        for (let i = 0; i < r.n; i++) assert.ok(ulpDistance(got[i]!, want[i]!) <= 1, `n=${r.n}, i=${i}: ${got[i]} vs ${want[i]}`);
      }
    });
  }

  test(`workgroup-memory reduction (${mode.name}) matches exactly, validation-clean`, (t) => {
    if (!requireValidationLayer(t) || !requireGlslang(t)) return;
    const run = runChild<{ runs: { n: number; partial: string; access: Access }[] }>({
      scenario: "reduce",
      shaders: { reduce: shaderPath("reduce") },
      sizes: [...SIZES],
      square: true,
      ...modeJob(mode),
    });
    assert.deepEqual(run.validationErrors, []);
    for (const r of run.result.runs) {
      assert.equal(r.access, mode.access);
      assert.deepEqual([...new Uint32Array(fromBase64(r.partial).buffer)], [...reduceReference(r.n, true)], `n=${r.n}`);
    }
  });
}

const TRANSFER_MODES: readonly Mode[] = [
  { name: "mapped", access: "mapped" },
  { name: "staged, default chunk", forceStaging: true, access: "staged" },
  { name: "staged, odd 1 MiB + 1 chunks", forceStaging: true, stagingBytes: (1 << 20) + 1, access: "staged" },
  { name: "staged, 1000-byte chunks", forceStaging: true, stagingBytes: 1000, access: "staged" },
];

for (const mode of TRANSFER_MODES) {
  test(`uploads and downloads with offsets, odd sizes and chunk boundaries agree with a byte model (${mode.name})`, (t) => {
    if (!requireValidationLayer(t)) return;
    const run = runChild<{ steps: { step: string; mismatch: number }[]; access: Access[] }>({ scenario: "transfers", shaders: {}, ...modeJob(mode) });
    assert.deepEqual(run.validationErrors, []);
    assert.deepEqual(run.result.access, [mode.access, mode.access, mode.access]);
    assert.ok(run.result.steps.length >= 3 * 7, `ran ${run.result.steps.length} steps`);
    for (const s of run.result.steps) assert.equal(s.mismatch, -1, `${s.step}: first differing byte at ${s.mismatch}`);
  });
}

test("runtime options: stagingBytes and forceStaging are checked", (t) => {
  if (!requireValidationLayer(t)) return;
  const run = runChild<{ errors: Record<string, { status?: string; message: string }> }>({ scenario: "bad-options", shaders: {} });
  assert.deepEqual(run.validationErrors, []);
  assert.equal(run.result.errors["stagingBytes 0"]?.status, "invalid-argument");
  assert.match(run.result.errors["stagingBytes 0"]!.message, /stagingBytes must be a positive integer, got 0/);
  assert.equal(run.result.errors["forceStaging 'yes'"]?.status, "invalid-argument");
  assert.match(run.result.errors["forceStaging 'yes'"]!.message, /forceStaging must be a boolean/);
});

test("LOOM_VULKAN_FORCE_STAGING=1 forces staging like the option", (t) => {
  if (!requireValidationLayer(t) || !requireGlslang(t)) return;
  const run = runChild<{ runs: { n: number; y: string; access: Access }[] }>(
    { scenario: "saxpy", shaders: { saxpy: shaderPath("saxpy"), saxpy_address: shaderPath("saxpy_address") }, sizes: [1009] },
    { env: { LOOM_VULKAN_FORCE_STAGING: "1" } },
  );
  assert.deepEqual(run.validationErrors, []);
  assert.equal(run.result.runs[0]!.access, "staged");
  const got = new Float32Array(fromBase64(run.result.runs[0]!.y).buffer);
  assert.deepEqual([...got], [...saxpyReference(1009)]);
});
