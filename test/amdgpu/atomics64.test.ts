/**
 * 64-bit read-modify-write atomics and workgroup-memory exchanges on AMDGPU (lower/memory.ts):
 * the kernel of data/atomics64.loom on gfx1100 and gfx942. LLVM 19 decodes and re-assembles
 * our code to the same bytes, and the ISA simulator's outputs — every returned old value,
 * the elements after them and the shared counters — equal the reference interpreter's bit for
 * bit at sizes 0, 1 and non-multiples of the workgroup. (The simulator's 64-bit atomics are
 * proven on clang's code in test/sim/llvm-atomics64.test.ts.)
 */
import { test } from "node:test";
import { readFileSync } from "node:fs";
import type { KernelCase } from "../../src/harness/index.js";
import { fromRoot } from "../util/paths.js";
import { checkKernelOnSimulator } from "./llvm-checks.js";
import { lcg } from "../util/lcg.js";

const FILE = "test/amdgpu/data/atomics64.loom";
const TEXT = readFileSync(fromRoot(FILE), "utf8");

/** Random i64 values as 32-bit words (low dword first): either sign, full range and small. */
function i64Words(count: number, rng: () => number): Uint32Array {
  const out = new Uint32Array(2 * Math.max(1, count));
  for (let i = 0; i < out.length; i += 2) {
    const small = rng() < 0.3;
    out[i] = Math.floor(rng() * 2 ** 32);
    out[i + 1] = small ? (rng() < 0.5 ? 0 : 0xffffffff) : Math.floor(rng() * 2 ** 32);
  }
  return out;
}

function args(n: number, rng: () => number): KernelCase["args"] {
  return [
    { kind: "scalar", name: "n", value: n },
    { kind: "buffer", name: "a", data: i64Words(n, rng) },
    { kind: "buffer", name: "g", data: i64Words(n, rng) },
    { kind: "buffer", name: "total", data: new Uint32Array(8) },
    { kind: "buffer", name: "out", data: new Uint32Array(Math.max(2, 64 * n)) },
  ];
}

for (const processor of ["gfx1100", "gfx942"]) {
  test(`atomics64 on ${processor}: LLVM agrees on the code and the simulator matches the interpreter bit for bit`, (t) => {
    checkKernelOnSimulator(t, { file: FILE, text: TEXT, symbol: "atomics64", processor, sizes: [0, 1, 37, 130], args: (n, k) => args(n, lcg(31 + k)) });
  });
}
