/** The PTX lowering table states every declared op's fate: a rule or a reason it is not lowered. */
import { test } from "node:test";
import assert from "node:assert/strict";
import { OP_INFOS } from "../../src/dialects/registry.js";
// Every op of the language: the check harness's too, which register when loaded.
import "../../src/dialects/ops/check.js";
import { PTX_RULES } from "../../src/targets/ptx/lower/rules.js";

test("every op that may reach a device body has a PTX entry", () => {
  // Terminators are lowered by the op that owns their region (scf.*, the kernel body).
  const missing = OP_INFOS.filter((op) => op.placement.includes("D") && !op.terminator && !Object.hasOwn(PTX_RULES, op.name)).map((op) => op.name);
  assert.deepEqual(missing, []);
});

test("the PTX table names no op the registry lacks", () => {
  const known = new Set<string>(OP_INFOS.map((op) => op.name));
  assert.deepEqual(Object.keys(PTX_RULES).filter((n) => !known.has(n)), []);
});
