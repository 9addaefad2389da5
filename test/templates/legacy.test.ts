/**
 * The reference Loom's legacy spellings, `func.template<key>` and `func.apply<key>`
 * (language.md "Compatibility"): parsed into `template.def` / `template.apply`, so a module
 * in legacy spelling verifies, selects and compiles exactly as its canonical spelling, and
 * `loom fmt` prints it back in the spelling written (as the reference does).
 */
import "../../src/api/check-dialect.js"; // the check harness's syntax and rules, which loomc registers
import { decodeLaunchConfig } from "../../src/launch/decode.js";
import { encodeLaunchFunctions } from "../../src/launch/encode.js";
import { test } from "node:test";
import assert from "node:assert/strict";
import { printModule } from "../../src/text/printer.js";
import { codes, parse as parseText } from "../text/helpers.js";
import { compile, gfx1100, gfx942, gridKernel, index, launch, selections, vulkan } from "../link/helpers.js";

/** Providers of `demo.width` in the reference's legacy spelling; no family declaration. */
const LEGACY = `func.template<demo.width> pure requires [#target.subgroup.size<32>] priority(1) @width_wave32() -> (index) {
  %w = index.constant 128 : index
  func.return %w : index
}

func.template<demo.width> priority(1) requires [#target.subgroup.size<64>] pure inline @width_wave64() -> (index) {
  %w = index.constant 256 : index
  func.return %w : index
}

func.template<demo.width> pure @width_portable() -> (index) {
  %w = index.constant 64 : index
  func.return %w : index
}

${gridKernel("grid", `  %width = func.apply<demo.width>() pure : () -> (index)
  %groups = index.constant 1 : index`)}`;

/** The same module as canonical text, as \`loom fmt\` must print it. */
const CANONICAL = `template.decl pure @demo.width() -> (index)

template.def<@demo.width> pure requires [#target.subgroup.size<32>] priority(1) @width_wave32() -> (index) {
  %w = index.constant 128 : index
  template.return %w : index
}

template.def<@demo.width> pure requires [#target.subgroup.size<64>] priority(1) @width_wave64() -> (index) {
  %w = index.constant 256 : index
  template.return %w : index
}

template.def<@demo.width> pure @width_portable() -> (index) {
  %w = index.constant 64 : index
  template.return %w : index
}

${gridKernel("grid", `  %width = template.apply<@demo.width>() pure : () -> (index)
  %groups = index.constant 1 : index`)}`;

/**
 * The legacy module as \`loom fmt\` prints it: in the spelling written (as the reference's printer
 * does), header words in canonical order, `inline` dropped, and no implicit family declaration.
 */
const LEGACY_PRINTED = LEGACY.replace(
  "func.template<demo.width> priority(1) requires [#target.subgroup.size<64>] pure inline @width_wave64",
  "func.template<demo.width> pure requires [#target.subgroup.size<64>] priority(1) @width_wave64",
);

test("legacy func.template/func.apply parse into the canonical ops (with an implicit family declaration); fmt prints the spelling written", () => {
  const legacy = parseText(LEGACY);
  assert.deepEqual(codes(legacy.diagnostics), []);
  const canonical = parseText(CANONICAL);
  assert.deepEqual(codes(canonical.diagnostics), []);
  assert.deepEqual(legacy.module.ops.map((o) => o.name), canonical.module.ops.map((o) => o.name));
  assert.equal(printModule(legacy.module), LEGACY_PRINTED);
  assert.equal(printModule(parseText(LEGACY_PRINTED).module), LEGACY_PRINTED);
  assert.equal(printModule(canonical.module), CANONICAL);
});

