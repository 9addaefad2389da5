/**
 * Parse diagnostics: every PARSE code at the right line:column, recovery that keeps reporting
 * in source order, and the PARSE/012 cut-off.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { codes, parse } from "./helpers.js";

/** A kernel whose device body is `body` (line 5 onward) with device args `launch`. */
function kernel(body: string, launch = ""): string {
  return `kernel.def @k() {
  %c1 = index.constant 1 : index
  kernel.launch.config workgroups(%c1, %c1, %c1) workgroup_size(%c1, %c1, %c1) : index
} launch(${launch}) {
${body}
  kernel.return
}
`;
}

const CASES: [string, string, string][] = [
  ["PARSE/001 undefined value at the use", kernel("  %a = index.ctpopi %x : index"), "PARSE/001@5:21"],
  ["PARSE/002 redefinition", kernel("  %a = index.constant 1 : index\n  %a = index.constant 2 : index"), "PARSE/002@6:3"],
  ["PARSE/002 region arg shadows a visible value", kernel("  %i = index.constant 0 : index\n  scf.for %i = [%i to %i step %i] {\n  }"), "PARSE/002@6:11"],
  ["PARSE/003 unexpected token", kernel("  %a = index.add %b %c : index", "%b: index, %c: index"), "PARSE/003@5:21"],
  ["PARSE/003 block label", kernel("  ^bb0"), "PARSE/003@5:3"],
  ["PARSE/004 bad element type", kernel("  %a = buffer.view %b[%o] : buffer -> view<4xbuffer>", "%b: buffer, %o: offset"), "PARSE/004@5:46"],
  ["PARSE/004 layout on a vector", kernel("  %a = vector.splat %s : vector<4xf32, #dense>", "%s: f32"), "PARSE/004@5:38"],
  ["PARSE/005 unterminated string", kernel('  kernel.assert %t "oops : i1', "%t: i1"), "PARSE/005@5:20"],
  ["PARSE/006 unknown op", kernel("  %a = index.frobnicate %b : index", "%b: index"), "PARSE/006@5:8"],
  ["PARSE/006 out-of-v1 op", kernel("  kernel.exit"), "PARSE/006@5:3"],
  ["PARSE/004 negative stride in a strided layout attribute", kernel("  %a = buffer.view %b[%o] : buffer -> view<4xf32, #encoding.layout.strided<strides=[-1]>>", "%b: buffer, %o: offset"), "PARSE/004@5:85"],
  ["PARSE/004 strided layout attribute without 'strides'", kernel("  %a = buffer.view %b[%o] : buffer -> view<4xf32, #encoding.layout.strided<offset=[1]>>", "%b: buffer, %o: offset"), "PARSE/004@5:76"],
  ["PARSE/004 stride beyond 2^31 - 1", kernel("  %a = buffer.view %b[%o] : buffer -> view<4xf32, #encoding.layout.strided<strides=[2147483648]>>", "%b: buffer, %o: offset"), "PARSE/004@5:85"],
  ["PARSE/003 strided layout attribute with a value stride", kernel("  %a = buffer.view %b[%o] : buffer -> view<4xf32, #encoding.layout.strided<strides=[%o]>>", "%b: buffer, %o: offset"), "PARSE/003@5:85"],
  ["PARSE/007 out-of-v1 type", kernel("  %a = scalar.constant 1.0 : f8E4M3"), "PARSE/007@5:30"],
  ["PARSE/007 rank-3 vector", kernel("  %a = vector.splat %b : vector<2x2x2xf32>", "%b: f32"), "PARSE/007@5:26"],
  ["PARSE/007 tensor", kernel("  %a = vector.splat %b : tensor<4xf32>", "%b: f32"), "PARSE/007@5:26"],
  ["PARSE/009 result count", kernel("  %a, %b = index.constant 1 : index"), "PARSE/009@5:3"],
  ["PARSE/010 operand count", kernel("  %a = index.add %b, %b, %b : index", "%b: index"), "PARSE/010@5:8"],
  ["PARSE/013 unknown predicate", kernel("  %a = index.assume %b [foo(%b)] : index", "%b: index"), "PARSE/013@5:25"],
  ["PARSE/014 alias shadows a built-in", "#dense = #encoding.layout.dense\n", "PARSE/014@1:1"],
  ["PARSE/014 duplicate alias", "#a = #encoding.layout.dense\n#a = #encoding.layout.dense\n", "PARSE/014@2:1"],
  ["PARSE/014 undefined alias", kernel("  %v = buffer.view %b[%o] : buffer -> view<4xf32, #nope>", "%b: buffer, %o: offset"), "PARSE/014@5:51"],
  ["PARSE/015 hex without digits", kernel("  %a = index.constant 0x : index"), "PARSE/015@5:23"],
  ["PARSE/016 float without fraction digits", kernel("  %a = scalar.constant 1. : f32"), "PARSE/016@5:24"],
  ["PARSE/017 unknown enum", kernel("  kernel.barrier<workgroup> scope(cluster) ordering(acq_rel)"), "PARSE/017@5:35"],
  ["PARSE/017 unknown chip", "amdgpu.target<gfx908> @t\n", "PARSE/017@1:15"],
  ["PARSE/018 flag the op does not define", kernel("  %a = scalar.addf<nsw> %b, %b : f32", "%b: f32"), "PARSE/018@5:20"],
  ["PARSE/018 volatile access", kernel("  %a = view.load<volatile> %v[0] : view<4xf32> -> f32", "%v: view<4xf32>"), "PARSE/018@5:18"],
  ["PARSE/018 out-of-v1 clause", "func.def linkage(dso_local) @f() {\n  func.return\n}\n", "PARSE/018@1:10"],
  ["PARSE/018 unknown attribute key", kernel("  %o = view.atomic.load %v[0] {ordering = relaxed, scope = device, volatile = true} : view<4xi32> -> i32", "%v: view<4xi32>"), "PARSE/018@5:68"],
  ["PARSE/018 requirement outside v1", "template.decl requires [#target.wave<64>] @f()\n", "PARSE/018@1:25"],
  ["PARSE/019 lone surrogate", kernel("  // bad \uD800 surrogate"), "PARSE/019@5:10"],
  ["PARSE/020 duplicate key", kernel("  kernel.barrier<workgroup> {ordering = acq_rel, ordering = acq_rel}"), "PARSE/020@5:50"],
  ["PARSE/022 dimension names no argument", "func.def @f(%v: view<[%m]xf32>) {\n  func.return\n}\n", "PARSE/022@1:23"],
  ["PARSE/022 dimension names a non-index argument", "func.def @f(%v: view<[%m]xf32>, %m: i32) {\n  func.return\n}\n", "PARSE/022@1:23"],
  ["PARSE/023 bad escape", kernel('  kernel.assert %t "bad \\q escape" : i1', "%t: i1"), "PARSE/023@5:25"],
  ["PARSE/024 sigil without name", kernel("  % = index.constant 1 : index"), "PARSE/024@5:3"],
  ["PARSE/025 unexpected character", kernel("  %a = index.constant 1 : index ;"), "PARSE/025@5:33"],
  ["PARSE/026 unterminated angle", kernel("  %a = scalar.addf<fast %b, %b : f32", "%b: f32"), "PARSE/026@5:19"],
  ["PARSE/031 predicate arity", kernel("  %a = index.assume %b [range(%b, 1)] : index", "%b: index"), "PARSE/031@5:25"],
];

