/**
 * i64 ↔ f64 on AMDGPU (lower/f64.ts `int64ToF64`, `f64ToInt64`): data/f64-int64.loom on
 * gfx1100 and gfx942. LLVM 19 decodes and re-assembles the code to the same bytes, and the
 * simulator's outputs equal the reference interpreter's bit for bit on random i64 of every
 * width (rounding ties included: values above 2^53 with low bits set) and doubles of either
 * sign below 2^63 (fptoui of |f| below 2^64).
 */
import { test } from "node:test";
import { readFileSync } from "node:fs";
import type { KernelCase } from "../../src/harness/index.js";
import { fromRoot } from "../util/paths.js";
import { checkKernelOnSimulator } from "./llvm-checks.js";
import { lcg } from "../util/lcg.js";

const FILE = "test/amdgpu/data/f64-int64.loom";
const TEXT = readFileSync(fromRoot(FILE), "utf8");

function args(n: number, rng: () => number): KernelCase["args"] {
  const count = Math.max(1, n);
  const ints = BigUint64Array.from({ length: count }, (_, i) => {
    const word = () => BigInt(Math.floor(rng() * 2 ** 32));
    const v = (word() << 32n) | word();
    return i % 3 === 0 ? v : v >> BigInt(Math.floor(rng() * 64));
  });
  const doubles = Float64Array.from({ length: count }, () => (rng() - 0.5) * 2 ** Math.floor(rng() * 64 - 4));
  return [
    { kind: "scalar", name: "n", value: n },
    { kind: "buffer", name: "a", data: new Uint32Array(ints.buffer) },
    { kind: "buffer", name: "f", data: new Uint32Array(doubles.buffer) },
    { kind: "buffer", name: "out", data: new Uint32Array(4 * count) },
    { kind: "buffer", name: "iout", data: new Uint32Array(4 * count) },
  ];
}

for (const processor of ["gfx1100", "gfx942"]) {
  test(`f64_int64 on ${processor}: LLVM agrees on the code and the simulator matches the interpreter bit for bit`, (t) => {
    checkKernelOnSimulator(t, { file: FILE, text: TEXT, symbol: "f64_int64", processor, sizes: [1, 37, 200], args: (n, k) => args(n, lcg(11 + k)) });
  });
}
