/**
 * The simulator's private memory (architected flat scratch) proven on code it did not
 * produce: test/sim/opencl-ops/private_array.cl built by clang-19 -O2 (+ ld.lld-19, with
 * private arrays kept in scratch) for gfx1100 and gfx942 uses scratch_load/store in the
 * ST (offset only), SV (VGPR address) and SS (SGPR address) modes, and must reproduce a JS
 * reference in the simulator; its descriptor's private segment size bounds every access.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { loadOpsProbe } from "./opencl.js";

const M32 = 0xffffffffn, M64 = (1n << 64n) - 1n;

function reference(n: number, x: number): number[] {
  const p = Array.from({ length: 40 }, (_, k) => Number((BigInt(x) * BigInt(k + 1) + BigInt(k)) & M32));
  const q = Array.from({ length: 8 }, (_, k) => (((BigInt(x) << 32n) * BigInt(k)) + BigInt(k)) & M64);
  p[x % 40] = (p[x % 40]! + 1000) >>> 0;
  const j = Number((BigInt(x) * 7n) % 40n);
  const w = (q[x % 8]! + q[(x + 5) % 8]!) & M64;
  return [p[j]!, (p[(j + 13) % 40]! ^ p[3]! ^ p[n % 40]!) >>> 0, Number(w & M32), Number(w >> 32n)];
}

for (const mcpu of ["gfx1100", "gfx942"]) {
  test(`LLVM-built private arrays run through the simulator's scratch (${mcpu}) and match the JS reference`, (t) => {
    const keep = ["-mllvm", "-disable-promote-alloca-to-lds", "-mllvm", "-disable-promote-alloca-to-vector"];
    const probe = loadOpsProbe(t, "private_array", mcpu, { clangFlags: keep });
    if (!probe) return;
    const { rt, module, listing } = probe;
    // ST, SV and SS addressing (gfx9 spells b32 'dword').
    assert.match(listing, /scratch_store_\w+ off, v\[?\d+(:\d+\])?, off offset:\d+/);
    assert.match(listing, /scratch_load_\w+ v\[?\d+(:\d+\])?, v\d+, off/);
    assert.match(listing, /scratch_load_\w+ v\d+, off, s\d+/);
    for (const n of [1, 37, 64, 131]) {
      const a = Uint32Array.from({ length: n }, (_, i) => (i * 7919 + n * 31) % 100003);
      const ba = rt.allocate(a.byteLength, "a"), bo = rt.allocate(16 * n, "out");
      rt.upload(ba, a);
      rt.launch(module.kernel("private_array"), [Math.ceil(n / 64), 1, 1], [n, ba, bo], { workgroupSize: [64, 1, 1] });
      const out = new Uint32Array(rt.download(bo).slice().buffer);
      const failures: string[] = [];
      for (let i = 0; i < n; i++) {
        reference(n, a[i]!).forEach((v, k) => {
          if (out[4 * i + k] !== v && failures.length < 8) failures.push(`n=${n} i=${i} slot ${k}: got ${out[4 * i + k]}, want ${v}`);
        });
      }
      assert.deepEqual(failures, []);
    }
  });
}
