/**
 * The simulator's f64 semantics (src/runtime/sim/f64.ts) proven on code it did not produce:
 * test/sim/opencl-ops/double_ops.cl built by clang-19 -O2 (+ ld.lld-19) for gfx1100 (wave32)
 * and gfx942 (wave64) runs in the simulator and must equal a JS reference bit for bit (fma
 * from the language's exact fmaf); the listing must hold v_add/mul/max_f64, v_fma_f64 or
 * v_fmac_f64, v_floor_f64, v_cmp_lt_f64 and the f32/i32 conversions.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { fmaf } from "../../src/dialects/scalar/semantics.js";
import { loadOpsProbe } from "./opencl.js";
import { lcg } from "../util/lcg.js";

const NEEDED: Record<string, readonly string[]> = {
  gfx1100: ["v_add_f64", "v_mul_f64", "v_fma_f64", "v_max_f64", "v_floor_f64", "v_cmp_lt_f64", "v_cvt_f64_f32", "v_cvt_f32_f64", "v_cvt_i32_f64"],
  gfx942: ["v_add_f64", "v_mul_f64", "v_fmac_f64", "v_max_f64", "v_floor_f64", "v_cmp_lt_f64", "v_cvt_f64_f32", "v_cvt_f32_f64", "v_cvt_i32_f64"],
};

const F64 = new Float64Array(1), U64 = new BigUint64Array(F64.buffer);
const bits = (x: number) => ((F64[0] = x), U64[0]!);
const f32 = new Float32Array(1), i32 = new Int32Array(f32.buffer);

for (const mcpu of ["gfx1100", "gfx942"]) {
  test(`LLVM-built f64 arithmetic, compares and conversions (${mcpu}) match the JS reference in the simulator`, (t) => {
    const probe = loadOpsProbe(t, "double_ops", mcpu, { uses: NEEDED[mcpu], encodingSuffix: true });
    if (!probe) return;
    const { rt, module } = probe;
    for (const n of [1, 37, 200]) {
      const rng = lcg(n);
      const value = () => (rng() - 0.5) * (1 + rng() * 2 ** -30) * 2 ** Math.floor(rng() * 40 - 20);
      const a = Float64Array.from({ length: n }, value), b = Float64Array.from({ length: n }, value);
      const f = Float32Array.from({ length: n }, () => Math.fround(value()));
      const ba = rt.allocate(8 * n, "a"), bb = rt.allocate(8 * n, "b"), bf = rt.allocate(4 * n, "f"), bo = rt.allocate(48 * n, "out"), bi = rt.allocate(12 * n, "ints");
      rt.upload(ba, new Uint8Array(a.buffer));
      rt.upload(bb, new Uint8Array(b.buffer));
      rt.upload(bf, new Uint8Array(f.buffer));
      rt.launch(module.kernel("double_ops"), [Math.ceil(n / 64), 1, 1], [n, ba, bb, bf, bo, bi], { workgroupSize: [64, 1, 1] });
      const out = new BigUint64Array(rt.download(bo).slice().buffer);
      const ints = new Int32Array(rt.download(bi).slice().buffer);
      const failures: string[] = [];
      for (let i = 0; i < n; i++) {
        const x = a[i]!, y = b[i]!;
        const want = [x + y, x * y, fmaf("f64", x, y, -0.7071067811865476) as number, f[i]! - x, Math.max(x, y), Math.floor(x * 1000)];
        want.forEach((v, j) => {
          if (out[6 * i + j] !== bits(v) && failures.length < 8) failures.push(`n=${n} i=${i} slot ${j}: got ${out[6 * i + j]}, want ${bits(v)} (${v})`);
        });
        f32[0] = x * y;
        const w = [Math.trunc(x * 1000), i32[0]!, x < y ? 1 : 2];
        w.forEach((v, j) => {
          if (ints[3 * i + j] !== v && failures.length < 8) failures.push(`n=${n} i=${i} int ${j}: got ${ints[3 * i + j]}, want ${v}`);
        });
      }
      assert.deepEqual(failures, []);
    }
  });
}
