/** Op-level checks: vectors, layouts, atomics, math, calls and config in small kernels. */
import { test } from "node:test";
import assert from "node:assert/strict";
import fc from "fast-check";
import * as S from "../../src/dialects/scalar/semantics.js";
import { erf, fmaF32 } from "../../src/interp/math.js";
import { interpretDispatch } from "../../src/interp/index.js";
import { asF32, asI32, dispatch, f32Bytes, i32Bytes, loadKernelText } from "./harness.js";

function single(params: string, body: string, extra = "") {
  return loadKernelText("ops.loom", `kernel.def @k(%n: index) {
  %c1 = index.constant 1 : index
  kernel.launch.config workgroups(%c1, %c1, %c1) workgroup_size(%n, %c1, %c1) : index
} launch(${params}) {
  %c0 = index.constant 0 : index
  %c1 = index.constant 1 : index
  %c2 = index.constant 2 : index
  %origin = index.constant 0 : offset
${body}
  kernel.return
}
${extra}`);
}

test("vector ops: load 2-D tiles, extract/insert, lanewise math, reduce, reshaping bitcast", () => {
  const k = single("%x: buffer, %out: buffer", `  %xv = buffer.view %x[%origin] : buffer -> view<4x4xf32>
  %ov = buffer.view %out[%origin] : buffer -> view<16xf32>
  %iv = buffer.view %out[%origin] : buffer -> view<16xi32>
  %tile = vector.load %xv[%c1, %c1] : view<4x4xf32> -> vector<2x2xf32>
  %row = vector.extract %tile[%c1] : vector<2x2xf32> -> vector<2xf32>
  %corner = vector.extract %tile[0, 1] : vector<2x2xf32> -> f32
  %two = vector.constant 2.0 : vector<2xf32>
  %scaled = vector.mulf %row, %two : vector<2xf32>
  %fused = vector.fmaf %row, %two, %scaled : vector<2xf32>
  %root = vector.sqrtf %fused : vector<2xf32>
  %seed = scalar.constant 100.0 : f32
  %sum = vector.reduce<addf> %fused, %seed : vector<2xf32>, f32
  %patched = vector.insert %corner into %fused[0] : f32, vector<2xf32>
  vector.store %patched, %ov[0] : vector<2xf32>, view<16xf32>
  vector.store %root, %ov[2] : vector<2xf32>, view<16xf32>
  view.store %sum, %ov[4] : f32, view<16xf32>
  %bytes = vector.from_elements %c0, %c1, %c2, %c1 : vector<4xindex>
  %small = scalar.constant 258 : i16
  %pair = vector.splat %small : vector<2xi16>
  %word = vector.bitcast %pair : vector<2xi16> to vector<1xi32>
  %w = vector.extract %word[0] : vector<1xi32> -> i32
  view.store %w, %iv[5] : i32, view<16xi32>
  %mask = vector.cmpf olt, %row, %two : vector<2xf32> -> vector<2xi1>
  %picked = vector.select %mask, %row, %two : vector<2xf32>
  vector.store %picked, %ov[6] : vector<2xf32>, view<16xf32>`);
  const x = Array.from({ length: 16 }, (_, i) => i);
  const out = f32Bytes(new Array(16).fill(0));
  dispatch(k, [1n], [f32Bytes(x), out]);
  const f = asF32(out);
  // tile = [[5, 6], [9, 10]]; row = [9, 10]; fused = row·2 + row·2 = [36, 40].
  assert.deepEqual([...f.subarray(0, 5)], [6, 40, 6, Math.fround(Math.sqrt(40)), 176]);
  assert.equal(asI32(out)[5], 258 + 258 * 65536);
  assert.deepEqual([...f.subarray(6, 8)], [2, 2]);
});

test("strided layouts and subviews address the parent's storage", () => {
  const k = single("%x: buffer, %out: buffer", `  %l = encoding.layout.strided [1, 4] : encoding<layout>
  %cols = buffer.view %x[%origin] : buffer -> view<4x4xi32, %l>
  %inner = view.subview %cols[%c1, %c2] : view<4x4xi32, %l> -> view<2x2xi32, %l>
  %ov = buffer.view %out[%origin] : buffer -> view<4xi32>
  %a = view.load %inner[0, 0] : view<2x2xi32, %l> -> i32
  %b = view.load %inner[1, 0] : view<2x2xi32, %l> -> i32
  %c = view.load %inner[0, 1] : view<2x2xi32, %l> -> i32
  %d = view.load %cols[3, 3] : view<4x4xi32, %l> -> i32
  view.store %a, %ov[0] : i32, view<4xi32>
  view.store %b, %ov[1] : i32, view<4xi32>
  view.store %c, %ov[2] : i32, view<4xi32>
  view.store %d, %ov[3] : i32, view<4xi32>`);
  const out = i32Bytes([0, 0, 0, 0]);
  dispatch(k, [1n], [i32Bytes(Array.from({ length: 16 }, (_, i) => i)), out]);
  // Element (i, j) of the column-major view lives at i + 4j; the subview starts at (1, 2).
  assert.deepEqual([...asI32(out)], [9, 10, 13, 15]);
});

