/**
 * `loom compile FILE --target ptx:sm_90 [--kernel K] -o OUT.ptx` (issue 14 item 3): the CLI
 * reaches the PTX package through the target registry, writes the module and its
 * launch-config companion, and an unknown architecture is a usage error, not a crash.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, existsSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fromRoot } from "../util/paths.js";
import { requireTool } from "../util/tools.js";
import { ptxas, PTXAS_FIX } from "./helpers.js";

const CLI = fromRoot("dist/src/cli/main.js");
const loom = (...args: string[]) => spawnSync(process.execPath, [CLI, ...args], { encoding: "utf8" });

test("loom compile --target ptx:sm_90 --kernel saxpy -o saxpy.ptx writes an assembling module", (t) => {
  const dir = mkdtempSync(join(tmpdir(), "loom-ptx-cli-"));
  const out = join(dir, "saxpy.ptx");
  const r = loom("compile", fromRoot("examples/kernels/saxpy.loom"), "--target", "ptx:sm_90", "--kernel", "saxpy", "-o", out, "--launch-config", join(dir, "saxpy.loombc"));
  assert.equal(r.status, 0, r.stderr);
  const text = readFileSync(out, "utf8");
  assert.match(text, /^\.target sm_90$/m);
  assert.match(text, /^\.visible \.entry saxpy\($/m);
  assert.ok(existsSync(join(dir, "saxpy.loombc")));
  if (!requireTool(t, "ptxas", PTXAS_FIX)) return;
  assert.equal(ptxas(text, "cli-saxpy").status, 0);
});

test("loom compile --target ptx:sm_75 fails with the known targets named", () => {
  const r = loom("compile", fromRoot("examples/kernels/saxpy.loom"), "--target", "ptx:sm_75", "-o", join(tmpdir(), "never.ptx"));
  assert.notEqual(r.status, 0);
  assert.match(r.stderr, /unknown PTX target "sm_75" \(known: sm_80, sm_90, sm_90a\)/);
});

test("loom compile of a kernel the profile cannot run reports TARGET/001 at the op and exits non-zero", () => {
  const dir = mkdtempSync(join(tmpdir(), "loom-ptx-cli-"));
  const file = join(dir, "partial_warp.loom");
  writeFileSync(
    file,
    `kernel.def export("k") @k() {
  %c1 = index.constant 1 : index
  %c48 = index.constant 48 : index
  kernel.launch.config workgroups(%c1, %c1, %c1) workgroup_size(%c48, %c1, %c1) : index
} launch(%x: i32, %out: buffer) {
  %origin = index.constant 0 : offset
  %s = kernel.subgroup.reduce<addi> %x : i32
  %z = index.constant 0 : index
  %v = buffer.view %out[%origin] : buffer -> view<4xi32>
  view.store %s, %v[%z] : i32, view<4xi32>
  kernel.return
}
`,
  );
  const r = loom("compile", file, "--target", "ptx:sm_90", "-o", join(dir, "k.ptx"));
  assert.notEqual(r.status, 0);
  assert.match(r.stdout + r.stderr, /partial_warp\.loom:7:\d+: error \[TARGET\/001\]: 'kernel\.subgroup\.reduce' in a workgroup that is not whole warps/);
  assert.ok(!existsSync(join(dir, "k.ptx")));
});
