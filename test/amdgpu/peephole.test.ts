/**
 * The AMDGPU selection cleanups that bring the code near clang-19 -O2 (docs/amdgpu.md "Code
 * quality"), on test/amdgpu/data/peephole.loom for gfx1100 (wave32) and gfx942 (wave64):
 * the simulator's results equal the reference interpreter's at several sizes, LLVM 19
 * decodes and re-assembles the code to our bytes, and the listing shows the cleanup:
 *   - multiples: sums of multiples of one value are shifts and shift-adds of it;
 *   - offsets: accesses at k + c share k's address, c in the offset field (not past 4095 bytes);
 *   - shifts: a shift of a shift is one shift, a sum with a shift one v_lshl_add_u32;
 *   - uniform_guards: a uniform compare is not shared (its s_cselect may become a branch on SCC);
 *   - guarded: a row's address is computed once outside per-element guards, and no EXEC
 *     restore precedes `s_endpgm`.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { compileKernel, findDeviceProvider, genericCase, runCase, describeCheck } from "../../src/harness/index.js";
import { amdgpuListingOf } from "../../src/targets/amdgpu/index.js";
import { fromRoot } from "../util/paths.js";
import { requireLlvm } from "./llvm.js";
import { checkWithLlvm, LLVM_CHECK_TOOLS } from "./llvm-checks.js";

const FILE = "test/amdgpu/data/peephole.loom";
const TEXT = readFileSync(fromRoot(FILE), "utf8");

/** The instructions of a listing (mnemonic and operands), labels and directives dropped. */
const instructions = (listing: string) => listing.split("\n").map((l) => l.trim()).filter((l) => /^[sv]_|^global_|^ds_/.test(l));
const count = (lines: readonly string[], re: RegExp) => lines.filter((l) => re.test(l)).length;

const CASES: readonly {
  readonly symbol: string;
  readonly sizes: (n: number) => Record<string, number>;
  readonly ns: readonly number[];
  readonly code: (lines: readonly string[]) => void;
}[] = [
  {
    symbol: "multiples",
    sizes: (n) => ({ a: n, out: 8 * n }),
    ns: [1, 37, 130],
    code: (lines) => {
      // 2x, 8x, 16x shifts; 3x one shift-add; 6x, 7x and the unrelated sum plain adds, after x = raw + big.
      assert.equal(count(lines, /^v_lshlrev_b32/), 3, lines.join("\n"));
      assert.equal(count(lines, /^v_lshl_add_u32/), 1, lines.join("\n"));
      assert.equal(count(lines, /^v_add_(nc_)?u32/), 4, lines.join("\n"));
    },
  },
  {
    symbol: "offsets",
    sizes: (n) => ({ a: 1040 * n, out: 2 * n }),
    ns: [1, 37, 100],
    code: (lines) => {
      const loads = lines.filter((l) => l.startsWith("global_load_"));
      assert.equal(loads.length, 4);
      // k, k + 1, (k + 1) + 2 from one address register; k + 1024 (4096 bytes) from its own.
      const register = (l: string) => /v\[\d+:\d+\]/.exec(l.slice(l.indexOf(",")))?.[0];
      assert.deepEqual(loads.slice(0, 3).map((l) => /offset:(\d+)/.exec(l)?.[1] ?? "0"), ["0", "4", "12"], loads.join("\n"));
      assert.equal(new Set(loads.slice(0, 3).map(register)).size, 1, loads.join("\n"));
      assert.ok(!/offset:/.test(loads[3]!), loads[3]);
    },
  },
  {
    symbol: "guarded",
    sizes: (n) => ({ a: n * n, out: n * n }),
    ns: [1, 3, 37, 70],
    code: (lines) => {
      // One 64-bit row product (i · n) for the four guarded loads and stores.
      assert.equal(count(lines, /^v_mul_lo_u32/), 2, lines.join("\n"));
      assert.equal(count(lines, /^v_mad_u64_u32 \S+, \S+, \S+, s/), 1, lines.join("\n"));
      const end = lines.indexOf("s_endpgm");
      assert.ok(end > 0 && !/^s_mov_b(32|64) exec/.test(lines[end - 1]!), lines.slice(Math.max(0, end - 3), end + 1).join("\n"));
    },
  },
  {
    symbol: "shifts",
    sizes: (n) => ({ a: 2 * n, out: 3 * n }),
    ns: [1, 37, 130],
    code: (lines) => {
      // One shift by 5 (not by 2, then 3); (x << 4) + y fused (no shift by 4 of its own).
      assert.equal(count(lines, /^v_lshlrev_b32\S* v\d+, 5, /), 1, lines.join("\n"));
      assert.equal(count(lines, /^v_lshlrev_b32\S* v\d+, [34], /), 0, lines.join("\n"));
      assert.ok(count(lines, /^v_lshl_add_u32 v\d+, v\d+, 4, v\d+/) === 1, lines.join("\n"));
    },
  },
  {
    symbol: "uniform_guards",
    sizes: (n) => ({ a: n, out: 2 * n }),
    ns: [1, 37, 41, 130],
    // Two 64-bit scalar compares of n with 40 (s_sub/s_subb), each branched on through SCC;
    // a shared one would leave the second branch testing a register nothing wrote.
    code: (lines) => {
      assert.equal(count(lines, /^s_subb_u32/), 2, lines.join("\n"));
      assert.equal(count(lines, /^s_cbranch_scc[01]/), 2, lines.join("\n"));
    },
  },
];

for (const processor of ["gfx1100", "gfx942"]) {
  for (const c of CASES) {
    test(`${c.symbol} on ${processor}: the simulator matches the interpreter, LLVM agrees, the listing shows the cleanup`, (t) => {
      const device = findDeviceProvider("sim")!.open(processor);
      const outcome = compileKernel(device.target, FILE, TEXT, c.symbol);
      assert.ok(outcome.ok, outcome.ok ? "" : outcome.diagnostics);
      const kernel = outcome.kernel;
      const failures: string[] = [];
      for (const [k, n] of c.ns.entries()) {
        const r = runCase(device, kernel, genericCase(kernel, [n], c.sizes(n), 31 + k), { referenceFromInterpreter: true });
        for (const check of r.device) if (check.mismatches > 0) failures.push(`n=${n} ${describeCheck(check)}`);
      }
      assert.deepEqual(failures, []);
      const listing = amdgpuListingOf(kernel.executable);
      assert.ok(listing, "the listing of a code object this process emitted");
      c.code(instructions(listing));
      if (!requireLlvm(t, ...LLVM_CHECK_TOOLS)) return;
      checkWithLlvm(kernel.executable, listing, processor);
    });
  }
}
