/**
 * The operand, result and region counts each op declares (src/dialects/ops, `operands` / `results` / `regions`) are
 * what `OpOf<N>` types as tuples, so they must hold for every verified op: checked here on every
 * `.loom` file of the repository that verifies (sources, examples, fixtures, and the
 * prepared-low goldens, which are the pipeline's output printed).
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";
import type { Arity } from "../../src/dialects/decl.js";
import { OP_INFOS, opInfo } from "../../src/dialects/registry.js";
import type { Op, Region } from "../../src/ir/core.js";
import { runFrontEnd } from "../corpus/harness.js";
import { fromRoot } from "../util/paths.js";

function* looms(dir: string): Generator<string> {
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, e.name);
    if (e.isDirectory()) yield* looms(p);
    else if (e.name.endsWith(".loom")) yield p;
  }
}

function fits(count: number, a: Arity | undefined): boolean {
  return a === undefined || (typeof a === "number" ? count === a : count >= a.min);
}

function* opsIn(ops: readonly Op[]): Generator<Op> {
  for (const op of ops) {
    yield op;
    for (const r of op.regions as readonly Region[]) yield* opsIn(r.ops);
  }
}

test("every verified op has the operand, result and region counts its declaration states", () => {
  const wrong: string[] = [];
  const seen = new Set<string>();
  let files = 0;
  for (const dir of ["test", "examples", "bench"]) {
    for (const file of looms(fromRoot(dir))) {
      const r = runFrontEnd(relative(fromRoot(), file), readFileSync(file));
      if (!r.verified || !r.module || r.diagnostics.some((d) => d.severity === "error")) continue;
      files++;
      for (const op of opsIn(r.module.ops)) {
        const info = opInfo(op.name);
        if (!info) continue;
        seen.add(op.name);
        if (!fits(op.operands.length, info.operands)) wrong.push(`${r.module.sourceName}: ${op.name} has ${op.operands.length} operands, declared ${JSON.stringify(info.operands)}`);
        if (!fits(op.results.length, info.results)) wrong.push(`${r.module.sourceName}: ${op.name} has ${op.results.length} results, declared ${JSON.stringify(info.results)}`);
        if (!fits(op.regions.length, info.regions)) wrong.push(`${r.module.sourceName}: ${op.name} has ${op.regions.length} regions, declared ${JSON.stringify(info.regions)}`);
      }
    }
  }
  assert.deepEqual(wrong, []);
  assert.ok(files > 50, `only ${files} files verified`);
  // The corpus exercises most ops; the count guards against the walk silently seeing none.
  assert.ok(seen.size > 100, `only ${seen.size} distinct ops seen`);
});

test("generic syntax forms agree with the declared operand counts", () => {
  for (const info of OP_INFOS) {
    const s = info.syntax;
    if (s.form === "arith" || s.form === "operands") assert.equal(info.operands, s.arity, info.name);
    if (s.form === "words") assert.equal(info.operands, s.separators.length + 1, info.name);
    if (s.form === "cmp") assert.equal(info.operands, 2, info.name);
    if (s.form === "cast") assert.equal(info.operands, 1, info.name);
    if (s.form === "constant") assert.equal(info.operands, 0, info.name);
    if (info.types?.kind === "uniform") assert.equal(info.operands, info.types.arity, info.name);
  }
});

test("every op outside the check harness states its counts", () => {
  const missing = OP_INFOS.filter((i) => !i.name.startsWith("check.") && i.placement !== "H" && (i.operands === undefined || i.results === undefined)).map((i) => i.name);
  assert.deepEqual(missing, []);
});