test("atomics: cmpxchg, xchg, min, addf and atomic load/store", () => {
  const k = single("%x: buffer, %f: buffer", `  %i = kernel.workitem.id<x> : index
  %v = buffer.view %x[%origin] : buffer -> view<4xi32>
  %fv = buffer.view %f[%origin] : buffer -> view<1xf32>
  %i32 = index.cast %i : index to i32
  %zero = scalar.constant 0 : i32
  %winner = view.atomic.cmpxchg %zero, %i32, %v[0] {failure_ordering = acquire, scope = device, success_ordering = acq_rel} : i32, view<4xi32> -> i32
  %last = view.atomic.rmw<xchgi> %i32, %v[1] {ordering = relaxed, scope = device} : i32, view<4xi32> -> i32
  %neg = scalar.negi %i32 : i32
  view.atomic.reduce<minsi> %neg, %v[2] {ordering = relaxed, scope = device} : i32, view<4xi32>
  %half = scalar.constant 0.5 : f32
  view.atomic.reduce<addf> %half, %fv[0] {ordering = relaxed, scope = device} : f32, view<1xf32>
  %seen = view.atomic.load %v[1] {ordering = acquire, scope = device} : view<4xi32> -> i32
  view.atomic.store %seen, %v[3] {ordering = release, scope = device} : i32, view<4xi32>`);
  const x = i32Bytes([0, -1, 0, 0]), f = f32Bytes([1]);
  dispatch(k, [5n], [x, f]);
  // Invocation 0 swaps 0 for 0, so 1 then finds 0 and installs 1; later ones fail.
  assert.deepEqual([...asI32(x)], [1, 4, -4, 4]);
  assert.equal(asF32(f)[0], 3.5);
});

test("func.call runs in the parsed kernel (a callee with a barrier included) and agrees with the inlined one", () => {
  const k = loadKernelText("calls.loom", `kernel.def @k(%n: index) {
  %c1 = index.constant 1 : index
  kernel.launch.config workgroups(%c1, %c1, %c1) workgroup_size(%n, %c1, %c1) : index
} launch(%n: index, %out: buffer) {
  %origin = index.constant 0 : offset
  %i = kernel.workitem.id<x> : index
  %ov = buffer.view %out[%origin] : buffer -> view<[%n]xi32>
  %bytes = index.constant 256 : offset
  %scratch = buffer.alloca<workgroup> align(4) %bytes : buffer
  %tile = buffer.view %scratch[%origin] : buffer -> view<64xi32>
  %r = func.call @neighbour(%tile, %i, %n) : (view<64xi32>, index, index) -> (i32)
  view.store %r, %ov[%i] : i32, view<[%n]xi32>
  kernel.return
}

func.def device @neighbour(%tile: view<64xi32>, %i: index, %n: index) -> (i32) {
  %c1 = index.constant 1 : index
  %square = index.mul %i, %i : index
  %v = index.cast %square : index to i32
  view.store %v, %tile[%i] : i32, view<64xi32>
  kernel.barrier<workgroup> scope(workgroup) ordering(acq_rel)
  %next = index.add %i, %c1 : index
  %wrapped = index.rem %next, %n : index
  %r = view.load %tile[%wrapped] : view<64xi32> -> i32
  func.return %r : i32
}
`);
  const n = 10, out = i32Bytes(new Array(n).fill(0));
  dispatch(k, [BigInt(n)], [BigInt(n), out]);
  assert.deepEqual([...asI32(out)], Array.from({ length: n }, (_, i) => ((i + 1) % n) ** 2));
});

