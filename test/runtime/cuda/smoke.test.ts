/**
 * bench/cuda-smoke.ts, the script that checks the runtime on a real GPU: its hand-written PTX
 * must assemble for sm_90 (ptxas), and the script must run to the end and report every check
 * as JSON. Here it runs against the fake driver (fake-driver.test.ts), which executes saxpy,
 * saxpy4 and reduce_u32 on the host; a GPU run is `node dist/bench/cuda-smoke.js`.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { copyFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fromRoot } from "../../util/paths.js";
import { requireTool, runTool } from "../../util/tools.js";

const PTX = fromRoot("bench/device/cuda-smoke.ptx");

test("the smoke kernels assemble with ptxas -arch=sm_90", (t) => {
  if (!requireTool(t, "ptxas", "comes with the machine image; see toolchain.md §4")) return;
  const dir = mkdtempSync(join(tmpdir(), "loom-smoke-ptx-"));
  try {
    const r = runTool("ptxas", ["-arch=sm_90", "-v", PTX, "-o", join(dir, "smoke.cubin")]);
    assert.equal(r.status, 0, r.stderr);
    for (const entry of ["saxpy", "saxpy4", "reduce_u32", "noop", "fault"]) assert.match(r.stderr, new RegExp(`Compiling entry function '${entry}'`));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test("the smoke script runs every check to the end and prints one JSON report", (t) => {
  if (!requireTool(t, "cc", "apt-get install -y gcc (the C compiler builds the fake driver)")) return;
  const dir = mkdtempSync(join(tmpdir(), "loom-smoke-"));
  try {
    const lib = join(dir, "libfakecuda.so");
    const cc = runTool("cc", ["-shared", "-fPIC", "-O1", "-o", lib, fromRoot("test/runtime/cuda/fake-driver/fake-cuda.c")]);
    assert.equal(cc.status, 0, cc.stderr);
    // A --dir case file: PTX, its kernel-interface record, one launch with inputs and expected output.
    const cases = join(dir, "cases");
    mkdirSync(cases);
    copyFileSync(PTX, join(cases, "smoke.ptx"));
    const saxpy = {
      entryName: "saxpy",
      arguments: [
        { name: "x", type: "buffer", offset: 0, size: 16 },
        { name: "y", type: "buffer", offset: 16, size: 16 },
        { name: "a", type: "f32", offset: 32, size: 4 },
        { name: "n", type: "index", offset: 40, size: 8 },
      ],
      argumentBlockBytes: 48,
      workgroupSize: "launch-config",
      workgroupStorageBytes: 0,
    };
    const spec = {
      ptx: "smoke.ptx",
      kernels: [saxpy],
      cases: [
        {
          kernel: "saxpy",
          label: "n=8",
          launch: { workgroupCount: [1, 1, 1], workgroupSize: [32, 1, 1] },
          args: [{ buffer: "f32", length: 8, init: "iota" }, { buffer: "f32", length: 8 }, { value: 2 }, { value: "8n" }],
          expect: [{ arg: 1, values: [0, 2, 4, 6, 8, 10, 12, 14] }],
        },
        {
          kernel: "saxpy",
          label: "wrong expectation",
          launch: { workgroupCount: [1, 1, 1], workgroupSize: [32, 1, 1] },
          args: [{ buffer: "f32", length: 2, init: "iota" }, { buffer: "f32", length: 2 }, { value: 2 }, { value: 2 }],
          expect: [{ arg: 1, values: [0, 3] }],
        },
      ],
    };
    writeFileSync(join(cases, "saxpy.json"), JSON.stringify(spec));
    const out = join(dir, "report.json");
    const r = spawnSync(process.execPath, [fromRoot("dist/bench/cuda-smoke.js"), "--quick", "--bench-n", "65536", "--warmup-ms", "5", "--repeat", "2", "--out", out, "--dir", cases], {
      encoding: "utf8",
      env: { ...process.env, LOOM_CUDA_LIBRARY: lib },
      timeout: 120_000,
      maxBuffer: 64 << 20,
    });
    const report = JSON.parse(r.stdout) as { summary: { checks: number; passed: number; failed: string[] }; checks: { name: string; ok: boolean; error?: string }[] };
    // Only the case with the wrong expectation fails, and it says where.
    assert.deepEqual(report.summary.failed, ["saxpy.json: saxpy wrong expectation"], r.stderr);
    assert.match(report.checks.find((c) => c.name === "saxpy.json: saxpy wrong expectation")?.error ?? "", /argument 1: 1 mismatches \(first \{"index":1,"got":2,"want":3\}\)/);
    assert.equal(r.status, 1);
    const names = report.checks.map((c) => c.name);
    for (const name of ["saxpy.json: load smoke.ptx", "saxpy.json: saxpy n=8", "CudaRuntime.create", "saxpy n=257", "saxpy4 n=4099", "reduce_u32 n=1048583 shared=102400", "saxpy n=65536 (bench)", "host cost per launch (noop kernel, 1 workgroup of 32)"]) {
      assert.ok(names.includes(name), `${name} in ${names.join(", ")}`);
    }
    assert.ok(names.some((n) => n.startsWith("fault:")));
    assert.ok(names.some((n) => n.startsWith("jit: a PTX error")));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
