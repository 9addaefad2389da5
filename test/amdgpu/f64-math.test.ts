/**
 * Accuracy of the f64 exp, exp2, log and log2 sequences (lower/f64.ts `exp64`, `log64`;
 * docs/amdgpu.md "f64"): data/f64-math.loom built for gfx1100 and gfx942 runs in the ISA
 * simulator over the special values, a dense sweep of exp's whole range (−750 … 712, results
 * from 0 through the subnormals to ∞), positive doubles of every exponent (subnormals
 * included) and values next to 1, against V8's Math.exp/log/log2 and 2 ** x (fdlibm, within
 * 1 ulp themselves), in ulps of the result; the bounds are asserted.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { compileKernel, findDeviceProvider } from "../../src/harness/index.js";
import { SimRuntime } from "../../src/runtime/sim/index.js";
import { fromRoot } from "../util/paths.js";
import { f64Bits } from "../util/f64-inputs.js";

const FILE = "test/amdgpu/data/f64-math.loom";

/** |got − want| in ulps of want (0 when both are the same value, ∞ or NaN). */
function ulps(got: number, want: number): number {
  if (f64Bits(got) === f64Bits(want) || (Number.isNaN(got) && Number.isNaN(want))) return 0;
  if (!Number.isFinite(want) || !Number.isFinite(got)) return Infinity;
  const a = Math.abs(want);
  const ulp = a < 2 ** -1022 ? 2 ** -1074 : 2 ** (Math.floor(Math.log2(a)) - 52);
  return Math.abs(got - want) / ulp;
}

function inputs(): number[] {
  const out = [0, -0, Infinity, -Infinity, NaN, 1, -1, 2, 0.5, 1 - 2 ** -53, 1 + 2 ** -52, 2 ** -1074, 2 ** -1022, Number.MAX_VALUE, 709.782712893384, 709.7827128933841, -745.1332191019411, -745.1332191019412, 1024, 1023.9999999999999, -1074, -1075, -1022.5];
  for (let k = 0; k < 6000; k++) out.push(-750 + (1462 * k) / 5999 + Math.sin(k) * 1e-3);
  for (let k = 0; k < 3000; k++) out.push(2 ** (-1074 + (2097 * k) / 2999) * (1 + 0.37 * Math.abs(Math.sin(k))));
  for (let k = 1; k < 1000; k++) out.push(1 + Math.sin(k) * 2 ** -(k % 50), -k * 0.25);
  return out;
}

for (const processor of ["gfx1100", "gfx942"]) {
  test(`f64 expf, exp2f, logf and log2f on ${processor}: within their documented ulps`, (t) => {
    const device = findDeviceProvider("sim")!.open(processor);
    const outcome = compileKernel(device.target, FILE, readFileSync(fromRoot(FILE), "utf8"), "f64_math");
    assert.ok(outcome.ok, outcome.ok ? "" : outcome.diagnostics);
    const x = Float64Array.from(inputs());
    const n = x.length;
    const rt = new SimRuntime();
    const module = rt.loadCodeObject(outcome.kernel.executable);
    const bx = rt.allocate(x.byteLength, "x"), bo = rt.allocate(32 * n, "out");
    rt.upload(bx, new Uint8Array(x.buffer));
    const launch = outcome.kernel.launch([n]);
    rt.launch(module.kernel("f64_math"), launch.workgroupCount, [BigInt(n), bx, bo], { workgroupSize: launch.workgroupSize });
    const out = new Float64Array(rt.download(bo).slice().buffer);
    const references: [string, (v: number) => number, number][] = [["expf", Math.exp, 1], ["exp2f", (v) => 2 ** v, 1], ["logf", Math.log, 1], ["log2f", Math.log2, 1]];
    references.forEach(([name, reference, bound], j) => {
      let max = 0, at = "";
      for (let i = 0; i < n; i++) {
        const e = ulps(out[4 * i + j]!, reference(x[i]!));
        if (!(e <= max)) [max, at] = [e, `x=${x[i]}: got ${out[4 * i + j]}, want ${reference(x[i]!)}`];
      }
      t.diagnostic(`${processor}: ${name} ≤ ${max.toFixed(3)} ulp (${at})`);
      assert.ok(max <= bound, `${name}: ${max} ulp at ${at}`);
    });
  });
}
