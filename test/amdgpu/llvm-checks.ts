/**
 * The LLVM 19 checks every AMDGPU code object of ours must pass (docs/amdgpu.md "Tests"):
 * `llvm-objdump-19` decodes all of `.text` with no unknown words, `llvm-mc-19` assembles our
 * listing to our exact code bytes, and `llvm-readobj-19 --notes` register counts cover every
 * register the code names and LDS code has a group segment.
 */
import assert from "node:assert/strict";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { TestContext } from "node:test";
import { compileKernel, describeCheck, findDeviceProvider, runCase, type DeviceKernel, type KernelCase } from "../../src/harness/index.js";
import { SimRuntime } from "../../src/runtime/sim/index.js";
import { amdgpuListingOf } from "../../src/targets/amdgpu/index.js";
import { runTool } from "../util/tools.js";
import { fromRoot } from "../util/paths.js";
import { requireLlvm, withTempDir } from "./llvm.js";

/** The LLVM tools `checkWithLlvm` runs (for requireLlvm). */
export const LLVM_CHECK_TOOLS = ["llvm-objdump-19", "llvm-mc-19", "llvm-objcopy-19", "llvm-readobj-19"] as const;

function maxRegister(listing: string, prefix: "s" | "v"): number {
  let max = -1;
  for (const m of listing.matchAll(new RegExp(`\\b${prefix}(?:\\[(\\d+):(\\d+)\\]|(\\d+))\\b`, "g"))) max = Math.max(max, Number(m[2] ?? m[3]));
  return max;
}

/** Asserts the three LLVM agreements for one single-kernel code object and its listing. */
export function checkWithLlvm(bytes: Uint8Array, listing: string, processor: string): void {
  withTempDir((dir) => {
    const hsaco = join(dir, "k.hsaco");
    writeFileSync(hsaco, bytes);
    const dis = runTool("llvm-objdump-19", ["-d", `--mcpu=${processor}`, hsaco]);
    assert.equal(dis.status, 0, dis.stderr);
    assert.doesNotMatch(dis.stdout, /<unknown>|\.long\b/);
    // Our listing, assembled by llvm-mc-19, is our code byte for byte.
    writeFileSync(join(dir, "k.s"), listing.split("\n").slice(1).join("\n"));
    const mc = runTool("llvm-mc-19", ["-triple=amdgcn-amd-amdhsa", `-mcpu=${processor}`, "-filetype=obj", join(dir, "k.s"), "-o", join(dir, "k.o")]);
    assert.equal(mc.status, 0, mc.stderr);
    assert.equal(runTool("llvm-objcopy-19", ["-O", "binary", "--only-section=.text", join(dir, "k.o"), join(dir, "mc.bin")]).status, 0);
    assert.equal(runTool("llvm-objcopy-19", ["-O", "binary", "--only-section=.text", hsaco, join(dir, "ours.bin")]).status, 0);
    const ours = readFileSync(join(dir, "ours.bin"));
    const theirs = readFileSync(join(dir, "mc.bin"));
    // A single-kernel object starts its code at .text offset 0.
    assert.deepEqual([...ours.subarray(0, theirs.length)], [...theirs], "llvm-mc-19 encodes our listing differently");
    const notes = runTool("llvm-readobj-19", ["--notes", hsaco]).stdout;
    const sgprs = Number(/\.sgpr_count:\s+(\d+)/.exec(notes)?.[1]);
    const vgprs = Number(/\.vgpr_count:\s+(\d+)/.exec(notes)?.[1]);
    assert.ok(sgprs >= maxRegister(listing, "s") + 1, `.sgpr_count ${sgprs} < s${maxRegister(listing, "s")}`);
    assert.ok(vgprs >= maxRegister(listing, "v") + 1, `.vgpr_count ${vgprs} < v${maxRegister(listing, "v")}`);
    const lds = Number(/\.group_segment_fixed_size:\s+(\d+)/.exec(notes)?.[1]);
    const usesLds = /\bds_(?!bpermute|swizzle)/.test(listing);
    assert.ok(!usesLds || lds > 0, "LDS instructions with no group segment");
  });
}

/** One kernel of a `.loom` file, run on the simulator at each workload size. */
export interface SimKernelCheck {
  readonly file: string;
  readonly text: string;
  readonly symbol: string;
  readonly processor: string;
  readonly sizes: readonly number[];
  /** The device arguments for workload `n`, the `k`-th size (its random seed). */
  readonly args: (n: number, k: number) => KernelCase["args"];
}

/**
 * Compiles `symbol` for the simulator's `processor`, runs it at every size with the device
 * outputs compared against the reference interpreter's bit for bit, then (LLVM 19 there)
 * checks its code object with `checkWithLlvm`.
 */
export function checkKernelOnSimulator(t: TestContext, k: SimKernelCheck): void {
  const device = findDeviceProvider("sim")!.open(k.processor);
  const outcome = compileKernel(device.target, k.file, k.text, k.symbol);
  assert.ok(outcome.ok, outcome.ok ? "" : outcome.diagnostics);
  const kernel = outcome.kernel;
  const failures: string[] = [];
  for (const [i, n] of k.sizes.entries()) {
    const c: KernelCase = { label: `n=${n}`, workload: [n], args: k.args(n, i), bytesMoved: 0, reference: () => ({}) };
    const r = runCase(device, kernel, c, { referenceFromInterpreter: true });
    assert.ok(r.device.length > 0, `outputs were compared at n=${n}`);
    for (const check of r.device) if (check.mismatches > 0) failures.push(`n=${n} ${describeCheck(check)}`);
  }
  assert.deepEqual(failures, []);
  if (!requireLlvm(t, ...LLVM_CHECK_TOOLS)) return;
  const listing = amdgpuListingOf(kernel.executable);
  assert.ok(listing, "the listing of a code object this process emitted");
  checkWithLlvm(kernel.executable, listing, k.processor);
}

/**
 * Compiles `symbol` of `file` for `processor` and runs it once in the simulator over n
 * elements, n the first input's length: workload [n], arguments (n, the inputs…, out) with
 * `outBytesPerElement`·n output bytes. The accuracy tests compare the output with their own
 * CPU references (checkKernelOnSimulator compares with the interpreter instead).
 */
export function runOnSimulator(processor: string, file: string, symbol: string, inputs: readonly (Float32Array | Float64Array)[], outBytesPerElement: number): { out: ArrayBuffer; kernel: DeviceKernel } {
  const device = findDeviceProvider("sim")!.open(processor);
  const outcome = compileKernel(device.target, file, readFileSync(fromRoot(file), "utf8"), symbol);
  assert.ok(outcome.ok, outcome.ok ? "" : outcome.diagnostics);
  const n = inputs[0]?.length ?? 0;
  const rt = new SimRuntime();
  const module = rt.loadCodeObject(outcome.kernel.executable);
  const buffers = inputs.map((x, i) => {
    const b = rt.allocate(x.byteLength, `in${i}`);
    rt.upload(b, new Uint8Array(x.buffer, x.byteOffset, x.byteLength));
    return b;
  });
  const out = rt.allocate(outBytesPerElement * n, "out");
  const launch = outcome.kernel.launch([n]);
  rt.launch(module.kernel(symbol), launch.workgroupCount, [BigInt(n), ...buffers, out], { workgroupSize: launch.workgroupSize });
  return { out: rt.download(out).slice().buffer, kernel: outcome.kernel };
}
