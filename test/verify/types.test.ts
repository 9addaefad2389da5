/** TYPE/001 002 003 004 005 009 013 and literal ranges (STRUCTURE/014): one good and one bad case per rule. */
import { test } from "node:test";
import { expectCodes, kernel } from "./helpers.js";

interface Case {
  readonly name: string;
  readonly body: string;
  readonly args?: string;
  readonly codes: readonly string[];
}

const cases: Case[] = [
  // Uniform arithmetic: operands agree with the annotation; type classes per op.
  { name: "index.add on index", body: "  %a = index.constant 1 : index\n  %b = index.add %a, %a : index", codes: [] },
  { name: "index.add on offset", body: "  %a = index.constant 1 : offset\n  %b = index.add %a, %a : offset", codes: [] },
  { name: "index.add mixing index and offset", body: "  %a = index.constant 1 : index\n  %o = index.constant 1 : offset\n  %b = index.add %a, %o : index", codes: ["TYPE/001"] },
  { name: "index.mul on offset", body: "  %a = index.constant 1 : offset\n  %b = index.mul %a, %a : offset", codes: ["TYPE/003", "TYPE/003", "TYPE/004"] },
  { name: "scalar.addi on f32", body: "  %a = scalar.constant 1.0 : f32\n  %b = scalar.addi %a, %a : f32", codes: ["TYPE/003", "TYPE/003", "TYPE/004"] },
  { name: "scalar.addf on f32", body: "  %a = scalar.constant 1.0 : f32\n  %b = scalar.addf<fast> %a, %a : f32", codes: [] },
  { name: "scalar.cmpf on i32", body: "  %a = scalar.constant 1 : i32\n  %p = scalar.cmpf olt, %a, %a : i32", codes: ["TYPE/003", "TYPE/003"] },
  { name: "index.cmp annotated wrongly", body: "  %a = index.constant 1 : index\n  %p = index.cmp slt, %a, %a : offset", codes: ["TYPE/001"] },
  // Conversions.
  { name: "extsi widens", body: "  %a = scalar.constant 1 : i8\n  %b = scalar.extsi %a : i8 to i32", codes: [] },
  { name: "extsi to the same width", body: "  %a = scalar.constant 1 : i32\n  %b = scalar.extsi %a : i32 to i32", codes: ["TYPE/004"] },
  { name: "sitofp from a float", body: "  %a = scalar.constant 1.0 : f32\n  %b = scalar.sitofp %a : f32 to f64", codes: ["TYPE/003"] },
  { name: "fptosi to a float", body: "  %a = scalar.constant 1.0 : f32\n  %b = scalar.fptosi %a : f32 to f64", codes: ["TYPE/004"] },
  { name: "bitcast equal width", body: "  %a = scalar.constant 1.0 : f32\n  %b = scalar.bitcast %a : f32 to i32", codes: [] },
  { name: "bitcast different width", body: "  %a = scalar.constant 1.0 : f32\n  %b = scalar.bitcast %a : f32 to i64", codes: ["TYPE/004"] },
  { name: "index.cast i32 to index", body: "  %a = scalar.constant 1 : i32\n  %b = index.cast %a : i32 to index", codes: [] },
  { name: "index.cast index to index", body: "  %a = index.constant 1 : index\n  %b = index.cast %a : index to index", codes: ["TYPE/004"] },
  { name: "index.cast i32 to i64", body: "  %a = scalar.constant 1 : i32\n  %b = index.cast %a : i32 to i64", codes: ["TYPE/004"] },
  { name: "index.scale", body: "  %i = index.constant 2 : index\n  %s = index.constant 4 : offset\n  %b = index.scale %i, %s : index, offset -> offset", codes: [] },
  // Literals.
  { name: "float literal for f32", body: "  %a = scalar.constant 1.5 : f32", codes: [] },
  { name: "inf for f32", body: "  %a = scalar.constant inf : f32", codes: [] },
  { name: "integer literal for f32", body: "  %a = scalar.constant 1 : f32", codes: ["TYPE/005"] },
  { name: "float literal for i32", body: "  %a = scalar.constant 1.5 : i32", codes: ["TYPE/005"] },
  { name: "true for i1", body: "  %a = scalar.constant true : i1", codes: [] },
  { name: "true for i32", body: "  %a = scalar.constant true : i32", codes: ["TYPE/005"] },
  { name: "i8 upper bound 255", body: "  %a = scalar.constant 255 : i8", codes: [] },
  { name: "i8 out of range", body: "  %a = scalar.constant 256 : i8", codes: ["STRUCTURE/014"] },
  { name: "i8 lower bound", body: "  %a = scalar.constant -129 : i8", codes: ["STRUCTURE/014"] },
  { name: "i1 takes 0 and 1", body: "  %a = scalar.constant 1 : i1", codes: [] },
  { name: "i1 takes no other integer (a literal-kind error, as the reference)", body: "  %a = scalar.constant 2 : i1", codes: ["TYPE/005"] },
  { name: "negative offset", body: "  %a = index.constant -1 : offset", codes: ["STRUCTURE/014"] },
  { name: "negative index", body: "  %a = index.constant -1 : index", codes: [] },
  { name: "index.constant float", body: "  %a = index.constant 1.0 : index", codes: ["TYPE/005"] },
  // scf.
  { name: "scf.if on i32", body: "  %a = scalar.constant 1 : i32\n  scf.if %a {\n  }", codes: ["TYPE/003"] },
  { name: "scf.select", body: "  %t = scalar.constant true : i1\n  %a = index.constant 1 : index\n  %r = scf.select %t, %a, %a : index", codes: [] },
  { name: "scf.select mixed", body: "  %t = scalar.constant true : i1\n  %a = index.constant 1 : index\n  %o = index.constant 1 : offset\n  %r = scf.select %t, %a, %o : index", codes: ["TYPE/001"] },
  { name: "scf.for bounds mixed", body: "  %a = index.constant 0 : index\n  %o = index.constant 4 : offset\n  scf.for %i = [%a to %o step %c1] {\n  }", codes: ["TYPE/003"] },
  { name: "yield types", body: "  %t = scalar.constant true : i1\n  %f = scalar.constant 1.0 : f32\n  %r = scf.if %t -> (f32) {\n    scf.yield %f : f32\n  } else {\n    scf.yield %f : f32\n  }", codes: [] },
  { name: "yield of the wrong type", body: "  %t = scalar.constant true : i1\n  %f = scalar.constant 1.0 : f32\n  %g = scalar.constant 1.0 : f64\n  %r = scf.if %t -> (f32) {\n    scf.yield %g : f64\n  } else {\n    scf.yield %f : f32\n  }", codes: ["TYPE/009"] },
  { name: "iter-arg of the wrong type", body: "  %c0 = index.constant 0 : index\n  %z = scalar.constant 0 : i32\n  %r = scf.for %i = [%c0 to %c1 step %c1](%acc = %z : i64) -> (i64) {\n    scf.yield %acc : i64\n  }", codes: ["TYPE/013"] },
  // buffer / view.
  { name: "view.load element", args: "%x: buffer", body: "  %o = index.constant 0 : offset\n  %i = index.constant 0 : index\n  %v = buffer.view %x[%o] : buffer -> view<4xf32>\n  %e = view.load %v[%i] : view<4xf32> -> f32", codes: [] },
  { name: "view.load wrong element", args: "%x: buffer", body: "  %o = index.constant 0 : offset\n  %i = index.constant 0 : index\n  %v = buffer.view %x[%o] : buffer -> view<4xf32>\n  %e = view.load %v[%i] : view<4xf32> -> f16", codes: ["TYPE/002"] },
  { name: "view.store wrong element", args: "%x: buffer", body: "  %o = index.constant 0 : offset\n  %i = index.constant 0 : index\n  %f = scalar.constant 1.0 : f64\n  %v = buffer.view %x[%o] : buffer -> view<4xf32>\n  view.store %f, %v[%i] : f64, view<4xf32>", codes: ["TYPE/002"] },
  { name: "index list entry of type offset", args: "%x: buffer", body: "  %o = index.constant 0 : offset\n  %v = buffer.view %x[%o] : buffer -> view<4xf32>\n  %e = view.load %v[%o] : view<4xf32> -> f32", codes: ["TYPE/003"] },
  { name: "buffer.view at an index", args: "%x: buffer", body: "  %i = index.constant 0 : index\n  %v = buffer.view %x[%i] : buffer -> view<4xf32>", codes: ["TYPE/003"] },
  { name: "dynamic dimension bound to an index", args: "%n: index, %x: buffer", body: "  %o = index.constant 0 : offset\n  %v = buffer.view %x[%o] : buffer -> view<[%n]xf32>", codes: [] },
  { name: "atomic rmw on f64", args: "%x: buffer", body: "  %o = index.constant 0 : offset\n  %i = index.constant 0 : index\n  %f = scalar.constant 1.0 : f64\n  %v = buffer.view %x[%o] : buffer -> view<4xf64>\n  %old = view.atomic.rmw<addf> %f, %v[%i] {ordering = relaxed, scope = device} : f64, view<4xf64> -> f64", codes: ["TYPE/003"] },
  { name: "atomic rmw int kind on f32", args: "%x: buffer", body: "  %o = index.constant 0 : offset\n  %i = index.constant 0 : index\n  %f = scalar.constant 1.0 : f32\n  %v = buffer.view %x[%o] : buffer -> view<4xf32>\n  %old = view.atomic.rmw<maxsi> %f, %v[%i] {ordering = relaxed, scope = device} : f32, view<4xf32> -> f32", codes: ["TYPE/003"] },
  { name: "atomic rmw addf on f32", args: "%x: buffer", body: "  %o = index.constant 0 : offset\n  %i = index.constant 0 : index\n  %f = scalar.constant 1.0 : f32\n  %v = buffer.view %x[%o] : buffer -> view<4xf32>\n  %old = view.atomic.rmw<addf> %f, %v[%i] {ordering = relaxed, scope = device} : f32, view<4xf32> -> f32", codes: [] },
  // vector.
  { name: "vector.splat", body: "  %f = scalar.constant 1.0 : f32\n  %v = vector.splat %f : vector<4xf32>", codes: [] },
  { name: "vector.splat of the wrong element", body: "  %f = scalar.constant 1.0 : f64\n  %v = vector.splat %f : vector<4xf32>", codes: ["TYPE/002"] },
  { name: "vector.from_elements count", body: "  %f = scalar.constant 1.0 : f32\n  %v = vector.from_elements %f, %f, %f : vector<4xf32>", codes: ["STRUCTURE/013"] },
  { name: "vector.extract of a lane", body: "  %f = scalar.constant 1.0 : f32\n  %v = vector.splat %f : vector<2x4xf32>\n  %e = vector.extract %v[1, 2] : vector<2x4xf32> -> f32", codes: [] },
  { name: "vector.extract of a row", body: "  %f = scalar.constant 1.0 : f32\n  %v = vector.splat %f : vector<2x4xf32>\n  %e = vector.extract %v[1] : vector<2x4xf32> -> vector<4xf32>", codes: [] },
  { name: "vector.extract wrong result", body: "  %f = scalar.constant 1.0 : f32\n  %v = vector.splat %f : vector<2x4xf32>\n  %e = vector.extract %v[1] : vector<2x4xf32> -> f32", codes: ["TYPE/004"] },
  { name: "vector.reduce kind", body: "  %f = scalar.constant 1.0 : f32\n  %v = vector.splat %f : vector<4xf32>\n  %s = vector.reduce<addf> %v, %f : vector<4xf32>, f32", codes: [] },
  { name: "vector.reduce integer kind on floats", body: "  %f = scalar.constant 1.0 : f32\n  %v = vector.splat %f : vector<4xf32>\n  %s = vector.reduce<addi> %v, %f : vector<4xf32>, f32", codes: ["TYPE/003"] },
  { name: "vector.cmpf", body: "  %f = scalar.constant 1.0 : f32\n  %v = vector.splat %f : vector<4xf32>\n  %m = vector.cmpf olt, %v, %v : vector<4xf32> -> vector<4xi1>\n  %s = vector.select %m, %v, %v : vector<4xf32>", codes: [] },
  // kernel collectives.
  { name: "subgroup.reduce kind", body: "  %f = scalar.constant 1.0 : f32\n  %r = kernel.subgroup.reduce<addf> %f : f32", codes: [] },
  { name: "subgroup.reduce kind for ints on a float", body: "  %f = scalar.constant 1.0 : f32\n  %r = kernel.subgroup.reduce<xori> %f : f32", codes: ["TYPE/003"] },
  { name: "kernel.assert on index", body: "  %a = index.constant 1 : index\n  kernel.assert %a : index", codes: ["TYPE/003"] },
];

