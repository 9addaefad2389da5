import { test } from "node:test";
import assert from "node:assert/strict";
import { emitModule } from "../../src/index.js";
import { amdgpu, compile, gfx1100, gfx942, gridKernel, index, launch, selections, spirv, vulkan } from "../link/helpers.js";

/** Providers of @width: one per wave size at priority 1, a portable fallback at 0. */
const PROVIDERS = `template.decl public pure @width() -> (index)

template.def<@width> pure requires [#target.subgroup.size<32>] priority(1) @width_wave32() -> (index) {
  %w = index.constant 128 : index
  template.return %w : index
}

template.def<@width> pure requires [#target.subgroup.size<64>] priority(1) @width_wave64() -> (index) {
  %w = index.constant 256 : index
  template.return %w : index
}

template.def<@width> pure @width_portable() -> (index) {
  %w = index.constant 64 : index
  template.return %w : index
}
`;

const APPLY_WIDTH = `  %width = template.apply<@width>() pure : () -> (index)
  %groups = index.constant 1 : index`;

test("requires: gfx1100 (wave32) and gfx942 (wave64) select different providers", () => {
  const text = PROVIDERS + "\n" + gridKernel("grid", APPLY_WIDTH);
  for (const [profile, provider, size] of [[gfx1100, "width_wave32", 128], [gfx942, "width_wave64", 256]] as const) {
    const { result } = compile(text, [["grid", profile]]);
    assert.ok(result.ok, result.formatDiagnostics());
    assert.deepEqual(selections(result), [{ kernel: "grid", profile: profile.identifier, family: "width", provider, at: "root.loom:20:12" }]);
    assert.deepEqual(launch(result, "grid", [1n]).workgroupSize, [size, 1, 1]);
  }
});

test("providers linked from a library are selected per profile too", () => {
  const root = "template.decl public pure @width() -> (index)\n\n" + gridKernel("grid", APPLY_WIDTH);
  const linkIndex = index({ "providers.loom": PROVIDERS });
  for (const [profile, provider] of [[gfx1100, "width_wave32"], [gfx942, "width_wave64"], [vulkan, "width_portable"]] as const) {
    const { result } = compile(root, [["grid", profile]], { linkIndex });
    assert.ok(result.ok, result.formatDiagnostics());
    assert.equal(selections(result)[0]?.provider, provider);
  }
});

test("a priority tie is LOWERING/901 naming the tied candidates", () => {
  const text = PROVIDERS.replace("@width_portable", "@width_also32").replace("template.def<@width> pure @width_also32", "template.def<@width> pure requires [#target.subgroup.size<32>] priority(1) @width_also32") +
    "\n" + gridKernel("grid", APPLY_WIDTH);
  const { result } = compile(text, [["grid", gfx1100]]);
  const d = result.diagnostics.find((x) => x.code === "LOWERING/901");
  assert.ok(d, result.formatDiagnostics());
  assert.match(d.message, /@width_wave32, @width_also32 tie at priority 1/);
  assert.equal(d.related?.length, 3);
  // On wave64 the tie does not arise.
  assert.ok(compile(text, [["grid", gfx942]]).result.ok);
});

