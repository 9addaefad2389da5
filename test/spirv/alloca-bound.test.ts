/**
 * One bound algorithm: a `buffer.alloca` whose size is capped with `index.min` has the proven
 * maximum the verifier accepts, and the pipeline sizes the allocation with that same bound, so
 * the kernel verifies and compiles (it used to verify and then fail compile with STRUCTURE/902).
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { compileText, kernelPath, kernelText, LAVAPIPE, spirvDis, spirvVal, writeTemp } from "./helpers.js";
import { fromRoot } from "../util/paths.js";
import { requireTool } from "../util/tools.js";

const CLI = fromRoot("dist/src/cli/main.js");
const FILE = kernelPath("bounded_scratch.loom");

function loom(...args: string[]) {
  const r = spawnSync(process.execPath, [CLI, ...args], { encoding: "utf8" });
  return { code: r.status, out: r.stdout, err: r.stderr };
}

test("an index.min-capped alloca passes loom verify and compiles for spirv:vulkan1.3", (t) => {
  assert.equal(loom("verify", FILE).code, 0);
  const out = writeTemp("bounded.spv", "");
  const compiled = loom("compile", FILE, "--target", "spirv:vulkan1.3", "--feature", "shaderInt64", "-o", out);
  assert.equal(compiled.code, 0, compiled.err);
  if (!requireTool(t, "spirv-val", "apt-get install -y spirv-tools (docs/toolchain.md §2)")) return;
  const bytes = new Uint8Array(readFileSync(out));
  assert.equal(spirvVal(bytes).status, 0);
  // 256 bytes viewed as i32: the scratch array has 64 elements.
  assert.match(spirvDis(bytes), /OpTypeArray %uint %uint_64/);
});

test("the recorded size is the bound: the launch reports 256 workgroup bytes", () => {
  const r = loom("launch", FILE, "--kernel", "bounded_scratch", "--workload", "1000", "--target", "spirv:vulkan1.3", "--feature", "shaderInt64");
  assert.equal(r.code, 0, r.err);
  assert.match(r.out, /workgroup_storage_bytes=256$/m);
});

test("the declared array follows the cap; an uncapped size still fails verification", (t) => {
  const wider = compileText("wide.loom", kernelText("bounded_scratch.loom").replace("index.constant 256 : index", "index.constant 4096 : index"), ["bounded_scratch"], LAVAPIPE);
  assert.ok(wider.ok, JSON.stringify(wider.diagnostics));
  if (requireTool(t, "spirv-dis", "apt-get install -y spirv-tools (docs/toolchain.md §2)")) assert.match(spirvDis(wider.bytes!), /OpTypeArray %uint %uint_1024/);
  const uncapped = kernelText("bounded_scratch.loom").replace("%capped = index.min %n, %cap : index", "%capped = index.add %n, %cap : index");
  const r = loom("verify", writeTemp("uncapped.loom", uncapped));
  assert.equal(r.code, 1);
  assert.match(r.err, /uncapped\.loom:11:14: error \[STRUCTURE\/902\]/);
});