for (const c of cases) {
  test(`types: ${c.name}`, () => {
    expectCodes(kernel(c.body, c.args ?? ""), c.codes);
  });
}

test("types: workload and device argument types (TYPE/013)", () => {
  expectCodes(kernel("", "%b: buffer"), []);
  expectCodes(kernel("", "", "%b: buffer"), ["TYPE/013"]);
  // A vector device argument verifies (the reference's rule; compiling it is TARGET/001, see
  // test/loom-test/verify-operands.loom-test); a vector workload argument stays TYPE/013.
  expectCodes(kernel("", "%v: vector<4xf32>"), []);
  expectCodes(kernel("", "%v: vector<2x2xf32>", "%w: vector<4xf32>"), ["TYPE/013"]);
});

test("types: call arguments and results against the callee signature", () => {
  const callee = "func.def @f(%a: index) -> (f32) {\n  %r = scalar.constant 1.0 : f32\n  func.return %r : f32\n}\n\n";
  expectCodes(callee + kernel("  %x = index.constant 1 : index\n  %y = func.call @f(%x) : (index) -> (f32)"), []);
  expectCodes(callee + kernel("  %x = index.constant 1 : offset\n  %y = func.call @f(%x) : (offset) -> (f32)"), ["TYPE/001"]);
  expectCodes(callee + kernel("  %x = index.constant 1 : index\n  %y = func.call @f(%x, %x) : (index, index) -> (f32)"), ["STRUCTURE/013"]);
});

