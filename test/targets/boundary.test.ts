/**
 * A target package is one folder: outside src/targets/ no source file names a target, and
 * the layers below the targets do not import them (they learn record ops from
 * core/target-records.ts). The few files allowed to name one say why below.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";
import { fromRoot } from "../util/paths.js";

const TARGET_WORD = /amdgpu|spirv|ptx|wgsl|gfx\d|sm_\d/i;

/** Files outside src/targets/ that may name a target, and why. */
const ALLOWED: Readonly<Record<string, string>> = {
  "src/core/artifact.ts": "the executable format names the public API publishes (api.md §1)",
  "src/cli/compile.ts": "help text: example --target values",
  "src/cli/launch.ts": "help text and the default --target of `loom launch`",
  "src/cli/targets.ts": "usage messages with an example --target value",
  "src/harness/device.ts": "the kernel-suite harness runs kernels on Vulkan devices, which consume SPIR-V",
  "src/harness/index.ts": "re-exports the harness's SPIR-V environment",
  "src/harness/devices.ts": "the device providers: each runtime runs one target's executables (Vulkan SPIR-V, CUDA PTX)",
  "src/harness/device-sim.ts": "the sim device runs AMDGPU code objects in the ISA simulator",
  "src/harness/device-webgpu.ts": "the webgpu device runs WGSL",
  "src/harness/device-interp.ts": "the interp device compiles for a PTX profile and runs the prepared kernel in the interpreter",
  "src/harness/webgpu-worker.ts": "the webgpu device's worker runs WGSL",
  "src/cli/run.ts": "help text: which executable each --device runs",
  "src/cli/explanations.ts": "explanations of TARGET diagnostics name the flags and targets that fix them",
  "src/abi/conventions.ts": "names which kind of target uses each argument-passing convention",
  "src/browser.ts": "the browser entry bundles every target package, one namespace each",
  "src/browser-check.ts": "the browser check entry carries the SPIR-V disassembler for pages that show modules",
};
/** Folders whose files may: runtimes each consume one target's executables. */
const ALLOWED_FOLDERS = ["src/targets/", "src/runtime/"];

/** Layers below the target packages (docs/architecture.md): they must not import src/targets. */
const BELOW_TARGETS = ["src/ir/", "src/abi/", "src/core/", "src/dialects/", "src/text/", "src/bytecode/", "src/launch/", "src/passes/", "src/interp/"];

function sourceFiles(dir: string): string[] {
  const out: string[] = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) out.push(...sourceFiles(path));
    else if (entry.name.endsWith(".ts")) out.push(path);
  }
  return out;
}

const files = sourceFiles(fromRoot("src")).map((p) => ({ path: relative(fromRoot(), p).split("\\").join("/"), text: readFileSync(p, "utf8") }));

test("no source file outside src/targets/ names a target (but the listed exceptions)", () => {
  const offenders: string[] = [];
  for (const { path, text } of files) {
    if (ALLOWED_FOLDERS.some((f) => path.startsWith(f)) || ALLOWED[path]) continue;
    text.split("\n").forEach((line, i) => {
      if (TARGET_WORD.test(line)) offenders.push(`${path}:${i + 1}: ${line.trim()}`);
    });
  }
  assert.deepEqual(offenders, []);
  // An exception that no longer names a target should leave the list.
  for (const path of Object.keys(ALLOWED)) {
    const file = files.find((f) => f.path === path);
    assert.ok(file && TARGET_WORD.test(file.text), `${path} is allowed to name a target but does not (remove it from ALLOWED)`);
  }
});

test("the layers below the target packages do not import them", () => {
  const offenders: string[] = [];
  for (const { path, text } of files) {
    if (!BELOW_TARGETS.some((f) => path.startsWith(f))) continue;
    for (const m of text.matchAll(/from\s+"([^"]+)"|import\s+"([^"]+)"/g)) {
      const spec = m[1] ?? m[2] ?? "";
      if (/(^|\/)targets\//.test(spec)) offenders.push(`${path}: ${spec}`);
    }
  }
  assert.deepEqual(offenders, []);
});
