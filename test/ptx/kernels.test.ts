/**
 * Every kernel of the canonical suite (examples/kernels) and of test/spirv/kernels compiles
 * for sm_90 and passes the oracles of verification.md "PTX": `ptxas -arch=sm_90 -v` exits 0
 * and compiles the entry function, the cubin exports it as a FUNC GLOBAL symbol, `.reqntid`
 * is the launch config's workgroup size, and emission is deterministic. Golden PTX text is
 * the file tests' (`// RUN: ptx` in test/cases, goldens in test/golden/ptx/).
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { readdirSync } from "node:fs";
import { Source, Workspace, compileModule, Compiler, Context, PassProgram, LaunchConfigProgram } from "../../src/index.js";
import { KERNEL_SUITE, suiteKernel } from "../../examples/kernels/suite.js";
import { fromRoot } from "../util/paths.js";
import { requireTool, runTool } from "../util/tools.js";
import { compileFile, env, kernelText, profile, ptxas, PTXAS_FIX, SM_90 } from "./helpers.js";

interface Expectation {
  readonly file: string;
  readonly kernel: string;
  readonly reqntid: string;
  /** Bytes ptxas may spill (default 0). */
  readonly maxSpillBytes?: number;
}

const SUITE: readonly Expectation[] = [
  { file: "saxpy.loom", kernel: "saxpy", reqntid: "128, 1, 1" },
  { file: "saxpy4.loom", kernel: "saxpy4", reqntid: "256, 1, 1" },
  { file: "vector_add_tail.loom", kernel: "vector_add_tail", reqntid: "64, 1, 1" },
  { file: "block_sum.loom", kernel: "block_sum", reqntid: "256, 1, 1" },
  { file: "reduce_sum.loom", kernel: "reduce_sum", reqntid: "256, 1, 1" },
  { file: "reduce_sum4.loom", kernel: "reduce_sum4", reqntid: "256, 1, 1" },
  { file: "matmul16.loom", kernel: "matmul16", reqntid: "16, 16, 1" },
  // 128 registers (.minnctapersm 2, two workgroups per SM) leave a few loop-invariant values
  // spilled; on the H200 that ran faster than 171 registers and one workgroup (docs/kernels.md).
  { file: "matmul_tiled.loom", kernel: "matmul_tiled", reqntid: "16, 16, 1", maxSpillBytes: 64 },
  { file: "transpose_tile.loom", kernel: "transpose_tile", reqntid: "16, 16, 1" },
  { file: "transpose32.loom", kernel: "transpose32", reqntid: "16, 16, 1" },
  { file: "row_softmax.loom", kernel: "row_softmax", reqntid: "64, 1, 1" },
  { file: "row_softmax4.loom", kernel: "row_softmax4", reqntid: "256, 1, 1" },
  { file: "histogram.loom", kernel: "histogram", reqntid: "256, 1, 1" },
  { file: "prefix_sum.loom", kernel: "prefix_sum", reqntid: "256, 1, 1" },
];

const LOCAL: readonly Expectation[] = [
  { file: "bounded_scratch.loom", kernel: "bounded_scratch", reqntid: "64, 1, 1" },
  { file: "dot_iota.loom", kernel: "dot_iota", reqntid: "32, 1, 1" },
  { file: "subgroup_sum.loom", kernel: "subgroup_sum", reqntid: "64, 1, 1" },
  { file: "ops.loom", kernel: "integer_ops", reqntid: "64, 1, 1" },
  { file: "ops.loom", kernel: "float_ops", reqntid: "64, 1, 1" },
  { file: "ops.loom", kernel: "vectors_and_views", reqntid: "32, 1, 1" },
  { file: "ops.loom", kernel: "collectives", reqntid: "64, 1, 1" },
  { file: "ops.loom", kernel: "narrow_types", reqntid: "32, 1, 1" },
];

/** Kernels only the PTX tests need (test/ptx/kernels/). */
const PTX_ONLY: readonly Expectation[] = [{ file: "half.loom", kernel: "half_ops", reqntid: "32, 1, 1" }];

const KERNELS = [...SUITE, ...LOCAL, ...PTX_ONLY];

test("the table covers the whole suite and every kernel of test/spirv/kernels", () => {
  assert.deepEqual(SUITE.map((k) => [k.file, k.kernel]), KERNEL_SUITE.map((k) => [k.file, k.symbol]));
  const local = readdirSync(fromRoot("test", "spirv", "kernels")).filter((f) => f.endsWith(".loom")).sort();
  assert.deepEqual([...new Set(LOCAL.map((k) => k.file))].sort(), local);
});