test("types: view arguments bind their dimensions at the call", () => {
  const callee = "func.def @f(%n: index, %v: view<[%n]xf32>) {\n  func.return\n}\n\n";
  expectCodes(callee + kernel("  %o = index.constant 0 : offset\n  %v = buffer.view %x[%o] : buffer -> view<[%m]xf32>\n  func.call @f(%m, %v) : (index, view<[%m]xf32>) -> ()", "%m: index, %x: buffer"), []);
  expectCodes(callee + kernel("  %o = index.constant 0 : offset\n  %v = buffer.view %x[%o] : buffer -> view<[%m]xf32>\n  func.call @f(%k, %v) : (index, view<[%m]xf32>) -> ()", "%m: index, %k: index, %x: buffer"), ["TYPE/001"]);
});

test("types: config.def literal and type against its declaration", () => {
  const v = expectCodes("config.decl @a : index\n\nconfig.def @a = 4 : index\n", []);
  void v;
  expectCodes("config.decl @a : index\n\nconfig.def @a = 4 : i32\n", ["TYPE/001"]);
  expectCodes("config.def @a = 1.5 : index\n", ["TYPE/005"]);
  expectCodes("config.decl @a : view<4xf32>\n", ["TYPE/003"]);
});

test("types: float class predicates need float values", () => {
  expectCodes(kernel("  %a = index.constant 1 : index\n  %b = index.assume %a [not_nan(%a)] : index"), ["TYPE/003"]);
  expectCodes(kernel("  %a = scalar.constant 1.0 : f32\n  %b = scalar.assume %a [not_nan(%a)] : f32"), []);
});

