/**
 * PTX profiles (validation, facts) and bad input: ops, types and limits a profile lacks fail
 * the compile with TARGET diagnostics at the op — never a throw — and the code paths that
 * depend on proven facts (`ld.global.nc`, `ld.global.v4`, predication, `.maxntid`) show up
 * exactly when the facts hold.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { LoomError } from "../../src/index.js";
import { createPtxProfile, createPtxTargetEnvironment, DEFAULT_LIMITS } from "../../src/targets/ptx/index.js";
import { createSpirvTargetEnvironment } from "../../src/targets/spirv/index.js";
import { codes, compileText, env, profile, ptxas, PTXAS_FIX } from "./helpers.js";
import { requireTool } from "../util/tools.js";

test("profiles: facts from the architecture; warp 32; 1024 threads; 48 KiB shared", () => {
  const p = profile({ target: "sm_90" });
  assert.equal(p.environment, "ptx");
  assert.equal(p.target, "sm_90");
  assert.deepEqual(p.facts, {
    subgroupSize: 32,
    maxWorkgroupSize: [1024, 1024, 64],
    maxFlatWorkgroupSize: 1024,
    maxWorkgroupCount: [2147483647, 65535, 65535],
    maxWorkgroupStorageBytes: 49152,
    maxArgumentBlockBytes: 4096,
  });
  assert.ok(Object.isFrozen(p) && Object.isFrozen(p.facts));
  const sm80 = createPtxProfile(env, { identifier: "a100", identity: { target: "sm_80" } });
  assert.equal(sm80.ptx.features.bf16Arithmetic, false);
  assert.equal(createPtxProfile(env, { identifier: "h100", identity: { target: "sm_90a" } }).ptx.features.bf16Arithmetic, true);
  assert.equal(createPtxProfile(env, { identifier: "x", identity: { target: "sm_90", limits: { maxSharedMemoryPerBlock: 1024 } } }).facts.maxWorkgroupStorageBytes, 1024);
  assert.equal(DEFAULT_LIMITS.maxThreadsPerBlock, 1024);
});

test("profiles: bad options are invalid-argument LoomErrors naming the option", () => {
  const bad = (options: unknown, pattern: RegExp) =>
    assert.throws(() => createPtxProfile(env, options as never), (e: unknown) => e instanceof LoomError && e.status === "invalid-argument" && pattern.test(e.message));
  bad({ identifier: "x", identity: { target: "sm_75" } }, /unknown PTX target "sm_75" \(known: sm_80, sm_90, sm_90a\)/);
  bad({ identifier: "", identity: { target: "sm_90" } }, /identifier/);
  bad({ identifier: "x", identity: { target: "sm_90", features: { tensorCores: true } } }, /features\.tensorCores is not a PTX profile option/);
  bad({ identifier: "x", identity: { target: "sm_90", features: { f64: "yes" } } }, /features\.f64 must be a boolean/);
  bad({ identifier: "x", identity: { target: "sm_80", features: { bf16Arithmetic: true } } }, /bf16 arithmetic and conversions need sm_90/);
  bad({ identifier: "x", identity: { target: "sm_90", limits: { maxBlockDim: [1, 2] } } }, /maxBlockDim must be an array of three/);
  bad({ identifier: "x", identity: { target: "sm_90" }, abi: "bindings" }, /options\.abi is not a PTX profile option/);
  assert.throws(() => createPtxProfile(createSpirvTargetEnvironment(), { identifier: "x", identity: { target: "sm_90" } }), /createPtxTargetEnvironment/);
  assert.throws(() => createPtxProfile(createPtxTargetEnvironment(), { identifier: "x", identity: { target: "sm_90" } }) && createPtxProfile({} as never, { identifier: "x", identity: { target: "sm_90" } }), /createPtxTargetEnvironment/);
});

const ONE = `  %c1 = index.constant 1 : index
  %c64 = index.constant 64 : index`;

/** A kernel of one workgroup of `size` invocations with device args `args` and body `body`. */
function kernel(args: string, body: string, size = "%c64"): string {
  return `kernel.def export("k") @k() {
${ONE}
  %c48 = index.constant 48 : index
  %c2048 = index.constant 2048 : index
  kernel.launch.config workgroups(%c1, %c1, %c1) workgroup_size(${size}, %c1, %c1) : index
} launch(${args}) {
  %origin = index.constant 0 : offset
${body}
  kernel.return
}
`;
}

/** Compiles `text`; the compile must fail (not throw) with these codes at these lines. */
function rejects(text: string, expected: readonly [code: string, line: number][], target = profile({ target: "sm_90" })) {
  const c = compileText("bad.loom", text, ["k"], target);
  assert.equal(c.ok, false, "the compile should fail");
  assert.deepEqual(
    c.diagnostics.filter((d) => d.severity === "error").map((d) => [d.code, d.location?.line]),
    expected,
    JSON.stringify(c.diagnostics.map((d) => d.message)),
  );
  return c;
}

