/**
 * The simulator's 16-bit float semantics (src/runtime/sim/half.ts) proven on code it did not
 * produce: test/sim/opencl-ops/half_ops.cl built by clang-19 -O2 (+ ld.lld-19) for gfx1100
 * (wave32) and gfx942 (wave64) runs in the simulator and must equal a JS reference built on
 * the language's own rounding (dialects/scalar/semantics.ts), bit for bit; the listing must
 * hold the instructions (v_add_f16, v_mul_f16, v_fma_f16 / v_fmaak_f16, v_cmp_lt_f16,
 * v_cvt_f16_f32, v_cvt_f32_f16, v_pack_b32_f16, 16-bit loads).
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { bitsToFloat, floatToBits, fmaf, roundToFormat } from "../../src/dialects/scalar/semantics.js";
import { loadOpsProbe } from "./opencl.js";
import { lcg } from "../util/lcg.js";

const half = (bits: number) => bitsToFloat(BigInt(bits), "f16");
const bitsOfHalf = (v: number) => Number(floatToBits(roundToFormat(v, "f16"), "f16"));
const f32 = new Float32Array(1), u32 = new Uint32Array(f32.buffer);
const bitsOfF32 = (v: number) => ((f32[0] = v), u32[0]!);

const NEEDED: Record<string, readonly string[]> = {
  gfx1100: ["v_add_f16", "v_mul_f16", "v_fmaak_f16", "v_cmp_lt_f16", "v_cvt_f16_f32", "v_cvt_f32_f16", "v_pack_b32_f16", "global_load_u16"],
  gfx942: ["v_add_f16", "v_mul_f16", "v_fma_f16", "v_cmp_lt_f16", "v_cvt_f16_f32", "v_cvt_f32_f16", "v_pack_b32_f16", "global_load_ushort"],
};

for (const mcpu of ["gfx1100", "gfx942"]) {
  test(`LLVM-built f16 arithmetic, compares and conversions (${mcpu}) match the JS reference in the simulator`, (t) => {
    const probe = loadOpsProbe(t, "half_ops", mcpu, { uses: NEEDED[mcpu], encodingSuffix: true });
    if (!probe) return;
    const { rt, module } = probe;
    for (const n of [1, 37, 200]) {
      const rng = lcg(n);
      const finite = () => ((rng() < 0.5 ? 0x8000 : 0) | ((Math.floor(rng() * 26) + (rng() < 0.1 ? 0 : 2)) << 10) | Math.floor(rng() * 1024)) & 0xfbff;
      const a = Uint16Array.from({ length: n }, finite), b = Uint16Array.from({ length: n }, finite);
      const f = Float32Array.from({ length: n }, () => (rng() - 0.5) * 2 ** Math.floor(rng() * 44 - 28));
      const ba = rt.allocate(2 * n, "a"), bb = rt.allocate(2 * n, "b"), bf = rt.allocate(4 * n, "f"), bo = rt.allocate(8 * n, "out"), bw = rt.allocate(8 * n, "wide");
      rt.upload(ba, new Uint8Array(a.buffer));
      rt.upload(bb, new Uint8Array(b.buffer));
      rt.upload(bf, new Uint8Array(f.buffer));
      rt.launch(module.kernel("half_ops"), [Math.ceil(n / 64), 1, 1], [n, ba, bb, bf, bo, bw], { workgroupSize: [64, 1, 1] });
      const out = new Uint16Array(rt.download(bo).slice().buffer);
      const wide = new Uint32Array(rt.download(bw).slice().buffer);
      const failures: string[] = [];
      for (let i = 0; i < n; i++) {
        const x = half(a[i]!), y = half(b[i]!);
        const want = [bitsOfHalf(x + y), bitsOfHalf(x * y), bitsOfHalf(fmaf("f16", x, y, -1.5) as number), bitsOfHalf(f[i]!)];
        want.forEach((v, j) => {
          if (out[4 * i + j] !== v && failures.length < 8) failures.push(`n=${n} i=${i} slot ${j}: got 0x${out[4 * i + j]!.toString(16)}, want 0x${v.toString(16)} (x=${x}, y=${y})`);
        });
        const w = [bitsOfF32(x), bitsOfF32(x < y ? 1 : 2)];
        w.forEach((v, j) => {
          if (wide[2 * i + j] !== v && failures.length < 8) failures.push(`n=${n} i=${i} wide ${j}: got ${wide[2 * i + j]}, want ${v}`);
        });
      }
      assert.deepEqual(failures, []);
    }
  });
}
