/**
 * gfx90a device- and system-scope atomics and fences (AMDGPUUsage's GFX90A memory model,
 * non-tgsplit): selection.loom's atomic kernels compile for gfx90a and pass the LLVM checks
 * (llvm-objdump-19 decodes them, llvm-mc-19 re-assembles our listing to our bytes), and the
 * cache operations and cache bits of `scoped_atomics` are llc-19's for the same atomics
 * (test/amdgpu/data/gfx90a-scoped-atomics.ll): `buffer_wbinvl1_vol` after a device-scope
 * acquire, `buffer_wbl2` before a system-scope release, `buffer_invl2` + `buffer_wbinvl1_vol`
 * after a system-scope acquire, `glc` on atomic loads. (The simulator runs gfx1100 and gfx942
 * only; gfx90a's results rest on the same selection as gfx942's, which it runs.)
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { compileKernel } from "../../src/harness/index.js";
import { amdgpuListingOf } from "../../src/targets/amdgpu/index.js";
import { fromRoot } from "../util/paths.js";
import { runTool } from "../util/tools.js";
import { env, profile } from "./fixtures.js";
import { requireLlvm, withFile, withTempDir } from "./llvm.js";
import { checkWithLlvm, LLVM_CHECK_TOOLS } from "./llvm-checks.js";

const FILE = "test/amdgpu/data/selection.loom";
const TEXT = readFileSync(fromRoot(FILE), "utf8");
const target = { environment: env, profile: profile("gfx90a"), artifactFormat: "amdgpu-hsaco" };

function build(symbol: string): Uint8Array {
  const outcome = compileKernel(target, FILE, TEXT, symbol);
  assert.ok(outcome.ok, outcome.ok ? "" : outcome.diagnostics);
  return outcome.kernel.executable;
}

/** The memory and cache instructions of a disassembly, with their cache bits (waits and ALU dropped). */
function memoryOps(disassembly: string): string[] {
  const out: string[] = [];
  for (const line of disassembly.split("\n")) {
    const m = /^\s+((?:global|buffer)_\w+)([^/]*)/.exec(line);
    if (!m) continue;
    const bits = m[2]!.split(/[\s,]+/).filter((w) => w === "glc" || w === "slc" || w === "scc");
    out.push([m[1], ...bits].join(" "));
  }
  return out;
}

for (const symbol of ["scoped_atomics", "atomic_access", "wide_cmpxchg", "ordered_atomics"]) {
  test(`${symbol} compiles for gfx90a and passes the LLVM checks`, (t) => {
    const bytes = build(symbol);
    if (!requireLlvm(t, ...LLVM_CHECK_TOOLS)) return;
    const listing = amdgpuListingOf(bytes);
    assert.ok(listing);
    checkWithLlvm(bytes, listing, "gfx90a");
  });
}

test("gfx90a scoped_atomics: the cache operations and bits are llc-19's for the same atomics", (t) => {
  if (!requireLlvm(t, "llc-19", "llvm-objdump-19")) return;
  const ours = withFile(build("scoped_atomics"), (path) => memoryOps(runTool("llvm-objdump-19", ["-d", "--mcpu=gfx90a", path]).stdout));
  const theirs = withTempDir((dir) => {
    const object = join(dir, "k.o");
    const llc = runTool("llc-19", ["-mtriple=amdgcn-amd-amdhsa", "-mcpu=gfx90a", "-O2", "-amdgpu-atomic-optimizer-strategy=None", "-filetype=obj", fromRoot("test", "amdgpu", "data", "gfx90a-scoped-atomics.ll"), "-o", object]);
    assert.equal(llc.status, 0, llc.stderr);
    return memoryOps(runTool("llvm-objdump-19", ["-d", "--mcpu=gfx90a", object]).stdout);
  });
  // llc-19 expands a system-scope max into a load + compare-exchange loop (the memory might be
  // fine-grained); loom assumes coarse-grained memory (docs/amdgpu.md) and uses the atomic.
  const loop = theirs.findIndex((op, i) => op === "global_load_dword" && theirs[i + 1] === "buffer_wbl2" && theirs[i + 2] === "global_atomic_cmpswap glc" && i > 8);
  assert.ok(loop > 0, `llc-19's compare-exchange loop for the max: ${theirs.join("; ")}`);
  theirs.splice(loop, 3, "buffer_wbl2", "global_atomic_smax");
  assert.deepEqual(ours, theirs);
});
