import { test } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { fromRoot } from "../util/paths.js";

const MAIN = fromRoot("dist/examples/integration/module-composition/main.js");

test("module-composition example: each profile selects its own provider from the library", () => {
  const r = spawnSync(process.execPath, [MAIN], { encoding: "utf8" });
  assert.equal(r.status, 0, r.stderr);
  const lines = r.stdout.trim().split("\n");
  assert.deepEqual(lines.slice(0, 4), [
    "composed_saxpy [vulkan-wave32]: template @workgroup_width -> @width_wave32",
    "composed_grid [amdgpu-gfx942]: template @workgroup_width -> @width_wave64",
    "composed_saxpy: workload=1000 workgroups=8x1x1 workgroup_size=128x1x1 subgroup_size=32",
    "composed_grid: workload=1000 workgroups=4x1x1 workgroup_size=256x1x1 subgroup_size=64",
  ]);
  assert.match(lines[4] ?? "", /^artifact=composition\.spirv format=spirv bytes=\d+$/);
  assert.match(lines[5] ?? "", /^artifact=composition\.amdgpu-hsaco format=amdgpu-hsaco bytes=\d+$/);
});

test("module-composition example: a wave32 AMDGPU profile selects the wave32 provider", () => {
  const r = spawnSync(process.execPath, [MAIN, "--amdgpu", "gfx1100", "--workload", "129"], { encoding: "utf8" });
  assert.equal(r.status, 0, r.stderr);
  assert.match(r.stdout, /composed_grid \[amdgpu-gfx1100\]: template @workgroup_width -> @width_wave32\n/);
  assert.match(r.stdout, /composed_grid: workload=129 workgroups=2x1x1 workgroup_size=128x1x1 subgroup_size=32\n/);
});
