import { test } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fromRoot } from "../util/paths.js";
import { requireTool, runTool } from "../util/tools.js";
import { tempDir } from "./helpers.js";

const CLI = fromRoot("dist/src/cli/main.js");
const SEED = fromRoot("examples/integration/jit-kernel/kernel.loom");

function loom(...args: string[]) {
  const r = spawnSync(process.execPath, [CLI, ...args], { encoding: "utf8" });
  return { code: r.status, out: r.stdout, err: r.stderr };
}

test("loom launch prints the evaluated launch", () => {
  const r = loom("launch", SEED, "--kernel", "workload_grid", "--workload", "1009");
  assert.equal(r.code, 0, r.err);
  assert.equal(r.out.trim(), "workgroups=16x1x1 workgroup_size=64x1x1 cluster_size=1x1x1 subgroup_size=32 workgroup_storage_bytes=0");
  const j = loom("launch", SEED, "--kernel", "@workload_grid", "--workload", "0", "--json", "--target", "amdgpu:gfx942");
  assert.equal(j.code, 0, j.err);
  assert.deepEqual(JSON.parse(j.out).result.launch.workgroupCount, [0, 1, 1]);
  assert.equal(JSON.parse(j.out).result.launch.subgroupSize, 64);
});

test("loom launch: a violated fact is an error, not a launch", () => {
  const r = loom("launch", SEED, "--kernel", "workload_grid", "--workload=-100");
  assert.equal(r.code, 1);
  assert.match(r.err, /out-of-range/);
});

test("loom compile writes an ELF and the launch-config companion", (t) => {
  const dir = tempDir(t);
  const out = join(dir, "k.hsaco"), lc = join(dir, "k.launch.loombc");
  const r = loom("compile", SEED, "--target", "amdgpu:gfx11-generic", "-o", out, "--launch-config", lc);
  assert.equal(r.code, 0, r.err);
  assert.deepEqual([...readFileSync(out).subarray(0, 4)], [0x7f, 0x45, 0x4c, 0x46]);
  assert.deepEqual([...readFileSync(lc).subarray(0, 4)], [0x4c, 0x4f, 0x4f, 0x4d]);
  // Determinism across processes: a second process writes the same bytes.
  const out2 = join(dir, "k2.hsaco"), lc2 = join(dir, "k2.launch.loombc");
  assert.equal(loom("compile", SEED, "--target", "amdgpu:gfx11-generic", "-o", out2, "--launch-config", lc2).code, 0);
  assert.deepEqual(readFileSync(out2), readFileSync(out));
  assert.deepEqual(readFileSync(lc2), readFileSync(lc));
});

test("loom verify / fmt: diagnostics, exit codes, --check, --json", (t) => {
  const dir = tempDir(t);
  const bad = join(dir, "bad.loom");
  writeFileSync(bad, "kernel.def @k() {\n  %x = index.bogus 1 : index\n");
  const v = loom("verify", bad);
  assert.equal(v.code, 1);
  assert.match(v.err, /bad\.loom:2:\d+: error \[PARSE\/006\]/);
  const j = loom("verify", "--json", bad);
  assert.equal(j.code, 1);
  const parsed = JSON.parse(j.out);
  assert.equal(parsed.ok, false);
  assert.ok(parsed.diagnostics.some((d: { code: string }) => d.code === "PARSE/006"));

  const ugly = join(dir, "ugly.loom");
  writeFileSync(ugly, readFileSync(SEED, "utf8").replace("%unit = index.constant 1 : index", "%unit   =   index.constant 0x1 : index"));
  assert.equal(loom("fmt", "--check", ugly).code, 1);
  const f = loom("fmt", ugly);
  assert.equal(f.code, 0, f.err);
  assert.equal(f.out, readFileSync(SEED, "utf8"));
  assert.equal(loom("fmt", "--write", ugly).code, 0);
  assert.equal(loom("fmt", "--check", ugly).code, 0);
  assert.equal(loom("verify", SEED).code, 0);
});

test("usage errors exit 2 with help; --help exits 0", () => {
  assert.equal(loom().code, 2);
  assert.equal(loom("frobnicate").code, 2);
  assert.equal(loom("compile", SEED).code, 2);
  assert.equal(loom("launch", SEED, "--kernel", "workload_grid", "--workload", "1,2").code, 2);
  assert.equal(loom("compile", SEED, "--target", "amdgpu:gfx9999", "-o", "/dev/null").code, 2);
  for (const cmd of ["fmt", "verify", "compile", "launch"]) {
    const h = loom(cmd, "--help");
    assert.equal(h.code, 0);
    assert.match(h.out, /^usage: loom /);
  }
  assert.match(loom("--help").out, /commands:/);
});

