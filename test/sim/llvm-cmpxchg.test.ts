/**
 * The simulator's compare-exchange semantics proven on code it did not produce:
 * test/sim/opencl-ops/cmpxchg.cl built by clang-19 -O2 (+ ld.lld-19) for gfx1100 and gfx942
 * runs in the simulator and must equal a JS reference. Its listing must hold ds_cmpstore /
 * ds_cmpst (gfx9 takes the compare value first, gfx11 last) with and without return, their
 * 64-bit forms, and global_atomic_cmpswap_b64 (_x2 on gfx9), each succeeding and failing.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { loadOpsProbe } from "./opencl.js";

const MASK = (1n << 64n) - 1n;

/** out[4i..4i+3] and the final g[i] for input a and initial g. */
function reference(a: number, g: bigint): { out: bigint[]; g: bigint } {
  const x = Number((BigInt(a) * 2654435761n) & 0xffffffffn);
  const w = (BigInt(x) << 32n) | BigInt((x ^ 0x9e3779b9) >>> 0);
  const x1 = BigInt((x + 1) >>> 0);
  const l64 = (w + 0x100000001n) & MASK;
  const gNew = g ^ w;
  return { out: [(x1 << 32n) | x1, l64, l64, gNew], g: gNew };
}

const NEEDED: Record<string, readonly string[]> = {
  gfx1100: ["ds_cmpstore_b32", "ds_cmpstore_rtn_b32", "ds_cmpstore_b64", "ds_cmpstore_rtn_b64", "global_atomic_cmpswap_b64"],
  gfx942: ["ds_cmpst_b32", "ds_cmpst_rtn_b32", "ds_cmpst_b64", "ds_cmpst_rtn_b64", "global_atomic_cmpswap_x2"],
};

for (const mcpu of ["gfx1100", "gfx942"]) {
  test(`LLVM-built compare-exchange on LDS and on 64-bit elements (${mcpu}) matches the JS reference in the simulator`, (t) => {
    const probe = loadOpsProbe(t, "cmpxchg", mcpu, { uses: NEEDED[mcpu] });
    if (!probe) return;
    const { rt, module } = probe;
    for (const n of [1, 37, 64, 131]) {
      const a = Uint32Array.from({ length: n }, (_, i) => (i * 7919 + n * 31) % 100003);
      const g = BigUint64Array.from({ length: n }, (_, i) => (BigInt(i) * 0x9e3779b97f4a7c15n + BigInt(n)) & MASK);
      const ba = rt.allocate(a.byteLength, "a"), bg = rt.allocate(g.byteLength, "g"), bo = rt.allocate(32 * n, "out");
      rt.upload(ba, a);
      rt.upload(bg, new Uint8Array(g.buffer));
      rt.launch(module.kernel("cmpxchg"), [Math.ceil(n / 64), 1, 1], [n, ba, bg, bo], { workgroupSize: [64, 1, 1] });
      const out = new BigUint64Array(rt.download(bo).slice().buffer);
      const gAfter = new BigUint64Array(rt.download(bg).slice().buffer);
      const failures: string[] = [];
      for (let i = 0; i < n; i++) {
        const want = reference(a[i]!, g[i]!);
        want.out.forEach((v, j) => {
          if (out[4 * i + j] !== v && failures.length < 8) failures.push(`n=${n} i=${i} slot ${j}: got ${out[4 * i + j]}, want ${v}`);
        });
        if (gAfter[i] !== want.g && failures.length < 8) failures.push(`n=${n} i=${i} g: got ${gAfter[i]}, want ${want.g}`);
      }
      assert.deepEqual(failures, []);
    }
  });
}