for (const k of KERNELS) {
  test(`${k.kernel}: ptxas -arch=sm_90 accepts it, the cubin exports it`, (t) => {
    const c = compileFile(k.file, [k.kernel]);
    assert.ok(c.ok, JSON.stringify(c.diagnostics));
    const text = c.text!;
    assert.match(text, /^\.version 8\.0$/m);
    assert.match(text, /^\.target sm_90$/m);
    assert.match(text, /^\.address_size 64$/m);
    assert.match(text, new RegExp(`^\\.visible \\.entry ${k.kernel}\\($`, "m"));
    assert.match(text, new RegExp(`^\\.reqntid ${k.reqntid}$`, "m"));
    assert.ok(/^[\x09\x0a\x20-\x7e]*$/.test(text), "PTX text is printable ASCII");
    if (!requireTool(t, "ptxas", PTXAS_FIX)) return;
    const a = ptxas(text, k.kernel);
    assert.equal(a.status, 0, a.output);
    assert.match(a.output, new RegExp(`Compiling entry function '${k.kernel}' for 'sm_90'`));
    const spills = /(\d+) bytes spill stores, (\d+) bytes spill loads/.exec(a.output);
    assert.ok(spills, a.output);
    assert.ok(Number(spills[1]) <= (k.maxSpillBytes ?? 0) && Number(spills[2]) <= (k.maxSpillBytes ?? 0), `spills beyond ${k.maxSpillBytes ?? 0} bytes:\n${a.output}`);
    assert.doesNotMatch(a.output, /warning/i);
    if (!requireTool(t, "llvm-readelf-19", "apt-get install -y llvm-19 (docs/toolchain.md)")) return;
    const symbols = runTool("llvm-readelf-19", ["--symbols", a.cubin]);
    assert.equal(symbols.status, 0, symbols.stderr);
    assert.match(symbols.stdout, new RegExp(`FUNC\\s+GLOBAL\\s.*\\s${k.kernel}$`, "m"));
  });
}

test("every kernel also assembles for sm_80 and sm_90a (each with its own .target)", (t) => {
  if (!requireTool(t, "ptxas", PTXAS_FIX)) return;
  for (const arch of ["sm_80", "sm_90a"] as const) {
    for (const k of KERNELS) {
      const c = compileFile(k.file, [k.kernel], profile({ target: arch }));
      assert.ok(c.ok, `${k.kernel} for ${arch}: ${JSON.stringify(c.diagnostics)}`);
      assert.match(c.text!, new RegExp(`^\\.target ${arch}$`, "m"));
      const a = ptxas(c.text!, `${k.kernel}-${arch}`, arch);
      assert.equal(a.status, 0, `${k.kernel} for ${arch}: ${a.output}`);
    }
  }
});

test("emission is deterministic: two compiles of every kernel give identical text", () => {
  for (const k of KERNELS) assert.equal(compileFile(k.file, [k.kernel]).text, compileFile(k.file, [k.kernel]).text, k.kernel);
});

test(".reqntid is the workgroup size the launch config evaluates to (suite kernels at their test shapes)", () => {
  const context = Context.create({ targetEnvironments: [env] });
  const pipeline = PassProgram.fromTargetPipeline(context, { identifier: "ptx-launch", kind: "prepared-low" }).value!;
  for (const s of KERNEL_SUITE) {
    const ws = new Workspace(context);
    const module = ws.parseModule(Source.fromText(s.file, kernelText(s.file))).value!;
    const compiled = compileModule(Compiler.create(context), ws, pipeline, module, { specializations: [{ functionSymbol: s.symbol, targetProfile: SM_90 }], artifacts: { launchConfig: true } });
    assert.ok(compiled.ok, compiled.formatDiagnostics());
    const program = LaunchConfigProgram.load(compiled.findArtifact("launch-config")!);
    const shape = s.shapes.test[s.shapes.test.length - 1]!;
    const launch = program.invoke(program.lookupFunction(s.symbol), shape.workload.map((n) => BigInt(n)));
    assert.equal(launch.subgroupSize, 32, s.symbol);
    const text = compileFile(s.file, [s.symbol]).text!;
    assert.match(text, new RegExp(`^\\.reqntid ${launch.workgroupSize.join(", ")}$`, "m"), s.symbol);
    // The .shared array holds exactly the launch's workgroup storage.
    const shared = /\.shared \.align \d+ \.b8 \w+\[(\d+)\];/.exec(text);
    assert.equal(shared ? Number(shared[1]) : 0, Number(launch.workgroupStorageBytes), s.symbol);
  }
});

test("several kernels share one module, one .entry each; sm_80 and sm_90a modules assemble for their targets", (t) => {
  const c = compileFile("ops.loom", ["integer_ops", "float_ops", "collectives"]);
  assert.ok(c.ok, JSON.stringify(c.diagnostics));
  assert.equal([...c.text!.matchAll(/^\.visible \.entry (\w+)\($/gm)].map((m) => m[1]).join(","), "integer_ops,float_ops,collectives");
  const sm80 = compileFile("saxpy.loom", ["saxpy"], profile({ target: "sm_80" }));
  const sm90a = compileFile("saxpy.loom", ["saxpy"], profile({ target: "sm_90a" }));
  assert.match(sm80.text!, /^\.target sm_80$/m);
  assert.match(sm90a.text!, /^\.target sm_90a$/m);
  if (!requireTool(t, "ptxas", PTXAS_FIX)) return;
  for (const [text, arch] of [[c.text!, "sm_90"], [sm80.text!, "sm_80"], [sm90a.text!, "sm_90a"]] as const) {
    const a = ptxas(text, `multi-${arch}`, arch);
    assert.equal(a.status, 0, a.output);
  }
  // A .target sm_90 module is refused by ptxas for an older architecture.
  assert.notEqual(ptxas(compileFile("saxpy.loom", ["saxpy"]).text!, "old", "sm_80").status, 0);
});

test("a corrupted module fails ptxas with a line number (the oracle bites)", (t) => {
  if (!requireTool(t, "ptxas", PTXAS_FIX)) return;
  const text = compileFile("saxpy.loom", ["saxpy"]).text!.replace("fma.rn.f32", "fma.rn.f33");
  const a = ptxas(text, "corrupt");
  assert.notEqual(a.status, 0);
  assert.match(a.output, /line \d+/);
});

test("every suite kernel file is in examples/kernels", () => {
  for (const k of SUITE) assert.ok(suiteKernel(k.file), k.file);
});
