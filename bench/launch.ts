/**
 * Launch-config evaluation cost on the seed kernel (workload_grid, language.md §10 (a)):
 * ns per call of `invokeNumbers` and `invokeInto` (median of batches, after warm-up), against
 * a hand-written JS function doing the same arithmetic and checks in the same run, plus
 * evidence that the hot path does not allocate (no GC during millions of calls, heap flat).
 * Goal: ≤ 50 ns/call. The same for the closure evaluator (`{ codegen: false }`, what a page
 * with a strict Content-Security-Policy gets), and `invoke` (the exact bigint path) for both.
 */
import { PerformanceObserver, performance } from "node:perf_hooks";
import { Op, Region, type Value } from "../src/ir/core.js";
import { T } from "../src/ir/types.js";
import { LaunchConfigProgram, createLaunchConfig, type LaunchConfig } from "../src/launch/program.js";
import { encodeLaunchConfig } from "../src/launch/source.js";

const BATCH = 1_000_000;
const BATCHES = 11;

/** The seed kernel's config region, built directly as IR (no parser needed). */
function seedKernelBytes(): Uint8Array {
  const region = new Region(null);
  const count = region.addArg("count", T.index);
  const op = (name: string, operands: Value[], props: Op["props"] = {}): Value => {
    const o = new Op(name);
    o.operands = operands;
    o.props = props;
    region.ops.push(o);
    return o.addResult(`v${region.ops.length}`, T.index);
  };
  const constant = (v: bigint) => op("index.constant", [], { value: { kind: "int", value: v } });
  const c1 = constant(1n), lanes = constant(64n), lanesMinusOne = constant(63n);
  const groups = op("index.div", [op("index.add", [count, lanesMinusOne]), lanes]);
  const launch = new Op("kernel.launch.config");
  launch.operands = [groups, c1, c1, lanes, c1, c1];
  launch.props = { cluster: false };
  region.ops.push(launch);
  return encodeLaunchConfig([
    {
      exportName: "workload_grid",
      region,
      workloadWhere: [],
      subgroupSize: 32,
      workgroupStorageBytes: 0,
      limits: { maxWorkgroupCount: [2147483647, 65535, 65535], maxWorkgroupSize: [1024, 1024, 1024], maxFlatWorkgroupSize: 1024 },
    },
  ]);
}

/** What an application would write by hand: same arithmetic, same checks, same output. */
function handWritten(count: number, out: LaunchConfig): void {
  if (!Number.isSafeInteger(count)) throw new Error("count must be a safe integer");
  const padded = count + 63;
  if (padded < 0) throw new Error("negative count");
  const groups = (padded - (padded % 64)) / 64;
  if (groups > 2147483647) throw new Error("too many workgroups");
  out.workgroupCount[0] = groups;
  out.workgroupCount[1] = 1;
  out.workgroupCount[2] = 1;
  out.workgroupSize[0] = 64;
  out.workgroupSize[1] = 1;
  out.workgroupSize[2] = 1;
  out.workgroupClusterSize[0] = 1;
  out.workgroupClusterSize[1] = 1;
  out.workgroupClusterSize[2] = 1;
  out.subgroupSize = 32;
  out.workgroupStorageBytes = 0;
}

/** Median ns/call over batches of `BATCH` calls of `body(i)`. */
function nsPerCall(body: (i: number) => void): { median: number; min: number } {
  for (let i = 0; i < 300_000; i++) body(i);
  const per: number[] = [];
  for (let b = 0; b < BATCHES; b++) {
    const t0 = performance.now();
    for (let i = 0; i < BATCH; i++) body(i);
    per.push(((performance.now() - t0) * 1e6) / BATCH);
  }
  per.sort((x, y) => x - y);
  const r = (x: number) => Math.round(x * 100) / 100;
  return { median: r(per[per.length >> 1]!), min: r(per[0]!) };
}

/** GCs observed and heap growth over `calls` calls: zero GCs means no allocation reached the heap. */
async function allocationEvidence(body: (i: number) => void, calls: number): Promise<{ calls: number; gcEvents: number; heapUsedDeltaBytes: number }> {
  let gcEvents = 0;
  const observer = new PerformanceObserver((list) => (gcEvents += list.getEntries().length));
  for (let i = 0; i < 100_000; i++) body(i);
  (globalThis as { gc?: () => void }).gc?.();
  await new Promise((r) => setTimeout(r, 10));
  observer.observe({ entryTypes: ["gc"] });
  const before = process.memoryUsage().heapUsed;
  for (let i = 0; i < calls; i++) body(i);
  const after = process.memoryUsage().heapUsed;
  await new Promise((r) => setTimeout(r, 10));
  observer.disconnect();
  return { calls, gcEvents, heapUsedDeltaBytes: after - before };
}

