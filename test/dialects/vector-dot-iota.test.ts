/**
 * vector.dotf and vector.iota: parsing and printing, verifier diagnostics, folding, the
 * declared semantics, and the interpreter against a plain-JS reference. (The fixture
 * test/fixtures/valid/vector_dot_iota.loom covers the print fixpoint of every form; the device
 * run is test/spirv/dot-iota.test.ts.)
 */
import "../../src/api/check-dialect.js"; // the check harness's syntax and rules, which loomc registers
import { test } from "node:test";
import assert from "node:assert/strict";
import { DiagnosticSink } from "../../src/core/diag/diagnostic.js";
import { opInfo } from "../../src/dialects/registry.js";
import { isUndefined } from "../../src/dialects/index/semantics.js";
import { foldRegion } from "../../src/passes/fold.js";
import { parseModule } from "../../src/text/parser.js";
import { printModule } from "../../src/text/printer.js";
import { T, type Type } from "../../src/ir/types.js";
import { expectCodes, kernel } from "../verify/helpers.js";
import { asF32, asI32, dispatch, f32Bytes, loadKernelText } from "../interp/harness.js";
import { random } from "../../src/harness/index.js";

const vec = (n: number, element: Type): Type => ({ kind: "vector", shape: [n], element: element as never });

/** A device function (vectors may be parameters there, unlike kernel device arguments). */
function fn(body: string, params: string): string {
  return `func.def @f(${params}) {\n${body}\n  func.return\n}\n`;
}

function parseCodes(body: string): string[] {
  const sink = new DiagnosticSink();
  parseModule("t.loom", fn(body, "%a: vector<4xf32>, %b: vector<4xf32>, %x: f32, %i: index"), sink);
  return sink.diagnostics.map((d) => d.code);
}

test("the two ops print in their written form", () => {
  const body = "  %d = vector.dotf %a, %b, %x : vector<4xf32>, vector<4xf32>, f32\n  %v = vector.iota %i step %i : vector<4xindex>";
  const text = fn(body, "%a: vector<4xf32>, %b: vector<4xf32>, %x: f32, %i: index");
  const sink = new DiagnosticSink();
  const m = parseModule("t.loom", text, sink);
  assert.deepEqual(sink.diagnostics, []);
  assert.equal(printModule(m), text);
});