for (const [name, text, expected] of CASES) {
  test(name, () => {
    assert.deepEqual(codes(parse(text).diagnostics), [expected]);
  });
}

test("dynamic dimensions in a signature may name a later index argument", () => {
  const { module, diagnostics } = parse("func.def @f(%v: view<[%n]x[%m]xf32>, %n: index, %m: index) {\n  func.return\n}\n");
  assert.deepEqual(diagnostics, []);
  const [v, n, m] = module.ops[0]!.regions[0]!.args;
  const t = v!.type;
  assert.ok(t.kind === "view" && t.dims[0]!.kind === "dynamic" && t.dims[0]!.value === n && t.dims[1]!.kind === "dynamic" && t.dims[1]!.value === m);
});

test("a use before its definition resolves to it (a dominance error, not PARSE/001)", () => {
  const { module, diagnostics } = parse(kernel("  %a = index.add %b, %b : index\n  %b = index.constant 1 : index\n  scf.if %t {\n    %c = index.add %d, %d : index\n  }\n  %d = index.constant 2 : index", "%t: i1"));
  assert.deepEqual(diagnostics, []);
  const body = module.ops[0]!.regions[1]!;
  assert.equal(body.ops[0]!.operands[0], body.ops[1]!.results[0]);
  assert.equal(body.ops[2]!.regions[0]!.ops[0]!.operands[0], body.ops[3]!.results[0]);
});