test("config.get: the module's config.def, or an explicit binding", () => {
  const k = loadKernelText("config.loom", `kernel.def @k(%n: index) {
  %c1 = index.constant 1 : index
  kernel.launch.config workgroups(%c1, %c1, %c1) workgroup_size(%c1, %c1, %c1) : index
} launch(%out: buffer) {
  %origin = index.constant 0 : offset
  %scale = config.get @scale : f32
  %ov = buffer.view %out[%origin] : buffer -> view<1xf32>
  view.store %scale, %ov[0] : f32, view<1xf32>
  kernel.return
}

config.decl @scale : f32

config.def @scale = 1.5 : f32
`);
  const out = f32Bytes([0]);
  k.prepared.run({ workgroupCount: [1, 1, 1], workgroupSize: [1, 1, 1], subgroupSize: 32, args: [out] });
  assert.equal(asF32(out)[0], 1.5);
  k.raw.run({ workgroupCount: [1, 1, 1], workgroupSize: [1, 1, 1], subgroupSize: 32, args: [out.fill(0)] });
  assert.equal(asF32(out)[0], 1.5);
  const rawOp = k.rawModule.ops.find((o) => o.name === "kernel.def")!;
  interpretDispatch(rawOp, { module: k.rawModule, config: { "@scale": 0.1 }, workgroupCount: [1, 1, 1], workgroupSize: [1, 1, 1], subgroupSize: 32, args: [out] });
  assert.equal(asF32(out)[0], Math.fround(0.1));
  assert.throws(() => interpretDispatch(rawOp, { workgroupCount: [1, 1, 1], workgroupSize: [1, 1, 1], subgroupSize: 32, args: [out] }), /config key '@scale' has no value/);
});

test("math: erf is accurate, fmaF32 equals the shared exact FMA", () => {
  const known: [number, number][] = [[0, 0], [0.5, 0.5204998778130465], [1, 0.8427007929497149], [2, 0.9953222650189527], [3, 0.9999779095030014], [-1.5, -0.9661051464753108], [4, 0.9999999845827421]];
  for (const [x, y] of known) assert.ok(Math.abs(erf(x) - y) < 1e-14, `erf(${x}) = ${erf(x)}`);
  const f32 = fc.float({ noDefaultInfinity: false }).map(Math.fround);
  fc.assert(fc.property(f32, f32, f32, (a, b, c) => Object.is(fmaF32(a, b, c), S.fmaf("f32", a, b, c)) || (Number.isNaN(fmaF32(a, b, c)) && Number.isNaN(S.fmaf("f32", a, b, c) as number))), { numRuns: 20000 });
  // A halfway case that a naive double-rounded fma gets wrong.
  const a = 1 + 2 ** -12, b = 1 + 2 ** -12, c = -(2 ** -70);
  assert.equal(fmaF32(a, b, c), S.fmaf("f32", a, b, c));
});

test("kernel.workgroup.scan: forward/reverse, inclusive/exclusive prefixes in flat-id order; exclusive starts at the kind's identity", () => {
  // Oracle: the prefix sums / maxima computed here in plain TypeScript over the same inputs.
  const k = single("%x: buffer, %o: buffer", `  %i = kernel.workitem.id<x> : index
  %v = buffer.view %x[%origin] : buffer -> view<40xi32>
  %out = buffer.view %o[%origin] : buffer -> view<40x5xi32>
  %e = view.load %v[%i] : view<40xi32> -> i32
  %a = kernel.workgroup.scan<addi> %e {direction = forward, mode = inclusive} : i32
  %b = kernel.workgroup.scan<addi> %e {direction = forward, mode = exclusive} : i32
  %c = kernel.workgroup.scan<addi> %e {direction = reverse, mode = inclusive} : i32
  %d = kernel.workgroup.scan<addi> %e {direction = reverse, mode = exclusive} : i32
  %m = kernel.workgroup.scan<maxsi> %e {direction = forward, mode = exclusive} : i32
  %c3 = index.constant 3 : index
  %c4 = index.constant 4 : index
  view.store %a, %out[%i, %c0] : i32, view<40x5xi32>
  view.store %b, %out[%i, %c1] : i32, view<40x5xi32>
  view.store %c, %out[%i, %c2] : i32, view<40x5xi32>
  view.store %d, %out[%i, %c3] : i32, view<40x5xi32>
  view.store %m, %out[%i, %c4] : i32, view<40x5xi32>`);
  const n = 40;
  const xs = Array.from({ length: n }, (_, i) => ((i * 37) % 11) - 5);
  const x = i32Bytes(xs), o = i32Bytes(new Array<number>(n * 5).fill(0));
  dispatch(k, [BigInt(n)], [x, o]);
  const got = asI32(o);
  const sum = (a: number[]) => a.reduce((s, v) => s + v, 0);
  for (let i = 0; i < n; i++) {
    const want = [sum(xs.slice(0, i + 1)), sum(xs.slice(0, i)), sum(xs.slice(i)), sum(xs.slice(i + 1)), i === 0 ? -(2 ** 31) : Math.max(...xs.slice(0, i))];
    assert.deepEqual([...got.subarray(i * 5, i * 5 + 5)], want, `invocation ${i}`);
  }
});
