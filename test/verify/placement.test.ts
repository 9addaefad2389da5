/** Placement: STRUCTURE/011 029 031 052 (language.md §4 C/D/F columns, §6). */
import { test } from "node:test";
import { configKernel, expectClean, expectCodes, kernel } from "./helpers.js";

test("placement: only definitions and declarations at top level (STRUCTURE/011)", () => {
  expectCodes("%c = index.constant 1 : index\n", ["STRUCTURE/011"]);
  expectClean("#layout = #encoding.layout.dense\n\ntarget.decl @t\n");
});

test("placement: the config region takes index, pure scalar, scf.if/for/select, config.get", () => {
  expectClean(configKernel("  %a = index.add %n, %c1 : index\n  %t = index.cmp slt, %a, %c1 : index\n  %b = scf.select %t, %a, %c1 : index\n  %f = scalar.constant 1.0 : f32\n  %g = scalar.addf %f, %f : f32", "%n: index"));
  expectClean("config.decl @tile : index\n\n" + configKernel("  %t = config.get @tile : index\n  %s = target.subgroup.size : index"));
});

test("placement: device-only ops, math, memory ops and while loops are not allowed in config (STRUCTURE/029)", () => {
  expectCodes(configKernel("  %id = kernel.workitem.id<x> : index"), ["STRUCTURE/029"]);
  expectCodes(configKernel("  %e = scalar.expf %x : f32", "%x: f32"), ["STRUCTURE/029"]);
  expectCodes(configKernel("  %l = encoding.layout.dense : encoding<layout>"), ["STRUCTURE/029"]);
});

test("placement: kernel-only ops in functions and config ops in bodies (STRUCTURE/029)", () => {
  expectCodes("func.def @f() {\n  %id = kernel.workitem.id<x> : index\n  func.return\n}\n", ["STRUCTURE/029"]);
  expectCodes(kernel("  kernel.launch.config workgroups(%c1, %c1, %c1) workgroup_size(%c1, %c1, %c1) : index"), ["STRUCTURE/029"]);
  expectClean("func.def @f() {\n  kernel.barrier<workgroup> scope(workgroup) ordering(acq_rel)\n  func.return\n}\n");
});

test("placement: calls in config must be pure (STRUCTURE/052) and reach only config ops (STRUCTURE/029)", () => {
  const pureFn = "func.def pure @f(%n: index) -> (index) {\n  func.return %n : index\n}\n\n";
  expectClean(pureFn + configKernel("  %b = func.call pure @f(%n) : (index) -> (index)", "%n: index"));
  expectCodes(pureFn + configKernel("  %b = func.call @f(%n) : (index) -> (index)", "%n: index"), ["STRUCTURE/052"]);
  const mathFn = "func.def pure @g(%x: f32) -> (f32) {\n  %e = scalar.expf %x : f32\n  func.return %e : f32\n}\n\n";
  expectCodes(mathFn + configKernel("  %b = func.call pure @g(%x) : (f32) -> (f32)", "%x: f32"), ["STRUCTURE/029"]);
});

test("placement: workgroup allocas only at the top level of a body (STRUCTURE/031)", () => {
  const alloca = "%s = buffer.alloca<workgroup> align(16) %bytes : buffer";
  expectClean(kernel(`  %bytes = index.constant 64 : offset\n  ${alloca}`));
  expectCodes(kernel(`  %bytes = index.constant 64 : offset\n  %t = scalar.constant true : i1\n  scf.if %t {\n    ${alloca}\n  }`), ["STRUCTURE/031"]);
  expectClean(kernel(`  %bytes = index.constant 64 : offset\n  %t = scalar.constant true : i1\n  scf.if %t {\n    %p = buffer.alloca<private> align(16) %bytes : buffer\n  }`));
  expectClean(`func.def @f() {\n  %bytes = index.constant 64 : offset\n  ${alloca}\n  func.return\n}\n`);
});

test("placement: an unmarked template application in config is accepted when every provider is config code (the reference's legacy func.apply)", () => {
  const family = "template.decl @pick(%n: index) -> (index)\n\n";
  const provider = "template.def<@pick> @pick_default(%n: index) -> (index) {\n  template.return %n : index\n}\n\n";
  expectClean(family + provider + configKernel("  %b = template.apply<@pick>(%n) : (index) -> (index)", "%n: index"));
  const legacy = "func.template<tile.pick> @pick_legacy(%n: index) -> (index) {\n  func.return %n : index\n}\n\n";
  expectClean(legacy + configKernel("  %b = func.apply<tile.pick>(%n) : (index) -> (index)", "%n: index"));
  // A provider that does device work is no config code: the application must be marked, as before.
  const effect = "template.def<@pick> @pick_barrier(%n: index) -> (index) {\n  kernel.barrier<workgroup> scope(workgroup) ordering(acq_rel)\n  template.return %n : index\n}\n\n";
  expectCodes(family + effect + configKernel("  %b = template.apply<@pick>(%n) : (index) -> (index)", "%n: index"), ["STRUCTURE/052"]);
});
