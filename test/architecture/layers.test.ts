/**
 * The layer rules of docs/architecture.md (.dependency-cruiser.cjs) hold for src/ and the
 * examples, and each kind of rule bites on a small fixture tree that breaks it on purpose.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { fromRoot } from "../util/paths.js";

const cli = fromRoot("node_modules/dependency-cruiser/bin/dependency-cruise.mjs");
const config = fromRoot(".dependency-cruiser.cjs");

interface Violation {
  readonly from: string;
  readonly to: string;
  readonly rule: { readonly name: string };
}

function cruise(cwd: string, paths: readonly string[]): Violation[] {
  const r = spawnSync(process.execPath, [cli, "--config", config, "--output-type", "json", ...paths], { cwd, encoding: "utf8", maxBuffer: 64 << 20 });
  assert.ok(r.stdout, `depcruise printed nothing: ${r.stderr}`);
  const report = JSON.parse(r.stdout) as { summary: { violations: Violation[]; totalCruised: number } };
  return report.summary.violations;
}

test("src/ and examples/ keep the layer order", () => {
  const violations = cruise(fromRoot(), ["src", "examples"]).map((v) => `${v.rule.name}: ${v.from} → ${v.to}`).sort();
  assert.deepEqual(violations, []);
});

test("each layer rule bites on a tree that breaks it", () => {
  const found = cruise(fromRoot("test/architecture/fixture"), ["src"]).map((v) => `${v.rule.name}: ${v.from} → ${v.to}`).sort();
  assert.deepEqual(found, [
    "cli uses the public API: src/cli/main.js → src/api/door.js",
    "entry points use the public API: src/cli/main.js → src/passes/pass.js",
    "layer src/ir: src/ir/probe.js → src/api/door.js",
    "layer src/runtime/[^/]+: src/runtime/gpu/index.js → src/targets/one/index.js",
    "layer src/targets/[^/]+: src/targets/one/index.js → src/targets/two/index.js",
    "only entry points import api: src/ir/probe.js → src/api/door.js",
  ]);
});
