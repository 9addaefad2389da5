/**
 * Static strided layouts in view types (#encoding.layout.strided<strides=[…]>) address memory
 * as their strides say, on every back end: test/cases/strided_attribute.loom runs in the AMDGPU
 * simulator (gfx1100 wave32, gfx942 wave64) and on the interpreter device, each compared with
 * the plain-JS reference of cases.ts (and the reference interpreter with it); its PTX
 * assembles with ptxas. The Vulkan run (lavapipe) is strided-attribute-vulkan.test.ts.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { compileKernel, describeCheck, findDeviceProvider, runCase } from "../../src/harness/index.js";
import { fromRoot } from "../util/paths.js";
import { requireTool } from "../util/tools.js";
import { compileText, PTXAS_FIX, ptxas } from "../ptx/helpers.js";
import { STRIDED_FILE, STRIDED_SYMBOL, stridedCase } from "./cases.js";

const TEXT = readFileSync(fromRoot(STRIDED_FILE), "utf8");

for (const [provider, selector] of [["sim", "gfx1100"], ["sim", "gfx942"], ["interp", undefined]] as const) {
  test(`${provider}${selector ? ` ${selector}` : ""}: strided view types address as the JS reference does, and so does the interpreter`, () => {
    const device = findDeviceProvider(provider)!.open(selector);
    try {
      const outcome = compileKernel(device.target, STRIDED_FILE, TEXT, STRIDED_SYMBOL);
      assert.ok(outcome.ok, outcome.ok ? "" : outcome.diagnostics);
      for (const seed of [3, 11]) {
        const r = runCase(device, outcome.kernel, stridedCase(seed), { interpret: true });
        assert.equal(r.device.length, 5, "five outputs were compared");
        assert.equal(r.interpreter?.length, 5, "the interpreter was compared too");
        for (const check of [...r.device, ...(r.interpreter ?? [])]) assert.equal(check.mismatches, 0, `seed ${seed}: ${describeCheck(check)}`);
      }
    } finally {
      device.destroy();
    }
  });
}

test("ptx: the strided kernel assembles with ptxas for sm_90", (t) => {
  if (!requireTool(t, "ptxas", PTXAS_FIX)) return;
  const compiled = compileText(STRIDED_FILE, TEXT, [STRIDED_SYMBOL]);
  assert.ok(compiled.ok && compiled.text, JSON.stringify(compiled.diagnostics));
  // The column-major reading steps 8 elements (32 bytes) per column: a constant of the address arithmetic.
  const r = ptxas(compiled.text, "strided_attribute");
  assert.equal(r.status, 0, r.output);
});
