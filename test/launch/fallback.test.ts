/**
 * The closure evaluator (`LaunchConfigProgram.load(bytes, { codegen: false })`, what a page
 * with a strict Content-Security-Policy gets) behaves exactly like the generated code: same
 * launch, or the same `LoomError` status *and message*, output untouched on failure — on
 * every entry point — and both agree with the reference interpreter over the IR.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import fc from "fast-check";
import { LoomError } from "../../src/core/errors.js";
import type { Value } from "../../src/ir/core.js";
import { LaunchConfigProgram, createLaunchConfig, type LaunchConfig } from "../../src/launch/program.js";
import { encodeLaunchConfig, type LaunchFunctionSource } from "../../src/launch/source.js";
import { DEFAULT_LIMITS, pred, source } from "./builder.js";
import { CORPUS } from "./corpus.js";
import { parsedSources } from "./parsed-corpus.js";
import { BOUNDARY, TwoEvaluators, bitsOf, sentinel } from "./two-evaluators.js";

const indexType = { kind: "prim", name: "index" } as const;

/** Functions that reach the error paths the corpus does not: budget, sizes, facts, limits, slots. */
function errorCorpus(): LaunchFunctionSource[] {
  const spin = source("spin", (b) => {
    const n = b.arg("n", "index"), step = b.arg("step", "index");
    const c0 = b.index(0), c1 = b.index(1);
    const [sum] = b.op("scf.for", [c0, n, step, c0], ["index"], {}, [
      (rb, r) => {
        const iv = r.addArg("iv", indexType), acc = r.addArg("acc", indexType);
        rb.op("scf.yield", [rb.one("index.add", [acc, iv], "index")]);
      },
    ]);
    b.launch([b.one("index.min", [sum!, b.index(1000)], "index"), c1, c1], [c1, c1, c1]);
  });
  let k: Value | undefined;
  const facts = source(
    "facts",
    (b) => {
      k = b.arg("k", "index");
      const size = b.arg("size", "index"), cl = b.arg("cluster", "index");
      const c1 = b.index(1);
      const [checked] = b.op("index.assume", [size], ["index"], { predicates: [pred("range", size, 1, 512)] });
      b.launch([k, c1, c1], [checked!, c1, c1], [c1, cl, c1]);
    },
    { limits: { ...DEFAULT_LIMITS, maxFlatWorkgroupSize: 256 }, subgroupSize: 64, workgroupStorageBytes: 4096 },
  );
  const slots = source("slots", (b) => {
    const bytes = b.arg("bytes", "offset"), flag = b.arg("flag", "i1"), small = b.arg("small", "i8");
    const c1 = b.index(1);
    const x = b.one("index.add", [b.one("index.cast", [bytes], "index"), b.one("index.cast", [flag], "index")], "index");
    const y = b.one("index.add", [b.one("index.cast", [small], "index"), b.index(200)], "index");
    b.launch([x, y, c1], [c1, c1, c1]);
  });
  const sizes = source("sizes", (b) => {
    const sx = b.arg("sx", "index"), sz = b.arg("sz", "index");
    const c1 = b.index(1);
    b.launch([c1, c1, c1], [sx, c1, sz]);
  });
  return [spin, sizes, { ...facts, workloadWhere: [pred("mul", k!, 16), pred("le", k!, 1n << 60n)] }, slots];
}

const sources = [...CORPUS.map((f) => f()), ...parsedSources().map((s) => ({ ...s, exportName: `parsed_${s.exportName}` })), ...errorCorpus()];
const both = new TwoEvaluators(sources);
const { generated, closures } = both;
const bytes = encodeLaunchConfig(sources);

/** `spin` with a huge trip count would run 2^24 exact iterations per call: keep it to small ranges here. */
const tame = (src: LaunchFunctionSource, args: bigint[]) => src.exportName !== "spin" || (BigInt.asIntN(64, args[0]!) < 100000n && BigInt.asIntN(64, args[1]!) !== 0n) || BigInt.asIntN(64, args[1]!) <= 0n;

