/** Constant-based checks: STRUCTURE/035 901 902, TARGET/062, SUBRANGE/001 004, attribute ranges. */
import { test } from "node:test";
import assert from "node:assert/strict";
import { expectClean, expectCodes, kernel, verifyText } from "./helpers.js";

const loop = (step: string, extra = "") => kernel(`  %c0 = index.constant 0 : index\n  %c8 = index.constant 8 : index\n  %s = ${step}\n  scf.for %i = [%c0 to %c8 step %s]${extra} {\n  }`, "%n: index");

test("static: loop steps must be positive (STRUCTURE/035)", () => {
  expectClean(loop("index.constant 2 : index"));
  expectCodes(loop("index.constant 0 : index"), ["STRUCTURE/035"]);
  expectCodes(loop("index.constant -1 : index"), ["STRUCTURE/035"]);
  // Folded through arithmetic.
  expectCodes(loop("index.sub %c0, %c8 : index"), ["STRUCTURE/035"]);
  // Unknown steps are the author's promise (UB if not positive).
  expectClean(loop("index.add %n, %c0 : index"));
});

test("static: a full unroll needs a constant trip count (STRUCTURE/901)", () => {
  expectClean(loop("index.constant 1 : index", " unroll"));
  expectCodes(loop("index.add %n, %c0 : index", " unroll"), ["STRUCTURE/901"]);
  expectClean(kernel("  %c0 = index.constant 0 : index\n  %f = index.constant 2 : index\n  scf.for %i = [%c0 to %n step %c1] unroll(%f) {\n  }", "%n: index"));
  expectCodes(kernel("  %c0 = index.constant 0 : index\n  scf.for %i = [%c0 to %n step %c1] unroll {\n  }", "%n: index"), ["STRUCTURE/901"]);
});

test("static: cluster sizes must fold to 1 (TARGET/062)", () => {
  const launch = (cx: string) => `kernel.def @k(%n: index) {\n  %c1 = index.constant 1 : index\n  %c2 = index.constant 2 : index\n  %one = index.sub %c2, %c1 : index\n  kernel.launch.config workgroups(%c1, %c1, %c1) workgroup_size(%c1, %c1, %c1) cluster_size(${cx}, %c1, %c1) : index\n} launch() {\n  kernel.return\n}\n`;
  expectClean(launch("%c1"));
  expectClean(launch("%one"));
  expectCodes(launch("%c2"), ["TARGET/062"]);
  expectCodes(launch("%n"), ["TARGET/062"]);
});

test("static: alloca sizes need a finite proven maximum (STRUCTURE/902)", () => {
  const alloca = (size: string, args = "%b: offset") => kernel(`${size}\n  %s = buffer.alloca<private> align(16) %bytes : buffer`, args);
  expectClean(alloca("  %bytes = index.constant 64 : offset"));
  expectClean(alloca("  %bytes = index.assume %b [range(%b, 0, 4096)] : offset"));
  expectClean(alloca("  %cap = index.assume %b [max(%b, 256)] : offset\n  %bytes = index.add %cap, %cap : offset"));
  expectCodes(alloca("  %bytes = index.add %b, %b : offset"), ["STRUCTURE/902"]);
});

test("static: attribute values (STRUCTURE/014)", () => {
  const bytes = "  %bytes = index.constant 64 : offset\n";
  expectClean(kernel(`${bytes}  %s = buffer.alloca<private> align(256) %bytes : buffer`));
  expectCodes(kernel(`${bytes}  %s = buffer.alloca<private> align(24) %bytes : buffer`), ["STRUCTURE/014"]);
  expectCodes(kernel(`${bytes}  %s = buffer.alloca<private> align(512) %bytes : buffer`), ["STRUCTURE/014"]);
  expectClean(kernel("  kernel.barrier<global> scope(workgroup) ordering(release)"));
  expectCodes(kernel("  kernel.barrier<workgroup> scope(workgroup) ordering(acquire)"), ["STRUCTURE/014"]);
  expectCodes("amdgpu.target<gfx1100> @t {index_bitwidth = 32}\n", ["STRUCTURE/014"]);
  expectClean("amdgpu.target<gfx1100> @t {index_bitwidth = 64, subgroup_size = 32}\n");
});

