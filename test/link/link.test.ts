import { test } from "node:test";
import assert from "node:assert/strict";
import { LinkIndex, LinkIndexBuilder, LoomError, Source, compileModule, linkModule } from "../../src/index.js";
import { compile, compiler, gfx1100, gridKernel, index, launch, parse, pipeline } from "./helpers.js";

const HELPERS = `func.def public pure @ceil_div(%a: index, %b: index) -> (index) where [gt(%b, 0)] {
  %one = index.constant 1 : index
  %bm1 = index.sub %b, %one : index
  %padded = index.add %a, %bm1 : index
  %q = index.div %padded, %b : index
  func.return %q : index
}

func.def public pure @unused_helper(%a: index) -> (index) {
  func.return %a : index
}

func.def pure @private_helper(%a: index) -> (index) {
  func.return %a : index
}
`;

const CEIL_DECL = "func.decl public pure @ceil_div(%a: index, %b: index) -> (index) where [gt(%b, 0)]\n\n";
const USES_CEIL = CEIL_DECL + gridKernel("grid", `  %width = index.constant 64 : index
  %groups = func.call pure @ceil_div(%n, %width) : (index, index) -> (index)`);

test("a func.decl binds to the library's public definition; only reachable symbols are pulled", () => {
  const { result, module } = compile(USES_CEIL, [["grid", gfx1100]], { linkIndex: index({ "helpers.loom": HELPERS }) });
  assert.ok(result.ok, result.formatDiagnostics());
  assert.deepEqual(launch(result, "grid", [1000n]).workgroupCount, [16, 1, 1]);
  const text = module.print();
  assert.match(text, /func\.def public pure @ceil_div/);
  assert.doesNotMatch(text, /unused_helper|private_helper/);
});

test("without a linkIndex a called declaration is SYMBOL/002", () => {
  const { result } = compile(USES_CEIL, [["grid", gfx1100]]);
  assert.equal(result.state, "failed");
  assert.ok(result.diagnostics.some((d) => d.code === "SYMBOL/002"), result.formatDiagnostics());
});

test("a missing definition is SYMBOL/002 at the declaration, naming the libraries searched", () => {
  const text = "func.decl public pure @nope(%a: index) -> (index)\n\n" + gridKernel("grid", `  %width = func.call pure @nope(%n) : (index) -> (index)
  %groups = index.constant 1 : index`);
  const { result } = compile(text, [["grid", gfx1100]], { linkIndex: index({ "helpers.loom": HELPERS }) });
  const d = result.diagnostics.find((x) => x.code === "SYMBOL/002");
  assert.ok(d, result.formatDiagnostics());
  assert.equal(d.location?.source, "root.loom");
  assert.equal(d.location?.line, 1);
  assert.match(d.help ?? "", /'helpers\.loom'/);
});

test("a private library definition does not satisfy a declaration, and the note says why", () => {
  const text = "func.decl public pure @private_helper(%a: index) -> (index)\n\n" + gridKernel("grid", `  %width = func.call pure @private_helper(%n) : (index) -> (index)
  %groups = index.constant 1 : index`);
  const { result } = compile(text, [["grid", gfx1100]], { linkIndex: index({ "helpers.loom": HELPERS }) });
  const d = result.diagnostics.find((x) => x.code === "SYMBOL/002");
  assert.ok(d, result.formatDiagnostics());
  assert.match(d.related?.[0]?.message ?? "", /private/);
  assert.equal(d.related?.[0]?.location?.source, "helpers.loom");
});

test("two libraries defining a declared symbol is SYMBOL/005 naming both places", () => {
  const { result } = compile(USES_CEIL, [["grid", gfx1100]], { linkIndex: index({ "a.loom": HELPERS, "b.loom": HELPERS }) });
  const d = result.diagnostics.find((x) => x.code === "SYMBOL/005");
  assert.ok(d, result.formatDiagnostics());
  assert.equal(d.location?.source, "root.loom");
  assert.deepEqual(d.related?.map((r) => r.location?.source), ["a.loom", "b.loom"]);
  assert.match(result.formatDiagnostics(), /a\.loom:1:1/);
  assert.match(result.formatDiagnostics(), /b\.loom:1:1/);
});

