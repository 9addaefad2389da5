/**
 * f64 on AMDGPU (lower/f64.ts): data/f64.loom on gfx1100 (wave32) and gfx942 (wave64). LLVM
 * 19 decodes and re-assembles our code to the same bytes, and the ISA simulator's outputs
 * equal the reference interpreter's bit for bit (outputs compared as 32-bit words) at sizes
 * 0, 1 and primes, on random doubles of either sign across 2^-40 … 2^19.
 */
import { test } from "node:test";
import { readFileSync } from "node:fs";
import type { KernelCase } from "../../src/harness/index.js";
import { fromRoot } from "../util/paths.js";
import { checkKernelOnSimulator } from "./llvm-checks.js";
import { lcg } from "../util/lcg.js";

const FILE = "test/amdgpu/data/f64.loom";
const TEXT = readFileSync(fromRoot(FILE), "utf8");

/** Random doubles as 32-bit words (low dword first). */
function doubles(count: number, rng: () => number): Uint32Array {
  const values = Float64Array.from({ length: Math.max(1, count) }, () => (rng() - 0.5) * (1 + rng() * 2 ** -30) * 2 ** Math.floor(rng() * 60 - 40));
  return new Uint32Array(values.buffer);
}

function args(n: number, rng: () => number): KernelCase["args"] {
  return [
    { kind: "scalar", name: "n", value: n },
    { kind: "scalar", name: "d", value: -0.7071067811865476 },
    { kind: "buffer", name: "a", data: doubles(n, rng) },
    { kind: "buffer", name: "b", data: doubles(n, rng) },
    { kind: "buffer", name: "f", data: Float32Array.from({ length: Math.max(1, n) }, () => (rng() - 0.5) * 2 ** Math.floor(rng() * 30 - 15)) },
    { kind: "buffer", name: "out", data: new Uint32Array(Math.max(2, 16 * n)) },
    { kind: "buffer", name: "narrow", data: new Uint32Array(Math.max(1, 8 * n)) },
  ];
}

for (const processor of ["gfx1100", "gfx942"]) {
  test(`f64_ops on ${processor}: LLVM agrees on the code and the simulator matches the interpreter bit for bit`, (t) => {
    checkKernelOnSimulator(t, { file: FILE, text: TEXT, symbol: "f64_ops", processor, sizes: [0, 1, 37, 130], args: (n, k) => args(n, lcg(3 + k)) });
  });
}