test("values of a sibling region or an isolated parent are not visible", () => {
  const text = `kernel.def @k(%n: index) {
  %c1 = index.constant 1 : index
  kernel.launch.config workgroups(%c1, %c1, %c1) workgroup_size(%c1, %c1, %c1) : index
} launch(%t: i1) {
  scf.if %t {
    %x = index.constant 1 : index
  } else {
    %y = index.add %x, %n : index
  }
  kernel.return
}
`;
  assert.deepEqual(codes(parse(text).diagnostics), ["PARSE/001@8:20", "PARSE/001@8:24"]);
});

test("recovery reports several errors in source order and keeps later ops", () => {
  const text = `kernel.def @k(%n: index) {
  %c1 = index.constant 1 : index
  %bad = index.add %c1 : index
  %x = index.frob %c1 : index
  %y = index.add %bad, %x : index
  scf.if %q {
    %z = index.constant 0x : index
    %w = index.add %z, %c1 : index
  }
  kernel.launch.config workgroups(%c1, %c1, %c1) workgroup_size(%c1, %c1, %c1) : index
} launch() {
  %a = index.constant 1 : index garbage
  kernel.return
}

func.def @f( {
}

target.decl @t
`;
  const { module, diagnostics } = parse(text);
  // Uses of the dropped ops' results (%bad, %x, %z) do not cascade into PARSE/001.
  assert.deepEqual(codes(diagnostics), ["PARSE/010@3:10", "PARSE/006@4:8", "PARSE/001@6:10", "PARSE/015@7:25", "PARSE/003@12:33", "PARSE/003@16:14"]);
  assert.deepEqual(
    module.ops.map((o) => o.name),
    ["kernel.def", "target.decl"],
  );
  const config = module.ops[0]!.regions[0]!;
  assert.deepEqual(
    config.ops.map((o) => o.name),
    ["index.constant", "index.add", "scf.if", "kernel.launch.config"],
  );
});

test("PARSE/012 stops after maxErrors errors", () => {
  const body = Array.from({ length: 30 }, (_, i) => `  %v${i} = index.frob : index`).join("\n");
  const { diagnostics } = parse(kernel(body), "t.loom", 5);
  assert.deepEqual(codes(diagnostics), ["PARSE/006@5:9", "PARSE/006@6:9", "PARSE/006@7:9", "PARSE/006@8:9", "PARSE/006@9:9", "PARSE/012@10:9"]);
  assert.equal(diagnostics[5]!.message, "too many errors (5); stopping");
});

test("unbalanced braces and stray tokens never throw", () => {
  for (const text of ["kernel.def @k() {", "}}}} kernel.return", "kernel.def @k() {\n  scf.if %c {\n  kernel.return\n}\n", "((((", "%a = ", "#", "#a = #b", "scf.for %i = [", "\u0000\u0001", "view<", "kernel.def @k(%a: view<[%a]xf32>) {\n} launch() {\n}\n"]) {
    const { diagnostics } = parse(text);
    assert.ok(diagnostics.length > 0, JSON.stringify(text));
    assert.ok(diagnostics.every((d) => d.code.startsWith("PARSE/")), JSON.stringify(text));
  }
});
