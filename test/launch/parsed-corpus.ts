/**
 * Launch-config functions from parsed `.loom` text (language.md §10 and a workload with
 * facts, loops and scalar ops), as `LaunchFunctionSource`s, shared by parsed.test.ts and
 * the fallback tests.
 */
import "../../src/api/check-dialect.js"; // the check harness's syntax and rules, which loomc registers
import assert from "node:assert/strict";
import { DiagnosticSink } from "../../src/core/diag/diagnostic.js";
import type { Predicate } from "../../src/ir/core.js";
import type { LaunchFunctionSource } from "../../src/launch/source.js";
import { parseModule } from "../../src/text/parser.js";
import { DEFAULT_LIMITS } from "./builder.js";

export const WORKLOAD_GRID = `kernel.def export("workload_grid") @workload_grid(%count: index) {
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

export const MATMUL16_CONFIG = `kernel.def export("matmul16") @matmul16(%m: index, %n: index) {
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

export const TILED = `kernel.def export("tiled") @tiled(%n: index, %scale: i32, %ratio: f32) where [range(%n, 0, 1000000), mul(%n, 4)] {
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

export function sourcesOf(text: string): LaunchFunctionSource[] {
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

/** Every parsed function the launch tests use. */
export const parsedSources = (): LaunchFunctionSource[] => [...sourcesOf(WORKLOAD_GRID), ...sourcesOf(MATMUL16_CONFIG), ...sourcesOf(TILED)];
