/**
 * Front-end latency: parse, verify, and parse+verify (what `Workspace.parseModule` does for
 * text) of saxpy, matmul16 and the jit-kernel example, in process after warm-up. These are
 * the target-independent first steps of every `.loom` → artifact figure in the other benches
 * (compile, spirv-compile, ptx-compile, wgsl-compile), so their p50 bounds those from below.
 * Anchor in the same run: the lexer alone on the same text. Warm-up: every case round-robin
 * for ≥ 2 s, until the round time is stable, before any is timed (`warmUpRoundRobin`, reported as `warmup`).
 */
import "../src/api/check-dialect.js"; // the check harness's syntax and rules, which loomc registers
import { readFileSync } from "node:fs";
import { DiagnosticSink } from "../src/core/diag/diagnostic.js";
import { verifyModule } from "../src/passes/verify/index.js";
import { releaseTokens, scan } from "../src/text/lexer.js";
import { parseModule } from "../src/text/parser.js";
import { Reporter } from "../src/text/reporter.js";
import { PER_CASE_WARMUP, percentiles, repoPath, timeSamples, warmUpRoundRobin } from "./stats.js";

const INPUTS: readonly (readonly [string, string])[] = [
  ["saxpy", "examples/kernels/saxpy.loom"],
  ["matmul16", "examples/kernels/matmul16.loom"],
  ["jit_kernel", "examples/integration/jit-kernel/kernel.loom"],
];

export async function benchFrontend(): Promise<Record<string, unknown>> {
  const results: Record<string, unknown> = { name: "frontend.parse_verify", unit: "ms" };
  const o = { warmup: PER_CASE_WARMUP, samples: 3000 };
  // Every case is built first, warmed up together, then timed one by one.
  const cases: { name: string; bytes: number; parsed: () => unknown; verifyOnce: () => void; bothOnce: () => void; lexOnce: () => number }[] = [];
  for (const [name, path] of INPUTS) {
    const text = readFileSync(repoPath(path), "utf8");
    const file = `${name}.loom`;
    const parsed = () => {
      const sink = new DiagnosticSink();
      const m = parseModule(file, text, sink);
      if (sink.hasErrors) throw new Error(`${file}: parse errors`);
      return m;
    };
    const module = parsed();
    const verifyOnce = () => {
      const v = verifyModule(module, new DiagnosticSink());
      if (!v.ok) throw new Error(`${file}: verify errors`);
    };
    const bothOnce = () => {
      const sink = new DiagnosticSink();
      const m = parseModule(file, text, sink);
      if (sink.hasErrors || !verifyModule(m, sink).ok) throw new Error(`${file}: errors`);
    };
    // The lexer as the parser runs it: into a token buffer, handed back for the next compile.
    const lexOnce = () => {
      const tokens = scan(file, text, new Reporter(new DiagnosticSink()));
      const n = tokens.count;
      releaseTokens(tokens);
      return n;
    };
    cases.push({ name, bytes: text.length, parsed, verifyOnce, bothOnce, lexOnce });
  }
  results.warmup = warmUpRoundRobin(cases.flatMap((c) => [c.parsed, c.verifyOnce, c.bothOnce, c.lexOnce]));
  for (const { name, bytes, parsed, verifyOnce, bothOnce, lexOnce } of cases) {
    const parse = percentiles(timeSamples(parsed, o));
    const verify = percentiles(timeSamples(verifyOnce, o));
    const both = percentiles(timeSamples(bothOnce, o));
    const lexing = percentiles(timeSamples(lexOnce, o));
    results[name] = {
      bytes,
      parse_p50_ms: parse.p50,
      parse_p99_ms: parse.p99,
      verify_p50_ms: verify.p50,
      verify_p99_ms: verify.p99,
      parse_verify_p50_ms: both.p50,
      parse_verify_p99_ms: both.p99,
      anchor: { name: "lexer only", p50_ms: lexing.p50, p99_ms: lexing.p99 },
    };
  }
  return results;
}
