/**
 * The simulator's code object v5 hidden arguments for a workgroup size chosen at launch,
 * proven on code it did not produce: test/sim/opencl-ops/group_size.cl built by clang-19 -O2
 * (+ ld.lld-19) for gfx1100 and gfx942 reads hidden_group_size_x/y/z (the metadata lists
 * them) and must see each launched size, and every workitem id, in the simulator.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { join } from "node:path";
import { loadOpsProbe } from "./opencl.js";

for (const mcpu of ["gfx1100", "gfx942"]) {
  test(`LLVM-built code reads the launched workgroup size from hidden_group_size_x/y/z in the simulator (${mcpu})`, (t) => {
    const probe = loadOpsProbe(t, "group_size", mcpu, { dump: "notes" });
    if (!probe) return;
    const { rt, module, listing: notes } = probe;
    for (const d of ["x", "y", "z"]) assert.match(notes, new RegExp(`hidden_group_size_${d}`));
    for (const [n, size] of [[1, [1, 1, 1]], [37, [13, 2, 1]], [64, [7, 3, 2]], [131, [64, 1, 3]]] as const) {
      const [sx, sy, sz] = size;
      const slots = n * sy * sz;
      const bo = rt.allocate(16 * slots, "out");
      rt.launch(module.kernel("group_size"), [Math.ceil(n / sx), 1, 1], [n, bo], { workgroupSize: [sx, sy, sz] });
      const out = new Uint32Array(rt.download(bo).slice().buffer);
      const failures: string[] = [];
      for (let x = 0; x < n; x++) {
        for (let y = 0; y < sy; y++) {
          for (let z = 0; z < sz; z++) {
            const slot = (x * sy + y) * sz + z;
            const want = [sx, sy, sz, x + 1000 * y + 100000 * z];
            const got = Array.from(out.subarray(4 * slot, 4 * slot + 4));
            if (got.join() !== want.join() && failures.length < 8) failures.push(`n=${n} size=${size.join("x")} (${x},${y},${z}): got ${got.join()}, want ${want.join()}`);
          }
        }
      }
      assert.deepEqual(failures, []);
    }
  });
}
