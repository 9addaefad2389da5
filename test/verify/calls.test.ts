/** Calls and config: recursion (903), purity (017 034), config predicates (904). */
import "../../src/api/check-dialect.js"; // the check harness's syntax and rules, which loomc registers
import { test } from "node:test";
import assert from "node:assert/strict";
import { checkConfigValue } from "../../src/passes/verify/index.js";
import { expectClean, expectCodes, verifyText } from "./helpers.js";

const call = (from: string, to: string) => `func.def @${from}() {\n  func.call @${to}() : () -> ()\n  func.return\n}\n\n`;

test("calls: recursion is rejected once per cycle (STRUCTURE/903)", () => {
  expectClean(call("a", "b") + "func.def @b() {\n  func.return\n}\n");
  expectCodes(call("a", "a"), ["STRUCTURE/903"]);
  expectCodes(call("a", "b") + call("b", "c") + call("c", "a"), ["STRUCTURE/903"]);
  // Two independent cycles.
  expectCodes(call("a", "a") + call("b", "b"), ["STRUCTURE/903", "STRUCTURE/903"]);
});

test("calls: recursion through a template family", () => {
  const text = `template.decl @fam()

template.def<@fam> @impl() {
  template.apply<@fam>() : () -> ()
  template.return
}
`;
  expectCodes(text, ["STRUCTURE/903"]);
});

test("calls: a long call chain is not recursion and does not overflow the stack", () => {
  let text = "";
  for (let i = 0; i < 3000; i++) text += call(`f${i}`, `f${i + 1}`);
  text += "func.def @f3000() {\n  func.return\n}\n";
  expectClean(text);
});

test("calls: pure bodies have no effects (STRUCTURE/017)", () => {
  expectClean("func.def pure @f(%a: index) -> (index) {\n  %b = index.add %a, %a : index\n  func.return %b : index\n}\n");
  expectCodes("func.def pure @f(%v: view<4xf32>) -> (f32) {\n  %i = index.constant 0 : index\n  %x = view.load %v[%i] : view<4xf32> -> f32\n  func.return %x : f32\n}\n", ["STRUCTURE/017"]);
  expectCodes("func.def @g() {\n  func.return\n}\n\nfunc.def pure @f() {\n  func.call @g() : () -> ()\n  func.return\n}\n", ["STRUCTURE/017"]);
  expectClean("func.def pure @g() {\n  func.return\n}\n\nfunc.def pure @f() {\n  func.call @g() : () -> ()\n  func.return\n}\n");
});

test("calls: a pure call needs a pure callee (STRUCTURE/034)", () => {
  expectCodes("func.decl @g()\n\nfunc.def @f() {\n  func.call pure @g() : () -> ()\n  func.return\n}\n", ["STRUCTURE/034"]);
  expectClean("func.decl pure @g()\n\nfunc.def @f() {\n  func.call pure @g() : () -> ()\n  func.return\n}\n");
});

test("config: a config.def must satisfy the declared predicates (STRUCTURE/904)", () => {
  const decl = "config.decl @tile : %value: index where [range(%value, 1, 64), pow2(%value)]\n\n";
  expectClean(decl + "config.def @tile = 32 : index\n");
  expectCodes(decl + "config.def @tile = 128 : index\n", ["STRUCTURE/904"]);
  const v = expectCodes(decl + "config.def @tile = 48 : index\n", ["STRUCTURE/904"]);
  assert.match(v.diagnostics[0]!.message, /pow2\(%value\)/);
  expectCodes(decl + "config.def @tile = 0 : index\n", ["STRUCTURE/904", "STRUCTURE/904"]);
});

test("config: checkConfigValue evaluates bindings made outside the file", () => {
  const { module } = verifyText("config.decl @n : %value: index where [mul(%value, 4), lt(%value, 100)]\n");
  const decl = module.ops[0]!;
  assert.equal(checkConfigValue(decl, 8n, undefined).length, 0);
  assert.deepEqual(checkConfigValue(decl, 6n, undefined).map((d) => d.code), ["STRUCTURE/904"]);
  assert.equal(checkConfigValue(decl, 102n, undefined).length, 2);
});

test("calls: callee where-contracts that are provably false at the call (STRUCTURE/014)", () => {
  const callee = "func.def @f(%n: index) where [mul(%n, 16), range(%n, 1, 1024)] {\n  func.return\n}\n\n";
  const caller = (value: string) => `${callee}func.def @g(%m: index) {\n  %c = index.constant ${value} : index\n  func.call @f(%c) : (index) -> ()\n  func.call @f(%m) : (index) -> ()\n  func.return\n}\n`;
  expectClean(caller("64"));
  expectCodes(caller("24"), ["STRUCTURE/014"]);
  expectCodes(caller("2048"), ["STRUCTURE/014"]);
});
