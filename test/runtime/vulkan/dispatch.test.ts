/**
 * Execution on lavapipe through the runtime (verification.md, SPIR-V §4): GLSL reference
 * shaders following our ABI, dispatched in a child process under the Khronos validation layer,
 * results compared with the CPU reference (u32 exactly; f32 within 1 ULP, though the shaders
 * mark the expression `precise` and the results are expected to be exact).
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { SIZES, SAXPY_GROUP, fromBase64, reduceReference, saxpyReference, ulpDistance } from "./cases.js";
import { requireGlslang, requireValidationLayer } from "./probe.js";
import { runChild } from "./run-child.js";
import { shaderPath, type ShaderName } from "./shaders.js";

const F32_ULP_BOUND = 1;

function shaders(...names: ShaderName[]): Record<string, string> {
  return Object.fromEntries(names.map((n) => [n, shaderPath(n)]));
}

interface SaxpyRuns {
  runs: { n: number; dispatched: boolean; gpuNs: number | null; y: string }[];
}

function checkSaxpy(runs: SaxpyRuns["runs"]): void {
  assert.deepEqual(
    runs.map((r) => r.n),
    [...SIZES],
  );
  for (const run of runs) {
    assert.equal(run.dispatched, run.n > 0, `n=${run.n}: a zero workgroup count dispatches nothing`);
    const got = new Float32Array(fromBase64(run.y).buffer);
    const want = saxpyReference(run.n);
    assert.equal(got.length, run.n);
    let worst = 0;
    for (let i = 0; i < run.n; i++) worst = Math.max(worst, ulpDistance(got[i]!, want[i]!));
    assert.ok(worst <= F32_ULP_BOUND, `n=${run.n}: worst error ${worst} ULP > ${F32_ULP_BOUND}`);
    if (run.n > 0) {
      assert.equal(typeof run.gpuNs, "number", `n=${run.n}: lavapipe supports timestamps`);
      assert.ok(run.gpuNs! >= 0);
    }
  }
}

for (const addressing of ["bindings", "device-address"] as const) {
  test(`saxpy (${addressing}) matches the CPU reference for n = ${SIZES.join(", ")}, validation-clean`, (t) => {
    if (!requireValidationLayer(t) || !requireGlslang(t)) return;
    const run = runChild<SaxpyRuns>({ scenario: "saxpy", shaders: shaders("saxpy", "saxpy_address"), sizes: [...SIZES], addressing });
    assert.deepEqual(run.validationErrors, []);
    checkSaxpy(run.result.runs);
  });
}

for (const square of [false, true]) {
  test(`workgroup-memory reduction${square ? " of squares" : ""} matches exactly for n = ${SIZES.join(", ")}`, (t) => {
    if (!requireValidationLayer(t) || !requireGlslang(t)) return;
    const run = runChild<{ runs: { n: number; dispatched: boolean; partial: string }[] }>({
      scenario: "reduce",
      shaders: shaders("reduce"),
      sizes: [...SIZES],
      square,
    });
    assert.deepEqual(run.validationErrors, []);
    for (const r of run.result.runs) {
      assert.equal(r.dispatched, r.n > 0);
      assert.deepEqual([...new Uint32Array(fromBase64(r.partial).buffer)], [...reduceReference(r.n, square)], `n=${r.n}`);
    }
  });
}

test("the validation check bites: a layout missing a binding the shader uses is reported", (t) => {
  if (!requireValidationLayer(t) || !requireGlslang(t)) return;
  const run = runChild<unknown>({ scenario: "validation-bite", shaders: shaders("saxpy") });
  assert.ok(run.validationErrors.length > 0, "expected the validation layer to report the missing binding");
  assert.match(run.validationErrors.join("\n"), /VUID-VkComputePipelineCreateInfo-layout/);
});

test("the CPU reference check bites: a wrong reference is caught", () => {
  const n = 1009;
  const good = saxpyReference(n);
  const bad = good.slice();
  bad[n - 1] = bad[n - 1]! * 1.001;
  assert.ok(ulpDistance(good[n - 1]!, bad[n - 1]!) > F32_ULP_BOUND);
  assert.equal(Math.ceil(n / SAXPY_GROUP), 16); // 1009 elements, workgroup 64 → 16 groups
});

test("pipeline-cache data from one runtime seeds another that still computes correctly", (t) => {
  if (!requireValidationLayer(t) || !requireGlslang(t)) return;
  const run = runChild<{ cacheBytes: number; run: SaxpyRuns["runs"][number] }>({ scenario: "pipeline-cache", shaders: shaders("saxpy") });
  assert.deepEqual(run.validationErrors, []);
  assert.ok(run.result.cacheBytes > 0);
  const got = new Float32Array(fromBase64(run.result.run.y).buffer);
  const want = saxpyReference(1009);
  for (let i = 0; i < 1009; i++) assert.ok(ulpDistance(got[i]!, want[i]!) <= F32_ULP_BOUND, `i=${i}`);
});
