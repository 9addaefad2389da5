/** Failures: every trap and detected UB is an InterpretError naming the op, its location and the invocation. */
import "../../src/api/check-dialect.js"; // the check harness's syntax and rules, which loomc registers
import { test } from "node:test";
import assert from "node:assert/strict";
import { LoomError } from "../../src/index.js";
import { DiagnosticSink } from "../../src/core/diag/diagnostic.js";
import { parseModule } from "../../src/text/parser.js";
import { InterpretError, interpretDispatch, type InterpretFailure } from "../../src/interp/index.js";
import { suiteKernel } from "../../examples/kernels/suite.js";
import { dispatch, f32Bytes, i32Bytes, loadKernel, loadKernelText } from "./harness.js";
import { loadSuiteKernel } from "./suite-case.js";

const one = { workgroupCount: [1, 1, 1] as [number, number, number], subgroupSize: 32 };

/** A kernel with `launch(<params>)` and `body`, parsed with the public API (verified). */
function kernel(params: string, body: string, size = 4) {
  const text = `kernel.def @k() {
  %c1 = index.constant 1 : index
  %size = index.constant ${size} : index
  kernel.launch.config workgroups(%c1, %c1, %c1) workgroup_size(%size, %c1, %c1) : index
} launch(${params}) {
${body}
  kernel.return
}
`;
  return loadKernelText("bad.loom", text);
}

/** The same, parsed without verification (for UB the verifier would reject statically). */
function unverified(params: string, body: string) {
  const sink = new DiagnosticSink();
  const module = parseModule("raw.loom", `kernel.def @k() {
  %c1 = index.constant 1 : index
  kernel.launch.config workgroups(%c1, %c1, %c1) workgroup_size(%c1, %c1, %c1) : index
} launch(${params}) {
${body}
  kernel.return
}
`, sink);
  assert.equal(sink.errorCount, 0, JSON.stringify(sink.diagnostics));
  return module.ops.find((o) => o.name === "kernel.def")!;
}

function fails(fn: () => unknown, failure: InterpretFailure, pattern: RegExp): InterpretError {
  let caught: unknown;
  try {
    fn();
  } catch (e) {
    caught = e;
  }
  assert.ok(caught instanceof InterpretError, `expected an InterpretError, got ${String(caught)}`);
  assert.equal(caught.failure, failure, caught.message);
  assert.match(caught.message, pattern);
  return caught;
}

test("a load one past the end is out-of-bounds, at the op's location and invocation", () => {
  const k = kernel("%n: index, %x: buffer", `  %o = index.constant 0 : offset
  %v = buffer.view %x[%o] : buffer -> view<[%n]xf32>
  %i = kernel.workitem.id<x> : index
  %e = view.load %v[%i] : view<[%n]xf32> -> f32`);
  const e = fails(() => k.prepared.run({ ...one, workgroupSize: [4, 1, 1], args: [3n, f32Bytes([1, 2, 3])] }), "out-of-bounds", /^bad\.loom:9:\d+: view\.load: index 3 is outside \[0, 3\)/);
  assert.deepEqual(e.invocation?.workitem, [3, 0, 0]);
  assert.equal(e.status, "out-of-range");
  assert.ok(e instanceof LoomError);
});

test("a view whose footprint leaves the buffer fails at buffer.view", () => {
  const k = kernel("%n: index, %x: buffer", `  %o = index.constant 4 : offset
  %v = buffer.view %x[%o] : buffer -> view<[%n]xf32>`);
  // The prepared pipeline drops the unused view; the parsed kernel keeps it.
  fails(() => k.raw.run({ ...one, workgroupSize: [4, 1, 1], args: [3n, f32Bytes([1, 2, 3])] }), "out-of-bounds", /buffer\.view: .*bytes \[4, 16\), outside buffer 'x' of 12 bytes/);
  // A shorter device-visible length counts, not the array's size.
  fails(() => k.raw.run({ ...one, workgroupSize: [1, 1, 1], args: [1n, { bytes: f32Bytes([1, 2, 3]), byteLength: 6 }] }), "out-of-bounds", /of 6 bytes/);
  k.raw.run({ ...one, workgroupSize: [1, 1, 1], args: [2n, f32Bytes([1, 2, 3])] });
});

test("kernel.assert traps with its message", () => {
  const k = kernel("%n: index", `  %i = kernel.workitem.id<x> : index
  %ok = index.cmp ult, %i, %n : index
  kernel.assert %ok "lane out of range" : i1`);
  k.prepared.run({ ...one, workgroupSize: [4, 1, 1], args: [4n] });
  const e = fails(() => k.prepared.run({ ...one, workgroupSize: [4, 1, 1], args: [2n] }), "assert", /kernel\.assert: assertion failed: "lane out of range"/);
  assert.deepEqual(e.invocation?.workitem, [2, 0, 0]);
});

