/**
 * Launch configs from parsed `.loom` text (language.md §10 and a workload with facts, loops
 * and scalar ops): hand-computed launches, and agreement with the reference interpreter.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { LoomError } from "../../src/api/errors.js";
import { DiagnosticSink } from "../../src/diag/diagnostic.js";
import type { Predicate } from "../../src/ir/core.js";
import { LaunchConfigProgram, type LaunchConfig } from "../../src/launch/program.js";
import { evaluateReference } from "../../src/launch/reference.js";
import { encodeLaunchConfig, type LaunchFunctionSource } from "../../src/launch/source.js";
import { parseModule } from "../../src/text/parser.js";
import { DEFAULT_LIMITS } from "./builder.js";

const WORKLOAD_GRID = `kernel.def export("workload_grid") @workload_grid(%count: index) {
  %c1 = index.constant 1 : index
  %lanes = index.constant 64 : index
  %lanes_minus_one = index.constant 63 : index
  %count_padded = index.add %count, %lanes_minus_one : index
  %groups = index.div %count_padded, %lanes : index
  kernel.launch.config workgroups(%groups, %c1, %c1) workgroup_size(%lanes, %c1, %c1) : index
} launch() {
  kernel.return
}
`;

const MATMUL16_CONFIG = `kernel.def export("matmul16") @matmul16(%m: index, %n: index) {
  %c1 = index.constant 1 : index
  %edge = index.constant 16 : index
  %edge_minus_one = index.constant 15 : index
  %n_padded = index.add %n, %edge_minus_one : index
  %m_padded = index.add %m, %edge_minus_one : index
  %tiles_x = index.div %n_padded, %edge : index
  %tiles_y = index.div %m_padded, %edge : index
  kernel.launch.config workgroups(%tiles_x, %tiles_y, %c1) workgroup_size(%edge, %edge, %c1) : index
} launch() {
  kernel.return
}
`;

const TILED = `kernel.def export("tiled") @tiled(%n: index, %scale: i32, %ratio: f32) where [range(%n, 0, 1000000), mul(%n, 4)] {
  %c0 = index.constant 0 : index
  %c1 = index.constant 1 : index
  %wg = index.constant 128 : index
  %wg_minus_one = index.constant 127 : index
  %three = scalar.constant 3 : i32
  %tripled = scalar.muli %scale, %three : i32
  %big = scalar.cmpi sgt, %tripled, %three : i32
  %chosen = scf.select %big, %tripled, %three : i32
  %chosen_index = index.cast %chosen : i32 to index
  %steps = index.assume %chosen_index [range(%chosen_index, 1, 64)] : index
  %squared = scalar.mulf %ratio, %ratio : f32
  %whole = scalar.fptosi %squared : f32 to i32
  %whole_index = index.cast %whole : i32 to index
  %padded = index.add %n, %wg_minus_one : index
  %groups = index.div %padded, %wg : index
  %total = scf.for %i = [%c0 to %steps step %c1](%acc = %c0 : index) -> (index) {
    %next = index.add %acc, %i : index
    scf.yield %next : index
  }
  %gy = index.add %total, %c1 : index
  %gz = index.max %whole_index, %c1 : index
  kernel.launch.config workgroups(%groups, %gy, %gz) workgroup_size(%wg, %c1, %c1) : index
} launch() {
  kernel.return
}
`;

function sourcesOf(text: string): LaunchFunctionSource[] {
  const sink = new DiagnosticSink();
  const module = parseModule("test.loom", text, sink);
  assert.deepEqual(sink.diagnostics.filter((d) => d.severity === "error"), []);
  return module.ops
    .filter((op) => op.name === "kernel.def")
    .map((op) => ({
      exportName: (op.props.exportName as string | undefined) ?? op.symbol!,
      region: op.regions[0]!,
      workloadWhere: (op.props.workloadWhere as Predicate[] | undefined) ?? [],
      subgroupSize: 32,
      workgroupStorageBytes: 0,
      limits: DEFAULT_LIMITS,
    }));
}

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
