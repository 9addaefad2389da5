/**
 * The kernel suite (examples/kernels/suite.ts) compiled to WGSL by loom for the device's own
 * profile and run through Dawn in Node on SwiftShader: every test shape of every kernel, device
 * output against the plain-JS reference, and the reference interpreter against it too (cases up
 * to 1 MB). Prints one JSON line per kernel with its GPU times.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { KERNEL_SUITE } from "../../../examples/kernels/suite.js";
import { describeCheck } from "../../../src/harness/index.js";
import { fromRoot } from "../../util/paths.js";
import { dawnRuntime } from "./dawn.js";
import { compileWgsl, runWgslCase } from "./wgsl-kernel.js";

const SEED = 20261201;
const INTERPRET_UP_TO_BYTES = 1 << 20;

for (const entry of KERNEL_SUITE) {
  test(`${entry.symbol}: loom's WGSL on Dawn + SwiftShader matches the reference at every test shape`, async (t) => {
    const rt = await dawnRuntime(t);
    if (!rt) return;
    try {
      const compiled = compileWgsl(rt, entry.file, readFileSync(fromRoot("examples", "kernels", entry.file), "utf8"), entry.symbol);
      if (!compiled.ok) assert.fail(`${entry.file} does not compile to WGSL:\n${compiled.diagnostics}`);
      const subgroupSize = rt.profileFacts().limits.minSubgroupSize ?? 4;
      const times: Record<string, number | undefined> = {};
      for (const shape of entry.shapes.test) {
        const c = entry.build(shape, SEED);
        const r = await runWgslCase(rt, compiled.kernel, c, { interpret: c.bytesMoved <= INTERPRET_UP_TO_BYTES, subgroupSize });
        for (const check of r.device) assert.equal(check.mismatches, 0, `${entry.symbol} ${c.label} device: ${describeCheck(check)}`);
        for (const check of r.interpreter ?? []) assert.equal(check.mismatches, 0, `${entry.symbol} ${c.label} interpreter: ${describeCheck(check)}`);
        times[c.label] = r.gpuNs;
      }
      console.log(JSON.stringify({ kernel: entry.symbol, device: rt.profileFacts().adapter.description || "webgpu", gpuNs: times }));
    } finally {
      rt.destroy();
    }
  });
}
