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

/**
 * Violations that issue 7's work is removing (a ratchet: it may only shrink). A new violation
 * fails, and so does a listed one that is gone (delete it from the list).
 */
const KNOWN: readonly string[] = [
  'cli uses the public API: src/cli/common.ts → src/api/context.ts',
  'cli uses the public API: src/cli/common.ts → src/api/link.ts',
  'cli uses the public API: src/cli/common.ts → src/api/module.ts',
  'cli uses the public API: src/cli/common.ts → src/api/result.ts',
  'cli uses the public API: src/cli/common.ts → src/api/source.ts',
  'cli uses the public API: src/cli/common.ts → src/api/workspace.ts',
  'cli uses the public API: src/cli/compile.ts → src/api/compile.ts',
  'cli uses the public API: src/cli/compile.ts → src/api/context.ts',
  'cli uses the public API: src/cli/launch.ts → src/api/compile.ts',
  'cli uses the public API: src/cli/launch.ts → src/api/context.ts',
  'cli uses the public API: src/cli/link.ts → src/api/link.ts',
  'cli uses the public API: src/cli/link.ts → src/api/result.ts',
  'cli uses the public API: src/cli/run-engine.ts → src/api/compile.ts',
  'cli uses the public API: src/cli/run-engine.ts → src/api/context.ts',
  'cli uses the public API: src/cli/run-engine.ts → src/api/source.ts',
  'cli uses the public API: src/cli/run-engine.ts → src/api/workspace.ts',
  'entry points use the public API: src/cli/common.ts → src/core/target.ts',
  'entry points use the public API: src/cli/launch.ts → src/ir/types.ts',
  'entry points use the public API: src/cli/launch.ts → src/launch/program.ts',
  'entry points use the public API: src/cli/link.ts → src/core/diag/diagnostic.ts',
  'entry points use the public API: src/cli/link.ts → src/passes/link/linker.ts',
  'entry points use the public API: src/cli/link.ts → src/passes/verify/index.ts',
  'entry points use the public API: src/cli/main.ts → src/core/errors.ts',
  'entry points use the public API: src/cli/run-engine.ts → src/core/errors.ts',
  'entry points use the public API: src/cli/run-engine.ts → src/core/prepared.ts',
  'entry points use the public API: src/cli/run-engine.ts → src/core/target.ts',
  'entry points use the public API: src/cli/run-engine.ts → src/interp/index.ts',
  'entry points use the public API: src/cli/run-engine.ts → src/ir/core.ts',
  'entry points use the public API: src/cli/run-engine.ts → src/ir/types.ts',
  'entry points use the public API: src/cli/run-engine.ts → src/ir/walk.ts',
  'entry points use the public API: src/cli/run-engine.ts → src/launch/program.ts',
  'entry points use the public API: src/cli/run-engine.ts → src/runtime/vulkan/args.ts',
  'entry points use the public API: src/cli/run-engine.ts → src/runtime/vulkan/buffer.ts',
  'entry points use the public API: src/cli/run-engine.ts → src/runtime/vulkan/profile.ts',
  'entry points use the public API: src/cli/run-engine.ts → src/runtime/vulkan/runtime.ts',
  'entry points use the public API: src/cli/run-engine.ts → src/targets/spirv/environment.ts',
  'entry points use the public API: src/cli/run-engine.ts → src/targets/spirv/profile.ts',
  'entry points use the public API: src/cli/run.ts → src/runtime/vulkan/runtime.ts',
  'entry points use the public API: src/cli/targets.ts → src/core/target.ts',
  'examples use the public API: examples/kernels/suite.ts → src/cli/run-engine.ts',
  'layer src/runtime/[^/]+: src/runtime/vulkan/profile.ts → src/targets/spirv/profile.ts',
];

test("src/ and examples/ keep the layer order", () => {
  const violations = cruise(fromRoot(), ["src", "examples"]).map((v) => `${v.rule.name}: ${v.from} → ${v.to}`).sort();
  assert.deepEqual(violations, [...KNOWN].sort());
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
