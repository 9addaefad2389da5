/**
 * The suite manifest and kernel files, without a device: every kernel file of examples/kernels
 * is in the manifest (and vice versa) and canonical (`loom fmt --check`), every kernel's test
 * shapes cover 0, 1, a prime and a non-multiple of its workgroup size, cases are deterministic
 * for a seed, and the comparison rule bites.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { readdirSync } from "node:fs";
import { KERNEL_SUITE, suiteKernel } from "../../examples/kernels/suite.js";
import { compareOutput } from "../../src/harness/index.js";
import { fromRoot } from "../util/paths.js";

const DIR = fromRoot("examples", "kernels");
const CLI = fromRoot("dist", "src", "cli", "main.js");

const isPrime = (n: number): boolean => {
  if (n < 2) return false;
  for (let d = 2; d * d <= n; d++) if (n % d === 0) return false;
  return true;
};

test("every .loom in examples/kernels has a manifest entry, and every entry a file", () => {
  const files = readdirSync(DIR).filter((f) => f.endsWith(".loom")).sort();
  assert.deepEqual(files, KERNEL_SUITE.map((k) => k.file).sort());
  for (const f of files) assert.equal(suiteKernel(f)?.file, f);
});

test("the kernel files are canonical (loom fmt --check)", () => {
  const r = spawnSync(process.execPath, [CLI, "fmt", "--check", ...KERNEL_SUITE.map((k) => `${DIR}/${k.file}`)], { encoding: "utf8" });
  assert.equal(r.status, 0, r.stdout + r.stderr);
});

test("test shapes include 0, 1, a prime and non-multiples of the workgroup size", () => {
  for (const k of KERNEL_SUITE) {
    const firsts = k.shapes.test.map((s) => s.workload[0]!);
    assert.ok(firsts.includes(0), `${k.symbol}: size 0`);
    assert.ok(firsts.includes(1), `${k.symbol}: size 1`);
    assert.ok(
      k.shapes.test.some((s) => s.workload.some(isPrime) && s.workload.every((n) => n > 16)),
      `${k.symbol}: a prime size above the tile edge`,
    );
    // Workgroup edges are 16 (2-D) or 64–256 (1-D): a value past 64 that 16 does not divide fits both.
    assert.ok(
      k.shapes.test.some((s) => s.workload.some((n) => n > 64 && n % 16 !== 0)),
      `${k.symbol}: a size past the workgroup edge that is not a multiple of it`,
    );
  }
});

test("cases are deterministic for a seed and differ across seeds", () => {
  for (const k of KERNEL_SUITE) {
    const shape = k.shapes.quick[k.shapes.quick.length - 1]!;
    const bytes = (seed: number) => k.build(shape, seed).args.flatMap((a) => (a.kind === "buffer" ? Array.from(new Uint8Array(a.data.buffer), String) : [String(a.value)]));
    assert.deepEqual(bytes(3), bytes(3), k.symbol);
    assert.notDeepEqual(bytes(3), bytes(4), k.symbol);
  }
});

test("compareOutput: exact is bitwise, float bounds scale with the magnitude", () => {
  const want = Float32Array.of(1, 2, -0);
  assert.equal(compareOutput("x", Float32Array.of(1, 2, 0), { values: want, compare: { kind: "exact" } }).mismatches, 1);
  assert.equal(compareOutput("x", Float32Array.of(1, 2, 0), { values: want, compare: { kind: "float", epsilons: 0 } }).mismatches, 0);
  const off = Float32Array.of(1 + 2 ** -23, 2, 0);
  assert.equal(compareOutput("x", off, { values: want, compare: { kind: "float", epsilons: 0 } }).mismatches, 1);
  assert.equal(compareOutput("x", off, { values: want, compare: { kind: "float", epsilons: 1 } }).mismatches, 0);
  const r = compareOutput("x", off, { values: want, compare: { kind: "float", epsilons: 1 }, magnitude: [0.5, 2, 0] });
  assert.equal(r.mismatches, 1);
  assert.equal(r.first?.index, 0);
  assert.equal(compareOutput("x", Float32Array.of(NaN), { values: Float32Array.of(NaN), compare: { kind: "float", epsilons: 0 } }).mismatches, 0);
  assert.equal(compareOutput("x", Int32Array.of(1, 2), { values: Int32Array.of(1), compare: { kind: "exact" } }).mismatches, 2);
});
