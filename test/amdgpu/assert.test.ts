/**
 * `kernel.assert` on AMDGPU (lower/assert.ts): `s_trap 2` (the HSA trap handler ABI's
 * llvm.trap) behind a scalar branch on EXEC & ~ok. On gfx1100 and gfx942: LLVM 19 decodes and
 * re-assembles the code; in the simulator a passing dispatch matches the interpreter and a
 * failing one stops at the trap, naming the workgroup and wave (as the interpreter fails at
 * the op); `loom run --device sim` reports it as an error (exit 1). The simulator's s_trap is
 * also run on clang-19's llvm.trap (test/sim/opencl-ops/trap.cl).
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { compileKernel, findDeviceProvider, runCase, describeCheck, type KernelCase } from "../../src/harness/index.js";
import { amdgpuListingOf } from "../../src/targets/amdgpu/index.js";
import { SimRuntime } from "../../src/runtime/sim/index.js";
import { LoomError } from "../../src/core/errors.js";
import { fromRoot } from "../util/paths.js";
import { runTool } from "../util/tools.js";
import { requireLlvm } from "./llvm.js";
import { checkWithLlvm, LLVM_CHECK_TOOLS } from "./llvm-checks.js";
import { requireOpenclTools } from "../sim/opencl.js";

const FILE = "test/amdgpu/data/assert.loom";
const TEXT = readFileSync(fromRoot(FILE), "utf8");
const N = 100;

function inputs(bad: number | undefined): KernelCase {
  const a = Int32Array.from({ length: N }, (_, i) => (i === bad ? 5000 : (i * 37) % 1024));
  return { label: `bad=${bad}`, workload: [N], args: [{ kind: "scalar", name: "n", value: N }, { kind: "buffer", name: "a", data: a }, { kind: "buffer", name: "out", data: new Int32Array(N) }], bytesMoved: 0, reference: () => ({}) };
}

for (const processor of ["gfx1100", "gfx942"]) {
  test(`kernel.assert on ${processor}: s_trap 2 when a lane fails, LLVM agrees on the code`, (t) => {
    const device = findDeviceProvider("sim")!.open(processor);
    const outcome = compileKernel(device.target, FILE, TEXT, "checked");
    assert.ok(outcome.ok, outcome.ok ? "" : outcome.diagnostics);
    const kernel = outcome.kernel;
    const listing = amdgpuListingOf(kernel.executable)!;
    assert.match(listing, /s_cbranch_scc0 \.LBB\d+\n\ts_trap 2\n/);
    const pass = runCase(device, kernel, inputs(undefined), { referenceFromInterpreter: true });
    assert.deepEqual(pass.device.filter((c) => c.mismatches > 0).map(describeCheck), []);
    // Element 70 fails: workgroup 1 (64 per group), wave 0 of it on both wave sizes.
    assert.throws(() => runCase(device, kernel, inputs(70), { referenceFromInterpreter: true }), (e: unknown) => e instanceof LoomError && e.status === "failed-precondition" && /s_trap 2 .*kernel 'checked', workgroup \(1, 0, 0\), wave 0/.test(e.message));
    if (!requireLlvm(t, ...LLVM_CHECK_TOOLS)) return;
    checkWithLlvm(kernel.executable, listing, processor);
  });
}

test("loom run --device sim reports a failed kernel.assert as an error", () => {
  const dir = mkdtempSync(join(tmpdir(), "loom-assert-"));
  const failing = join(dir, "failing.loom");
  // Random inputs are in [0, 1024): a bound of 10 fails in the first workgroup.
  writeFileSync(failing, TEXT.replace("scalar.constant 1024 : i32", "scalar.constant 10 : i32"));
  const run = (file: string) => spawnSync(process.execPath, [fromRoot("dist/src/cli/main.js"), "run", file, "--device", "sim", "--workload", "100", "--size", "a=100", "--size", "out=100"], { encoding: "utf8" });
  const bad = run(failing);
  assert.equal(bad.status, 1, bad.stdout + bad.stderr);
  assert.match(bad.stderr, /s_trap 2 .*kernel\.assert.*workgroup \(0, 0, 0\)/);
  const good = run(fromRoot(FILE));
  assert.equal(good.status, 0, good.stdout + good.stderr);
  assert.match(good.stdout, /result\s+PASS/);
});

for (const mcpu of ["gfx1100", "gfx942"]) {
  test(`clang-19's llvm.trap (${mcpu}) stops the simulated dispatch exactly when an input is over 5`, (t) => {
    if (!requireOpenclTools(t)) return;
    const dir = mkdtempSync(join(tmpdir(), "loom-trap-"));
    const object = join(dir, "trap.o"), path = join(dir, "trap.hsaco");
    const cc = runTool("clang-19", ["-x", "cl", "-cl-std=CL2.0", "-target", "amdgcn-amd-amdhsa", `-mcpu=${mcpu}`, "-nogpulib", "-O2", "-c", fromRoot("test", "sim", "opencl-ops", "trap.cl"), "-o", object]);
    assert.equal(cc.status, 0, cc.stderr);
    const ld = runTool("ld.lld-19", ["-shared", object, "-o", path]);
    assert.equal(ld.status, 0, ld.stderr);
    const rt = new SimRuntime();
    const module = rt.loadCodeObject(new Uint8Array(readFileSync(path)));
    for (const bad of [undefined, 70, 3]) {
      const a = Uint32Array.from({ length: N }, (_, i) => (i === bad ? 9 : i % 6));
      const ba = rt.allocate(4 * N, "a"), bo = rt.allocate(4 * N, "out");
      rt.upload(ba, new Uint8Array(a.buffer));
      const launch = () => rt.launch(module.kernel("trap"), [2, 1, 1], [N, ba, bo], { workgroupSize: [64, 1, 1] });
      if (bad === undefined) {
        launch();
        assert.deepEqual([...new Uint32Array(rt.download(bo).slice().buffer)], [...a].map((x) => x + 1));
      } else assert.throws(launch, (e: unknown) => e instanceof LoomError && new RegExp(`s_trap 2 .*workgroup \\(${bad >> 6}, 0, 0\\)`).test(e.message));
    }
  });
}
