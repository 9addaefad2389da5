/**
 * A page with a strict Content-Security-Policy (no 'unsafe-eval'): `new Function` and `eval`
 * throw there. Bundle `LaunchConfigProgram` for the browser with esbuild, run it in a
 * `node:vm` context whose code generation from strings is off, and evaluate the seed
 * kernel's launch (language.md §10 (a): 1009 elements → 16×1×1 workgroups of 64): `load`
 * detects the policy and builds the closure evaluator.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { createContext, runInContext } from "node:vm";
import { build } from "esbuild";
import { ARTIFACT_FORMAT, compileModule } from "../../src/index.js";
import { fromRoot } from "../util/paths.js";
import { SEED_KERNEL, prepared } from "../api/helpers.js";

function seedLaunchConfigBytes(): Uint8Array {
  const s = prepared();
  const compiled = compileModule(s.compiler, s.workspace, s.pipeline, s.parse(SEED_KERNEL).value!, {
    specializations: [{ functionSymbol: "@workload_grid", targetProfile: s.profile }],
    artifacts: { launchConfig: true },
  });
  assert.equal(compiled.state, "succeeded", compiled.formatDiagnostics());
  return compiled.findArtifact("launch-config", ARTIFACT_FORMAT.LOOM_BYTECODE)!.contents;
}

test("under a no-eval policy, load falls back to closures and evaluates the seed kernel launch", async () => {
  const out = await build({
    stdin: { contents: `export { LaunchConfigProgram, createLaunchConfig } from ${JSON.stringify(fromRoot("src/launch/program.ts"))};`, resolveDir: fromRoot("."), loader: "ts" },
    bundle: true,
    platform: "browser",
    format: "iife",
    globalName: "loomLaunch",
    write: false,
    logLevel: "silent",
  });
  assert.deepEqual(out.errors, []);

  // What a strict-CSP page offers: no process/require/Buffer, and no code from strings.
  const page = createContext({ TextEncoder, TextDecoder }, { codeGeneration: { strings: false, wasm: false } });
  runInContext(out.outputFiles[0]!.text, page);
  const bytes = Array.from(seedLaunchConfigBytes());
  const result = runInContext(
    `(() => {
      const refused = (f) => { try { f(); return false; } catch (e) { return e instanceof EvalError; } };
      const L = loomLaunch;
      const p = L.LaunchConfigProgram.load(new Uint8Array(${JSON.stringify(bytes)}));
      const fn = p.lookupFunction("workload_grid");
      const viaBits = p.invoke(fn, [1009n]);
      const out = L.createLaunchConfig();
      p.invokeInto(fn, [1009n], out);
      const viaNumbers = p.invokeNumbers(fn, [1009]);
      let error;
      try { p.invokeNumbers(fn, [-64]); } catch (e) { error = e.status + ": " + e.message; }
      return JSON.stringify({
        functionRefused: refused(() => new Function("return 1")),
        evalRefused: refused(() => eval("1")),
        evaluator: p.evaluator,
        viaBits, into: out, viaNumbers, error,
      });
    })()`,
    page,
  ) as string;
  const r = JSON.parse(result) as Record<string, unknown>;
  assert.equal(r.functionRefused, true, "new Function must throw EvalError in this context");
  assert.equal(r.evalRefused, true, "eval must throw EvalError in this context");
  assert.equal(r.evaluator, "closures");
  const seed = { workgroupCount: [16, 1, 1], workgroupSize: [64, 1, 1], workgroupClusterSize: [1, 1, 1], subgroupSize: 32, workgroupStorageBytes: 0 };
  assert.deepEqual(r.viaBits, seed);
  assert.deepEqual(r.into, seed);
  assert.deepEqual(r.viaNumbers, seed);
  assert.equal(r.error, "out-of-range: k.loom:7:22: launch-config function 'workload_grid': index.div (op 4) has no defined result: dividend -1 is negative");
});