test("legacy and canonical spellings select the same provider per profile and give the same artifacts", () => {
  for (const [profile, provider, size] of [[gfx1100, "width_wave32", 128], [gfx942, "width_wave64", 256], [vulkan, "width_portable", 64]] as const) {
    const legacy = compile(LEGACY, [["grid", profile]]).result;
    const canonical = compile(CANONICAL, [["grid", profile]]).result;
    assert.ok(legacy.ok, legacy.formatDiagnostics());
    assert.ok(canonical.ok, canonical.formatDiagnostics());
    const strip = (r: typeof legacy) => selections(r).map(({ kernel, family, provider }) => ({ kernel, family, provider }));
    assert.deepEqual(strip(legacy), [{ kernel: "grid", family: "demo.width", provider }]);
    assert.deepEqual(strip(legacy), strip(canonical));
    assert.deepEqual(launch(legacy, "grid", [1n]).workgroupSize, [size, 1, 1]);
    // Every artifact but the report is byte-identical once source columns are set aside (the
    // legacy spelling is longer, so the launch-config companion's location table differs):
    // the companion is compared re-encoded without its locations.
    const withoutLocations = (bytes: Uint8Array) =>
      encodeLaunchFunctions(decodeLaunchConfig(bytes).functions.map(({ locations: _, ...f }) => f));
    const bytes = (r: typeof legacy) =>
      r.artifacts
        .filter((a) => a.kind !== "report")
        .map((a) => [a.kind, Buffer.from(a.kind === "launch-config" ? withoutLocations(a.contents) : a.contents).toString("hex")]);
    assert.ok(bytes(legacy).length > 0);
    assert.deepEqual(bytes(legacy), bytes(canonical));
  }
});

test("a legacy provider that contradicts the family's declaration is checked like a canonical one", () => {
  const text = `template.decl @demo.f(%x: i32) -> (i32)

func.template<demo.f> @f_i32(%x: i32) -> (i32) {
  func.return %x : i32
}

func.template<demo.f> @f_f32(%x: f32) -> (f32) {
  func.return %x : f32
}
`;
  const { module, diagnostics } = parseText(text);
  assert.deepEqual(codes(diagnostics), []);
  // The module's own declaration is kept: no second one is added.
  assert.equal(module.ops.filter((o) => o.name === "template.decl").length, 1);
  assert.throws(() => compile(text, []), /root\.loom:7:1: error \[TYPE\/001\]: type mismatch: implementation argument 0 '%x' has type f32/);
});

test("malformed legacy forms are coded diagnostics at file:line:col", () => {
  const cases: [string, string[]][] = [
    // No contract key.
    [`func.template<> @p(%x: i32) -> (i32) {\n  func.return %x : i32\n}\n`, ["PARSE/003@1:15"]],
    // No angle brackets at all.
    [`func.template @p(%x: i32) -> (i32) {\n  func.return %x : i32\n}\n`, ["PARSE/003@1:15"]],
    // A modifier func.template does not take.
    [`func.template<k> kernel @p(%x: i32) -> (i32) {\n  func.return %x : i32\n}\n`, ["PARSE/018@1:18"]],
    // priority without a number.
    [`func.template<k> priority(high) @p(%x: i32) -> (i32) {\n  func.return %x : i32\n}\n`, ["PARSE/003@1:27"]],
    // An apply without its key.
    [`func.def @f(%x: i32) -> (i32) {\n  %y = func.apply(%x) : (i32) -> (i32)\n  func.return %y : i32\n}\n`, ["PARSE/003@2:18"]],
  ];
  for (const [text, expected] of cases) assert.deepEqual(codes(parseText(text).diagnostics), expected, text);
});

test("legacy providers in a linked library serve a legacy application in the root", () => {
  const library = LEGACY.slice(0, LEGACY.indexOf("kernel.def"));
  const root = gridKernel("grid", `  %width = func.apply<demo.width>() pure : () -> (index)
  %groups = index.constant 1 : index`);
  const linkIndex = index({ "providers.loom": library });
  for (const [profile, provider] of [[gfx1100, "width_wave32"], [gfx942, "width_wave64"], [vulkan, "width_portable"]] as const) {
    const { result } = compile(root, [["grid", profile]], { linkIndex });
    assert.ok(result.ok, result.formatDiagnostics());
    assert.equal(selections(result)[0]?.provider, provider);
  }
});
