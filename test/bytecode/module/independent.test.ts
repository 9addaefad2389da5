/**
 * The writer's output checked by a reader written from the format description
 * (./independent-module-reader.ts), against the IR the text parser builds.
 */
import "../../../src/api/check-dialect.js"; // the check harness's syntax and rules, which loomc registers
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { DiagnosticSink } from "../../../src/core/diag/diagnostic.js";
import type { Module, Op } from "../../../src/ir/core.js";
import { typeToString } from "../../../src/ir/types.js";
import { parseModule } from "../../../src/text/parser.js";
import { writeModuleBytecode } from "../../../src/bytecode/module/writer.js";
import { validLoomFiles } from "../../../bench/fuzz/corpus.js";
import { fromRoot, repoRoot } from "../../util/paths.js";
import { readModuleSummary, type SummaryOp } from "./independent-module-reader.js";

function summarize(op: Op): SummaryOp {
  return {
    name: op.name,
    comments: [...op.comments],
    blankBefore: op.blankBefore,
    args: op.regions.map((r) => r.args.map((a) => `%${a.name}: ${typeToString(a.type)}`)),
    operands: op.operands.map((v) => `%${v.name}`),
    propKeys: Object.keys(op.props),
    results: op.results.map((v) => `%${v.name}: ${typeToString(v.type)}`),
    regions: op.regions.map((r) => r.ops.map(summarize)),
  };
}

function symbols(m: Module) {
  return m.ops.flatMap((op, position) => (typeof op.props.symbol === "string" ? [{ name: op.props.symbol, op: op.name, position }] : []));
}

for (const file of validLoomFiles(repoRoot)) {
  test(`independent reader: ${file}`, () => {
    const m = parseModule(file, readFileSync(fromRoot(file), "utf8"), new DiagnosticSink());
    for (const [locations, mode] of [["full", 2], ["lines", 0], ["none", 1]] as const) {
      const s = readModuleSummary(writeModuleBytecode(m, { locations }));
      assert.equal(s.locationMode, mode);
      assert.deepEqual(s.ops, m.ops.map(summarize));
      assert.deepEqual(s.trailingComments, m.trailingComments);
      assert.deepEqual(s.symbols, symbols(m));
    }
  });
}
