/**
 * Collectives on i64, f64, f16, i16, i8 and i1 on AMDGPU (lower/kernel-rules.ts), with i1
 * compares and f32 ↔ i1 conversions (lower/rules.ts): the kernels of
 * data/reductions.loom on gfx1100 (wave32) and gfx942 (wave64) — subgroup reductions over the
 * whole subgroup and clusters of 4, 64-bit shuffles and broadcasts, and workgroup reductions
 * over whole waves (64 invocations) and part of a wave (48: one LDS slot per invocation). LLVM
 * 19 decodes and re-assembles our code to the same bytes, and the ISA simulator's outputs equal
 * the reference interpreter's bit for bit at sizes 0, 1 and non-multiples of the workgroup.
 */
import { test } from "node:test";
import { readFileSync } from "node:fs";
import type { KernelCase } from "../../src/harness/index.js";
import { fromRoot } from "../util/paths.js";
import { checkKernelOnSimulator } from "./llvm-checks.js";
import { lcg } from "../util/lcg.js";

const FILE = "test/amdgpu/data/reductions.loom";
const TEXT = readFileSync(fromRoot(FILE), "utf8");

/** f16 bits of a small integer (exact, and so is every sum of 64 of them). */
function halfOfInteger(k: number): number {
  if (k === 0) return 0;
  const m = Math.abs(k);
  const e = Math.floor(Math.log2(m));
  return (k < 0 ? 0x8000 : 0) | ((e + 15) << 10) | (((m / 2 ** e - 1) * 1024) & 0x3ff);
}

/** The bytes of a typed array as 32-bit words (the harness's buffer type), padded to whole words. */
function words(x: BigInt64Array | Float64Array | Uint16Array | Int16Array): Uint32Array {
  const bytes = new Uint8Array(Math.ceil(x.byteLength / 4) * 4);
  bytes.set(new Uint8Array(x.buffer, x.byteOffset, x.byteLength));
  return new Uint32Array(bytes.buffer);
}

/** The device arguments for workload n, groups of `group` invocations reading padded inputs. */
function args(n: number, rng: () => number, group: number, outputsPerItem: number): KernelCase["args"] {
  const padded = Math.ceil(n / group) * group;
  const count = Math.max(1, padded);
  const int = (bits: number) => BigInt.asIntN(64, BigInt(Math.floor(rng() * 2 ** 32)) << 32n | BigInt(Math.floor(rng() * 2 ** 32))) >> BigInt(64 - bits);
  return [
    { kind: "scalar", name: "n", value: n },
    { kind: "buffer", name: "a", data: words(BigInt64Array.from({ length: count }, () => (rng() < 0.5 ? int(64) : int(12)))) },
    // Small integers: every association order of sums, products of 4 and extrema gives the same bits.
    { kind: "buffer", name: "b", data: words(Float64Array.from({ length: count }, () => Math.floor(rng() * 17) - 8)) },
    { kind: "buffer", name: "h", data: words(Uint16Array.from({ length: count }, () => halfOfInteger(Math.floor(rng() * 9) - 4))) },
    { kind: "buffer", name: "s", data: words(Int16Array.from({ length: count }, () => Math.floor(rng() * 65536) - 32768)) },
    { kind: "buffer", name: "wide", data: new Uint32Array(2 * count * outputsPerItem) },
    { kind: "buffer", name: "doubles", data: new Uint32Array(2 * count * outputsPerItem) },
    { kind: "buffer", name: "narrow", data: new Uint32Array(Math.ceil(count * outputsPerItem / 2)) },
  ];
}

/** i1 inputs: i32 words (a quarter zero) and floats in [0, 2), so f32 → i1 conversions stay in range. */
function boolArgs(n: number, rng: () => number, group: number): KernelCase["args"] {
  const count = Math.max(1, Math.ceil(n / group) * group);
  return [
    { kind: "scalar", name: "n", value: n },
    { kind: "buffer", name: "a", data: Uint32Array.from({ length: count }, () => (rng() < 0.25 ? 0 : Math.floor(rng() * 2 ** 32))) },
    { kind: "buffer", name: "f", data: Float32Array.from({ length: count }, () => rng() * 2) },
    { kind: "buffer", name: "out", data: new Uint32Array(64 * count) },
  ];
}

const KERNELS: Record<string, (n: number, rng: () => number) => KernelCase["args"]> = {
  subgroup_wide: (n, rng) => args(n, rng, 64, 8),
  workgroup_64: (n, rng) => args(n, rng, 64, 4),
  workgroup_48: (n, rng) => args(n, rng, 48, 4),
  booleans_64: (n, rng) => boolArgs(n, rng, 64),
  booleans_48: (n, rng) => boolArgs(n, rng, 48),
};

const SIZES = [0, 1, 37, 130];

for (const processor of ["gfx1100", "gfx942"]) {
  for (const [symbol, make] of Object.entries(KERNELS)) {
    test(`${symbol} on ${processor}: LLVM agrees on the code and the simulator matches the interpreter bit for bit`, (t) => {
      checkKernelOnSimulator(t, { file: FILE, text: TEXT, symbol, processor, sizes: SIZES, args: (n, k) => make(n, lcg(7 + k)) });
    });
  }
}
