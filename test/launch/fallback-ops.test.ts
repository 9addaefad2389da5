/**
 * Every `simple` op, signature, flag set and compare predicate (op-zoo.ts): the closure
 * evaluator agrees with the generated code — launch or exact error, and the fast path's
 * return code — and both with the reference interpreter.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import fc from "fast-check";
import { opZoo } from "./op-zoo.js";
import { BOUNDARY, TwoEvaluators, bitsOf } from "./two-evaluators.js";

const zoo = opZoo();
const both = new TwoEvaluators(zoo);

test("the zoo covers every simple op", () => {
  const names = new Set(zoo.map((s) => s.exportName.split("_").slice(0, 2).join(".")));
  assert.ok(zoo.length > 500, `${zoo.length} functions`);
  for (const n of ["index.rotli", "index.ctpopi", "index.scale", "scalar.fmaf", "scalar.cmpf", "scalar.bitcast", "scalar.uitofp", "scalar.ceildivui"]) assert.ok(names.has(n), n);
});

test("unary ops: every boundary value of the operand type", () => {
  for (const src of zoo) {
    const types = both.generated.lookupFunction(src.exportName).argumentTypes;
    if (types.length !== 1) continue;
    for (const v of BOUNDARY[types[0]!]) both.agree(src, [v]);
  }
});

test("binary ops: every pair of boundary values (a sample of 24 per function)", () => {
  for (const src of zoo) {
    const types = both.generated.lookupFunction(src.exportName).argumentTypes;
    if (types.length !== 2) continue;
    const pairs = BOUNDARY[types[0]!].flatMap((a) => BOUNDARY[types[1]!].map((b) => [a, b]));
    const stride = Math.max(1, Math.floor(pairs.length / 24));
    for (let i = 0; i < pairs.length; i += stride) both.agree(src, pairs[i]!);
  }
});

test("property: random arguments on every op", () => {
  let cases = 0;
  for (const src of zoo) {
    const types = both.generated.lookupFunction(src.exportName).argumentTypes;
    fc.assert(
      fc.property(fc.tuple(...types.map(bitsOf)), (args) => {
        cases++;
        both.agree(src, args);
      }),
      { numRuns: 12 },
    );
  }
  assert.ok(cases >= 2000, `${cases} cases`);
  assert.ok(both.fastCodes[0]! > 1000 && both.fastCodes[1]! > 1000, `fast path: ${both.fastCodes[0]} done, ${both.fastCodes[1]} bailed`);
});
