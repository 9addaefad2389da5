/** LaunchConfigProgram: hand-computed launches, rejections (output untouched), exact messages. */
import { test } from "node:test";
import assert from "node:assert/strict";
import { LoomError } from "../../src/core/errors.js";
import { LaunchConfigProgram, createLaunchConfig, type LaunchConfig } from "../../src/launch/program.js";
import { encodeLaunchConfig } from "../../src/launch/source.js";
import { DEFAULT_LIMITS, pred, source, workloadGrid } from "./builder.js";

const load = (...fns: Parameters<typeof encodeLaunchConfig>[0]) => LaunchConfigProgram.load(encodeLaunchConfig(fns));

function rejects(f: () => unknown, status: string, message?: string): void {
  assert.throws(f, (e: unknown) => {
    assert.ok(e instanceof LoomError, `expected LoomError, got ${String(e)}`);
    assert.equal(e.status, status);
    if (message !== undefined) assert.equal(e.message, message);
    return true;
  });
}

const sentinel = (): LaunchConfig => ({ workgroupCount: [7, 7, 7], workgroupSize: [7, 7, 7], workgroupClusterSize: [7, 7, 7], subgroupSize: 7, workgroupStorageBytes: 7 });

test("workload_grid: 1009 elements → 16×1×1 workgroups of 64", () => {
  const p = load(workloadGrid("workload_grid", { subgroupSize: 32, workgroupStorageBytes: 1024 }));
  const fn = p.lookupFunction("workload_grid");
  const expected = { workgroupCount: [16, 1, 1], workgroupSize: [64, 1, 1], workgroupClusterSize: [1, 1, 1], subgroupSize: 32, workgroupStorageBytes: 1024 };
  assert.deepEqual(p.invoke(fn, [1009n]), expected);
  assert.deepEqual(p.invoke(fn, BigUint64Array.of(1009n)), expected);
  assert.deepEqual(p.invokeNumbers(fn, [1009]), expected);
  const out = createLaunchConfig();
  p.invokeInto(fn, [1009n], out);
  assert.deepEqual(out, expected);
  assert.deepEqual(p.invoke(fn, [0n]).workgroupCount, [0, 1, 1]); // nothing to dispatch
  assert.deepEqual(p.invoke(fn, [64n]).workgroupCount, [1, 1, 1]);
  assert.deepEqual(p.invoke(fn, [65n]).workgroupCount, [2, 1, 1]);
  assert.deepEqual(p.invoke(fn, [-63n]).workgroupCount, [0, 1, 1]); // (−63 + 63) / 64
  assert.deepEqual(p.invokeNumbers(fn, [-0]).workgroupCount, [0, 1, 1]);
  assert.ok(!Object.is(p.invokeNumbers(fn, [-63]).workgroupCount[0], -0));
  assert.deepEqual(p.functionNames, ["workload_grid"]);
  assert.equal(fn.name, "workload_grid");
  assert.equal(p.lookupFunction("@workload_grid"), fn);
});

test("rejections throw the documented status and leave the output untouched", () => {
  const p = load(workloadGrid());
  const fn = p.lookupFunction("workload_grid");
  const div = "launch-config function 'workload_grid': index.div (op 4) has no defined result: dividend -1 is negative";
  for (const run of [
    (o: LaunchConfig) => p.invokeInto(fn, [-64n], o),
    (o: LaunchConfig) => p.invokeNumbers(fn, [-64], o),
    (o: LaunchConfig) => p.invokeInto(fn, [(1n << 64n) - 64n], o), // −64 as raw bits
  ]) {
    const out = sentinel();
    rejects(() => run(out), "out-of-range", div);
    assert.deepEqual(out, sentinel());
  }
  const overflow = "launch-config function 'workload_grid': index.add (op 3) has no defined result: index result 9223372036854775870 is outside the signed 64-bit range";
  rejects(() => p.invoke(fn, [(1n << 63n) - 1n]), "out-of-range", overflow);
  rejects(() => p.invokeNumbers(fn, [2 ** 53]), "invalid-argument", "launch-config function 'workload_grid': workload argument 0 (%count: index) must be a safe integer, got 9007199254740992");
  rejects(() => p.invoke(fn, [64n * 2147483648n]), "out-of-range", "launch-config function 'workload_grid': workgroup count x = 2147483648 is outside [0, 2147483647]");
  rejects(() => p.invoke(fn, []), "invalid-argument", "launch-config function 'workload_grid': expects 1 workload argument(s), got 0");
  rejects(() => p.invoke(fn, [1n, 2n]), "invalid-argument");
  rejects(() => p.invoke(fn, [1 as unknown as bigint]), "invalid-argument", "launch-config function 'workload_grid': workload argument 0 (%count: index) must be a bigint holding raw 64-bit bits, got number 1");
  rejects(() => p.invoke(fn, [1n << 64n]), "invalid-argument", "launch-config function 'workload_grid': workload argument 0 (%count: index) = 18446744073709551616 does not fit 64 bits (expected [-2^63, 2^64))");
  rejects(() => p.invokeNumbers(fn, ["5" as unknown as number]), "invalid-argument");
  rejects(() => p.invoke(fn, "1" as unknown as bigint[]), "invalid-argument");
  rejects(() => p.invokeInto(fn, [1n], Object.freeze(createLaunchConfig())), "invalid-argument");
  rejects(() => p.invokeInto(fn, [1n], null as unknown as LaunchConfig), "invalid-argument");
  rejects(() => p.lookupFunction("saxpy"), "not-found", "no launch-config function 'saxpy' (available: workload_grid)");
  const other = load(workloadGrid());
  rejects(() => p.invoke(other.lookupFunction("workload_grid"), [1n]), "invalid-argument");
  rejects(() => LaunchConfigProgram.load({} as { contents: Uint8Array }), "invalid-argument");
});

