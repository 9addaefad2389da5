/**
 * i8 and i16 on AMDGPU (lower/narrow.ts): data/narrow.loom on gfx1100 (wave32) and gfx942
 * (wave64). LLVM 19 decodes and re-assembles our code to the same bytes, and the ISA
 * simulator's outputs equal the reference interpreter's bit for bit at sizes 0, 1 and primes
 * (random bytes and shorts of either sign; arguments at sub-dword kernarg offsets).
 */
import { test } from "node:test";
import { readFileSync } from "node:fs";
import type { KernelCase } from "../../src/harness/index.js";
import { fromRoot } from "../util/paths.js";
import { checkKernelOnSimulator } from "./llvm-checks.js";
import { lcg } from "../util/lcg.js";

const FILE = "test/amdgpu/data/narrow.loom";
const TEXT = readFileSync(fromRoot(FILE), "utf8");

const words = (count: number, rng: () => number) => Uint32Array.from({ length: Math.max(1, count) }, () => Math.floor(rng() * 2 ** 32));

const CASES: Record<string, (n: number, rng: () => number) => KernelCase["args"]> = {
  narrow_ints: (n, rng) => [
    { kind: "scalar", name: "n", value: n },
    { kind: "scalar", name: "k", value: -5 },
    { kind: "scalar", name: "s", value: -300 },
    { kind: "buffer", name: "a", data: words(Math.ceil(n / 4), rng) },
    { kind: "buffer", name: "b", data: words(Math.ceil(n / 2), rng) },
    { kind: "buffer", name: "bytes", data: new Uint32Array(Math.max(1, 2 * n)) },
    { kind: "buffer", name: "shorts", data: new Uint32Array(Math.max(1, 4 * n)) },
    { kind: "buffer", name: "words", data: new Uint32Array(Math.max(1, 8 * n)) },
  ],
  narrow_lds: (n, rng) => [
    { kind: "scalar", name: "n", value: n },
    { kind: "buffer", name: "a", data: words(Math.ceil(n / 4), rng) },
    { kind: "buffer", name: "out", data: new Uint32Array(Math.max(1, n)) },
  ],
};

for (const processor of ["gfx1100", "gfx942"]) for (const [symbol, args] of Object.entries(CASES)) {
  test(`${symbol} on ${processor}: LLVM agrees on the code and the simulator matches the interpreter bit for bit`, (t) => {
    checkKernelOnSimulator(t, { file: FILE, text: TEXT, symbol, processor, sizes: [0, 1, 37, 130], args: (n, k) => args(n, lcg(7 + k)) });
  });
}