test("syntax errors: operand counts and the step word", () => {
  assert.deepEqual(parseCodes("  %d = vector.dotf %a, %b : vector<4xf32>, vector<4xf32>"), ["PARSE/010"]);
  assert.deepEqual(parseCodes("  %d = vector.dotf %a, %b, %x : vector<4xf32>, vector<4xf32>"), ["PARSE/010"]);
  const missingStep = parseCodes("  %v = vector.iota %i, %i : vector<4xindex>");
  assert.equal(missingStep.length, 1);
  assert.match(missingStep[0]!, /^PARSE\//);
});

const DEVICE_ARGS = "%a: vector<4xf32>, %b: vector<4xf32>, %x: f32, %y: f64, %w: vector<4xf64>, %n: vector<4xi32>, %i: index, %k: i32, %h: i16";

for (const [name, body, codes] of [
  ["dotf on f32 lanes", "  %d = vector.dotf %a, %b, %x : vector<4xf32>, vector<4xf32>, f32", []],
  ["dotf on integer lanes", "  %d = vector.dotf %n, %n, %k : vector<4xi32>, vector<4xi32>, i32", ["TYPE/003"]],
  ["dotf on a scalar", "  %d = vector.dotf %x, %x, %x : f32, f32, f32", ["TYPE/003"]],
  ["dotf with mismatched vectors", "  %d = vector.dotf %a, %w, %x : vector<4xf32>, vector<4xf64>, f32", ["TYPE/001"]],
  ["dotf with an f64 accumulator on f32 lanes", "  %d = vector.dotf %a, %b, %y : vector<4xf32>, vector<4xf32>, f64", ["TYPE/002"]],
  ["dotf annotated unlike its operands", "  %d = vector.dotf %a, %b, %x : vector<4xf32>, vector<4xf32>, f64", ["TYPE/001"]],
  ["iota of index", "  %v = vector.iota %i step %i : vector<4xindex>", []],
  ["iota of i32", "  %v = vector.iota %k step %k : vector<2x2xi32>", []],
  ["iota of i1", "  %t = scalar.constant true : i1\n  %v = vector.iota %t step %t : vector<4xi1>", ["TYPE/003"]],
  ["iota of floats", "  %v = vector.iota %x step %x : vector<4xf32>", ["TYPE/003"]],
  ["iota of a scalar", "  %v = vector.iota %i step %i : index", ["TYPE/004"]],
  ["iota with an i32 base for index lanes", "  %v = vector.iota %k step %i : vector<4xindex>", ["TYPE/001", "TYPE/002"]],
  ["iota with an i16 step for i32 lanes", "  %v = vector.iota %k step %h : vector<4xi32>", ["TYPE/001"]],
] as const) {
  test(`verify: ${name}`, () => void expectCodes(fn(body, DEVICE_ARGS), codes));
}

test("verify: both ops are device-only (STRUCTURE/029 in a launch-config region)", () => {
  const text = `kernel.def @k(%i: index) {
  %c1 = index.constant 1 : index
  %v = vector.iota %i step %c1 : vector<4xindex>
  kernel.launch.config workgroups(%c1, %c1, %c1) workgroup_size(%c1, %c1, %c1) : index
} launch() {
  kernel.return
}
`;
  expectCodes(text, ["STRUCTURE/029"]);
});

test("semantics: dotf is an fma chain in lane order; zero lanes give the init", () => {
  const dotf = opInfo("vector.dotf")!.evaluate!;
  const f32v = vec(3, T.f32);
  // 2^-24 is lost by an unfused 1 + 2^-24 rounding but kept by the fused chain's single rounding.
  const tiny = 2 ** -12;
  const fused = dotf([[tiny, 1, 0], [tiny, -1, 0], 1], { operands: [f32v, f32v, T.f32], result: T.f32 });
  assert.equal(fused, Math.fround(Math.fround(1 + tiny * tiny) - 1));
  assert.equal(dotf([[], [], 2.5], { operands: [vec(0, T.f32), vec(0, T.f32), T.f32], result: T.f32 }), 2.5);
});

test("semantics: iota wraps integers and is undefined outside the index domain", () => {
  const iota = opInfo("vector.iota")!.evaluate!;
  assert.deepEqual(iota([250n, 3n], { operands: [T.i8, T.i8], result: vec(3, T.i8) }), [250n, 253n, 0n]);
  assert.deepEqual(iota([-2n, 5n], { operands: [T.index, T.index], result: vec(3, T.index) }), [-2n, 3n, 8n]);
  assert.ok(isUndefined(iota([(1n << 63n) - 2n, 1n], { operands: [T.index, T.index], result: vec(4, T.index) })));
});

test("fold: constant operands replace both ops by their values", () => {
  const text = kernel(`  %c2 = index.constant 2 : index
  %c3 = index.constant 3 : index
  %ids = vector.iota %c2 step %c3 : vector<4xindex>
  %half = scalar.constant 0.5 : f32
  %one = scalar.constant 1.0 : f32
  %a = vector.splat %half : vector<4xf32>
  %b = vector.constant 2.0 : vector<4xf32>
  %d = vector.dotf %a, %b, %one : vector<4xf32>, vector<4xf32>, f32
  %live = vector.dotf %a, %b, %x : vector<4xf32>, vector<4xf32>, f32`, "%x: f32");
  const sink = new DiagnosticSink();
  const m = parseModule("t.loom", text, sink);
  const body = m.ops[0]!.regions[1]!;
  foldRegion(body, sink);
  const names = body.ops.map((o) => o.name);
  assert.equal(names.filter((n) => n === "vector.iota").length, 0);
  assert.equal(names.filter((n) => n === "vector.dotf").length, 1, "the dot of a non-constant accumulator stays");
  const printed = printModule(m);
  assert.match(printed, /%ids = vector\.from_elements %ids_0, %ids_1, %ids_2, %ids_3 : vector<4xindex>/);
  assert.match(printed, /%ids_3 = index\.constant 11 : index/);
  assert.match(printed, /%d = scalar\.constant 5\.0 : f32/);
});

/** f32 fma chains whose exact sums fit a double, so `Math.fround(a·b + acc)` is the fused step. */
function dotInputs(rows: number, seed: number): { a: number[]; b: number[]; acc: number[] } {
  const r = random(seed);
  const f = () => Math.fround(1 + r());
  return { a: Array.from({ length: rows * 8 }, f), b: Array.from({ length: rows * 8 }, f), acc: Array.from({ length: rows }, f) };
}

test("interpreter: dotf and iota against a plain-JS reference (the fused chain differs from mul-then-add)", () => {
  const k = loadKernelText("dot.loom", `kernel.def export("dot") @dot() {
  %c1 = index.constant 1 : index
  %c64 = index.constant 64 : index
  kernel.launch.config workgroups(%c1, %c1, %c1) workgroup_size(%c64, %c1, %c1) : index
} launch(%a: buffer, %b: buffer, %acc: buffer, %out: buffer, %ids: buffer) {
  %i = kernel.workitem.id<x> : index
  %origin = index.constant 0 : offset
  %c1 = index.constant 1 : index
  %c8 = index.constant 8 : index
  %row = index.mul %i, %c8 : index
  %av = buffer.view %a[%origin] : buffer -> view<512xf32>
  %bv = buffer.view %b[%origin] : buffer -> view<512xf32>
  %accv = buffer.view %acc[%origin] : buffer -> view<64xf32>
  %outv = buffer.view %out[%origin] : buffer -> view<64xf32>
  %idv = buffer.view %ids[%origin] : buffer -> view<512xi32>
  %x = vector.load %av[%row] : view<512xf32> -> vector<8xf32>
  %y = vector.load %bv[%row] : view<512xf32> -> vector<8xf32>
  %init = view.load %accv[%i] : view<64xf32> -> f32
  %d = vector.dotf %x, %y, %init : vector<8xf32>, vector<8xf32>, f32
  view.store %d, %outv[%i] : f32, view<64xf32>
  %base = index.cast %i : index to i32
  %step = scalar.constant -3 : i32
  %lanes = vector.iota %base step %step : vector<8xi32>
  vector.store %lanes, %idv[%row] : vector<8xi32>, view<512xi32>
  kernel.return
}
`);
  const { a, b, acc } = dotInputs(64, 5);
  const out = new Uint8Array(64 * 4), ids = new Uint8Array(512 * 4);
  dispatch(k, [], [f32Bytes(a), f32Bytes(b), f32Bytes(acc), out, ids]);
  let unfusedDiffers = 0;
  asF32(out).forEach((got, row) => {
    let fused = acc[row]!, unfused = acc[row]!;
    for (let l = 0; l < 8; l++) {
      fused = Math.fround(a[row * 8 + l]! * b[row * 8 + l]! + fused);
      unfused = Math.fround(Math.fround(a[row * 8 + l]! * b[row * 8 + l]!) + unfused);
    }
    assert.equal(got, fused, `row ${row}`);
    if (unfused !== fused) unfusedDiffers++;
  });
  assert.ok(unfusedDiffers > 0, "the inputs tell a fused chain from mul-then-add");
  asI32(ids).forEach((got, j) => assert.equal(got, Math.floor(j / 8) - 3 * (j % 8), `lane ${j}`));
});
