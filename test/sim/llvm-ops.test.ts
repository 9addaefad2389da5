/**
 * The simulator's semantics of the instructions the AMDGPU back end selects for division,
 * 64-bit bit counts, rotates, round, fmod, copysign and compare-exchange, proven on code it
 * did not produce: test/sim/opencl-ops/new_ops.cl built by clang-19 -O2 (+ ld.lld-19) for
 * gfx1100 (wave32) and gfx942 runs in the simulator and must equal a JS reference, and its
 * listing (llvm-objdump-19) must hold those instructions (v_mul_hi_u32, v_rcp_iflag_f32,
 * v_cvt_u32_f32, v_bcnt_u32_b32, v_ffbh/v_clz, v_ffbl/v_ctz, v_alignbit_b32, v_bfi_b32,
 * v_trunc_f32, v_cmp_ge_u64-family compares, global_atomic_cmpswap).
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { loadOpsProbe } from "./opencl.js";

const f32 = new Float32Array(1), u32 = new Uint32Array(f32.buffer);
const bitsOf = (v: number) => ((f32[0] = v), u32[0]!);
const roundHalfAway = (v: number) => (Number.isFinite(v) ? Math.sign(v) * Math.floor(Math.abs(v) + 0.5) : v);

/** The kernel's outputs for element i, computed with BigInt and f32 rounding. */
function reference(a: number, b: number): number[] {
  const M = 0xffffffffn;
  const x = Number((BigInt(a) * 16777619n) & M), y = Number((BigInt(b) * 2654435761n) & M), s = b & 31;
  const d = ((y >>> s) | 1) >>> 0;
  const sx = (x | 0) >> 1, sd = ((y | 0) >> s) | 1;
  const w = (BigInt(x) << 32n) | BigInt(y);
  const wd = ((BigInt(d) << BigInt(b & 7)) | 1n) & ((1n << 64n) - 1n);
  const k = BigInt(b & 63);
  const z = a < 512 ? 0n : w >> BigInt(a & 63);
  const clz = z === 0n ? 64 : 64 - z.toString(2).length;
  const ctz = z === 0n ? 64 : z.toString(2).length - 1 - z.toString(2).lastIndexOf("1");
  const mask = (1n << 64n) - 1n;
  const r = ((w << k) | (w >> ((64n - k) & 63n))) & mask;
  const align = Number((((BigInt(x) << 32n) | BigInt(y)) >> (k & 31n)) & M);
  const f = Math.fround(sx * 2 ** -20), g = Math.fround(((d >>> 3) & 0x1fff) * 2 ** -4 + 1);
  const popcount = w.toString(2).split("").filter((c) => c === "1").length;
  const expected = a & 1 ? x : (x + 1) >>> 0;
  return [
    Math.floor(x / d), x % d, Math.trunc(sx / sd) >>> 0, (sx % sd) >>> 0,
    Number((w / wd) & M), Number((w % wd) & M), popcount, clz, ctz,
    Number(r & M), (Number(r >> 32n) ^ align) >>> 0,
    bitsOf(roundHalfAway(f)), bitsOf(f % g), bitsOf(Math.sign(f) < 0 || Object.is(f, -0) ? -g : g),
    expected === x ? y : x, x,
  ];
}

const NEEDED: Record<string, readonly string[]> = {
  gfx1100: ["v_mul_hi_u32", "v_rcp_iflag_f32", "v_cvt_u32_f32", "v_bcnt_u32_b32", "v_clz_i32_u32", "v_ctz_i32_b32", "v_alignbit_b32", "v_bfi_b32", "v_trunc_f32", "global_atomic_cmpswap_b32"],
  gfx942: ["v_mul_hi_u32", "v_rcp_iflag_f32", "v_cvt_u32_f32", "v_bcnt_u32_b32", "v_ffbh_u32", "v_ffbl_b32", "v_alignbit_b32", "v_bfi_b32", "v_trunc_f32", "global_atomic_cmpswap"],
};

for (const mcpu of ["gfx1100", "gfx942"]) {
  test(`LLVM-built division, bit counts, rotates, round, fmod, copysign and cmpxchg (${mcpu}) match the JS reference in the simulator`, (t) => {
    const probe = loadOpsProbe(t, "new_ops", mcpu, { uses: NEEDED[mcpu], encodingSuffix: true });
    if (!probe) return;
    const { rt, module } = probe;
    for (const n of [1, 37, 200]) {
      const a = Uint32Array.from({ length: n }, (_, i) => (i * 7919 + n * 31) % 1024);
      const b = Uint32Array.from({ length: n }, (_, i) => (i * 104729 + 17) % 1024);
      const ba = rt.allocate(a.byteLength, "a"), bb = rt.allocate(b.byteLength, "b"), bo = rt.allocate(64 * n, "out");
      rt.upload(ba, a);
      rt.upload(bb, b);
      rt.launch(module.kernel("new_ops"), [Math.ceil(n / 64), 1, 1], [n, ba, bb, bo], { workgroupSize: [64, 1, 1] });
      const out = new Uint32Array(rt.download(bo).slice().buffer);
      const failures: string[] = [];
      for (let i = 0; i < n; i++) {
        const want = reference(a[i]!, b[i]!);
        want.forEach((v, j) => {
          if (out[16 * i + j] !== v >>> 0 && failures.length < 8) failures.push(`n=${n} i=${i} slot ${j}: got ${out[16 * i + j]}, want ${v >>> 0}`);
        });
      }
      assert.deepEqual(failures, []);
    }
  });
}