test("the program loaded with { codegen: false } uses closures; the default generates code", () => {
  assert.equal(generated.evaluator, "codegen");
  assert.equal(closures.evaluator, "closures");
  assert.equal(LaunchConfigProgram.load(bytes, { codegen: true }).evaluator, "codegen");
  assert.throws(() => LaunchConfigProgram.load(bytes, { codegen: "no" as unknown as boolean }), (e: unknown) => e instanceof LoomError && e.status === "invalid-argument");
  assert.deepEqual(generated.functionNames, closures.functionNames);
});

test("boundary values: closures agree with generated code (messages too) and the reference", () => {
  let checked = 0, launched = 0;
  for (const src of sources) {
    const types = generated.lookupFunction(src.exportName).argumentTypes;
    const sets = types.map((t) => BOUNDARY[t]!);
    const combo = (i: number, acc: bigint[]): void => {
      if (i === sets.length) {
        if (!tame(src, acc)) return;
        checked++;
        if ("launch" in both.agree(src, acc)) launched++;
        return;
      }
      for (const v of sets[i]!) combo(i + 1, [...acc, v]);
    };
    combo(0, []);
  }
  assert.ok(checked > 4000 && launched > 400, `${checked} combinations, ${launched} launched`);
  assert.ok(both.fastCodes[0]! > 300 && both.fastCodes[1]! > 300, `fast path: ${both.fastCodes[0]} done, ${both.fastCodes[1]} bailed`);
});

test("property: random arguments agree on every entry point (≥ 2,000 cases)", () => {
  let cases = 0;
  for (const src of sources) {
    const types = generated.lookupFunction(src.exportName).argumentTypes;
    fc.assert(
      fc.property(fc.tuple(...types.map(bitsOf)), (args) => {
        fc.pre(tame(src, args));
        cases++;
        both.agree(src, args);
      }),
      { numRuns: 200 },
    );
  }
  assert.ok(cases >= 2000, `${cases} cases`);
});

test("property: hostile arguments raise the same LoomError from both evaluators", () => {
  const anything = fc.oneof(fc.anything(), fc.bigInt(), fc.double(), fc.integer(), fc.constant(undefined));
  const list = fc.oneof(fc.array(anything, { maxLength: 4 }), anything);
  let cases = 0;
  for (const src of sources) {
    fc.assert(
      fc.property(list, (args) => {
        if (src.exportName === "spin" && Array.isArray(args) && args.length === 2) return; // may spin 2^24 exact iterations
        cases++;
        both.agreeHostile(src, args);
      }),
      { numRuns: 100 },
    );
  }
  assert.ok(cases >= 1000, `${cases} cases`);
});

test("every error kind was reached, with identical messages from both evaluators", () => {
  // One deterministic call per kind (the tests above reach them too, at random).
  const named = (name: string) => sources.find((s) => s.exportName === name)!;
  const facts = named("facts"), sizes = named("sizes");
  for (const args of [[70n, 64n, 1n], [1n << 61n, 64n, 1n], [64n, 0n, 1n], [64n, 300n, 1n], [64n, 128n, 2n], [-16n, 64n, 1n]]) both.agree(facts, args);
  for (const args of [[0n, 1n], [1025n, 1n], [1n, 0n]]) both.agree(sizes, args);
  both.agree(named("spin"), [10n, 0n]);
  both.agree(named("slots"), [1n << 63n, 0n, 0n]);
  both.agree(named("parsed_workload_grid"), [-64n]);
  for (const args of [[1, 2, 3], [1n << 64n, 0n, 0n], ["5", 1, 1], [1.5, 1, 1], [], "1", [1n, 2n]]) both.agreeHostile(facts, args);
  const kinds = [
    /workload predicate mul\(%k, 16\) is violated/,
    /workload predicate le\(%k, 1152921504606846976\) is violated/,
    /index\.assume \(op \d+\) predicate range\(%size, 1, 512\) is violated/,
    /\(reference\)|has no defined result: /,
    /scf\.for \(op \d+\) has step -?\d+, which is not positive/,
    /workgroup count [xyz] = -?\d+ is outside \[0, \d+\]/,
    /workgroup size [xyz] = -?\d+ is outside \[1, \d+\]/,
    /invocations, above the limit 256/,
    /workgroup cluster size 1x\d+x1 is not 1x1x1/,
    /\(%bytes: offset\) = \d+ exceeds 2\^63-1/,
    /must be a bigint holding raw 64-bit bits, got/,
    /does not fit 64 bits/,
    /must be a safe integer, got/,
    /must be a number, got/,
    /expects \d+ workload argument\(s\), got \d+/,
    /workload arguments must be an array/,
  ];
  const messages = [...both.messages];
  for (const k of kinds) assert.ok(messages.some((m) => k.test(m)), `no message matched ${k}`);
});