test("types: vector conversions keep the shape; bitcasts keep the total bits", () => {
  const v = "  %f = scalar.constant 1 : i32\n  %v = vector.splat %f : vector<4xi32>\n";
  expectCodes(kernel(`${v}  %w = vector.sitofp %v : vector<4xi32> to vector<4xf32>`), []);
  expectCodes(kernel(`${v}  %w = vector.sitofp %v : vector<4xi32> to vector<2xf32>`), ["TYPE/004"]);
  expectCodes(kernel(`${v}  %w = vector.bitcast %v : vector<4xi32> to vector<8xi16>`), []);
  expectCodes(kernel(`${v}  %w = vector.bitcast %v : vector<4xi32> to vector<4xi16>`), ["TYPE/004"]);
  expectCodes(kernel(`${v}  %w = vector.extsi %v : vector<4xi32> to vector<4xi64>`), []);
});

test("types: a check case's tensor binds to a declared function's buffer parameter, nothing else", () => {
  const module = (param: string) => `func.decl @double_rows(%rows: ${param}, %out: buffer)

check.case @doubles {
  %rows = check.generate.fill value(3) : tensor<4xi32>
  %out = check.generate.fill value(0) : tensor<4xi32>
  func.call @double_rows(%rows, %out) : (tensor<4xi32>, tensor<4xi32>)
  check.return
}
`;
  expectCodes(module("buffer"), []);
  expectCodes(module("i32"), ["TYPE/001"]);
});
