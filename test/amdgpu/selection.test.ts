/**
 * Selection coverage of the v1 device subset on AMDGPU.
 *
 * 1. Registry coverage: every op the registry places in kernel bodies (placement D) has a
 *    rule in AMDGPU_RULES, or a reason of its own (never the catch-all for unreviewed ops)
 *    that docs/amdgpu.md's "Not selected" table names, so a new device op fails here until
 *    the back end decides its fate (terminators and ops resolved before lowering keep the
 *    shared NEVER_LOWERED reasons).
 * 2. The selection kernels (test/amdgpu/data/selection.loom: ops the suite does not use) on
 *    gfx1100 (wave32) and gfx942 (wave64): LLVM 19 decodes and re-assembles them to our
 *    bytes (llvm-checks.ts), the simulator's decoder reads every word as llvm-objdump-19
 *    does, and the ISA simulator's results equal the reference
 *    interpreter's at several sizes (1, primes, non-multiples of the workgroup size).
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { OP_INFOS } from "../../src/dialects/registry.js";
import { NEVER_LOWERED } from "../../src/dialects/lowering.js";
import { AMDGPU_RULES, UNREVIEWED } from "../../src/targets/amdgpu/lower/rules.js";
import { compileKernel, findDeviceProvider, genericCase, runCase, describeCheck } from "../../src/harness/index.js";
import { amdgpuListingOf } from "../../src/targets/amdgpu/index.js";
import { fromRoot } from "../util/paths.js";
import { decodeRange, loadCodeObject } from "../../src/runtime/sim/index.js";
import { llvmListing } from "../sim/llvm-listing.js";
import { requireLlvm, withFile } from "./llvm.js";
import { checkWithLlvm, LLVM_CHECK_TOOLS } from "./llvm-checks.js";

const DOC = readFileSync(fromRoot("docs", "amdgpu.md"), "utf8");
const NOT_SELECTED_TABLE = DOC.slice(DOC.indexOf("### Not selected"));

test("every device op of the registry has an AMDGPU rule or a documented reason", () => {
  const undecided: string[] = [];
  const undocumented: string[] = [];
  for (const info of OP_INFOS) {
    if (!info.placement.includes("D")) continue;
    const entry = (AMDGPU_RULES as Record<string, unknown>)[info.name];
    // Terminators and ops resolved before lowering carry the shared table's reasons.
    if (typeof entry === "function" || Object.hasOwn(NEVER_LOWERED, info.name)) continue;
    const reason = (entry as { unsupported?: string } | undefined)?.unsupported;
    if (reason === undefined || reason === UNREVIEWED.unsupported) undecided.push(info.name);
    else if (!NOT_SELECTED_TABLE.includes(`\`${info.name}\``)) undocumented.push(info.name);
  }
  assert.deepEqual(undecided, [], "device ops with neither a rule nor a reason of their own");
  assert.deepEqual(undocumented, [], "refused device ops missing from docs/amdgpu.md's 'Not selected' table");
});

const FILE = "test/amdgpu/data/selection.loom";
const TEXT = readFileSync(fromRoot(FILE), "utf8");

/** Kernel, element counts per buffer for workload n, and the workload sizes run. */
const CASES: readonly { readonly symbol: string; readonly sizes: (n: number) => Record<string, number>; readonly ns: readonly number[] }[] = [
  { symbol: "integer_extras", sizes: (n) => ({ a: n, out: 8 * n }), ns: [1, 37, 130] },
  { symbol: "float_extras", sizes: (n) => ({ a: n, b: n, out: 4 * n }), ns: [1, 61, 200] },
  { symbol: "while_loops", sizes: (n) => ({ a: n, out: 2 * n }), ns: [1, 29, 131] },
  { symbol: "shuffles", sizes: (n) => ({ a: n, f: n, out: 8 * n }), ns: [1, 45, 128, 190] },
  { symbol: "integer_division", sizes: (n) => ({ a: n, b: n, out: 20 * n }), ns: [1, 37, 130] },
  { symbol: "atomic_access", sizes: (n) => ({ a: n, out: 4 * n }), ns: [1, 37, 130] },
  { symbol: "bit_counts", sizes: (n) => ({ a: n, b: n, out: 16 * n }), ns: [1, 37, 130] },
  { symbol: "rounding_dot", sizes: (n) => ({ a: n, b: n, out: 4 * n }), ns: [1, 61, 200] },
  { symbol: "scoped_atomics", sizes: (n) => ({ a: n, out: 4 * n }), ns: [1, 37, 130] },
  { symbol: "ordered_atomics", sizes: (n) => ({ a: n, out: Math.ceil(n / 64) }), ns: [1, 63, 200] },
  { symbol: "wide_cmpxchg", sizes: (n) => ({ a: n, out: 8 * n }), ns: [0, 1, 37, 64, 131] },
  { symbol: "dynamic_size", sizes: (n) => ({ out: 16 * n }), ns: [0, 1, 2, 13, 37, 64, 131] },
  { symbol: "private_memory", sizes: (n) => ({ a: n, out: 4 * n }), ns: [0, 1, 37, 64, 131] },
];

for (const processor of ["gfx1100", "gfx942"]) {
  for (const c of CASES) {
    test(`${c.symbol} on ${processor}: LLVM agrees on the code and the simulator matches the interpreter`, (t) => {
      const device = findDeviceProvider("sim")!.open(processor);
      const outcome = compileKernel(device.target, FILE, TEXT, c.symbol);
      assert.ok(outcome.ok, outcome.ok ? "" : outcome.diagnostics);
      const kernel = outcome.kernel;
      const failures: string[] = [];
      for (const [k, n] of c.ns.entries()) {
        const r = runCase(device, kernel, genericCase(kernel, [n], c.sizes(n), 11 + k), { referenceFromInterpreter: true });
        for (const check of r.device) if (check.mismatches > 0) failures.push(`n=${n} ${describeCheck(check)}`);
      }
      assert.deepEqual(failures, []);
      if (!requireLlvm(t, ...LLVM_CHECK_TOOLS)) return;
      const listing = amdgpuListingOf(kernel.executable);
      assert.ok(listing, "the listing of a code object this process emitted");
      checkWithLlvm(kernel.executable, listing, processor);
      // The simulator's decoder reads every word as llvm-objdump-19 does (name and size).
      const bytes = kernel.executable;
      const co = loadCodeObject(bytes);
      const text = co.elf.sections.find((sec) => sec.name === ".text");
      assert.ok(text, "a .text section");
      const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
      const ours = decodeRange(co.family, (a) => view.getUint32(text.offset + (a - text.address), true), text.address, text.address + text.size);
      const theirs = withFile(bytes, (path) => llvmListing(path, processor));
      assert.deepEqual(ours.map((i) => [i.address, i.name, i.size]), theirs.map((r) => [r.address, r.mnemonic, r.size]));
    });
  }
}
