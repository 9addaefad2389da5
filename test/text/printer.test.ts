/** The printer: literals, hand-built IR (no annotations), printOp/printType, comment layout. */
import "../../src/api/check-dialect.js"; // the check harness's syntax and rules, which loomc registers
import { test } from "node:test";
import assert from "node:assert/strict";
import { Module, Op, Region } from "../../src/ir/core.js";
import { T } from "../../src/ir/types.js";
import { makeConstant } from "../../src/ir/build.js";
import { formatFloat, quoteString } from "../../src/text/literals.js";
import { printModule, printOp, printType } from "../../src/text/printer.js";
import { parse } from "./helpers.js";
import { BLANK_COMMENT_LINE } from "../../src/text/layout.js";

test("floats print as %.17g with .0 appended when needed", () => {
  const cases: [number, string][] = [
    [0.1, "0.10000000000000001"],
    [1e-5, "1.0000000000000001e-05"],
    [1e-4, "0.0001"],
    [2, "2.0"],
    [-0, "-0.0"],
    [1e16, "10000000000000000.0"],
    [1e17, "1e+17"],
    [1e300, "1.0000000000000001e+300"],
    [5e-324, "4.9406564584124654e-324"],
    [-2.5, "-2.5"],
    [Infinity, "inf"],
    [-Infinity, "-inf"],
    [NaN, "nan"],
  ];
  for (const [x, s] of cases) assert.equal(formatFloat(x), s, String(x));
});

test("strings print with JSON escapes, other controls as \\u00XX, the rest raw", () => {
  assert.equal(quoteString('a"b\\c/d\b\f\n\r\t\u0001\u001f\u007f€😀'), '"a\\"b\\\\c/d\\b\\f\\n\\r\\t\\u0001\\u001F\u007f€😀"');
});

test("ops built without annotations print their derived annotation", () => {
  const region = new Region();
  const c = makeConstant(T.index, 4n, "c");
  const f = makeConstant(T.f32, 0.5, "half");
  const add = new Op("index.add");
  add.operands = [c.results[0]!, c.results[0]!];
  add.addResult("sum", T.index);
  const cmp = new Op("index.cmp");
  cmp.props.predicate = "ult";
  cmp.operands = [add.results[0]!, c.results[0]!];
  cmp.addResult("lt", T.i1);
  const cast = new Op("scalar.fptosi");
  cast.operands = [f.results[0]!];
  cast.addResult("n", T.i32);
  region.ops.push(c, f, add, cmp, cast);
  assert.equal(printOp(c), "%c = index.constant 4 : index");
  assert.equal(printOp(f), "%half = scalar.constant 0.5 : f32");
  assert.equal(printOp(add), "%sum = index.add %c, %c : index");
  assert.equal(printOp(cmp), "%lt = index.cmp ult, %sum, %c : index");
  assert.equal(printOp(cast), "%n = scalar.fptosi %half : f32 to i32");
});

test("printType spells every type kind", () => {
  const { module } = parse("func.def @f(%n: index, %v: view<[%n]x16xf32, #dense>, %w: vector<2x4xbf16>, %b: buffer) {\n  func.return\n}\n");
  const args = module.ops[0]!.regions[0]!.args;
  assert.deepEqual(
    args.map((a) => printType(a.type)),
    ["index", "view<[%n]x16xf32, #dense>", "vector<2x4xbf16>", "buffer"],
  );
});

test("printOp prints regions and leading comments", () => {
  const { module } = parse("func.def @f(%t: i1) {\n  // why\n  scf.if %t {\n    scf.yield\n  }\n  func.return\n}\n");
  const ifOp = module.ops[0]!.regions[0]!.ops[0]!;
  assert.equal(printOp(ifOp), "// why\nscf.if %t {\n}");
});

test("comments and blank lines are recorded on the IR", () => {
  const text = `// a
#x = #dense

// b
func.def @f(%t: i1) {
  // c

  %a = index.constant 1 : index // d

  // e
  scf.if %t {
    // f
  }
  func.return

  // g
}
// h
`;
  const { module, diagnostics } = parse(text);
  assert.deepEqual(diagnostics, []);
  const [alias, fn] = module.ops;
  assert.deepEqual(alias!.comments, [" a"]);
  assert.deepEqual(fn!.comments, [" b"]);
  const body = fn!.regions[0]!;
  const [a, ifOp, ret] = body.ops;
  // The blank line between a comment and its op is kept, as a mark in the comment lines;
  // "// d" ends %a's line and stays there ("\r"); the blank line before "// e" is the if's.
  assert.deepEqual([a!.comments, a!.blankBefore], [[" c", BLANK_COMMENT_LINE], false]);
  assert.deepEqual([ifOp!.comments, ifOp!.blankBefore], [["\r d", " e"], true]);
  assert.deepEqual(ifOp!.regions[0]!.trailingComments, [" f"]);
  assert.equal(ret!.blankBefore, false);
  assert.deepEqual([body.trailingComments, body.trailingBlank], [[" g"], true]);
  assert.deepEqual([module.trailingComments, module.trailingBlank], [[" h"], false]);
  assert.equal(
    printModule(module),
    `// a
#x = #dense

// b
func.def @f(%t: i1) {
  // c

  %a = index.constant 1 : index // d

  // e
  scf.if %t {
    // f
  }
  func.return

  // g
}
// h
`,
  );
});

test("an empty module prints as nothing; comments only print as comments", () => {
  assert.equal(printModule(new Module("e.loom")), "");
  assert.equal(printModule(parse("\n\n// only\n").module), "// only\n");
});

test("top-level blank lines are the source's: none inserted between declarations, a header comment stays apart", () => {
  const text = `// A file header.

config.decl @a : index
config.decl @b : index

config.decl @c : i1
func.decl @g()
func.def @f() {
  func.return
}
func.decl @h()
`;
  const { module, diagnostics } = parse(text);
  assert.deepEqual(diagnostics, []);
  // A definition with a body always stands apart; everything else is as written.
  assert.equal(printModule(module), text.replace("func.decl @g()\nfunc.def", "func.decl @g()\n\nfunc.def"));
  const again = parse(printModule(module)).module;
  assert.equal(printModule(again), printModule(module));
});

test("hand-built modules print declarations together and definitions apart", () => {
  const { module } = parse("config.decl @a : index\nconfig.decl @b : index\nfunc.def @f() {\n  func.return\n}\n");
  for (const op of module.ops) {
    op.blankBefore = false;
    op.comments = [];
  }
  assert.equal(printModule(module), "config.decl @a : index\nconfig.decl @b : index\n\nfunc.def @f() {\n  func.return\n}\n");
});
