/** SYMBOL/002 003 005 and export names (STRUCTURE/027). */
import { test } from "node:test";
import assert from "node:assert/strict";
import { expectClean, expectCodes, kernel } from "./helpers.js";

const fn = (name: string, mods = "") => `func.def ${mods}${mods ? " " : ""}@${name}() {\n  func.return\n}\n\n`;

test("symbols: references resolve to definitions and declarations in the file", () => {
  const v = expectClean(`${fn("g")}func.decl @h()\n\n${fn("f").replace("  func.return", "  func.call @g() : () -> ()\n  func.call @h() : () -> ()\n  func.return")}`);
  assert.equal(v.info.symbols.get("g")?.kind, "function");
  assert.equal(v.info.symbols.get("h")?.op.name, "func.decl");
});

test("symbols: order at top level is irrelevant", () => {
  expectClean(`${fn("f").replace("  func.return", "  func.call @later() : () -> ()\n  func.return")}${fn("later")}`);
});

test("symbols: unresolved callee, family, config key and target (SYMBOL/002)", () => {
  expectCodes(fn("f").replace("  func.return", "  func.call @nope() : () -> ()\n  func.return"), ["SYMBOL/002"]);
  expectCodes("func.def target(@t) @f() {\n  func.return\n}\n", ["SYMBOL/002"]);
  expectCodes(kernel("  %v = config.get @missing : index"), ["SYMBOL/002"]);
  expectCodes("template.def<@fam> @impl() {\n  template.return\n}\n", ["SYMBOL/002"]);
  expectCodes('module.import "provider" [@ghost]\n', ["SYMBOL/002"]);
});

test("symbols: wrong kinds (SYMBOL/003)", () => {
  expectCodes(`${kernel("")}\n${fn("f").replace("  func.return", "  func.call @k() : () -> ()\n  func.return")}`, ["SYMBOL/003"]);
  expectCodes(`${fn("g")}func.def target(@g) @f() {\n  func.return\n}\n`, ["SYMBOL/003"]);
  expectCodes(`${fn("notfam")}template.def<@notfam> @impl() {\n  template.return\n}\n`, ["SYMBOL/003"]);
  expectCodes(`${fn("g")}module.import "provider" [@g]\n`, ["SYMBOL/003"]);
});

test("symbols: targets, families and imports of the right kind", () => {
  expectClean("amdgpu.target<gfx1100> @t\n\nfunc.def target(@t) @f() {\n  func.return\n}\n");
  expectClean("target.decl @t\n\nfunc.decl target(@t) @f()\n");
  expectClean("template.decl @fam(%a: index) -> (index)\n\ntemplate.def<@fam> @impl(%a: index) -> (index) {\n  template.return %a : index\n}\n");
  expectClean('func.decl @h()\n\nmodule.import "provider" [@h]\n');
});

test("symbols: duplicates (SYMBOL/005), including a declaration next to its definition", () => {
  expectCodes(`${fn("f")}${fn("f")}`, ["SYMBOL/005"]);
  expectCodes(`func.decl @f()\n\n${fn("f")}`, ["SYMBOL/005"]);
  expectCodes(`${fn("t")}amdgpu.target<gfx1100> @t\n`, ["SYMBOL/005"]);
});

test("symbols: a config.def binds the config.decl of its key; a second def is a duplicate", () => {
  const v = expectClean("config.decl @tile : index\n\nconfig.def @tile = 16 : index\n");
  assert.equal(v.info.symbols.configDecl("tile")?.name, "config.decl");
  assert.equal(v.info.symbols.configDef("tile")?.name, "config.def");
  expectClean("config.def @tile = 16 : index\n\nconfig.decl @tile : index\n");
  expectCodes("config.decl @tile : index\n\nconfig.def @tile = 16 : index\n\nconfig.def @tile = 32 : index\n", ["SYMBOL/005"]);
  expectCodes("config.decl @tile : index\n\nconfig.decl @tile : index\n", ["SYMBOL/005"]);
});

test("symbols: export names are identifiers and unique among kernel definitions (STRUCTURE/027)", () => {
  const k = (sym: string, exp?: string) => kernel("").replace("kernel.def @k", `kernel.def ${exp !== undefined ? `export("${exp}") ` : ""}@${sym}`);
  expectClean(`${k("a", "first")}\n${k("b", "second")}`);
  expectCodes(`${k("a", "same")}\n${k("b", "same")}`, ["STRUCTURE/027"]);
  expectCodes(k("a", "9lives"), ["STRUCTURE/027"]);
  expectCodes(k("a", ""), ["STRUCTURE/027"]);
  expectCodes(`${k("same")}\n${k("b", "same")}`, ["STRUCTURE/027"]);
  expectCodes(k("model.step"), ["STRUCTURE/027"]);
});