test("bad input: an f64 transcendental is TARGET/001 at the op", () => {
  const c = rejects(
    kernel(
      "%x: f64, %out: buffer",
      `  %e = scalar.expf %x : f64
  %v = buffer.view %out[%origin] : buffer -> view<1xf64>
  %z = index.constant 0 : index
  view.store %e, %v[%z] : f64, view<1xf64>`,
    ),
    [["TARGET/001", 9]],
  );
  assert.match(c.diagnostics[0]!.message, /'scalar\.expf' on f64 is not supported on PTX profile 'test' \(sm_90\)/);
});

test("bad input: f64 on a profile without it, bf16 integer conversions on sm_80, 64-bit atomics, float atomics", () => {
  const noF64 = profile({ target: "sm_90", features: { f64: false, int64Atomics: false, float32AtomicAdd: false } });
  rejects(
    kernel(
      "%x: f32, %n: i32, %out: buffer",
      `  %w = scalar.extf %x : f32 to f64
  %z = index.constant 0 : index
  %v = buffer.view %out[%origin] : buffer -> view<4xi64>
  %one = scalar.constant 1 : i64
  view.atomic.reduce<addi> %one, %v[%z] {ordering = relaxed, scope = device} : i64, view<4xi64>
  %fv = buffer.view %out[%origin] : buffer -> view<4xf32>
  view.atomic.reduce<addf> %x, %fv[%z] {ordering = relaxed, scope = device} : f32, view<4xf32>
  %wv = buffer.view %out[%origin] : buffer -> view<4xf64>
  view.store %w, %wv[%z] : f64, view<4xf64>`,
    ),
    // Every op touching f64 is reported at its own line, with the atomics in between.
    [["TARGET/001", 9], ["TARGET/001", 13], ["TARGET/001", 15], ["TARGET/001", 16], ["TARGET/001", 17]],
    noF64,
  );
  rejects(
    kernel(
      "%n: i32, %out: buffer",
      `  %h = scalar.sitofp %n : i32 to bf16
  %z = index.constant 0 : index
  %v = buffer.view %out[%origin] : buffer -> view<4xbf16>
  view.store %h, %v[%z] : bf16, view<4xbf16>`,
    ),
    [["TARGET/001", 9]],
    profile({ target: "sm_80" }),
  );
});

test("bad input: subgroup collectives need whole warps; a workgroup of 48 is TARGET/001", () => {
  rejects(
    kernel(
      "%x: i32, %out: buffer",
      `  %s = kernel.subgroup.reduce<addi> %x : i32
  %z = index.constant 0 : index
  %v = buffer.view %out[%origin] : buffer -> view<4xi32>
  view.store %s, %v[%z] : i32, view<4xi32>`,
      "%c48",
    ),
    [["TARGET/001", 9]],
  );
});

test("bad input: limits — argument block, shared memory, block size — are TARGET diagnostics", () => {
  const small = profile({ target: "sm_90", limits: { maxParameterBytes: 8, maxSharedMemoryPerBlock: 1024 } });
  const c = compileText(
    "limits.loom",
    kernel(
      "%a: i64, %b: i64, %out: buffer",
      `  %bytes = index.constant 4096 : offset
  %s = buffer.alloca<workgroup> align(16) %bytes : buffer
  %sum = scalar.addi %a, %b : i64
  %z = index.constant 0 : index
  %v = buffer.view %out[%origin] : buffer -> view<4xi64>
  view.store %sum, %v[%z] : i64, view<4xi64>`,
    ),
    ["k"],
    small,
  );
  assert.equal(c.ok, false);
  const found = codes(c);
  assert.ok(found.includes("TARGET/901"), found.join());
  assert.ok(found.includes("TARGET/051"), found.join());
  const big = compileText("size.loom", kernel("%out: buffer", "", "%c2048"), ["k"]);
  assert.deepEqual(codes(big), ["TARGET/024", "TARGET/025"].filter((x) => codes(big).includes(x)));
  assert.ok(codes(big).includes("TARGET/025"), codes(big).join());
});

