/**
 * Launch configs from parsed `.loom` text (language.md §10 and a workload with facts, loops
 * and scalar ops): hand-computed launches, and agreement with the reference interpreter.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { LoomError } from "../../src/core/errors.js";
import { LaunchConfigProgram, type LaunchConfig } from "../../src/launch/program.js";
import { evaluateReference } from "../../src/launch/reference.js";
import { encodeLaunchConfig } from "../../src/launch/source.js";
import { MATMUL16_CONFIG, sourcesOf, TILED, WORKLOAD_GRID } from "./parsed-corpus.js";

function outcome(f: () => LaunchConfig): LaunchConfig | string {
  try {
    return structuredClone(f());
  } catch (e) {
    if (!(e instanceof LoomError)) throw e;
    return e.status;
  }
}

const sources = [...sourcesOf(WORKLOAD_GRID), ...sourcesOf(MATMUL16_CONFIG), ...sourcesOf(TILED)];
const program = LaunchConfigProgram.load(encodeLaunchConfig(sources));

test("language.md §10 launches from parsed text", () => {
  const grid = program.lookupFunction("workload_grid");
  assert.deepEqual(program.invoke(grid, [1009n]).workgroupCount, [16, 1, 1]);
  assert.deepEqual(program.invoke(grid, [1009n]).workgroupSize, [64, 1, 1]);
  assert.deepEqual(program.invoke(grid, [0n]).workgroupCount, [0, 1, 1]);
  assert.throws(() => program.invoke(grid, [-64n]), (e: unknown) => e instanceof LoomError && e.status === "out-of-range");
  const mm = program.lookupFunction("matmul16");
  const l = program.invokeNumbers(mm, [100, 70]);
  assert.deepEqual([l.workgroupCount, l.workgroupSize], [[5, 7, 1], [16, 16, 1]]);
});

test("parsed workload facts, scalar ops and loops", () => {
  const fn = program.lookupFunction("tiled");
  const f32 = (x: number) => BigInt(new Uint32Array(new Float32Array([x]).buffer)[0]!);
  // scale 5 → 15 steps → 0+1+…+14 = 105; ratio 2.5 → 6.25 → 6.
  assert.deepEqual(program.invoke(fn, [1000n, 5n, f32(2.5)]).workgroupCount, [8, 106, 6]);
  assert.deepEqual(program.invokeNumbers(fn, [1000, 5, 2.5]).workgroupCount, [8, 106, 6]);
  assert.deepEqual(program.invokeNumbers(fn, [0, -7, 0]).workgroupCount, [0, 4, 1]); // 3 steps: 0+1+2
  const status = (args: bigint[]) => outcome(() => program.invoke(fn, args));
  assert.equal(status([1001n, 5n, f32(1)]), "out-of-range"); // mul(%n, 4)
  assert.equal(status([1000004n, 5n, f32(1)]), "out-of-range"); // range(%n, 0, 1000000)
  assert.equal(status([1000n, 22n, f32(1)]), "out-of-range"); // 66 steps: range(…, 1, 64)
  assert.equal(status([1000n, 5n, f32(NaN)]), "out-of-range"); // fptosi of NaN
  assert.equal(status([1000n, 5n, f32(1e10)]), "out-of-range"); // fptosi out of i32
});

test("parsed programs agree with the reference interpreter over the IR", () => {
  const values = [0n, 1n, 3n, 4n, 63n, 64n, 65n, 127n, 128n, 129n, 1009n, 999996n, 1000000n, -1n, -64n, (1n << 63n) - 1n, 0x7f800000n, 0x40200000n];
  for (const src of sources) {
    const fn = program.lookupFunction(src.exportName);
    const combos = fn.argumentTypes.reduce<bigint[][]>((acc) => acc.flatMap((a) => values.map((v) => [...a, v])), [[]]);
    for (const args of combos) {
      assert.deepEqual(outcome(() => program.invoke(fn, args)), outcome(() => evaluateReference(src, args)), `${src.exportName}(${args.join(", ")})`);
    }
  }
});