test("subrange: index counts equal the rank (SUBRANGE/001)", () => {
  const view = "  %o = index.constant 0 : offset\n  %i = index.constant 0 : index\n  %v = buffer.view %x[%o] : buffer -> view<4x4xf32>\n";
  expectClean(kernel(`${view}  %e = view.load %v[%i, 0] : view<4x4xf32> -> f32`, "%x: buffer"));
  expectCodes(kernel(`${view}  %e = view.load %v[%i] : view<4x4xf32> -> f32`, "%x: buffer"), ["SUBRANGE/001"]);
  expectCodes(kernel(`${view}  %f = scalar.constant 1.0 : f32\n  view.store %f, %v[%i, %i, %i] : f32, view<4x4xf32>`, "%x: buffer"), ["SUBRANGE/001"]);
  // More indices than a vector's rank is the reference's STRUCTURE/013 (a count), not SUBRANGE/001.
  expectCodes(kernel("  %f = scalar.constant 1.0 : f32\n  %v = vector.splat %f : vector<4xf32>\n  %e = vector.extract %v[0, 1] : vector<4xf32> -> f32"), ["STRUCTURE/013"]);
});

test("subrange: static subviews stay in bounds (SUBRANGE/004)", () => {
  const view = "  %o = index.constant 0 : offset\n  %v = buffer.view %x[%o] : buffer -> view<16x8xf32>\n";
  expectClean(kernel(`${view}  %s = view.subview %v[8, 0] : view<16x8xf32> -> view<8x8xf32>`, "%x: buffer"));
  expectCodes(kernel(`${view}  %s = view.subview %v[9, 0] : view<16x8xf32> -> view<8x8xf32>`, "%x: buffer"), ["SUBRANGE/004"]);
  expectCodes(kernel(`${view}  %c9 = index.constant 9 : index\n  %s = view.subview %v[%c9, 0] : view<16x8xf32> -> view<8x8xf32>`, "%x: buffer"), ["SUBRANGE/004"]);
  // Dynamic origins are not checked statically.
  expectClean(kernel(`${view}  %s = view.subview %v[%k, 0] : view<16x8xf32> -> view<8x8xf32>`, "%x: buffer, %k: index"));
});

test("static: the folder exposes constants to later passes", () => {
  const v = verifyText(kernel("  %a = index.constant 6 : index\n  %b = index.constant 7 : index\n  %p = index.mul %a, %b : index"));
  const body = v.module.ops[0]!.regions[1]!;
  const p = body.ops[3]!.results[0]!;
  assert.equal(v.info.bounds.constant(p), 42n);
});

test("static: the verifier hands on symbols, proven bounds, uniformity and use counts", () => {
  const v = verifyText(kernel("  %cap = index.constant 256 : index\n  %m = index.min %n, %cap : index\n  %t = index.add %m, %m : index\n  %lane = kernel.workitem.id<x> : index", "%n: index"));
  assert.equal(v.codes.length, 0, v.codes.join(" "));
  const kernelOp = v.module.ops[0]!;
  assert.equal(v.info.symbol(kernelOp.symbol!), kernelOp);
  assert.equal(v.info.symbol("absent"), undefined);
  const body = kernelOp.regions[1]!;
  const value = (name: string) => body.ops.flatMap((op) => op.results).find((r) => r.name === name)!;
  assert.equal(v.info.bounds.upperBound(value("m")), 256n);
  assert.equal(v.info.bounds.upperBound(value("t")), 512n);
  assert.equal(v.info.uses.get(value("m")), 2);
  assert.equal(v.info.uses.get(value("t")), undefined);
  assert.equal(v.info.uniformity.of(value("m")), "uniform");
  assert.equal(v.info.uniformity.of(value("lane")), "varying");
});