test("a signature mismatch (types, where, purity) is TYPE/001 pointing at both", () => {
  for (const def of [
    "func.def public pure @ceil_div(%a: index, %b: i64) -> (index) where [gt(%b, 0)] {",
    "func.def public pure @ceil_div(%a: index, %b: index) -> (index) {",
    "func.def public pure @ceil_div(%a: index, %b: index) -> (index) where [ge(%b, 1)] {",
    "func.def public @ceil_div(%a: index, %b: index) -> (index) where [gt(%b, 0)] {",
  ]) {
    const lib = `${def}\n  func.return %a : index\n}\n`;
    const { result } = compile(USES_CEIL, [["grid", gfx1100]], { linkIndex: index({ "helpers.loom": lib }) });
    const d = result.diagnostics.find((x) => x.code === "TYPE/001");
    assert.ok(d, `${def}\n${result.formatDiagnostics()}`);
    assert.equal(d.location?.source, "root.loom");
    assert.equal(d.related?.[0]?.location?.source, "helpers.loom");
  }
});

test("an unreachable declaration with no definition is not an error", () => {
  const text = "func.decl public pure @nowhere(%a: index) -> (index)\n\n" + gridKernel("grid", `  %width = index.constant 64 : index
  %groups = index.constant 2 : index`);
  const { result } = compile(text, [["grid", gfx1100]], { linkIndex: index({ "helpers.loom": HELPERS }) });
  assert.ok(result.ok, result.formatDiagnostics());
});

test("library privates come along and are renamed when the root uses their name", () => {
  const lib = `func.def pure @helper(%a: index) -> (index) {
  %two = index.constant 2 : index
  %r = index.mul %a, %two : index
  func.return %r : index
}

func.def public pure @double(%a: index) -> (index) {
  %r = func.call pure @helper(%a) : (index) -> (index)
  func.return %r : index
}
`;
  const root = `func.decl public pure @double(%a: index) -> (index)

func.def pure @helper(%a: index) -> (index) {
  %three = index.constant 3 : index
  %r = index.mul %a, %three : index
  func.return %r : index
}

` + gridKernel("grid", `  %width = func.call pure @helper(%n) : (index) -> (index)
  %groups = func.call pure @double(%n) : (index) -> (index)`);
  const { result, module } = compile(root, [["grid", gfx1100]], { linkIndex: index({ "lib.loom": lib }) });
  assert.ok(result.ok, result.formatDiagnostics());
  const l = launch(result, "grid", [5n]);
  assert.deepEqual(l.workgroupSize, [15, 1, 1]);
  assert.deepEqual(l.workgroupCount, [10, 1, 1]);
  assert.match(module.print(), /@helper\.1/);
});

test("a library declaration binds to another library's definition", () => {
  const a = `func.decl public pure @base(%a: index) -> (index)

func.def public pure @twice_base(%a: index) -> (index) {
  %b = func.call pure @base(%a) : (index) -> (index)
  %r = index.add %b, %b : index
  func.return %r : index
}
`;
  const b = `func.def public pure @base(%a: index) -> (index) {
  %one = index.constant 1 : index
  %r = index.add %a, %one : index
  func.return %r : index
}
`;
  const root = "func.decl public pure @twice_base(%a: index) -> (index)\n\n" + gridKernel("grid", `  %width = index.constant 32 : index
  %groups = func.call pure @twice_base(%n) : (index) -> (index)`);
  const { result } = compile(root, [["grid", gfx1100]], { linkIndex: index({ "a.loom": a, "b.loom": b }) });
  assert.ok(result.ok, result.formatDiagnostics());
  assert.deepEqual(launch(result, "grid", [4n]).workgroupCount, [10, 1, 1]);
});

test("a kernel.decl root is compiled from the library's kernel.def", () => {
  const lib = gridKernel("lib_grid", `  %width = index.constant 64 : index
  %groups = index.add %n, %c1 : index`);
  const root = "kernel.decl @lib_grid(%n: index) launch()\n";
  const linked = compile(root, [["lib_grid", gfx1100]], { linkIndex: index({ "kernels.loom": lib }) });
  assert.ok(linked.result.ok, linked.result.formatDiagnostics());
  assert.deepEqual(launch(linked.result, "lib_grid", [6n]).workgroupCount, [7, 1, 1]);
  assert.throws(() => compile(root, [["lib_grid", gfx1100]]), (e: unknown) => e instanceof LoomError && e.status === "invalid-argument");
});