test("offset and narrow argument slots follow language.md §6", () => {
  const p = load(
    source("slots", (b) => {
      const bytes = b.arg("bytes", "offset");
      const flag = b.arg("flag", "i1");
      const small = b.arg("small", "i8");
      const c1 = b.index(1);
      const asIndex = b.one("index.cast", [bytes], "index");
      const flagIndex = b.one("index.cast", [flag], "index");
      const smallIndex = b.one("index.cast", [small], "index"); // sign-extends
      const s = b.one("index.add", [smallIndex, b.index(200)], "index");
      const x = b.one("index.add", [asIndex, flagIndex], "index");
      b.launch([x, s, c1], [c1, c1, c1]);
    }),
  );
  const fn = p.lookupFunction("slots");
  assert.deepEqual(p.invoke(fn, [5n, 3n, 0xffn]).workgroupCount, [6, 199, 1]); // i1 is bit 0; i8 0xff = −1
  assert.deepEqual(p.invoke(fn, [5n, 2n, 0x17fn]).workgroupCount, [5, 327, 1]); // higher bits ignored
  assert.deepEqual(p.invokeNumbers(fn, [5, 3, -1]).workgroupCount, [6, 199, 1]);
  const out = sentinel();
  rejects(() => p.invokeInto(fn, [1n << 63n, 0n, 0n], out), "out-of-range", "launch-config function 'slots': workload argument 0 (%bytes: offset) = 9223372036854775808 exceeds 2^63-1");
  rejects(() => p.invokeNumbers(fn, [-1, 0, 0], out), "out-of-range");
  assert.deepEqual(out, sentinel());
});

test("workload where, assume facts, sizes, flat size and cluster are enforced", () => {
  let kArg: import("../../src/ir/core.js").Value | undefined;
  const matmulLike = source(
    "facts",
    (b) => {
      const k = (kArg = b.arg("k", "index"));
      const sz = b.arg("size", "index");
      const c1 = b.index(1);
      const [checked] = b.op("index.assume", [sz], ["index"], { predicates: [pred("range", sz, 1, 512)] });
      b.launch([k, c1, c1], [checked!, c1, c1], [c1, c1, c1]);
    },
    { limits: { ...DEFAULT_LIMITS, maxFlatWorkgroupSize: 256 } },
  );
  (matmulLike as { workloadWhere: unknown }).workloadWhere = [pred("mul", kArg!, 16)];
  const p = load(matmulLike);
  const fn = p.lookupFunction("facts");
  assert.deepEqual(p.invoke(fn, [64n, 256n]).workgroupCount, [64, 1, 1]);
  rejects(() => p.invoke(fn, [70n, 256n]), "out-of-range", "launch-config function 'facts': workload predicate mul(%k, 16) is violated (%k = 70)");
  rejects(() => p.invokeNumbers(fn, [64, 0]), "out-of-range", "launch-config function 'facts': index.assume (op 1) predicate range(%size, 1, 512) is violated (%size = 0)");
  rejects(() => p.invokeNumbers(fn, [64, 257]), "out-of-range", "launch-config function 'facts': workgroup size 257x1x1 has 257 invocations, above the limit 256");
  const sizes = load(
    source("sizes", (b) => {
      const s = b.arg("s", "index");
      const c1 = b.index(1), c2 = b.index(2);
      b.launch([c1, c1, c1], [s, c1, c1], [c1, c2, c1]);
    }),
  );
  const f2 = sizes.lookupFunction("sizes");
  rejects(() => sizes.invoke(f2, [0n]), "out-of-range", "launch-config function 'sizes': workgroup size x = 0 is outside [1, 1024]");
  rejects(() => sizes.invoke(f2, [1025n]), "out-of-range", "launch-config function 'sizes': workgroup size x = 1025 is outside [1, 1024]");
  rejects(() => sizes.invoke(f2, [1n]), "out-of-range", "launch-config function 'sizes': workgroup cluster size 1x2x1 is not 1x1x1");
});

test("loops are bounded by an iteration budget", () => {
  const p = load(
    source("spin", (b) => {
      const n = b.arg("n", "index");
      const c0 = b.index(0), c1 = b.index(1);
      const [sum] = b.op("scf.for", [c0, n, c1, c0], ["index"], {}, [
        (rb, r) => {
          const iv = r.addArg("iv", { kind: "prim", name: "index" });
          const acc = r.addArg("acc", { kind: "prim", name: "index" });
          const next = rb.one("index.add", [acc, iv], "index");
          rb.op("scf.yield", [next]);
        },
      ]);
      const groups = b.one("index.min", [sum!, b.index(1000)], "index");
      b.launch([groups, c1, c1], [c1, c1, c1]);
    }),
  );
  const fn = p.lookupFunction("spin");
  assert.deepEqual(p.invokeNumbers(fn, [10]).workgroupCount, [45, 1, 1]);
  assert.deepEqual(p.invoke(fn, [10n]).workgroupCount, [45, 1, 1]);
  assert.deepEqual(p.invoke(fn, [-5n]).workgroupCount, [0, 1, 1]);
  rejects(() => p.invokeNumbers(fn, [2 ** 40]), "out-of-range", "launch-config function 'spin': loops ran more than 16777216 iterations in one invocation");
});

test("load rejects junk with data-loss", () => {
  rejects(() => LaunchConfigProgram.load(new Uint8Array(0)), "data-loss");
  rejects(() => LaunchConfigProgram.load(Uint8Array.from(Buffer.from("kernel.def @k() {}"))), "data-loss");
});
