/**
 * f64 division, square root, rsqrt and round on AMDGPU (lower/f64.ts `divide64`, `sqrt64`):
 * data/f64-divide.loom built for gfx1100 (wave32) and gfx942 (wave64) runs in the ISA
 * simulator, whose `v_rcp_f64`/`v_rsq_f64` are 2^-23 approximations (src/runtime/sim/f64.ts),
 * over every pair of special and boundary values (±0, ±∞, NaN, subnormals, the normal range
 * ends, quotients that overflow, underflow or land among the subnormals) and random doubles
 * across the whole exponent range; each result must equal the CPU's IEEE result bit for bit
 * (a NaN any NaN), with varying operands and with uniform ones (SGPR pairs). LLVM 19 decodes
 * and re-assembles the code to the same bytes.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { amdgpuListingOf } from "../../src/targets/amdgpu/index.js";
import { f64Bits as bits, f64Pairs, sameF64 as same } from "../util/f64-inputs.js";
import { requireLlvm } from "./llvm.js";
import { checkWithLlvm, LLVM_CHECK_TOOLS, runOnSimulator } from "./llvm-checks.js";

const FILE = "test/amdgpu/data/f64-divide.loom";

/** Round half away from zero, as the language defines `roundf`. */
function roundHalfAway(x: number): number {
  const t = Math.trunc(x);
  return Math.abs(x - t) >= 0.5 ? t + (x < 0 ? -1 : 1) : t + (x < 0 || Object.is(x, -0) ? -0 : 0);
}

for (const processor of ["gfx1100", "gfx942"]) {
  test(`f64 divf, sqrtf, rsqrtf and roundf on ${processor} equal the CPU's IEEE results in the simulator`, (t) => {
    const { a, b } = f64Pairs(3000, 11);
    const n = a.length;
    const run = runOnSimulator(processor, FILE, "f64_divide", [a, b], 48);
    const out = new Float64Array(run.out);
    const failures: string[] = [];
    const names = ["divf", "sqrtf", "rsqrtf", "roundf", "uniform divf", "uniform sqrtf"];
    const counts: number[] = [];
    for (let i = 0; i < n; i++) {
      const x = a[i]!, y = b[i]!, u = 53 * Math.floor(i / 64);
      const want = [x / y, Math.sqrt(x), 1 / Math.sqrt(x), roundHalfAway(x), a[u]! / b[u]!, Math.sqrt(b[u]!)];
      want.forEach((w, j) => {
        const got = out[6 * i + j]!;
        if (!same(got, w)) counts[j] = (counts[j] ?? 0) + 1;
        if (!same(got, w) && (failures.length < 12 || counts[j] === 1)) failures.push(`${names[j]}(${x}${j === 0 ? `, ${y}` : ""}): got ${got} (0x${bits(got).toString(16)}), want ${w} (0x${bits(w).toString(16)})`);
      });
    }
    assert.deepEqual(failures, [], `failures per function: ${names.map((f, j) => `${f} ${counts[j] ?? 0}`).join(", ")}`);
    if (!requireLlvm(t, ...LLVM_CHECK_TOOLS)) return;
    const listing = amdgpuListingOf(run.kernel.executable);
    assert.ok(listing, "the listing of a code object this process emitted");
    for (const name of ["v_div_scale_f64", "v_rcp_f64", "v_div_fmas_f64", "v_div_fixup_f64", "v_rsq_f64", "v_ldexp_f64", "v_cmp_class_f64"]) assert.match(listing, new RegExp(`\\b${name}`));
    checkWithLlvm(run.kernel.executable, listing, processor);
  });
}