test("ld.global.nc only for buffers proven read-only and unaliased", () => {
  const body = (noalias: boolean) => `  %i = kernel.workitem.id<x> : index
${noalias ? "  %xa, %ya = buffer.assume.noalias %x, %y : buffer, buffer" : "  %xa = buffer.assume.memory_space<global> %x : buffer\n  %ya = buffer.assume.memory_space<global> %y : buffer"}
  %xv = buffer.view %xa[%origin] : buffer -> view<64xf32>
  %yv = buffer.view %ya[%origin] : buffer -> view<64xf32>
  %a = view.load %xv[%i] : view<64xf32> -> f32
  %b = view.load %yv[%i] : view<64xf32> -> f32
  %s = scalar.addf %a, %b : f32
  view.store %s, %yv[%i] : f32, view<64xf32>`;
  const with_ = compileText("nc.loom", kernel("%x: buffer, %y: buffer", body(true)), ["k"]);
  const without = compileText("nc.loom", kernel("%x: buffer, %y: buffer", body(false)), ["k"]);
  assert.ok(with_.ok && without.ok, JSON.stringify([with_.diagnostics, without.diagnostics]));
  assert.equal(with_.text!.match(/ld\.global\.nc\.b32/g)?.length, 1, with_.text);
  assert.equal(with_.text!.match(/ld\.global\.b32/g)?.length, 1);
  assert.doesNotMatch(without.text!, /\.nc/);
});

test("vector.load/store of 4 f32 use ld/st.global.v4 exactly when the address is proven 16-byte aligned", (t) => {
  const body = (align: number) => `  %i = kernel.workitem.id<x> : index
  %c4 = index.constant 4 : index
  %j = index.mul %i, %c4 : index
  %xa, %ya = buffer.assume.noalias %x, %y : buffer, buffer
  %xb, %yb = buffer.assume.alignment %xa, %ya {minimum_alignment = ${align}} : buffer, buffer
  %xv = buffer.view %xb[%origin] : buffer -> view<256xf32>
  %yv = buffer.view %yb[%origin] : buffer -> view<256xf32>
  %a = vector.load %xv[%j] : view<256xf32> -> vector<4xf32>
  %b = vector.load %yv[%j] : view<256xf32> -> vector<4xf32>
  %s = vector.addf %a, %b : vector<4xf32>
  vector.store %s, %yv[%j] : vector<4xf32>, view<256xf32>`;
  const aligned = compileText("v4.loom", kernel("%x: buffer, %y: buffer", body(16)), ["k"]);
  const unaligned = compileText("v4.loom", kernel("%x: buffer, %y: buffer", body(4)), ["k"]);
  assert.ok(aligned.ok && unaligned.ok, JSON.stringify([aligned.diagnostics, unaligned.diagnostics]));
  assert.match(aligned.text!, /ld\.global\.nc\.v4\.b32 \t\{%r\d+, %r\d+, %r\d+, %r\d+\}, \[%rd\d+\];/);
  assert.match(aligned.text!, /ld\.global\.v4\.b32/);
  assert.match(aligned.text!, /st\.global\.v4\.b32/);
  assert.doesNotMatch(unaligned.text!, /\.v4\./);
  assert.equal(unaligned.text!.match(/st\.global\.b32/g)?.length, 4);
  if (!requireTool(t, "ptxas", PTXAS_FIX)) return;
  for (const [name, c] of [["v4", aligned], ["v1", unaligned]] as const) assert.equal(ptxas(c.text!, name).status, 0);
});

test("short branches are predicated; long ones branch; a dynamic workgroup size gives .maxntid", (t) => {
  const short = compileText(
    "pred.loom",
    kernel(
      "%n: index, %out: buffer",
      `  %i = kernel.workitem.id<x> : index
  %v = buffer.view %out[%origin] : buffer -> view<64xi32>
  %in = index.cmp ult, %i, %n : index
  %c7 = scalar.constant 7 : i32
  scf.if %in {
    view.store %c7, %v[%i] : i32, view<64xi32>
  }`,
    ),
    ["k"],
  );
  assert.ok(short.ok, JSON.stringify(short.diagnostics));
  assert.match(short.text!, /@%p\d+ st\.global\.b32/);
  assert.doesNotMatch(short.text!, /\bbra\b/);
  const dynamic = compileText(
    "dyn.loom",
    `kernel.def export("k") @k(%wg: index) {
  %c1 = index.constant 1 : index
  kernel.launch.config workgroups(%c1, %c1, %c1) workgroup_size(%wg, %c1, %c1) : index
} launch(%out: buffer) {
  %origin = index.constant 0 : offset
  %i = kernel.workitem.dispatch.id<x> : index
  %s = kernel.workgroup.size<x> : index
  %v = buffer.view %out[%origin] : buffer -> view<1024xi64>
  %c = index.cast %s : index to i64
  view.store %c, %v[%i] : i64, view<1024xi64>
  kernel.return
}
`,
    ["k"],
  );
  assert.ok(dynamic.ok, JSON.stringify(dynamic.diagnostics));
  assert.match(dynamic.text!, /^\.maxntid 1024, 1, 1$/m);
  assert.match(dynamic.text!, /%ntid\.x/);
  if (!requireTool(t, "ptxas", PTXAS_FIX)) return;
  assert.equal(ptxas(short.text!, "pred").status, 0);
  assert.equal(ptxas(dynamic.text!, "dyn").status, 0);
});
