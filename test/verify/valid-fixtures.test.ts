/**
 * Positive ground truth: every valid fixture (the language.md §10 examples, the seed kernel
 * and the op-coverage files in test/fixtures/valid) parses and verifies without a diagnostic.
 */
import "../../src/api/check-dialect.js"; // the check harness's syntax and rules, which loomc registers
import { test } from "node:test";
import assert from "node:assert/strict";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { fromRoot } from "../util/paths.js";
import { parseModule } from "../../src/text/parser.js";
import { verifyModule } from "../../src/passes/verify/index.js";
import { DiagnosticSink } from "../../src/core/diag/diagnostic.js";
// The target packages' record ops (amdgpu.target, spirv.target) that the sources use.
import "../../src/targets/registry.js";

const dir = fromRoot("test", "fixtures", "valid");
const files = existsSync(dir) ? readdirSync(dir).filter((f) => f.endsWith(".loom")).sort() : [];

test("valid fixtures exist", () => {
  assert.ok(files.length > 0, `no .loom files in ${dir}`);
});

/**
 * Syntax-coverage fixtures that break a semantic rule on purpose or by accident; the
 * verifier must report exactly these (a fixture fix shows up here as a failure to update).
 *  - toplevel_ops.loom: a `view` device argument in a kernel.decl (language.md §4.1: views
 *    as device args are out of v1) → TYPE/013;
 *  - vector_control_ops.loom: `template.call pure` of a provider not marked `pure` (§4.8) →
 *    STRUCTURE/034.
 */
const KNOWN_SEMANTIC_ERRORS: Readonly<Record<string, readonly string[]>> = {};

for (const file of files) {
  const known = KNOWN_SEMANTIC_ERRORS[file] ?? [];
  test(`valid fixture ${file} verifies ${known.length ? `with only ${known.join(", ")}` : "cleanly"}`, () => {
    const text = readFileSync(join(dir, file), "utf8");
    const sink = new DiagnosticSink(100);
    const module = parseModule(file, text, sink);
    assert.deepEqual(sink.diagnostics.map((d) => `${d.code} ${d.location?.line}:${d.location?.column} ${d.message}`), [], "parses cleanly");
    const info = verifyModule(module, sink);
    assert.deepEqual(sink.diagnostics.map((d) => d.code), known, sink.diagnostics.map((d) => `${d.code} ${d.location?.line}:${d.location?.column} ${d.message}`).join("\n"));
    assert.equal(info.ok, known.length === 0);
  });
}

test("block_sum: barriers outside the lane-dependent branches are uniform", () => {
  const file = join(dir, "block_sum.loom");
  if (!existsSync(file)) return;
  const sink = new DiagnosticSink();
  const module = parseModule("block_sum.loom", readFileSync(file, "utf8"), sink);
  const info = verifyModule(module, sink);
  let barriers = 0;
  const visit = (ops: typeof module.ops) => {
    for (const op of ops) {
      if (op.name === "kernel.barrier") {
        barriers++;
        assert.equal(info.uniformity.controlOf(op), "uniform");
      }
      for (const r of op.regions) visit(r.ops);
    }
  };
  visit(module.ops);
  assert.equal(barriers, 2);
});
