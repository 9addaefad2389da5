/**
 * `loom run --device cuda` and `--target cuda:device` (issue 14 item 3). Without a driver: exit 4
 * and a message naming libcuda.so.1. Against test/runtime/cuda/fake-driver (a libcuda stand-in
 * built with cc whose `saxpy` entry really computes y = a·x + y on host memory): the whole path
 * (PTX compile for the device's profile, module load, argument block, launch, download, compare
 * with the reference interpreter) passes, a kernel the fake does not run is a mismatch (exit 1),
 * --bench reports event timings and --json the one document.
 */
import { test, type TestContext } from "node:test";
import { tmpdir } from "node:os";
import assert from "node:assert/strict";
import { join } from "node:path";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { fromRoot } from "../util/paths.js";
import { requireTool, runTool } from "../util/tools.js";
import { doc, loomWith, tempDir, type Ran } from "./helpers.js";

/** saxpy laid out as the fake driver reads it: x @0, y @16, a @32, n @40. */
const FAKE_SAXPY = `// y = alpha * x + y, one invocation per element.
kernel.def export("ENTRY") @saxpy(%n: index) {
  %c1 = index.constant 1 : index
  %block = index.constant 128 : index
  %block_minus_one = index.constant 127 : index
  %n_padded = index.add %n, %block_minus_one : index
  %blocks = index.div %n_padded, %block : index
  kernel.launch.config workgroups(%blocks, %c1, %c1) workgroup_size(%block, %c1, %c1) : index
} launch(%x: buffer, %y: buffer, %alpha: f32, %n: index) {
  %i = kernel.workitem.dispatch.id<x> : index
  %origin = index.constant 0 : offset
  %x_view = buffer.view %x[%origin] : buffer -> view<[%n]xf32>
  %y_view = buffer.view %y[%origin] : buffer -> view<[%n]xf32>
  %in_range = index.cmp ult, %i, %n : index
  scf.if %in_range {
    %xi = view.load %x_view[%i] : view<[%n]xf32> -> f32
    %yi = view.load %y_view[%i] : view<[%n]xf32> -> f32
    %updated = scalar.fmaf %alpha, %xi, %yi : f32
    view.store %updated, %y_view[%i] : f32, view<[%n]xf32>
  }
  kernel.return
}
`;

let fakeLibrary: string | undefined;
function fake(t: TestContext): string | undefined {
  if (!requireTool(t, "cc", "apt-get install -y gcc (the C compiler builds the fake CUDA driver)")) return undefined;
  if (fakeLibrary === undefined) {
    const dir = mkdtempSync(join(tmpdir(), "loom-cli-fake-cuda-"));
    // Shared by the tests of this file; removed when the process ends.
    process.on("exit", () => rmSync(dir, { recursive: true, force: true }));
    fakeLibrary = join(dir, "libfakecuda.so");
    const r = runTool("cc", ["-shared", "-fPIC", "-O1", "-o", fakeLibrary, fromRoot("test/runtime/cuda/fake-driver/fake-cuda.c")]);
    assert.equal(r.status, 0, r.stderr);
  }
  return fakeLibrary;
}

function kernelFile(t: TestContext, entry: string): string {
  const file = join(tempDir(t), `${entry}.loom`);
  writeFileSync(file, FAKE_SAXPY.replace("ENTRY", entry));
  return file;
}

const SIZES = ["--workload", "1000", "--size", "x=1000", "--size", "y=1000", "--size", "alpha=2.5"];

test("loom run --device cuda without a driver exits 4 naming libcuda.so.1", (t) => {
  const r = loomWith({ env: { LOOM_CUDA_LIBRARY: "/nonexistent/libcuda.so.1" } }, "run", kernelFile(t, "saxpy"), "--device", "cuda", ...SIZES);
  assert.equal(r.code, 4, r.out + r.err);
  assert.match(r.err, /^loom run: no usable cuda device: cannot load the CUDA driver/m);
  assert.match(r.err, /libcuda\.so\.1/);
  assert.doesNotMatch(r.err, /    at /);
  const j = loomWith({ env: { LOOM_CUDA_LIBRARY: "/nonexistent/libcuda.so.1" } }, "run", kernelFile(t, "saxpy"), "--device", "cuda", ...SIZES, "--json");
  assert.equal(doc(j).error?.kind, "device");
  const target = loomWith({ env: { LOOM_CUDA_LIBRARY: "/nonexistent/libcuda.so.1" } }, "compile", kernelFile(t, "saxpy"), "--target", "cuda:device", "-o", "-");
  assert.notEqual(target.code, 0);
  assert.match(target.err, /libcuda\.so\.1/);
});

test("loom run --device cuda through the fake driver: pass, float sizes, --bench, --json", (t) => {
  const lib = fake(t);
  if (!lib) return;
  const run = (...args: string[]): Ran => loomWith({ env: { LOOM_CUDA_LIBRARY: lib, LOOM_CUDA_DEVICE: undefined } }, ...args);
  const file = kernelFile(t, "saxpy");
  const r = run("run", file, "--device", "cuda", ...SIZES, "--bench", "--repeat", "3");
  assert.equal(r.code, 0, r.out + r.err);
  assert.match(r.out, /^device +Fake Ampere A100 \(CUDA sm_80, driver \d+, warp 32\)$/m);
  assert.match(r.out, /^launch +workgroups=8x1x1 workgroup_size=128x1x1$/m);
  assert.match(r.out, /^y +device vs interpreter: max error 0 \(0 of 1000 differ\)$/m);
  assert.match(r.out, /^time +median [\d.]+ us over 3 runs/m);
  assert.match(r.out, /^result +PASS$/m);
  const j = doc(run("run", file, "--device", "cuda", ...SIZES, "--json", "--device-index", "H200"));
  assert.equal(j.ok, true);
  assert.equal(j.result.deviceName, "Fake NVIDIA H200");
  assert.equal(j.result.passed, true);
  // --max-steps bounds the interpreter, with a message that names the flag.
  const budget = run("run", file, "--device", "cuda", ...SIZES, "--max-steps", "50");
  assert.equal(budget.code, 2, budget.out + budget.err);
  assert.match(budget.err, /--max-steps/);
  // cuda:device: PTX for the device's processor.
  const ptx = run("compile", file, "--target", "cuda:device", "-o", "-");
  assert.equal(ptx.code, 0, ptx.err);
  assert.match(ptx.out, /^\.target sm_80$/m);
});

test("loom run --device cuda: a kernel that does not compute what the interpreter does exits 1", (t) => {
  const lib = fake(t);
  if (!lib) return;
  // The fake driver runs entries it knows (saxpy); 'other' launches but leaves y untouched.
  const r = loomWith({ env: { LOOM_CUDA_LIBRARY: lib, LOOM_CUDA_DEVICE: undefined } }, "run", kernelFile(t, "other"), "--device", "cuda", ...SIZES);
  assert.equal(r.code, 1, r.out + r.err);
  assert.match(r.out, /^y +device vs interpreter: max error [\d.]+ \(\d+ of 1000 differ\); first at \[\d+\]/m);
  assert.match(r.out, /^result +FAIL$/m);
});
