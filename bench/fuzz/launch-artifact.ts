/**
 * Fuzzes launch-config artifacts (issue 12 item 16): the seeds are the launch-config artifacts
 * of every valid repository kernel (./corpus.ts), compiled once; each case is one seed with a
 * few byte edits (./mutate.ts), re-sealed (CRC recomputed) three times in four so the decoder's
 * structure checks are reached, loaded with `LaunchConfigProgram.load` (closures; generated code
 * every 16th case) and, when it loads, every function invoked with random argument bits.
 * The property: only `LoomError`s other than "internal" escape, and no case hangs.
 * `node dist/bench/fuzz/launch-artifact.js [cases] [seed]` prints JSON.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { Compiler, Context, LaunchConfigProgram, LoomError, PassProgram, Source, Workspace, compileModule, createLaunchConfig } from "../../src/index.js";
import { createReferenceEnvironment, createReferenceProfile } from "../../src/interp/index.js";
import { crc32 } from "../../src/bytecode/crc32.js";
import { validLoomFiles } from "./corpus.js";
import { mutateBytes, prng, type Rand } from "./mutate.js";

const HANG_MS = 1000;

/** The launch-config artifacts of the repository's kernels. */
export function launchSeeds(repoRoot: string): Uint8Array[] {
  const env = createReferenceEnvironment();
  const context = Context.create({ targetEnvironments: [env] });
  const compiler = Compiler.create(context);
  const pipeline = PassProgram.fromTargetPipeline(context, { kind: "prepared-low", verifyEachPass: false }).value!;
  const profile = createReferenceProfile();
  const out: Uint8Array[] = [];
  for (const path of validLoomFiles(repoRoot)) {
    const text = readFileSync(join(repoRoot, path), "utf8");
    if (!text.includes("kernel.def") || text.includes(".target")) continue;
    const workspace = new Workspace(context);
    const parsed = workspace.parseModule(Source.fromText(path, text));
    if (!parsed.ok || !parsed.value) continue;
    const kernels = [...new Set(parsed.value.kernels().filter((k) => k.defined).map((k) => k.symbol))];
    if (kernels.length === 0) continue;
    const r = compileModule(compiler, workspace, pipeline, parsed.value, { specializations: kernels.map((functionSymbol) => ({ functionSymbol, targetProfile: profile })), artifacts: { launchConfig: true } });
    const a = r.ok ? r.findArtifact("launch-config") : undefined;
    if (a) out.push(a.contents);
  }
  return out;
}

function reseal(b: Uint8Array): Uint8Array {
  if (b.length >= 12) new DataView(b.buffer, b.byteOffset, b.byteLength).setUint32(8, crc32(b, 8), true);
  return b;
}

const ARG_BITS = [0n, 1n, 2n, 7n, 64n, 1023n, 2n ** 31n, 2n ** 32n - 1n, 2n ** 63n - 1n, 2n ** 63n, 2n ** 64n - 1n, 0x7fc00000n, 0x3f800000n];
const argBits = (rand: Rand) => (rand() < 0.7 ? ARG_BITS[Math.floor(rand() * ARG_BITS.length)]! : BigInt.asUintN(64, BigInt(Math.floor(rand() * 2 ** 32)) * BigInt(Math.floor(rand() * 2 ** 32))));

export interface LaunchFuzzReport {
  cases: number;
  loaded: number;
  invocations: number;
  invokeOk: number;
  byStatus: Record<string, number>;
  hangs: number;
  maxMs: number;
  /** Property violations (a non-LoomError or an "internal" one), with replay seeds. */
  crashes: { seed: number; error: string }[];
}

export function fuzzLaunchArtifacts(seeds: readonly Uint8Array[], cases: number, seed: number): LaunchFuzzReport {
  const report: LaunchFuzzReport = { cases, loaded: 0, invocations: 0, invokeOk: 0, byStatus: {}, hangs: 0, maxMs: 0, crashes: [] };
  const count = (e: unknown, caseSeed: number) => {
    if (e instanceof LoomError && e.status !== "internal") report.byStatus[e.status] = (report.byStatus[e.status] ?? 0) + 1;
    else report.crashes.push({ seed: caseSeed, error: String((e as Error)?.stack ?? e).slice(0, 300) });
  };
  const out = createLaunchConfig();
  for (let i = 0; i < cases; i++) {
    const caseSeed = (seed * 1_000_003 + i) >>> 0;
    const rand = prng(caseSeed);
    const base = seeds[Math.floor(rand() * seeds.length)]!;
    let bytes = base;
    for (let m = 1 + Math.floor(rand() * 3); m > 0; m--) bytes = mutateBytes(bytes, rand, seeds[Math.floor(rand() * seeds.length)]!);
    bytes = bytes.slice();
    if (rand() < 0.75) reseal(bytes);
    const t0 = performance.now();
    let program: LaunchConfigProgram;
    try {
      program = LaunchConfigProgram.load(bytes, { codegen: i % 16 === 0 });
      report.loaded++;
    } catch (e) {
      count(e, caseSeed);
      continue;
    }
    for (const name of program.functionNames) {
      try {
        const fn = program.lookupFunction(name);
        report.invocations++;
        const args = fn.argumentTypes.map(() => argBits(rand));
        if (rand() < 0.5) program.invoke(fn, args);
        else program.invokeInto(fn, args, out);
        report.invokeOk++;
      } catch (e) {
        count(e, caseSeed);
      }
    }
    const ms = performance.now() - t0;
    if (ms > report.maxMs) report.maxMs = ms;
    if (ms > HANG_MS) report.hangs++;
  }
  return report;
}

if (process.argv[1]?.endsWith("launch-artifact.js") && import.meta.url.endsWith("bench/fuzz/launch-artifact.js")) {
  const cases = Number(process.argv[2] ?? 100_000);
  const seed = Number(process.argv[3] ?? 1);
  const root = new URL("../../../", import.meta.url).pathname;
  const seeds = launchSeeds(root);
  const t0 = performance.now();
  const report = fuzzLaunchArtifacts(seeds, cases, seed);
  const seconds = (performance.now() - t0) / 1000;
  console.log(JSON.stringify({
    bench: "fuzz-launch-artifact",
    caseDefinition: "one mutated launch-config artifact loaded, and when it loads every function invoked once",
    seed, seedArtifacts: seeds.length, seconds: Math.round(seconds), ratePerSec: Math.round(cases / seconds),
    ...report, maxMs: Math.round(report.maxMs), crashes: report.crashes.slice(0, 20), failures: report.crashes.length + report.hangs,
  }));
}
