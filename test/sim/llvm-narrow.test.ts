/**
 * The simulator's 8- and 16-bit memory instructions and the 16-bit integer ops clang-19 picks
 * around them (sim/narrow.ts), proven on code it did not produce:
 * test/sim/opencl-ops/narrow_ops.cl built by clang-19 -O2 (+ ld.lld-19) for gfx1100 (wave32)
 * and gfx942 (wave64) runs in the simulator and must equal a JS reference; its listing must
 * hold the sign- and zero-extending byte/short loads (global and LDS) and truncating stores.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { loadOpsProbe } from "./opencl.js";
import { lcg } from "../util/lcg.js";

const NEEDED: Record<string, readonly string[]> = {
  gfx1100: ["global_load_i8", "global_load_u8", "global_load_i16", "global_load_u16", "global_store_b16", "ds_load_u8", "ds_load_u16", "ds_store_b8", "ds_store_b16"],
  gfx942: ["global_load_sbyte", "global_load_ubyte", "global_load_sshort", "global_load_ushort", "global_store_short", "ds_read_u8", "ds_read_u16", "ds_write_b8", "ds_write_b16"],
};

for (const mcpu of ["gfx1100", "gfx942"]) {
  test(`LLVM-built byte and short loads, stores and LDS (${mcpu}) match the JS reference in the simulator`, (t) => {
    const probe = loadOpsProbe(t, "narrow_ops", mcpu, { uses: NEEDED[mcpu] });
    if (!probe) return;
    const { rt, module } = probe;
    for (const n of [1, 37, 128]) {
      const rng = lcg(n);
      const groups = Math.ceil(n / 64);
      const a = Int8Array.from({ length: n }, () => Math.floor(rng() * 256) - 128);
      const b = Uint8Array.from({ length: n }, () => Math.floor(rng() * 256));
      const c = Int16Array.from({ length: n }, () => Math.floor(rng() * 65536) - 32768);
      const d = Uint16Array.from({ length: n }, () => Math.floor(rng() * 65536));
      const ba = rt.allocate(n, "a"), bb = rt.allocate(n, "b"), bc = rt.allocate(2 * n, "c"), bd = rt.allocate(2 * n, "d");
      const ob = rt.allocate(2 * n, "bytes"), os = rt.allocate(4 * n, "shorts"), oi = rt.allocate(24 * n, "ints");
      rt.upload(ba, new Uint8Array(a.buffer));
      rt.upload(bb, b);
      rt.upload(bc, new Uint8Array(c.buffer));
      rt.upload(bd, new Uint8Array(d.buffer));
      rt.launch(module.kernel("narrow_ops"), [groups, 1, 1], [n, ba, bb, bc, bd, ob, os, oi], { workgroupSize: [64, 1, 1] });
      const gotBytes = new Int8Array(rt.download(ob).slice().buffer);
      const gotShorts = new Int16Array(rt.download(os).slice().buffer);
      const gotInts = new Int32Array(rt.download(oi).slice().buffer);
      const at = (arr: ArrayLike<number>, i: number) => (i < n ? arr[i]! : 0);
      const failures: string[] = [];
      const check = (what: string, got: number, want: number) => {
        if (got !== want && failures.length < 8) failures.push(`n=${n} ${what}: got ${got}, want ${want}`);
      };
      for (let i = 0; i < n; i++) {
        const x = a[i]!, y = b[i]!, z = c[i]!, w = d[i]!;
        const partner = (i & ~63) + 63 - (i & 63);
        const p = (((at(a, partner) * 3 + 7) << 24) >> 24), q = (((at(c, partner) * 5 - at(d, partner)) << 16) >> 16);
        const u = x * 3 + 7, v = z * 5 - w;
        check(`bytes[${2 * i}]`, gotBytes[2 * i]!, (u << 24) >> 24);
        check(`bytes[${2 * i + 1}]`, gotBytes[2 * i + 1]!, ((y + p) << 24) >> 24);
        check(`shorts[${2 * i}]`, gotShorts[2 * i]!, (v << 16) >> 16);
        check(`shorts[${2 * i + 1}]`, gotShorts[2 * i + 1]!, ((q ^ y) << 16) >> 16);
        [x, y, z, w, u + p, v + q].forEach((want, j) => check(`ints[${6 * i + j}]`, gotInts[6 * i + j]!, want | 0));
      }
      assert.deepEqual(failures, []);
    }
  });
}
