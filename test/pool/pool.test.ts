import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { CompilePool } from "../../src/node.js";
import { LoomError, LaunchConfigProgram } from "../../src/index.js";
import { fromRoot } from "../util/paths.js";
import { SEED_KERNEL } from "../api/helpers.js";

const targets = {
  rdna3: { environment: "amdgpu", options: { identifier: "rdna3", identity: { target: "gfx1100" } } },
  cdna3: { environment: "amdgpu", options: { identifier: "cdna3", identity: { target: "gfx942" } } },
  vulkan: { environment: "spirv", options: { identifier: "vk", identity: { environment: "vulkan1.3", features: { shaderInt64: true } } } },
};

test("a pool compiles jobs concurrently and returns transferable artifacts", async () => {
  const pool = new CompilePool({ workers: 2, targets });
  try {
    const saxpy = readFileSync(fromRoot("examples/kernels/saxpy.loom"), "utf8");
    const jobs = [
      pool.compile({ source: { name: "k.loom", text: SEED_KERNEL }, specializations: [{ functionSymbol: "workload_grid", target: "rdna3" }], artifacts: { launchConfig: true }, emit: [{ target: "rdna3" }] }),
      pool.compile({ source: { name: "k.loom", text: SEED_KERNEL }, specializations: [{ functionSymbol: "workload_grid", target: "cdna3" }], artifacts: { launchConfig: true }, emit: [{ target: "cdna3" }] }),
      pool.compile({ source: { name: "saxpy.loom", text: saxpy }, specializations: [{ functionSymbol: "saxpy", target: "vulkan" }], emit: [{ target: "vulkan", identifier: "saxpy.spv" }] }),
      pool.compile({ source: { name: "bad.loom", bytes: new TextEncoder().encode("kernel.def @k(") }, specializations: [{ functionSymbol: "k", target: "rdna3" }] }),
    ];
    const [a, b, c, d] = await Promise.all(jobs);
    assert.ok(a!.ok && b!.ok && c!.ok, a!.formatted + b!.formatted + c!.formatted);
    for (const o of [a!, b!]) {
      assert.deepEqual(o.artifacts.map((x) => x.kind), ["launch-config", "executable", "interface"]);
      // Every artifact's bytes arrive, the lazily made ones (launch-config, interface) included.
      for (const a of o.artifacts) assert.ok(a.contents instanceof Uint8Array && a.contents.byteLength > 0, a.kind);
    }
    const p = LaunchConfigProgram.load(b!.artifacts[0]!);
    assert.equal(p.invoke(p.lookupFunction("workload_grid"), [1009n]).subgroupSize, 64);
    assert.equal(c!.artifacts[0]!.format, "spirv");
    assert.equal(new DataView(c!.artifacts[0]!.contents.buffer, c!.artifacts[0]!.contents.byteOffset).getUint32(0, true), 0x07230203);
    assert.equal(d!.ok, false);
    assert.equal(d!.diagnostics[0]!.code, "PARSE/003");
    assert.match(d!.formatted, /^bad\.loom:1:/);
    await assert.rejects(pool.compile({ source: { name: "k.loom", text: SEED_KERNEL }, specializations: [{ functionSymbol: "workload_grid", target: "nope" }] }), (e: unknown) => e instanceof LoomError && e.status === "not-found");
  } finally {
    await pool.close();
  }
  await assert.rejects(pool.compile({ source: { name: "k", text: "" }, specializations: [] }), (e: unknown) => e instanceof LoomError && e.status === "failed-precondition");
});

test("bad pool setup is a LoomError", async () => {
  assert.throws(() => new CompilePool({ workers: 0, targets }), (e: unknown) => e instanceof LoomError && e.status === "invalid-argument");
  const pool = new CompilePool({ workers: 1, targets: { x: { environment: "amdgpu", options: { identifier: "x", identity: { target: "gfx9999" } } } } });
  await assert.rejects(pool.compile({ source: { name: "k.loom", text: SEED_KERNEL }, specializations: [{ functionSymbol: "workload_grid", target: "x" }] }), (e: unknown) => e instanceof LoomError && /gfx9999/.test(e.message));
  await pool.close();
});

test("jit-task-pool example compiles three versions in parallel", async () => {
  const { spawnSync } = await import("node:child_process");
  const r = spawnSync(process.execPath, [fromRoot("dist/examples/integration/jit-task-pool/main.js"), "--workers", "2"], { encoding: "utf8" });
  assert.equal(r.status, 0, r.stderr);
  const lines = r.stdout.trim().split("\n");
  assert.match(lines[0]!, /^gfx1100: workgroups=16x1x1 subgroup_size=32 artifact=workload_grid\.gfx1100\.hsaco bytes=\d+$/);
  assert.match(lines[1]!, /^gfx942: workgroups=16x1x1 subgroup_size=64 /);
  assert.match(lines[3]!, /^compiled 3 versions on 2 workers in [\d.]+ ms$/);
});
