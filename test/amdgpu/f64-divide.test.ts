/**
 * f64 division, square root, rsqrt and round on AMDGPU (lower/f64.ts `divide64`, `sqrt64`):
 * data/f64-divide.loom built for gfx1100 (wave32) and gfx942 (wave64) runs in the ISA
 * simulator, whose `v_rcp_f64`/`v_rsq_f64` are 2^-23 approximations (src/runtime/sim/f64.ts),
 * over every pair of special and boundary values (±0, ±∞, NaN, subnormals, the normal range
 * ends, quotients that overflow, underflow or land among the subnormals) and random doubles
 * across the whole exponent range; each result must equal the CPU's IEEE result bit for bit
 * (a NaN any NaN). LLVM 19 decodes and re-assembles the code to the same bytes.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { compileKernel, findDeviceProvider } from "../../src/harness/index.js";
import { SimRuntime } from "../../src/runtime/sim/index.js";
import { amdgpuListingOf } from "../../src/targets/amdgpu/index.js";
import { fromRoot } from "../util/paths.js";
import { requireLlvm } from "./llvm.js";
import { checkWithLlvm, LLVM_CHECK_TOOLS } from "./llvm-checks.js";

const FILE = "test/amdgpu/data/f64-divide.loom";

function random(seed: number): () => number {
  let s = seed >>> 0;
  return () => ((s = (Math.imul(s, 1664525) + 1013904223) >>> 0), s / 2 ** 32);
}

const F64 = new Float64Array(1), U64 = new BigUint64Array(F64.buffer);
const bits = (x: number) => ((F64[0] = x), U64[0]!);
const fromBits = (b: bigint) => ((U64[0] = b), F64[0]!);

/** Special and boundary values: zeros, infinities, NaN, subnormals, the normal range ends, values near 1. */
const F64_SPECIALS: readonly number[] = [
  0, -0, Infinity, -Infinity, NaN, 1, -1, 3, -7, 0.1, 2 ** -1074, -(2 ** -1074), 3 * 2 ** -1070, 2 ** -1022, -(2 ** -1022),
  fromBits(0x000fffffffffffffn), Number.MAX_VALUE, -Number.MAX_VALUE, 2 ** 1023, 2 ** -767, 2 ** -768, 1e-300, 1e300, 1e-310,
  1 + 2 ** -52, 1 - 2 ** -53, 2 ** 53 + 2, 0.5, 2.5, -2.5, 0.49999999999999994, 4503599627370497,
];

/** Random doubles of either sign with exponents across the whole range (subnormals included). */
function doubles(count: number, rng: () => number): number[] {
  return Array.from({ length: count }, () => {
    const hi = Math.floor(rng() * 2 ** 32), lo = Math.floor(rng() * 2 ** 32);
    const x = fromBits((BigInt(hi) << 32n) | BigInt(lo));
    return Number.isFinite(x) ? x : rng() - 0.5;
  });
}

/** Round half away from zero, as the language defines `roundf`. */
function roundHalfAway(x: number): number {
  const t = Math.trunc(x);
  return Math.abs(x - t) >= 0.5 ? t + (x < 0 ? -1 : 1) : t + (x < 0 || Object.is(x, -0) ? -0 : 0);
}

const same = (got: number, want: number) => bits(got) === bits(want) || (Number.isNaN(got) && Number.isNaN(want));

for (const processor of ["gfx1100", "gfx942"]) {
  test(`f64 divf, sqrtf, rsqrtf and roundf on ${processor} equal the CPU's IEEE results in the simulator`, (t) => {
    const device = findDeviceProvider("sim")!.open(processor);
    const outcome = compileKernel(device.target, FILE, readFileSync(fromRoot(FILE), "utf8"), "f64_divide");
    assert.ok(outcome.ok, outcome.ok ? "" : outcome.diagnostics);
    const xs: number[] = [], ys: number[] = [];
    for (const a of F64_SPECIALS) for (const b of F64_SPECIALS) xs.push(a), ys.push(b);
    const rng = random(11);
    const wide = doubles(3000, rng), other = doubles(3000, rng);
    for (let k = 0; k < wide.length; k++) xs.push(wide[k]!), ys.push(other[k]!);
    // Quotients near the ends: huge over tiny, tiny over huge, both among the subnormals.
    for (let k = 0; k < 400; k++) {
      const m = 1 + rng(), e = Math.floor(rng() * 60);
      xs.push(m * 2 ** (970 + (e % 53)), m * 2 ** (-1020 - (e % 50)), m * 2 ** (-1000 + e), -m * 2 ** (e - 30));
      ys.push((1 + rng()) * 2 ** (-50 - e), (1 + rng()) * 2 ** (40 + e), (1 + rng()) * 2 ** (20 + e), (1 + rng()) * 2 ** (1000 + (e % 23)));
    }
    const n = xs.length;
    const a = Float64Array.from(xs), b = Float64Array.from(ys);
    const rt = new SimRuntime();
    const module = rt.loadCodeObject(outcome.kernel.executable);
    const ba = rt.allocate(a.byteLength, "a"), bb = rt.allocate(b.byteLength, "b"), bo = rt.allocate(32 * n, "out");
    rt.upload(ba, new Uint8Array(a.buffer));
    rt.upload(bb, new Uint8Array(b.buffer));
    const launch = outcome.kernel.launch([n]);
    rt.launch(module.kernel("f64_divide"), launch.workgroupCount, [BigInt(n), ba, bb, bo], { workgroupSize: launch.workgroupSize });
    const out = new Float64Array(rt.download(bo).slice().buffer);
    const failures: string[] = [];
    const names = ["divf", "sqrtf", "rsqrtf", "roundf"];
    const counts: number[] = [];
    for (let i = 0; i < n; i++) {
      const x = a[i]!, y = b[i]!;
      const want = [x / y, Math.sqrt(x), 1 / Math.sqrt(x), roundHalfAway(x)];
      want.forEach((w, j) => {
        const got = out[4 * i + j]!;
        if (!same(got, w)) counts[j] = (counts[j] ?? 0) + 1;
        if (!same(got, w) && (failures.length < 12 || counts[j] === 1)) failures.push(`${names[j]}(${x}${j === 0 ? `, ${y}` : ""}): got ${got} (0x${bits(got).toString(16)}), want ${w} (0x${bits(w).toString(16)})`);
      });
    }
    assert.deepEqual(failures, [], `failures per function: ${names.map((f, j) => `${f} ${counts[j] ?? 0}`).join(", ")}`);
    if (!requireLlvm(t, ...LLVM_CHECK_TOOLS)) return;
    const listing = amdgpuListingOf(outcome.kernel.executable);
    assert.ok(listing, "the listing of a code object this process emitted");
    for (const name of ["v_div_scale_f64", "v_rcp_f64", "v_div_fmas_f64", "v_div_fixup_f64", "v_rsq_f64", "v_ldexp_f64", "v_cmp_class_f64"]) assert.match(listing, new RegExp(`\\b${name}`));
    checkWithLlvm(outcome.kernel.executable, listing, processor);
  });
}