test("no fitting provider is LOWERING/901 listing every candidate and why it lost", () => {
  const text = PROVIDERS.replace(/template\.def<@width> pure @width_portable[^]*$/, "") + "\n" + gridKernel("grid", APPLY_WIDTH);
  const { result } = compile(text, [["grid", vulkan]]);
  const d = result.diagnostics.find((x) => x.code === "LOWERING/901");
  assert.ok(d, result.formatDiagnostics());
  assert.match(d.message, /no provider fits profile 'vulkan'/);
  assert.match(d.message, /@width_wave32: requires #target\.subgroup\.size<32>, profile 'vulkan' has no fixed subgroup size/);
  assert.match(d.message, /@width_wave64: requires #target\.subgroup\.size<64>/);
});

test("where predicates are proven at the apply: constants, assumes, path facts", () => {
  const text = `template.decl public pure @tile(%n: index) -> (index)

template.def<@tile> pure priority(2) @tile_big(%n: index) -> (index) where [ge(%n, 1024)] {
  %w = index.constant 256 : index
  template.return %w : index
}

template.def<@tile> pure priority(1) @tile_small(%n: index) -> (index) where [range(%n, 1, 64)] {
  %w = index.constant 16 : index
  template.return %w : index
}

template.def<@tile> pure @tile_any(%n: index) -> (index) {
  %w = index.constant 32 : index
  template.return %w : index
}

template.def<@tile> pure priority(8) @tile_negative(%n: index) -> (index) where [lt(%n, 0)] {
  %w = index.constant 1 : index
  template.return %w : index
}

${gridKernel("grid", `  %big = index.constant 4096 : index
  %width = template.apply<@tile>(%big) pure : (index) -> (index)
  %m = index.assume %n [range(%n, 2, 8)] : index
  %groups = template.apply<@tile>(%m) pure : (index) -> (index)
  %unknown = template.apply<@tile>(%n) pure : (index) -> (index)
  %c1024 = index.constant 1024 : index
  %large = index.cmp sge, %n, %c1024 : index
  %by_path = scf.if %large -> (index) {
    %t = template.apply<@tile>(%n) pure : (index) -> (index)
    scf.yield %t : index
  } else {
    %e = template.apply<@tile>(%n) pure : (index) -> (index)
    scf.yield %e : index
  }`)}`;
  const { result } = compile(text, [["grid", gfx1100]]);
  assert.ok(result.ok, result.formatDiagnostics());
  assert.deepEqual(selections(result).map((s) => s.provider), ["tile_big", "tile_small", "tile_any", "tile_big", "tile_any"]);
  assert.deepEqual(launch(result, "grid", [4n]), { ...launch(result, "grid", [4n]), workgroupCount: [16, 1, 1], workgroupSize: [256, 1, 1] });
});

test("template.call inlines a named provider; target.subgroup.size inside it is bound per profile", () => {
  const text = `template.decl public pure @lanes() -> (index)

template.def<@lanes> pure @lanes_query() -> (index) {
  %s = target.subgroup.size : index
  template.return %s : index
}

${gridKernel("grid", `  %width = template.call pure @lanes_query() : () -> (index)
  %groups = index.constant 1 : index`)}`;
  assert.deepEqual(launch(compile(text, [["grid", gfx1100]]).result, "grid", [1n]).workgroupSize, [32, 1, 1]);
  assert.deepEqual(launch(compile(text, [["grid", gfx942]]).result, "grid", [1n]).workgroupSize, [64, 1, 1]);
});

test("target(@T) on a provider or a kernel is matched against the profile", () => {
  const text = `amdgpu.target<gfx942> @cdna3

amdgpu.target<gfx11-generic> @rdna3

template.decl public pure @w() -> (index)

template.def<@w> pure target(@cdna3) priority(1) @w_cdna() -> (index) {
  %x = index.constant 256 : index
  template.return %x : index
}

template.def<@w> pure target(@rdna3) priority(1) @w_rdna() -> (index) {
  %x = index.constant 128 : index
  template.return %x : index
}

${gridKernel("grid", `  %width = template.apply<@w>() pure : () -> (index)
  %groups = index.constant 1 : index`)}
kernel.def target(@cdna3) @pinned(%n: index) {
  %c1 = index.constant 1 : index
  kernel.launch.config workgroups(%c1, %c1, %c1) workgroup_size(%c1, %c1, %c1) : index
} launch() {
  kernel.return
}
`;
  assert.equal(selections(compile(text, [["grid", gfx1100]]).result)[0]?.provider, "w_rdna");
  assert.equal(selections(compile(text, [["grid", gfx942]]).result)[0]?.provider, "w_cdna");
  const pinned = compile(text, [["pinned", gfx1100]]).result;
  assert.ok(pinned.diagnostics.some((d) => d.code === "TARGET/052"), pinned.formatDiagnostics());
  assert.ok(compile(text, [["pinned", gfx942]]).result.ok);
});

test("per-function specialization: two kernels sharing a func and a family, AMDGPU and SPIR-V, one call", () => {
  const text = `${PROVIDERS}
func.def pure @groups_for(%n: index, %w: index) -> (index) {
  %one = index.constant 1 : index
  %wm1 = index.sub %w, %one : index
  %p = index.add %n, %wm1 : index
  %g = index.div %p, %w : index
  func.return %g : index
}

kernel.def @on_amdgpu(%n: index) {
  %c1 = index.constant 1 : index
  %width = template.apply<@width>() pure : () -> (index)
  %groups = func.call pure @groups_for(%n, %width) : (index, index) -> (index)
  kernel.launch.config workgroups(%groups, %c1, %c1) workgroup_size(%width, %c1, %c1) : index
} launch() {
  kernel.return
}

kernel.def @on_spirv(%n: index) {
  %c1 = index.constant 1 : index
  %width = template.apply<@width>() pure : () -> (index)
  %groups = func.call pure @groups_for(%n, %width) : (index, index) -> (index)
  kernel.launch.config workgroups(%groups, %c1, %c1) workgroup_size(%width, %c1, %c1) : index
} launch(%n: index, %x: buffer) {
  %i = kernel.workitem.dispatch.id<x> : index
  %origin = index.constant 0 : offset
  %view = buffer.view %x[%origin] : buffer -> view<[%n]xf32>
  %ok = index.cmp ult, %i, %n : index
  scf.if %ok {
    %v = view.load %view[%i] : view<[%n]xf32> -> f32
    %v2 = scalar.addf %v, %v : f32
    view.store %v2, %view[%i] : f32, view<[%n]xf32>
  }
  kernel.return
}
`;
  const { result, module, workspace } = compile(text, [["on_amdgpu", gfx942], ["on_spirv", vulkan]]);
  assert.ok(result.ok, result.formatDiagnostics());
  assert.deepEqual(selections(result).map((s) => [s.kernel, s.profile, s.provider]), [["on_amdgpu", "gfx942", "width_wave64"], ["on_spirv", "vulkan", "width_portable"]]);
  assert.deepEqual(launch(result, "on_amdgpu", [1000n]).workgroupCount, [4, 1, 1]);
  assert.deepEqual(launch(result, "on_spirv", [1000n]).workgroupCount, [16, 1, 1]);
  // The shared callee and providers are untouched: both stay in the module, unspecialized.
  assert.match(module.print(), /func\.def pure @groups_for\(%n: index, %w: index\)/);
  const hsaco = emitModule(amdgpu, workspace, module, { artifactFormat: "amdgpu-hsaco" });
  assert.ok(hsaco.ok, hsaco.formatDiagnostics());
  const spv = emitModule(spirv, workspace, module, { artifactFormat: "spirv" });
  assert.ok(spv.ok, spv.formatDiagnostics());
  assert.equal(new DataView(spv.artifacts[0]!.contents.buffer, spv.artifacts[0]!.contents.byteOffset).getUint32(0, true), 0x07230203);
});

test("config: bindings are checked against config.decl at the API (STRUCTURE/904, TYPE/005, STRUCTURE/014); config.get in a callee is bound", () => {
  const text = `config.decl @width : %value: index where [range(%value, 1, 1024), mul(%value, 32)]

config.decl @small : i8

func.def pure @configured_width() -> (index) {
  %w = config.get @width : index
  func.return %w : index
}

${gridKernel("grid", `  %width = func.call pure @configured_width() : () -> (index)
  %s = config.get @small : i8
  %groups = index.cast %s : i8 to index`)}`;
  const ok = compile(text, [["grid", gfx1100]], { config: { width: 96n, small: 3n, unrelated: 1n } }).result;
  assert.ok(ok.ok, ok.formatDiagnostics());
  assert.deepEqual(launch(ok, "grid", [1n]).workgroupSize, [96, 1, 1]);
  const cases: [Record<string, bigint | number | boolean>, string, RegExp][] = [
    [{ width: 100n, small: 1n }, "STRUCTURE/904", /mul\(%value, 32\)/],
    [{ width: 2048n, small: 1n }, "STRUCTURE/904", /range\(%value, 1, 1024\)/],
    [{ width: 64, small: 1n }, "TYPE/005", /takes a bigint/],
    [{ width: 64n, small: 300n }, "STRUCTURE/014", /does not fit i8/],
  ];
  for (const [config, code, message] of cases) {
    const r = compile(text, [["grid", gfx1100]], { config }).result;
    const d = r.diagnostics.find((x) => x.code === code);
    assert.ok(d, `${JSON.stringify(config, (_k, v) => (typeof v === "bigint" ? `${v}n` : v))}: ${r.formatDiagnostics()}`);
    assert.match(d.message, message);
    assert.match(d.help ?? "", /compileModule's 'config'/);
  }
});