test("npm start example prints the seed's two lines", () => {
  const r = spawnSync(process.execPath, [fromRoot("dist/examples/integration/jit-kernel/main.js")], { encoding: "utf8" });
  assert.equal(r.status, 0, r.stderr);
  const lines = r.stdout.trim().split("\n");
  assert.equal(lines[0], "workload=1009 workgroups=16x1x1 workgroup_size=64x1x1");
  assert.match(lines[1]!, /^artifact=guide_jit_kernel\.hsaco format=amdgpu-hsaco bytes=\d+$/);
  const g = spawnSync(process.execPath, [fromRoot("dist/examples/integration/jit-kernel/main.js"), "--target", "gfx942"], { encoding: "utf8" });
  assert.equal(g.status, 0, g.stderr);
});

test("loom compile --target spirv:vulkan1.3 writes a module spirv-val accepts; missing features are TARGET/001", (t) => {
  const saxpy = fromRoot("examples/kernels/saxpy.loom");
  const dir = tempDir(t);
  const out = join(dir, "saxpy.spv");
  const refused = loom("compile", saxpy, "--target", "spirv:vulkan1.3", "-o", out);
  assert.equal(refused.code, 1);
  assert.match(refused.err, /TARGET\/001.*shaderInt64|shaderInt64/s);
  const r = loom("compile", saxpy, "--target", "spirv:vulkan1.3", "--feature", "shaderInt64", "-o", out);
  assert.equal(r.code, 0, r.err);
  if (!requireTool(t, "spirv-val", "apt-get install spirv-tools")) return;
  const v = runTool("spirv-val", ["--target-env", "vulkan1.3", out]);
  assert.equal(v.status, 0, v.stderr + v.stdout);
  assert.equal(loom("compile", saxpy, "--target", "amdgpu:gfx1100", "--feature", "shaderInt64", "-o", out).code, 2);
});

test("loom link, compile --emit loombc, and fmt/verify on .loombc", (t) => {
  const dir = tempDir(t);
  const root = fromRoot("examples/integration/module-composition/kernel.loom");
  const lib = fromRoot("examples/integration/module-composition/library.loom");
  const linked = join(dir, "linked.loom"), bc = join(dir, "linked.loombc"), linkedBc = join(dir, "linked2.loombc");
  const l = loom("link", root, "--library", lib, "-o", linked);
  assert.equal(l.code, 0, l.err);
  const text = readFileSync(linked, "utf8");
  assert.match(text, /func\.def public pure @ceil_div/);
  assert.ok(!/func\.decl/.test(text), "declarations were replaced by definitions");
  assert.equal(loom("compile", linked, "--emit", "loombc", "-o", bc).code, 0);
  assert.equal(loom("fmt", bc).out, text);
  assert.equal(loom("verify", bc).code, 0);
  assert.equal(loom("link", root, "--library", lib, "-o", linkedBc).code, 0);
  assert.equal(loom("fmt", linkedBc).out, text, "direct .loombc output holds the same module (its spans still name the library)");
  assert.equal(loom("link", root, "-o", linked).code, 2, "a library is required");
  const missing = loom("link", root, "--library", fromRoot("examples/integration/jit-kernel/kernel.loom"), "-o", linked);
  assert.equal(missing.code, 1);
  assert.match(missing.err, /SYMBOL\/002/);
  // compile links libraries too
  const c = loom("compile", root, "--library", lib, "--target", "amdgpu:gfx942", "--kernel", "composed_grid", "-o", join(dir, "g.hsaco"));
  assert.equal(c.code, 0, c.err);
});

test("buffer.alloca<global>: verifies as in the reference, and compiling it is TARGET/001 on every target (never private scratch)", (t) => {
  const dir = tempDir(t);
  const src = join(dir, "global_alloca.loom");
  writeFileSync(src, `kernel.def @k() {
  %c1 = index.constant 1 : index
  kernel.launch.config workgroups(%c1, %c1, %c1) workgroup_size(%c1, %c1, %c1) : index
} launch(%out: buffer) {
  %bytes = index.constant 64 : offset
  %g = buffer.alloca<global> align(64) %bytes : buffer
  kernel.return
}
`);
  assert.equal(loom("verify", src).code, 0);
  for (const target of ["ptx:sm_90", "spirv:vulkan1.3", "amdgpu:gfx1100"]) {
    const r = loom("compile", src, "--target", target, "-o", join(dir, "out.bin"));
    assert.equal(r.code, 1, `${target}: ${r.err}`);
    assert.match(r.err, /global_alloca\.loom:6:8: error \[TARGET\/001\]: buffer\.alloca<global> is not supported/);
  }
});

test("loom fmt keeps a blank line that ends a file (as the reference's printer does), and only one", (t) => {
  const dir = tempDir(t);
  const src = join(dir, "tail.loom");
  const text = "func.def @f() {\n  func.return\n}\n\n";
  writeFileSync(src, text);
  assert.equal(loom("fmt", src).out, text);
  writeFileSync(src, "func.def @f() {\n  func.return\n}\n");
  assert.equal(loom("fmt", src).out, "func.def @f() {\n  func.return\n}\n");
  writeFileSync(src, text + "\n\n");
  assert.equal(loom("fmt", src).out, text);
});
