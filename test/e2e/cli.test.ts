/**
 * `loom run` end to end on lavapipe, under VK_LAYER_KHRONOS_validation: a suite kernel passes
 * and prints its summary, --bench adds timings, --json is machine-readable, a kernel outside
 * the suite is checked against the interpreter with --size inputs, a wrong reference exits 1,
 * compile errors exit 1, and usage errors exit 2.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { copyFileSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { TestContext } from "node:test";
import { quietEnv, requireValidationLayer } from "../runtime/vulkan/probe.js";
import { fromRoot } from "../util/paths.js";

const CLI = fromRoot("dist", "src", "cli", "main.js");
const SAXPY = fromRoot("examples", "kernels", "saxpy.loom");

interface Ran {
  readonly status: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

function loom(...args: string[]): Ran {
  const r = spawnSync(process.execPath, [CLI, ...args], {
    encoding: "utf8",
    env: quietEnv({ VK_INSTANCE_LAYERS: "VK_LAYER_KHRONOS_validation" }),
    timeout: 60_000,
  });
  if (r.error) throw r.error;
  const output = `${r.stdout}\n${r.stderr}`;
  assert.ok(!output.includes("Validation Error"), `validation layer: ${output}`);
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

function device(t: TestContext): boolean {
  return requireValidationLayer(t);
}

test("loom run: a suite kernel passes and prints the summary", (t) => {
  if (!device(t)) return;
  const r = loom("run", SAXPY, "--kernel", "saxpy", "--device", "vulkan", "--workload", "1009");
  assert.equal(r.status, 0, r.stdout + r.stderr);
  assert.match(r.stdout, /^kernel +@saxpy .*\[suite\]$/m);
  assert.match(r.stdout, /^device +llvmpipe/m);
  assert.match(r.stdout, /^case +n=1009 \(seed 1\)$/m);
  assert.match(r.stdout, /^launch +workgroups=8x1x1 workgroup_size=128x1x1$/m);
  assert.match(r.stdout, /^bytes +12108$/m);
  assert.match(r.stdout, /^y +device vs JS reference: max error 0 \(0 of 1009 differ\)$/m);
  assert.match(r.stdout, /^y +interpreter vs JS reference: max error 0 \(0 of 1009 differ\)$/m);
  assert.match(r.stdout, /^result +PASS$/m);
});

test("loom run: every suite kernel passes at its default shape", (t) => {
  if (!device(t)) return;
  for (const file of ["vector_add_tail", "block_sum", "reduce_sum", "matmul16", "transpose_tile", "row_softmax", "histogram", "prefix_sum"]) {
    const r = loom("run", fromRoot("examples", "kernels", `${file}.loom`), "--seed", "5");
    assert.equal(r.status, 0, `${file}: ${r.stdout}${r.stderr}`);
    assert.match(r.stdout, /^result +PASS$/m, file);
  }
});

test("loom run: --size sets a suite kernel's extra size; --bench and --json", (t) => {
  if (!device(t)) return;
  const file = fromRoot("examples", "kernels", "matmul16.loom");
  const r = loom("run", file, "--workload", "20,33", "--size", "k=32", "--bench", "--repeat", "3", "--json");
  assert.equal(r.status, 0, r.stdout + r.stderr);
  const j = JSON.parse(r.stdout).result as { kernel: string; label: string; passed: boolean; gpuNs: number[]; medianGpuNs: number; gbPerSecond: number; launch: { workgroupCount: number[] } };
  assert.equal(j.kernel, "matmul16");
  assert.equal(j.label, "20x33 k=32");
  assert.equal(j.passed, true);
  assert.deepEqual(j.launch.workgroupCount, [3, 2, 1]);
  assert.equal(j.gpuNs.length, 3);
  assert.ok(j.medianGpuNs > 0 && j.gbPerSecond > 0);
  const text = loom("run", SAXPY, "--workload", "4096", "--bench", "--repeat", "3");
  assert.equal(text.status, 0, text.stdout + text.stderr);
  assert.match(text.stdout, /^time +median [\d.]+ us over 3 runs \(min [\d.]+ us\), [\d.]+ GB\/s$/m);
});

test("loom run: n = 0 dispatches nothing and passes", (t) => {
  if (!device(t)) return;
  const r = loom("run", SAXPY, "--workload", "0");
  assert.equal(r.status, 0, r.stdout + r.stderr);
  assert.match(r.stdout, /workgroups=0x1x1 .*\(empty: nothing dispatched\)/);
});

test("loom run: a deliberately wrong reference fails with exit 1", (t) => {
  if (!device(t)) return;
  const manifest = fromRoot("dist", "test", "e2e", "wrong-manifest.js");
  const r = loom("run", SAXPY, "--workload", "300", "--manifest", manifest);
  assert.equal(r.status, 1, r.stdout + r.stderr);
  assert.match(r.stdout, /^y +device vs JS reference: max error [\d.e-]+ \(\d+ of 300 differ\); first at \[\d+\]: got .*, want .*$/m);
  assert.match(r.stdout, /^result +FAIL$/m);
});

test("loom run: a kernel outside the suite is checked against the interpreter", (t) => {
  if (!device(t)) return;
  const dir = mkdtempSync(join(tmpdir(), "loom-run-"));
  const file = join(dir, "mine.loom");
  copyFileSync(SAXPY, file);
  const r = loom("run", file, "--workload", "777", "--size", "x=777", "--size", "y=777", "--size", "alpha=3", "--seed", "9");
  assert.equal(r.status, 0, r.stdout + r.stderr);
  assert.doesNotMatch(r.stdout, /\[suite\]/);
  assert.match(r.stdout, /^x +device vs interpreter: max error 0 \(0 of 777 differ\)$/m);
  assert.match(r.stdout, /^y +device vs interpreter: max error 0 \(0 of 777 differ\)$/m);
  assert.match(r.stdout, /^bytes +6216$/m);

  const missing = loom("run", file, "--workload", "777", "--size", "x=777", "--size", "alpha=3");
  assert.equal(missing.status, 2);
  assert.match(missing.stderr, /buffer 'y' needs --size y=COUNT/);

  // Too large a workgroup for the device: TARGET diagnostics, exit 1.
  const big = join(dir, "big.loom");
  writeFileSync(big, readFileSync(SAXPY, "utf8").replace("index.constant 128 : index", "index.constant 4096 : index").replace("index.constant 127 : index", "index.constant 4095 : index"));
  const bad = loom("run", big, "--workload", "10", "--size", "x=10", "--size", "y=10", "--size", "alpha=1");
  assert.equal(bad.status, 1, bad.stdout + bad.stderr);
  assert.match(bad.stderr, /TARGET\/02[45]/);
});

test("loom run: usage errors exit 2, --help exits 0", (t) => {
  const help = loom("run", "--help");
  assert.equal(help.status, 0);
  assert.match(help.stdout, /usage: loom run FILE/);
  assert.equal(loom("run").status, 2);
  assert.equal(loom("run", SAXPY, "--device", "cudaa").status, 2, "an unknown device kind is a usage error");
  assert.equal(loom("run", "/nonexistent/k.loom", "--workload", "1").status, 3, "an unreadable FILE is an I/O failure");
  if (!device(t)) return;
  const cases: [string[], RegExp][] = [
    [["--workload", "1,2"], /takes 1 workload value\(s\), got 2/],
    [["--workload", "x"], /'x' is not a number/],
    [["--size", "k=3"], /knows the sizes \(none\), not k/],
    [["--size", "k"], /--size takes NAME=NUMBER/],
    [["--kernel", "nope"], /describes @saxpy, not @nope/],
    [["--seed=-1"], /--seed must be a non-negative integer/],
  ];
  for (const [args, message] of cases) {
    const r = loom("run", SAXPY, ...args);
    assert.equal(r.status, 2, `${args.join(" ")}: ${r.stdout}${r.stderr}`);
    assert.match(r.stderr, message);
  }
});
