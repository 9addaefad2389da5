/**
 * WGSL profiles (WebGPU limit and feature names, the `webgpu` defaults, profileFromAdapter),
 * the CLI path (`loom compile --target wgsl:webgpu`), the record op, and bad input: what
 * WebGPU cannot express fails the compile with TARGET diagnostics at the op, never a throw.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { LoomError, parseExecutableInterface } from "../../src/index.js";
import { createWgslProfile, DEFAULT_LIMITS, profileFromAdapter } from "../../src/targets/wgsl/index.js";
import { createSpirvTargetEnvironment } from "../../src/targets/spirv/index.js";
import { fromRoot } from "../util/paths.js";
import { compileText, CORE, env, errorCodes, FULL, profile } from "./helpers.js";

test("the webgpu profile: WebGPU core defaults, no fixed subgroup width, the uniform binding limit as argument block", () => {
  assert.equal(CORE.environment, "wgsl");
  assert.equal(CORE.target, "webgpu");
  assert.deepEqual(CORE.facts, {
    subgroupSize: 0,
    maxWorkgroupSize: [256, 256, 64],
    maxFlatWorkgroupSize: 256,
    maxWorkgroupCount: [65535, 65535, 65535],
    maxWorkgroupStorageBytes: 16384,
    maxArgumentBlockBytes: 65536,
  });
  assert.equal(DEFAULT_LIMITS.maxStorageBuffersPerShaderStage, 8);
  assert.ok(Object.isFrozen(CORE) && Object.isFrozen(CORE.facts));
});

test("profiles reject unknown devices, features and limits with invalid-argument", () => {
  const bad = (identity: unknown) => () => createWgslProfile(env, { identifier: "x", identity: identity as never });
  assert.throws(bad({ device: "metal" }), (e: unknown) => e instanceof LoomError && e.status === "invalid-argument" && /unknown WGSL device "metal"/.test(e.message));
  assert.throws(bad({ features: ["float64"] }), /not a WebGPU feature the WGSL target uses/);
  assert.throws(bad({ limits: { maxComputeWorkGroupInvocations: 1 } }), /is not a WGSL profile option/);
  assert.throws(bad({ limits: { maxComputeInvocationsPerWorkgroup: 0 } }), /positive integer/);
  assert.throws(() => createWgslProfile(createSpirvTargetEnvironment(), { identifier: "x" }), /createWgslTargetEnvironment/);
});

test("profileFromAdapter reads an adapter's limits and features as plain data", () => {
  const options = profileFromAdapter({
    limits: { maxComputeInvocationsPerWorkgroup: 1024, maxComputeWorkgroupSizeX: 1024, maxComputeWorkgroupStorageSize: 32768, maxStorageBufferBindingSize: 2 ** 40, maxTextureDimension2D: 8192 },
    features: new Set(["subgroups", "timestamp-query"]),
  }, "lavapipe");
  const p = createWgslProfile(env, options);
  assert.equal(p.identifier, "lavapipe");
  assert.deepEqual(p.wgsl.features, ["subgroups"]);
  assert.equal(p.facts.maxFlatWorkgroupSize, 1024);
  assert.equal(p.facts.maxWorkgroupStorageBytes, 32768);
  assert.equal(p.wgsl.limits.maxStorageBufferBindingSize, 2 ** 32 - 1);
  assert.equal(p.wgsl.limits.maxComputeWorkgroupSizeZ, 64, "absent limits keep the core default");
  assert.deepEqual(profileFromAdapter({ limits: {}, features: ["shader-f16"] }).identity?.features, ["shader-f16"]);
  assert.throws(() => profileFromAdapter(null as never), /adapter-like/);
});

const KERNEL = (body: string, args = "%out: buffer") => `kernel.def export("k") @k() {
  %c1 = index.constant 1 : index
  %c64 = index.constant 64 : index
  kernel.launch.config workgroups(%c1, %c1, %c1) workgroup_size(%c64, %c1, %c1) : index
} launch(${args}) {
  %origin = index.constant 0 : offset
  %i = kernel.workitem.id<x> : index
  %o = buffer.view %out[%origin] : buffer -> view<64xi32>
${body}
  kernel.return
}
`;

test("f16 needs shader-f16 and subgroup operations need subgroups: TARGET/001 naming the feature", () => {
  const half = KERNEL(`  %x = scalar.fptosi %h : f16 to i32\n  view.store %x, %o[%i] : i32, view<64xi32>`, "%h: f16, %out: buffer");
  const c = compileText("half.loom", half, ["k"], CORE);
  assert.ok(errorCodes(c).length > 0 && errorCodes(c).every((code) => code === "TARGET/001"), JSON.stringify(c.diagnostics));
  assert.match(c.diagnostics[0]!.help ?? "", /WebGPU feature 'shader-f16'/);
  const ok = compileText("half.loom", half, ["k"], profile({ features: ["shader-f16"] }));
  assert.ok(ok.ok, JSON.stringify(ok.diagnostics));
  assert.match(ok.text!, /^enable f16;$/m);
  assert.deepEqual(ok.record!.kernels[0]!.requiredFeatures, ["shader-f16"]);
  const sub = KERNEL(`  %l = kernel.subgroup.lane.id : index\n  %x = index.cast %l : index to i32\n  view.store %x, %o[%i] : i32, view<64xi32>`);
  const s = compileText("sub.loom", sub, ["k"], CORE);
  assert.deepEqual(errorCodes(s), ["TARGET/001"]);
  assert.match(s.diagnostics[0]!.help ?? "", /'subgroups'/);
});

test("the 32-bit index domain: an index constant outside i32 and i64 arithmetic are TARGET/001 at their ops", () => {
  const big = KERNEL(`  %b = index.constant 4294967296 : index\n  %j = index.add %i, %b : index\n  %x = index.cast %j : index to i32\n  view.store %x, %o[%i] : i32, view<64xi32>`);
  const c = compileText("big.loom", big, ["k"], FULL);
  assert.deepEqual(errorCodes(c), ["TARGET/001"]);
  assert.match(c.diagnostics[0]!.message, /index constant 4294967296 \(outside the 32-bit index domain\)/);
  assert.equal(c.diagnostics[0]!.location?.line, 9);
  const wide = KERNEL(`  %w = scalar.extsi %v : i32 to i64\n  %t = scalar.trunci %w : i64 to i32\n  view.store %t, %o[%i] : i32, view<64xi32>`, "%v: i32, %out: buffer");
  const w = compileText("wide.loom", wide, ["k"], FULL);
  assert.deepEqual(errorCodes(w), ["TARGET/001", "TARGET/001"]);
  assert.match(w.diagnostics[0]!.message, /'scalar.extsi' on type 'i64'/);
  assert.match(w.diagnostics[0]!.help ?? "", /no 64-bit integers/);
});

test("atomics: WGSL's are relaxed, so a stronger ordering is TARGET/001; relaxed ones make the buffer atomic<i32>", () => {
  const strong = KERNEL(`  %one = scalar.constant 1 : i32\n  view.atomic.reduce<addi> %one, %o[0] {ordering = acq_rel, scope = device} : i32, view<64xi32>`);
  const c = compileText("strong.loom", strong, ["k"], FULL);
  assert.deepEqual(errorCodes(c), ["TARGET/001"]);
  assert.match(c.diagnostics[0]!.message, /ordering 'acq_rel'/);
  const relaxed = compileText("relaxed.loom", strong.replace("acq_rel", "relaxed"), ["k"], FULL);
  assert.ok(relaxed.ok, JSON.stringify(relaxed.diagnostics));
  assert.match(relaxed.text!, /var<storage, read_write> k_out: array<atomic<i32>>;/);
  assert.match(relaxed.text!, /atomicAdd\(&k_out\[0i\], 1i\);/);
});

test("bindings and the argument block follow the ABI: buffer k at binding k (read-only ones marked), the uniform at binding B", () => {
  const text = `kernel.def export("k") @k() {
  %c1 = index.constant 1 : index
  %c64 = index.constant 64 : index
  kernel.launch.config workgroups(%c1, %c1, %c1) workgroup_size(%c64, %c1, %c1) : index
} launch(%a: buffer, %s: f32, %unused: buffer, %b: buffer) {
  %origin = index.constant 0 : offset
  %i = kernel.workitem.id<x> : index
  %av = buffer.view %a[%origin] : buffer -> view<64xf32>
  %bv = buffer.view %b[%origin] : buffer -> view<64xf32>
  %x = view.load %av[%i] : view<64xf32> -> f32
  %y = scalar.mulf %x, %s : f32
  view.store %y, %bv[%i] : f32, view<64xf32>
  kernel.return
}
`;
  const c = compileText("abi.loom", text, ["k"], CORE);
  assert.ok(c.ok, JSON.stringify(c.diagnostics));
  assert.match(c.text!, /^@group\(0\) @binding\(0\) var<storage, read> k_a: array<f32>;$/m);
  assert.match(c.text!, /^@group\(0\) @binding\(2\) var<storage, read_write> k_b: array<f32>;$/m);
  assert.doesNotMatch(c.text!, /k_unused/);
  // %s sits at offset 16 after %a's 16 bytes; the struct pads to it and to the 56-byte block.
  assert.match(c.text!, /struct k_Args \{\n {2}@size\(16\) pad: u32,\n {2}@size\(40\) arg_s: f32,\n\}/);
  assert.match(c.text!, /^@group\(0\) @binding\(3\) var<uniform> k_args: k_Args;$/m);
  const k = c.record!.kernels[0]!;
  assert.equal(k.argumentBlockBytes, 56);
  assert.deepEqual(k.bindings, [{ set: 0, binding: 0, argument: 0, readOnly: true }, { set: 0, binding: 1, argument: 2 }, { set: 0, binding: 2, argument: 3 }]);
});

test("loom compile --target wgsl:webgpu -o saxpy.wgsl writes the module and its interface record", () => {
  const dir = mkdtempSync(join(tmpdir(), "loom-wgsl-cli-"));
  const out = join(dir, "saxpy.wgsl");
  const r = spawnSync(process.execPath, [fromRoot("dist/src/cli/main.js"), "compile", fromRoot("examples/kernels/saxpy.loom"), "--target", "wgsl:webgpu", "-o", out, "--interface", join(dir, "saxpy.json")], { encoding: "utf8" });
  assert.equal(r.status, 0, r.stderr);
  assert.match(readFileSync(out, "utf8"), /^fn saxpy\(@builtin\(global_invocation_id\) global_id: vec3<u32>\) \{$/m);
  const record = parseExecutableInterface(readFileSync(join(dir, "saxpy.json")));
  assert.equal(record.format, "wgsl");
  assert.equal(record.target, "webgpu");
  const bad = spawnSync(process.execPath, [fromRoot("dist/src/cli/main.js"), "compile", fromRoot("examples/kernels/saxpy.loom"), "--target", "wgsl:webgpu", "--feature", "float64", "-o", join(dir, "x.wgsl")], { encoding: "utf8" });
  assert.notEqual(bad.status, 0);
  assert.match(bad.stderr, /not a WebGPU feature the WGSL target uses/);
});

test("the wgsl.target record admits the webgpu profile", () => {
  const text = `wgsl.target<webgpu> @web {}\n${KERNEL(`  %x = index.cast %i : index to i32\n  view.store %x, %o[%i] : i32, view<64xi32>`).replace('export("k")', 'target(@web) export("k")')}`;
  const c = compileText("record.loom", text, ["k"], CORE);
  assert.ok(c.ok, JSON.stringify(c.diagnostics));
});