test("undefined behaviour is reported: division by zero, false assume, aliasing, bad step", () => {
  const div = kernel("%a: i32, %b: i32", `  %q = scalar.divsi %a, %b : i32`);
  fails(() => div.raw.run({ ...one, workgroupSize: [1, 1, 1], args: [1, 0] }), "undefined-behaviour", /scalar\.divsi: undefined behaviour: divsi by zero/);
  const assume = kernel("%n: index", `  %m = index.assume %n [range(%n, 0, 10)] : index`);
  assume.raw.run({ ...one, workgroupSize: [1, 1, 1], args: [10n] });
  fails(() => assume.raw.run({ ...one, workgroupSize: [1, 1, 1], args: [11n] }), "undefined-behaviour", /range\(%n, 0, 10\) is false/);
  const alias = kernel("%a: buffer, %b: buffer", `  %x, %y = buffer.assume.noalias %a, %b : buffer, buffer`);
  const bytes = new Uint8Array(16);
  alias.raw.run({ ...one, workgroupSize: [1, 1, 1], args: [bytes.subarray(0, 8), bytes.subarray(8)] });
  fails(() => alias.raw.run({ ...one, workgroupSize: [1, 1, 1], args: [bytes, bytes.subarray(4)] }), "undefined-behaviour", /overlap/);
  const loop = kernel("%s: index", `  %c0 = index.constant 0 : index
  %c9 = index.constant 9 : index
  scf.for %i = [%c0 to %c9 step %s] {
  }`);
  fails(() => loop.raw.run({ ...one, workgroupSize: [1, 1, 1], args: [0n] }), "undefined-behaviour", /loop step 0 is not positive/);
});

test("a barrier skipped by some invocations is divergence, not a hang", () => {
  const op = unverified("%n: index", `  %i = kernel.workitem.id<x> : index
  %c2 = index.constant 2 : index
  %low = index.cmp ult, %i, %c2 : index
  scf.if %low {
    kernel.barrier<workgroup> scope(workgroup) ordering(acq_rel)
  }`);
  fails(() => interpretDispatch(op, { ...one, workgroupSize: [4, 1, 1], args: [0n] }), "divergence", /kernel\.barrier: not reached by every invocation of its workgroup: 2 of 4 wait here, and work-item \(2, 0, 0\) finished without reaching it/);
  // Uniform control passes.
  interpretDispatch(op, { ...one, workgroupSize: [2, 1, 1], args: [0n] });
});

test("a subgroup collective reached by part of a subgroup is divergence", () => {
  const op = unverified("%v: i32", `  %i = kernel.workitem.id<x> : index
  %c1 = index.constant 1 : index
  %odd = index.andi %i, %c1 : index
  %c0 = index.constant 0 : index
  %is_odd = index.cmp ne, %odd, %c0 : index
  scf.if %is_odd {
    %s = kernel.subgroup.reduce<addi> %v : i32
  }`);
  fails(() => interpretDispatch(op, { ...one, workgroupSize: [8, 1, 1], subgroupSize: 4, args: [1] }), "divergence", /kernel\.subgroup\.reduce: not reached by every invocation of its subgroup/);
});

test("a shuffle reading an inactive lane of a partial subgroup is reported", () => {
  const k = loadKernel("subgroup_exchange");
  const n = 48;
  const outs = [0, 1, 2, 3].map(() => i32Bytes(new Array(n).fill(0)));
  fails(() => k.prepared.run({ workgroupCount: [1, 1, 1], workgroupSize: [48, 1, 1], subgroupSize: 32, args: [BigInt(n), i32Bytes(new Array(n).fill(1)), ...outs] }), "undefined-behaviour", /reads subgroup lane 16, which is not an active invocation/);
});

test("a non-terminating loop exhausts the step budget", () => {
  const k = kernel("%go: i1", `  scf.while {
    scf.condition %go : i1
  } do {
    scf.yield
  }`);
  k.prepared.run({ ...one, workgroupSize: [1, 1, 1], args: [false] });
  const e = fails(() => k.prepared.run({ ...one, workgroupSize: [1, 1, 1], args: [true], maxSteps: 10_000 }), "step-budget", /budget of 10000/);
  assert.equal(e.status, "resource-exhausted");
});

test("bad arguments and launch predicates are LoomErrors before anything runs", () => {
  const k = loadSuiteKernel(suiteKernel("matmul16.loom")!);
  const run = (args: unknown[], extra = {}) => () => k.prepared.run({ workgroupCount: [1, 1, 1], workgroupSize: [16, 16, 1], subgroupSize: 32, args: args as never, ...extra });
  const buf = () => new Uint8Array(4096);
  assert.throws(run([1n, 1n]), (e: unknown) => e instanceof LoomError && e.status === "invalid-argument" && /takes 6 device argument/.test(e.message));
  assert.throws(run([1n, 1n, 1.5, buf(), buf(), buf()]), (e: unknown) => e instanceof LoomError && e.status === "invalid-argument" && /'%k'/.test(e.message));
  assert.throws(run([1n, 1n, 16n, buf(), "x", buf()]), (e: unknown) => e instanceof LoomError && e.status === "invalid-argument");
  assert.throws(run([1n, 1n, 70n, buf(), buf(), buf()]), (e: unknown) => e instanceof LoomError && e.status === "failed-precondition" && /mul\(%k, 16\)/.test(e.message));
  assert.throws(run([1n, 1n, 16n, buf(), buf(), buf()], { subgroupSize: 0 }), (e: unknown) => e instanceof LoomError && e.status === "invalid-argument");
  assert.throws(run([1n, 1n, 16n, buf(), buf(), buf()], { workgroupSize: [0, 1, 1] }), (e: unknown) => e instanceof LoomError && e.status === "invalid-argument");
});

test("workload_grid of a zero count dispatches nothing", () => {
  const k = loadKernel("workload_grid");
  assert.deepEqual(dispatch(k, [0n], []), { workgroups: 0, invocations: 0, steps: 0 });
});
