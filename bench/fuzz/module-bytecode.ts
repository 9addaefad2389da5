/**
 * Fuzzes the `.loombc` module reader: `node dist/bench/fuzz/module-bytecode.js [N] [seed]`
 * runs N (default 10^6) mutated files (./mutate.ts) through `readModuleBytecode` and prints
 * one JSON object: {cases, crashes, hangs, maxMs, throughputPerSec, accepted, byCode, ...}.
 *
 * A crash is an exception out of the reader, a BYTECODE/907 (reader bug) diagnostic, a failed
 * read without exactly one diagnostic, or an accepted module that the printer or verifier then
 * throws on. A hang is a case over HANG_MS. Crashing cases are listed by seed for replay.
 */
import "../../src/api/check-dialect.js"; // the check harness's syntax and rules, which loomc registers
import { fileURLToPath } from "node:url";
import { resolve } from "node:path";
import { performance } from "node:perf_hooks";
import { DiagnosticSink } from "../../src/core/diag/diagnostic.js";
import { readModuleBytecode } from "../../src/bytecode/module/reader.js";
import { printModule } from "../../src/text/printer.js";
import { verifyModule } from "../../src/passes/verify/index.js";
import { seeds } from "./corpus.js";
import { mutateFile, prng } from "./mutate.js";

const HANG_MS = 1000;

const repoRoot = resolve(fileURLToPath(new URL(".", import.meta.url)), "../../..");
const cases = Number(process.argv[2] ?? 1_000_000);
const baseSeed = Number(process.argv[3] ?? 1);
if (!Number.isSafeInteger(cases) || cases < 0) throw new Error(`usage: module-bytecode.js [N] [seed]`);

const corpus = seeds(repoRoot);
const byCode: Record<string, number> = {};
const crashSeeds: { seed: number; what: string }[] = [];
let crashes = 0, hangs = 0, accepted = 0, maxMs = 0, bytesRead = 0;

const started = performance.now();
for (let i = 0; i < cases; i++) {
  const seed = baseSeed * 0x9e3779b1 + i;
  const rand = prng(seed);
  const file = corpus[Math.floor(rand() * corpus.length)]!;
  const donor = corpus[Math.floor(rand() * corpus.length)]!;
  const bytes = mutateFile(file.bytes, rand, donor.bytes);
  bytesRead += bytes.length;
  const t0 = performance.now();
  let crash: string | undefined;
  try {
    const sink = new DiagnosticSink();
    const m = readModuleBytecode(file.path, bytes, sink);
    if (m) {
      accepted++;
      printModule(m);
      verifyModule(m, new DiagnosticSink());
    } else if (sink.diagnostics.length !== 1) crash = `${sink.diagnostics.length} diagnostics`;
    else {
      const code = sink.diagnostics[0]!.code;
      byCode[code] = (byCode[code] ?? 0) + 1;
      if (code === "BYTECODE/907") crash = sink.diagnostics[0]!.message;
    }
  } catch (e) {
    crash = e instanceof Error ? `${e.name}: ${e.message}` : String(e);
  }
  const ms = performance.now() - t0;
  maxMs = Math.max(maxMs, ms);
  if (ms > HANG_MS) hangs++;
  if (crash !== undefined) {
    crashes++;
    if (crashSeeds.length < 20) crashSeeds.push({ seed, what: crash });
  }
  if (i > 0 && i % 100_000 === 0) process.stderr.write(`${i} cases, ${crashes} crashes\n`);
}
const seconds = (performance.now() - started) / 1000;
console.log(
  JSON.stringify({
    cases,
    crashes,
    hangs,
    hangThresholdMs: HANG_MS,
    maxMs: Math.round(maxMs * 1000) / 1000,
    throughputPerSec: Math.round(cases / seconds),
    seconds: Math.round(seconds * 10) / 10,
    meanFileBytes: Math.round(bytesRead / Math.max(1, cases)),
    seedFiles: corpus.length,
    accepted,
    byCode,
    crashSeeds,
  }),
);
