/**
 * Rank-2 vector accesses and dynamic lane indices on AMDGPU (lower/memory.ts, lower/rules.ts):
 * data/vectors.loom on gfx1100 and gfx942 — 16-byte rows, lane-by-lane rows and a
 * column-major block, `vector.extract`/`insert` at invocation-dependent rows and lanes. LLVM
 * 19 decodes and re-assembles our code to the same bytes, and the ISA simulator's output
 * equals the reference interpreter's bit for bit at sizes 0, 1 and non-multiples of 64.
 */
import { test } from "node:test";
import { readFileSync } from "node:fs";
import type { KernelCase } from "../../src/harness/index.js";
import { fromRoot } from "../util/paths.js";
import { checkKernelOnSimulator } from "./llvm-checks.js";

const FILE = "test/amdgpu/data/vectors.loom";
const TEXT = readFileSync(fromRoot(FILE), "utf8");

function args(n: number, seed: number): KernelCase["args"] {
  let s = seed >>> 0;
  const next = () => ((s = (Math.imul(s, 1664525) + 1013904223) >>> 0), s / 2 ** 32);
  // Distinct values, so a lane read from the wrong place shows.
  return [
    { kind: "scalar", name: "n", value: n },
    { kind: "buffer", name: "src", data: Float32Array.from({ length: 8 * (n + 2) }, (_, i) => i + 0.25 + Math.floor(next() * 4) / 8) },
    { kind: "buffer", name: "out", data: new Float32Array(Math.max(1, 32 * n)) },
  ];
}

for (const processor of ["gfx1100", "gfx942"]) {
  test(`vector_blocks on ${processor}: LLVM agrees on the code and the simulator matches the interpreter bit for bit`, (t) => {
    checkKernelOnSimulator(t, { file: FILE, text: TEXT, symbol: "vector_blocks", processor, sizes: [0, 1, 37, 130], args: (n, k) => args(n, 17 + k) });
  });
}
