/**
 * Facts that need values the compile binds: a full unroll whose trip count comes from
 * `config.get` (or a function argument) verifies and is checked once bound; constant
 * subgroup-size assumptions are checked against a profile with a fixed subgroup size.
 * The oracle is the diagnostics' absence or presence at verify and at compile.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { createSpirvProfile } from "../../src/targets/spirv/index.js";
import { Source, Workspace, type Diagnostic } from "../../src/index.js";
import { compile, context, gfx1100, spirv, vulkan } from "../link/helpers.js";

/** Parse and verify only (no profile, no config). */
function verify(text: string): readonly Diagnostic[] {
  return new Workspace(context).parseModule(Source.fromText("root.loom", text)).diagnostics;
}

const CHAIN = `config.decl @bench.count : %value: index where [range(%value, 1, 64)]

kernel.def export("chain") @chain() {
  %c1 = index.constant 1 : index
  kernel.launch.config workgroups(%c1, %c1, %c1) workgroup_size(%c1, %c1, %c1) : index
} launch(%out: buffer) {
  %c0 = index.constant 0 : index
  %c1 = index.constant 1 : index
  %count = config.get @bench.count : index
  %hi = index.add %count, %c1 : index
  %sum = scf.for %i = [%c0 to %hi step %c1](%acc = %c0 : index) -> (index) unroll {
    %next = index.add %acc, %i : index
    scf.yield %next : index
  }
  %o = index.constant 0 : offset
  %v = buffer.view %out[%o] : buffer -> view<1xi32>
  %s32 = index.cast %sum : index to i32
  view.store %s32, %v[0] : i32, view<1xi32>
  kernel.return
}
`;

test("a full unroll of a config-derived trip count verifies unbound and compiles once bound", () => {
  assert.deepEqual(verify(CHAIN), [], "the unbound module verifies");
  const { result } = compile(CHAIN, [["chain", vulkan]], { config: { "bench.count": 7n } });
  assert.ok(result.ok, result.formatDiagnostics());
});

test("a full unroll whose bound depends on a kernel argument is STRUCTURE/901 at verify", () => {
  const text = CHAIN.replace("launch(%out: buffer)", "launch(%out: buffer, %n: index)").replace("%hi = index.add %count, %c1 : index", "%hi = index.add %count, %n : index");
  assert.deepEqual(verify(text).map((d) => d.code), ["STRUCTURE/901"]);
});

test("a full unroll in a function body waits for inlining: constant arguments compile, an unknown one is STRUCTURE/901 at compile", () => {
  const fn = `func.def inline @sum_to(%hi: index) -> (index) {
  %c0 = index.constant 0 : index
  %c1 = index.constant 1 : index
  %s = scf.for %i = [%c0 to %hi step %c1](%acc = %c0 : index) -> (index) unroll {
    %next = index.add %acc, %i : index
    scf.yield %next : index
  }
  func.return %s : index
}

kernel.def @k() {
  %c1 = index.constant 1 : index
  kernel.launch.config workgroups(%c1, %c1, %c1) workgroup_size(%c1, %c1, %c1) : index
} launch(%out: buffer, %n: index) {
  %c4 = index.constant 4 : index
  %r = func.call @sum_to(HI) : (index) -> (index)
  %o = index.constant 0 : offset
  %v = buffer.view %out[%o] : buffer -> view<1xi32>
  %r32 = index.cast %r : index to i32
  view.store %r32, %v[0] : i32, view<1xi32>
  kernel.return
}
`;
  assert.deepEqual(verify(fn.replace("HI", "%n")), [], "the function verifies");
  const ok = compile(fn.replace("HI", "%c4"), [["k", vulkan]]).result;
  assert.ok(ok.ok, ok.formatDiagnostics());
  const bad = compile(fn.replace("HI", "%n"), [["k", vulkan]]).result;
  assert.deepEqual(bad.diagnostics.map((d) => `${d.code}@${d.location?.line}`), ["STRUCTURE/901@4"]);
});

const SHUFFLE = (width: number) => `kernel.def @k() {
  %c1 = index.constant 1 : index
  kernel.launch.config workgroups(%c1, %c1, %c1) workgroup_size(%c1, %c1, %c1) : index
} launch(%x: f32) {
  %off = scalar.constant 1 : i32
  %w = scalar.constant ${width} : i32
  %r, %ok = kernel.subgroup.shuffle<xor> %x, %off, %w : f32, i32, i32
  kernel.return
}
`;

test("a constant shuffle width wider than the profile's fixed subgroup is TARGET/001 at compile", () => {
  assert.deepEqual(verify(SHUFFLE(64)), [], "verify knows no profile");
  const wave32 = compile(SHUFFLE(64), [["k", gfx1100]]).result;
  const d = wave32.diagnostics.find((x) => x.code === "TARGET/001");
  assert.ok(d, wave32.formatDiagnostics());
  assert.match(d.message, /shuffle width of 64 lanes.*32 lanes/);
  assert.equal(d.location?.line, 7);
  // A fixed 8-lane SPIR-V device rejects 16; a device without a fixed size is not checked.
  const eight = createSpirvProfile(spirv, { identifier: "eight", identity: { environment: "vulkan1.3", features: { subgroupOperations: ["basic", "shuffle"] }, limits: { subgroupSize: 8 } } });
  assert.ok(compile(SHUFFLE(16), [["k", eight]]).result.diagnostics.some((x) => x.code === "TARGET/001" && /16 lanes/.test(x.message)));
  assert.ok(compile(SHUFFLE(8), [["k", eight]]).result.ok);
  assert.ok(!compile(SHUFFLE(16), [["k", vulkan]]).result.diagnostics.some((x) => /shuffle width/.test(x.message)));
});

test("a vector device argument verifies (the reference's rule) and is TARGET/001 at the argument when compiled", () => {
  const text = `kernel.def @vec() {
  %c1 = index.constant 1 : index
  kernel.launch.config workgroups(%c1, %c1, %c1) workgroup_size(%c1, %c1, %c1) : index
} launch(%m: vector<2x2xf32>, %out: buffer) {
  %lane = kernel.workitem.id<x> : index
  kernel.return
}
`;
  assert.deepEqual(verify(text), [], "verify accepts it");
  for (const profile of [vulkan, gfx1100]) {
    const { result } = compile(text, [["vec", profile]]);
    assert.deepEqual(result.diagnostics.map((d) => `${d.code}@${d.location?.line}`), ["TARGET/001@4"], `${profile.target}`);
  }
});
