/**
 * 16-bit floats on AMDGPU (lower/half.ts): the kernels of data/half.loom on gfx1100 (wave32)
 * and gfx942 (wave64). LLVM 19 decodes and re-assembles our code to the same bytes, and the
 * ISA simulator's output equals the reference interpreter's bit for bit (outputs are compared
 * as 32-bit words, each holding two f16/bf16 results) at sizes 0, 1 and primes. Inputs are
 * random finite f16 values across the normal and subnormal range.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { compileKernel, findDeviceProvider, type KernelCase } from "../../src/harness/index.js";
import { fromRoot } from "../util/paths.js";
import { checkKernelOnSimulator } from "./llvm-checks.js";
import { lcg } from "../util/lcg.js";

const FILE = "test/amdgpu/data/half.loom";
const TEXT = readFileSync(fromRoot(FILE), "utf8");

/** Random finite f16 bits: exponents across the range (subnormals included), either sign. */
function f16Words(count: number, rng: () => number): Uint32Array {
  const half = () => {
    const exponent = Math.floor(rng() * 22) + 4; // 2^-11 … 2^10 and some subnormals below
    const e = rng() < 0.1 ? 0 : exponent;
    return (rng() < 0.5 ? 0x8000 : 0) | (e << 10) | Math.floor(rng() * 1024);
  };
  return Uint32Array.from({ length: Math.ceil(count / 2) }, () => (half() | (half() << 16)) >>> 0);
}

function floats(count: number, rng: () => number): Float32Array {
  return Float32Array.from({ length: count }, () => (rng() - 0.5) * 2 ** Math.floor(rng() * 40 - 20));
}

const zeros = (words: number) => new Uint32Array(Math.max(1, words));

/** The device arguments of each kernel for workload n (buffers sized for n; n = 0 dispatches nothing). */
const CASES: Record<string, (n: number, rng: () => number) => KernelCase["args"]> = {
  half_arith: (n, rng) => [
    { kind: "scalar", name: "n", value: n },
    { kind: "scalar", name: "h", value: -1.5 },
    { kind: "buffer", name: "a", data: f16Words(Math.max(n, 1), rng) },
    { kind: "buffer", name: "b", data: f16Words(Math.max(n, 1), rng) },
    { kind: "buffer", name: "out", data: zeros(4 * n) },
    { kind: "buffer", name: "wide", data: new Float32Array(Math.max(1, 2 * n)) },
  ],
  bf16_convert: (n, rng) => [
    { kind: "scalar", name: "n", value: n },
    { kind: "scalar", name: "g", value: 0.375 },
    { kind: "buffer", name: "a", data: floats(Math.max(n, 1), rng) },
    { kind: "buffer", name: "out", data: zeros(2 * n) },
    { kind: "buffer", name: "wide", data: new Float32Array(Math.max(1, n)) },
  ],
  half_lds: (n, rng) => [
    { kind: "scalar", name: "n", value: n },
    { kind: "buffer", name: "a", data: f16Words(Math.max(n, 1), rng) },
    { kind: "buffer", name: "out", data: zeros(Math.ceil(n / 2)) },
  ],
};

const SIZES = [0, 1, 37, 130];

for (const processor of ["gfx1100", "gfx942"]) {
  for (const [symbol, args] of Object.entries(CASES)) {
    test(`${symbol} on ${processor}: LLVM agrees on the code and the simulator matches the interpreter bit for bit`, (t) => {
      checkKernelOnSimulator(t, { file: FILE, text: TEXT, symbol, processor, sizes: SIZES, args: (n, k) => args(n, lcg(101 + k)) });
    });
  }
}

test("bf16 fma and integer → bf16 conversions are TARGET/001 at the op (they would round twice)", () => {
  const device = findDeviceProvider("sim")!.open("gfx1100");
  const source = TEXT.slice(0, TEXT.indexOf("kernel.def export(\"half_lds\")")).replace("%mx = scalar.maximumf %s, %p : bf16", "%mx = scalar.fmaf %s, %p, %t : bf16");
  const outcome = compileKernel(device.target, FILE, source, "bf16_convert");
  assert.ok(!outcome.ok);
  assert.match(String(outcome.diagnostics), /TARGET\/001[\s\S]*scalar\.fmaf/);
});