export async function benchLaunch(): Promise<Record<string, unknown>> {
  const bytes = seedKernelBytes();
  const program = LaunchConfigProgram.load(bytes);
  const fn = program.lookupFunction("workload_grid");
  const closures = LaunchConfigProgram.load(bytes, { codegen: false });
  const cfn = closures.lookupFunction("workload_grid");
  const out = createLaunchConfig();
  const counts = Float64Array.from({ length: 1024 }, (_, i) => 1 + i * 997);
  const bigCounts = Array.from(counts, (c) => BigInt(c));
  const numberArgs = [0];
  const bigintArgs = [0n];

  const viaNumbers = (i: number) => {
    numberArgs[0] = counts[i & 1023]!;
    program.invokeNumbers(fn, numberArgs, out);
  };
  const viaInto = (i: number) => {
    bigintArgs[0] = bigCounts[i & 1023]!;
    program.invokeInto(fn, bigintArgs, out);
  };
  const byHand = (i: number) => handWritten(counts[i & 1023]!, out);
  const closureNumbers = (i: number) => {
    numberArgs[0] = counts[i & 1023]!;
    closures.invokeNumbers(cfn, numberArgs, out);
  };
  const closureInto = (i: number) => {
    bigintArgs[0] = bigCounts[i & 1023]!;
    closures.invokeInto(cfn, bigintArgs, out);
  };
  const viaInvoke = (i: number) => {
    bigintArgs[0] = bigCounts[i & 1023]!;
    program.invoke(fn, bigintArgs);
  };
  const closureInvoke = (i: number) => {
    bigintArgs[0] = bigCounts[i & 1023]!;
    closures.invoke(cfn, bigintArgs);
  };

  // Correctness before speed: every path agrees on the seed case.
  for (const [p, f] of [[program, fn], [closures, cfn]] as const) {
    p.invokeNumbers(f, [1009], out);
    if (out.workgroupCount[0] !== 16 || p.invoke(f, [1009n]).workgroupCount[0] !== 16) throw new Error(`${p.evaluator}: 1009 elements should give 16 workgroups`);
  }

  const numbers = nsPerCall(viaNumbers);
  const into = nsPerCall(viaInto);
  const hand = nsPerCall(byHand);
  const cNumbers = nsPerCall(closureNumbers);
  const cInto = nsPerCall(closureInto);
  const invoke = nsPerCall(viaInvoke);
  const cInvoke = nsPerCall(closureInvoke);
  return {
    name: "launch.workload_grid",
    unit: "ns/call",
    invokeNumbers_ns: numbers.median,
    invokeInto_ns: into.median,
    handWritten_ns: hand.median,
    invoke_ns: invoke.median,
    closures: {
      note: "LaunchConfigProgram.load(bytes, { codegen: false }): no new Function (strict-CSP pages get this automatically)",
      invokeNumbers_ns: cNumbers.median,
      invokeInto_ns: cInto.median,
      invoke_ns: cInvoke.median,
      min_ns: { invokeNumbers: cNumbers.min, invokeInto: cInto.min, invoke: cInvoke.min },
      ratio_invokeNumbers_to_codegen: Math.round((cNumbers.median / numbers.median) * 100) / 100,
    },
    min_ns: { invokeNumbers: numbers.min, invokeInto: into.min, handWritten: hand.min, invoke: invoke.min },
    ratio_invokeNumbers_to_hand: Math.round((numbers.median / hand.median) * 100) / 100,
    ratio_invokeInto_to_hand: Math.round((into.median / hand.median) * 100) / 100,
    goal_ns: 50,
    batches: `${BATCHES} × ${BATCH} calls, median`,
    allocation: {
      invokeNumbers: await allocationEvidence(viaNumbers, 5_000_000),
      invokeInto: await allocationEvidence(viaInto, 5_000_000),
      handWritten: await allocationEvidence(byHand, 5_000_000),
      closures_invokeNumbers: await allocationEvidence(closureNumbers, 5_000_000),
      closures_invokeInto: await allocationEvidence(closureInto, 5_000_000),
    },
  };
}

// Run directly: node dist/bench/launch.js
if (process.argv[1] && import.meta.url.endsWith(process.argv[1].replace(/^.*\/dist\//, "/dist/"))) {
  console.log(JSON.stringify(await benchLaunch(), null, 2));
}
