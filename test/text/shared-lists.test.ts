/**
 * Ops and regions start with shared empty lists (src/ir/core.ts: no results, no regions, no
 * region arguments) that every stage must replace, never push to. Compiling the whole kernel
 * suite in process to PTX (parse, verify, passes, lowering, printing) must leave them empty:
 * a stage pushing into one would give every later op phantom results.
 */
import "../../src/api/check-dialect.js"; // the check harness's syntax and rules, which loomc registers
import { test } from "node:test";
import assert from "node:assert/strict";
import { readdirSync, readFileSync } from "node:fs";
import { Compiler, Context, PassProgram, Source, Workspace, compileModule, emitModule } from "../../src/index.js";
import { createPtxProfile, createPtxTargetEnvironment } from "../../src/targets/ptx/index.js";
import { Op, Region } from "../../src/ir/core.js";
import { DiagnosticSink } from "../../src/core/diag/diagnostic.js";
import { parseModule } from "../../src/text/parser.js";
import { printModule } from "../../src/text/printer.js";
import { fromRoot } from "../util/paths.js";

test("compiling the kernel suite leaves the shared empty IR lists empty", () => {
  const env = createPtxTargetEnvironment();
  const context = Context.create({ targetEnvironments: [env] });
  const profile = createPtxProfile(env, { identifier: "lists", identity: { target: "sm_90" } });
  const compiler = Compiler.create(context);
  const pipeline = PassProgram.fromTargetPipeline(context, { kind: "prepared-low" }).value!;
  const workspace = new Workspace(context);
  const dir = fromRoot("examples/kernels");
  let compiled = 0;
  for (const file of readdirSync(dir).filter((f) => f.endsWith(".loom"))) {
    const text = readFileSync(`${dir}/${file}`, "utf8");
    const ir = parseModule(file, text, new DiagnosticSink());
    printModule(ir);
    const kernels = ir.ops.filter((o) => o.name === "kernel.def").map((o) => o.symbol!);
    const module = workspace.parseModule(Source.fromText(file, text)).value!;
    const c = compileModule(compiler, workspace, pipeline, module, { specializations: kernels.map((k) => ({ functionSymbol: k, targetProfile: profile })), artifacts: { launchConfig: true } });
    assert.ok(c.ok, c.formatDiagnostics());
    const e = emitModule(env, workspace, module, { artifactFormat: "ptx" });
    assert.ok(e.ok, e.formatDiagnostics());
    compiled += kernels.length;
  }
  assert.ok(compiled >= 10, `compiled ${compiled} kernels`);
  const op = new Op("probe");
  const region = new Region(op);
  assert.equal(op.results.length, 0);
  assert.equal(op.regions.length, 0);
  assert.equal(region.args.length, 0);
  // The lists are shared: a fresh op's are the same (empty) arrays as every other's.
  assert.equal(new Op("other").results, op.results);
});
