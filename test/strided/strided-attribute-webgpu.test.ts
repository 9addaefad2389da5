/**
 * Static strided layouts in WGSL: test/cases/strided_attribute.loom compiled for the adapter's
 * own profile, accepted by Tint and run through Dawn on SwiftShader, matches the plain-JS
 * reference of cases.ts, as does the reference interpreter.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { describeCheck } from "../../src/harness/index.js";
import { fromRoot } from "../util/paths.js";
import { dawnRuntime } from "../runtime/webgpu/dawn.js";
import { compileWgsl, runWgslCase } from "../runtime/webgpu/wgsl-kernel.js";
import { STRIDED_FILE, STRIDED_SYMBOL, stridedCase } from "./cases.js";

test("webgpu (Dawn + SwiftShader): strided view types address as the JS reference does", async (t) => {
  const rt = await dawnRuntime(t);
  if (!rt) return;
  try {
    const compiled = compileWgsl(rt, STRIDED_FILE, readFileSync(fromRoot(STRIDED_FILE), "utf8"), STRIDED_SYMBOL);
    if (!compiled.ok) assert.fail(`${STRIDED_FILE} does not compile to WGSL:\n${compiled.diagnostics}`);
    const subgroupSize = rt.profileFacts().limits.minSubgroupSize ?? 4;
    for (const seed of [3, 11]) {
      const r = await runWgslCase(rt, compiled.kernel, stridedCase(seed), { interpret: true, subgroupSize });
      assert.equal(r.device.length, 5, "five outputs were compared");
      assert.equal(r.interpreter?.length, 5, "the interpreter was compared too");
      for (const check of [...r.device, ...(r.interpreter ?? [])]) assert.equal(check.mismatches, 0, `seed ${seed}: ${describeCheck(check)}`);
    }
  } finally {
    rt.destroy();
  }
});