test("config: a library config.def binds a declared key; API bindings override; both are checked", () => {
  const lib = "config.decl @tile : %value: index where [pow2(%value)]\n\nconfig.def @tile = 32 : index\n";
  const root = "config.decl @tile : %value: index where [pow2(%value)]\n\n" + gridKernel("grid", `  %width = config.get @tile : index
  %groups = index.constant 1 : index`);
  const linkIndex = index({ "cfg.loom": lib });
  const fromLib = compile(root, [["grid", gfx1100]], { linkIndex });
  assert.ok(fromLib.result.ok, fromLib.result.formatDiagnostics());
  assert.deepEqual(launch(fromLib.result, "grid", [1n]).workgroupSize, [32, 1, 1]);
  const bound = compile(root, [["grid", gfx1100]], { linkIndex, config: { tile: 64n } });
  assert.deepEqual(launch(bound.result, "grid", [1n]).workgroupSize, [64, 1, 1]);
  const bad = compile(root, [["grid", gfx1100]], { linkIndex, config: { "@tile": 48n } });
  const d = bad.result.diagnostics.find((x) => x.code === "STRUCTURE/904");
  assert.ok(d, bad.result.formatDiagnostics());
  assert.match(d.message, /pow2/);
});

test("a LinkIndex is frozen, serializes deterministically and round-trips through bytes", () => {
  const idx = index({ "helpers.loom": HELPERS });
  assert.ok(Object.isFrozen(idx) && Object.isFrozen(idx.libraries) && Object.isFrozen(idx.libraries[0]!.symbols));
  assert.deepEqual(idx.libraries[0]!.symbols.map((s) => [s.name, s.linkable]), [["ceil_div", true], ["unused_helper", true], ["private_helper", false]]);
  const bytes = idx.toBytes();
  assert.deepEqual([...bytes.subarray(0, 4)], [0x4c, 0x4f, 0x4f, 0x4d]);
  assert.deepEqual(index({ "helpers.loom": HELPERS }).toBytes(), bytes);
  const again = LinkIndex.fromBytes(bytes);
  assert.deepEqual(again.toBytes(), bytes);
  // One index serves many compiles.
  for (const linkIndex of [idx, again, idx]) {
    const { result } = compile(USES_CEIL, [["grid", gfx1100]], { linkIndex });
    assert.ok(result.ok, result.formatDiagnostics());
  }
  const corrupt = bytes.slice();
  corrupt[corrupt.length - 9] = corrupt[corrupt.length - 9]! ^ 0x20;
  assert.throws(() => LinkIndex.fromBytes(corrupt), (e: unknown) => e instanceof LoomError && e.status === "data-loss");
  assert.throws(() => LinkIndex.fromBytes(bytes.subarray(0, 40)), (e: unknown) => e instanceof LoomError && e.status === "data-loss");
});

test("a broken library fails freeze() with located diagnostics; builder misuse throws", () => {
  const b = new LinkIndexBuilder().addSource(Source.fromText("broken.loom", "func.def public @f() {\n  func.return %nope : index\n}\n"));
  const r = b.freeze();
  assert.equal(r.state, "failed");
  assert.equal(r.value, undefined);
  assert.match(r.formatDiagnostics(), /^broken\.loom:2:/);
  assert.throws(() => b.freeze(), (e: unknown) => e instanceof LoomError && e.status === "failed-precondition");
  const dup = new LinkIndexBuilder().addSource(Source.fromText("x.loom", ""));
  assert.throws(() => dup.addSource(Source.fromText("x.loom", "")), (e: unknown) => e instanceof LoomError && e.status === "already-exists");
  const { workspace, module } = parse(USES_CEIL);
  assert.throws(
    () => compileModule(compiler, workspace, pipeline, module, { specializations: [{ functionSymbol: "grid", targetProfile: gfx1100 }], linkIndex: {} as LinkIndex }),
    (e: unknown) => e instanceof LoomError && e.status === "invalid-argument",
  );
});

