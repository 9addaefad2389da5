/**
 * The simulator's 64-bit read-modify-write atomics proven on code it did not produce:
 * test/sim/opencl-ops/atomics64.cl built by clang-19 -O2 (+ ld.lld-19) for gfx1100 and gfx942
 * runs in the simulator and must equal a JS reference. Its listing must hold the LDS forms
 * with return (add, xor, signed min, unsigned max, 32- and 64-bit exchange) and without (add,
 * and, or, sub), and the
 * global add (_x2 on gfx9) with and without return, on own and on shared elements.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { loadOpsProbe } from "./opencl.js";

const MASK = (1n << 64n) - 1n;
const signed = (v: bigint) => BigInt.asIntN(64, v);

/** out[8i..8i+7] for input a and initial g, and g's new value. */
function reference(a: number, g: bigint): { out: bigint[]; g: bigint } {
  const x = BigInt(Math.imul(a, 2654435761) >>> 0);
  const w = (x << 32n) | BigInt((Number(x) ^ 0x9e3779b9) >>> 0);
  let v = w;
  const r0 = v;
  v = (v + (x << 16n)) & MASK;
  const r1 = v;
  v ^= w >> 3n;
  const r2 = v;
  const m = (w * 3n) & MASK;
  if (signed(m) < signed(v)) v = m;
  const r3 = v;
  const u = w ^ 0xffffn;
  if (u > v) v = u;
  v = ((v & ~0xf0n & MASK) | 3n) - 5n;
  const r6 = x << 32n | (x ^ 0x55n);
  return { out: [r0, r1, r2, r3, v & MASK, (w + 7n) & MASK, g, r6], g: (g + w) & MASK };
}

const NEEDED: Record<string, readonly string[]> = {
  gfx1100: ["ds_add_rtn_u64", "ds_xor_rtn_b64", "ds_min_rtn_i64", "ds_max_rtn_u64", "ds_add_u64", "ds_and_b64", "ds_or_b64", "ds_sub_u64", "ds_storexchg_rtn_b64", "ds_storexchg_rtn_b32", "global_atomic_add_u64"],
  gfx942: ["ds_add_rtn_u64", "ds_xor_rtn_b64", "ds_min_rtn_i64", "ds_max_rtn_u64", "ds_add_u64", "ds_and_b64", "ds_or_b64", "ds_sub_u64", "ds_wrxchg_rtn_b64", "ds_wrxchg_rtn_b32", "global_atomic_add_x2"],
};

for (const mcpu of ["gfx1100", "gfx942"]) {
  test(`LLVM-built 64-bit atomics on LDS and global memory (${mcpu}) match the JS reference in the simulator`, (t) => {
    const probe = loadOpsProbe(t, "atomics64", mcpu, { uses: NEEDED[mcpu] });
    if (!probe) return;
    const { rt, module } = probe;
    for (const n of [1, 37, 64, 131]) {
      const a = Uint32Array.from({ length: n }, (_, i) => (i * 7919 + n * 31) % 100003);
      const g = BigUint64Array.from({ length: n }, (_, i) => (BigInt(i) * 0x9e3779b97f4a7c15n + BigInt(n)) & MASK);
      const ba = rt.allocate(a.byteLength, "a"), bg = rt.allocate(g.byteLength, "g"), bt = rt.allocate(16, "total"), bo = rt.allocate(64 * n, "out");
      rt.upload(ba, a);
      rt.upload(bg, new Uint8Array(g.buffer));
      rt.upload(bt, new Uint8Array(16));
      rt.launch(module.kernel("atomics64"), [Math.ceil(n / 64), 1, 1], [n, ba, bg, bt, bo], { workgroupSize: [64, 1, 1] });
      const out = new BigUint64Array(rt.download(bo).slice().buffer);
      const gAfter = new BigUint64Array(rt.download(bg).slice().buffer);
      const total = new BigUint64Array(rt.download(bt).slice().buffer);
      const failures: string[] = [];
      let sum = 0n;
      for (let i = 0; i < n; i++) {
        const want = reference(a[i]!, g[i]!);
        sum += BigInt(Math.imul(a[i]!, 2654435761) >>> 0);
        want.out.forEach((v, j) => {
          if (out[8 * i + j] !== v && failures.length < 8) failures.push(`n=${n} i=${i} slot ${j}: got ${out[8 * i + j]}, want ${v}`);
        });
        if (gAfter[i] !== want.g && failures.length < 8) failures.push(`n=${n} i=${i} g: got ${gAfter[i]}, want ${want.g}`);
      }
      assert.deepEqual(failures, []);
      assert.deepEqual([...total], [sum, sum], "the shared global and LDS counters");
    }
  });
}
