/**
 * The file-test driver (docs/testing.md): every test/cases/*.loom runs the stages its
 * `// RUN:` lines name and compares each output with its golden under test/golden/; every
 * file of the negative corpus (test/corpus/bad) has its rendered diagnostics as a golden.
 * `UPDATE=1` rewrites the goldens. Where the oracles are installed, each SPIR-V golden's
 * binary also passes spirv-val and our disassembly equals spirv-dis's.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { mkdtempSync, readFileSync, readdirSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { expectGolden, unclaimedGoldens, UPDATING } from "../util/golden.js";
import { fromRoot } from "../util/paths.js";
import { requireTool, runTool } from "../util/tools.js";
import { caseFiles, goldenPath, readCase, type Case, type RunLine } from "./case.js";
import { compileText, emitCase, launchText, reverify, preparedLowText, verifyText } from "./stages.js";
import { hsacoSummary } from "./hsaco-summary.js";
import { amdgpuListingOf } from "../../src/targets/amdgpu/index.js";
import { disassembleSpirv } from "../../src/targets/spirv/disassemble.js";
import { runPass } from "./passes.js";

let failures = 0;
/** Counts failures so UPDATE=1 never deletes the goldens of a case that crashed. */
function counted(fn: () => void): () => void {
  return () => {
    try {
      fn();
    } catch (e) {
      failures++;
      throw e;
    }
  };
}

const spirvBinaries: { name: string; bytes: Uint8Array; text: string }[] = [];
const ptxModules: { name: string; text: string; target: string }[] = [];

function runStage(c: Case, run: RunLine): void {
  switch (run.stage) {
    case "verify":
      return expectGolden(goldenPath(c, run, "txt"), verifyText(c.path, new TextEncoder().encode(c.text)));
    case "compile":
      return expectGolden(goldenPath(c, run, "txt"), compileText(c, run));
    case "prepared-low": {
      const text = preparedLowText(c, run);
      expectGolden(goldenPath(c, run, "loom"), text);
      return assert.deepEqual(reverify(goldenPath(c, run, "loom"), text), []);
    }
    case "spirv": {
      const { bytes } = emitCase(c, run);
      const text = disassembleSpirv(bytes);
      const path = goldenPath(c, run, "spvasm");
      spirvBinaries.push({ name: path, bytes, text });
      return expectGolden(path, text);
    }
    case "ptx": {
      const text = new TextDecoder().decode(emitCase(c, run).bytes);
      const path = goldenPath(c, run, "ptx");
      ptxModules.push({ name: path, text, target: run.options.get("target")?.[0]?.split(":")[1] ?? "sm_90" });
      return expectGolden(path, text);
    }
    case "wgsl":
      // Tint and naga check these modules in test/wgsl/kernels.test.ts.
      return expectGolden(goldenPath(c, run, "wgsl"), new TextDecoder().decode(emitCase(c, run).bytes));
    case "amdgpu": {
      // The AMDGPU back end's listing (test/amdgpu/codegen.test.ts checks it against llvm-mc-19).
      const listing = amdgpuListingOf(emitCase(c, run).bytes);
      assert.ok(listing !== undefined, "an AMDGPU listing");
      return expectGolden(goldenPath(c, run, "s"), listing);
    }
    case "launch":
      return expectGolden(goldenPath(c, run, "txt"), launchText(c, run));
    case "hsaco":
      return expectGolden(goldenPath(c, run, "txt"), hsacoSummary(emitCase(c, run).bytes));
    case "pass": {
      const { text, ext } = runPass(c, run);
      expectGolden(goldenPath(c, run, ext), text);
      if (ext === "loom") assert.deepEqual(reverify(goldenPath(c, run, ext), text), []);
      return;
    }
  }
}

for (const path of caseFiles()) {
  const c = readCase(path);
  for (const run of c.runs) {
    const label = `${run.stage}${run.pass ? ` ${run.pass}` : ""}`;
    test(`${path}:${run.line} ${label}`, counted(() => runStage(c, run)));
  }
}

const corpus = readdirSync(fromRoot("test", "corpus", "bad")).filter((f) => f.endsWith(".loom")).sort();
test("negative corpus: rendered diagnostics match test/golden/corpus-bad", counted(() => {
  assert.ok(corpus.length > 0);
  for (const file of corpus) {
    const path = `test/corpus/bad/${file}`;
    expectGolden(`corpus-bad/${file.replace(/\.loom$/, ".txt")}`, verifyText(path, new Uint8Array(readFileSync(fromRoot(path)))));
  }
}));

test("SPIR-V goldens: spirv-val accepts each binary", (t) => {
  if (!requireTool(t, "spirv-val", "apt-get install spirv-tools")) return;
  const dir = mkdtempSync(join(tmpdir(), "loom-golden-"));
  for (const { name, bytes } of spirvBinaries) {
    const file = join(dir, "k.spv");
    writeFileSync(file, bytes);
    const r = runTool("spirv-val", ["--target-env", "vulkan1.3", file]);
    assert.equal(r.status, 0, `${name}: ${r.stdout}${r.stderr}`);
  }
});

test("SPIR-V goldens: our disassembly prints each instruction as spirv-dis does", (t) => {
  if (!requireTool(t, "spirv-dis", "apt-get install spirv-tools")) return;
  assert.ok(spirvBinaries.length > 0, "no SPIR-V case ran");
  const dir = mkdtempSync(join(tmpdir(), "loom-golden-"));
  for (const { name, bytes, text } of spirvBinaries) {
    const file = join(dir, "k.spv");
    writeFileSync(file, bytes);
    const r = runTool("spirv-dis", ["--raw-id", "--no-header", "--no-indent", "--no-color", file]);
    assert.equal(r.status, 0, r.stderr);
    const ours = text.split("\n").filter((l) => l && !l.startsWith(";"));
    assert.deepEqual(ours, r.stdout.split("\n").filter((l) => l), name);
  }
});

test("PTX goldens: ptxas assembles each module for its target", (t) => {
  if (!requireTool(t, "ptxas", "ptxas comes with the CUDA toolkit of the machine image (docs/toolchain.md §4)")) return;
  assert.ok(ptxModules.length > 0, "no PTX case ran");
  const dir = mkdtempSync(join(tmpdir(), "loom-golden-"));
  for (const { name, text, target } of ptxModules) {
    const file = join(dir, "k.ptx");
    writeFileSync(file, text);
    const r = runTool("ptxas", [`-arch=${target}`, file, "-o", join(dir, "k.cubin")]);
    assert.equal(r.status, 0, `${name}: ${r.stdout}${r.stderr}`);
  }
});

// Last: a golden that no case produced is stale (node:test runs top-level tests in order).
test("every golden under test/golden belongs to a case", () => {
  if (UPDATING && failures > 0) return;
  assert.deepEqual(unclaimedGoldens(), [], "delete these goldens or restore their cases (UPDATE=1 deletes them)");
});