test("diagnostics inside linked library code render with the library's source line", () => {
  const lib = `func.def public pure @wide(%a: index) -> (index) {
  %w = index.constant 4096 : index
  func.return %w : index
}
`;
  const root = "func.decl public pure @wide(%a: index) -> (index)\n\n" + gridKernel("grid", `  %width = func.call pure @wide(%n) : (index) -> (index)
  %groups = index.constant 1 : index`);
  const { result } = compile(root, [["grid", gfx1100]], { linkIndex: index({ "wide.loom": lib }) });
  assert.equal(result.state, "failed");
  assert.match(result.formatDiagnostics(), /wide\.loom:2:\d+: error \[TARGET\/02[45]\][^\n]*\n 2 \|   %w = index\.constant 4096/);
});

test("a func.decl reached from a check.case binds to a library kernel.def with no workload; one with a workload is TYPE/001", () => {
  const kernel = (workload: string) => `kernel.def @scale(${workload}) {
  %unit = index.constant 1 : index
  kernel.launch.config workgroups(%unit, %unit, %unit) workgroup_size(%unit, %unit, %unit) : index
} launch(%input: buffer, %output: buffer) {
  kernel.return
}
`;
  const root = `func.decl @scale(%input: buffer, %output: buffer)

check.case public @scale_case {
  %input = check.generate.fill value(7) : tensor<4xi32>
  %output = check.generate.fill value(0) : tensor<4xi32>
  func.call @scale(%input, %output) : (tensor<4xi32>, tensor<4xi32>)
  check.return
}
`;
  const bound = parse(root);
  const ok = linkModule(bound.module, index({ "kernels.loom": kernel("") }));
  assert.ok(ok.ok, ok.formatDiagnostics());
  assert.match(bound.module.print(), /kernel\.def @scale\(\) \{/);
  assert.doesNotMatch(bound.module.print(), /func\.decl @scale/);
  const withWorkload = parse(root);
  const bad = linkModule(withWorkload.module, index({ "kernels.loom": kernel("%n: index") }));
  assert.equal(bad.ok, false);
  const d = bad.diagnostics.find((x) => x.code === "TYPE/001");
  assert.ok(d, bad.formatDiagnostics());
  assert.equal(d.location?.line, 1);
});

test("a static strided layout is part of a linked signature: other strides are TYPE/001", () => {
  const root = `func.decl public @at(%v: view<4x4xf32, #encoding.layout.strided<strides=[1, 4]>>) -> (f32)

kernel.def export("strided") @strided() {
  %c1 = index.constant 1 : index
  kernel.launch.config workgroups(%c1, %c1, %c1) workgroup_size(%c1, %c1, %c1) : index
} launch(%b: buffer) {
  %o = index.constant 0 : offset
  %v = buffer.view %b[%o] : buffer -> view<4x4xf32, #encoding.layout.strided<strides=[1, 4]>>
  %x = func.call @at(%v) : (view<4x4xf32, #encoding.layout.strided<strides=[1, 4]>>) -> (f32)
  view.store %x, %v[0, 0] : f32, view<4x4xf32, #encoding.layout.strided<strides=[1, 4]>>
  kernel.return
}
`;
  const library = (strides: string) => `func.def public @at(%v: view<4x4xf32, #encoding.layout.strided<strides=[${strides}]>>) -> (f32) {
  %x = view.load %v[1, 2] : view<4x4xf32, #encoding.layout.strided<strides=[${strides}]>> -> f32
  func.return %x : f32
}
`;
  const same = compile(root, [["strided", gfx1100]], { linkIndex: index({ "lib.loom": library("1, 4") }) });
  assert.ok(same.result.ok, same.result.formatDiagnostics());
  const other = compile(root, [["strided", gfx1100]], { linkIndex: index({ "lib.loom": library("4, 1") }) });
  const d = other.result.diagnostics.find((x) => x.code === "TYPE/001");
  assert.ok(d, other.result.formatDiagnostics());
  assert.equal(d.related?.[0]?.location?.source, "lib.loom");
});