test("the loop budget: the same error on every entry point of both evaluators", () => {
  const budget = "launch-config function 'spin': loops ran more than 16777216 iterations in one invocation";
  for (const p of [generated, closures]) {
    const fn = p.lookupFunction("spin");
    assert.deepEqual(p.invokeNumbers(fn, [10, 1]).workgroupCount, [45, 1, 1]);
    const out = sentinel();
    assert.throws(() => p.invokeNumbers(fn, [2 ** 40, 1], out), { message: budget });
    assert.throws(() => p.invokeInto(fn, [1n << 40n, 1n], out), { message: budget });
    assert.deepEqual(out, sentinel());
  }
  // The exact path alone (invoke) counts the same budget: 2^24 + 1 bigint iterations.
  const fn = closures.lookupFunction("spin");
  assert.throws(() => closures.invoke(fn, [1n << 40n, 1n]), { message: budget });
});

test("a re-entrant call (an argument getter invoking the same function) keeps both calls intact", () => {
  for (const p of [generated, closures]) {
    const fn = p.lookupFunction("parsed_matmul16");
    let inner: LaunchConfig | undefined;
    const args = new Proxy([100, 70], {
      get(target, key, receiver) {
        if (key === "1" && inner === undefined) inner = p.invokeNumbers(fn, [1000, 2000]);
        return Reflect.get(target, key, receiver);
      },
    });
    const outer = p.invokeNumbers(fn, args);
    assert.deepEqual(inner!.workgroupCount, [125, 63, 1], p.evaluator);
    assert.deepEqual(outer.workgroupCount, [5, 7, 1], p.evaluator);
  }
});

test("closures: the fast path writes the same output object the generated code does", () => {
  const g = generated.lookupFunction("facts"), c = closures.lookupFunction("facts");
  const a = createLaunchConfig(), b = createLaunchConfig();
  generated.invokeNumbers(g, [64, 128, 1], a);
  closures.invokeNumbers(c, [64, 128, 1], b);
  assert.deepEqual(b, a);
  assert.deepEqual(b, { workgroupCount: [64, 1, 1], workgroupSize: [128, 1, 1], workgroupClusterSize: [1, 1, 1], subgroupSize: 64, workgroupStorageBytes: 4096 });
  const frozen = Object.freeze(createLaunchConfig());
  for (const [p, fn] of [[generated, g], [closures, c]] as const) {
    assert.throws(() => p.invokeNumbers(fn, [64, 128, 1], frozen), { message: "out must be a writable LaunchConfig (see createLaunchConfig)" });
  }
});

test("a long function (20,000 ops in one region) evaluates alike in both evaluators", () => {
  const long = source("long", (b) => {
    const n = b.arg("n", "index");
    const c1 = b.index(1);
    let x = n;
    for (let i = 0; i < 20000; i++) x = b.one(i % 2 ? "index.add" : "index.max", [x, c1], "index");
    b.launch([b.one("index.rem", [x, b.index(65536)], "index"), c1, c1], [c1, c1, c1]);
  });
  const two = new TwoEvaluators([long]);
  for (const n of [0n, 5n, -30000n, 1n << 62n, (1n << 63n) - 2n]) two.agree(long, [n]);
  assert.deepEqual(two.closures.invokeNumbers(two.closures.lookupFunction("long"), [5]).workgroupCount, [10005, 1, 1]);
});
