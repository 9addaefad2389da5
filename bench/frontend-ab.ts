/**
 * Same-process A/B of the front end: two builds (their `dist` folders, e.g. main's and a
 * branch's) imported side by side, lex / parse / verify / parse+verify of saxpy, matmul16,
 * the jit-kernel example, matmul_tiled and row_softmax4 (`--only a,b` picks some) timed in alternating blocks, so load on the machine hits both alike.
 * Prints, per kernel and build, a quantile (default the median) of the per-call block means,
 * and the ratios A/B.
 *
 *   node --expose-gc dist/bench/frontend-ab.js <distA> <distB> [--only matmul_tiled,row_softmax4] [--rounds 30] [--per 100] [--q 0.5]
 */
import "../src/api/check-dialect.js"; // the check harness's syntax and rules, which loomc registers
import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import { performance } from "node:perf_hooks";
import { parseArgs } from "node:util";
import { repoPath } from "./stats.js";

interface Build {
  lex(text: string): unknown;
  parse(text: string): unknown;
  verify(module: unknown): boolean;
  both(text: string): boolean;
}

async function load(dist: string): Promise<Build> {
  const at = (p: string) => import(resolve(dist, p));
  const [parser, verifier, diag, lexer, reporter] = await Promise.all([at("src/text/parser.js"), at("src/passes/verify/index.js"), at("src/core/diag/diagnostic.js"), at("src/text/lexer.js"), at("src/text/reporter.js")]);
  const sink = () => new diag.DiagnosticSink();
  return {
    // A build with a token buffer (`scan`) is timed on that, what its parser runs; an older one on `lex`.
    lex: lexer.scan ? (t) => lexer.releaseTokens(lexer.scan("ab.loom", t, new reporter.Reporter(sink()))) : (t) => lexer.lex("ab.loom", t, new reporter.Reporter(sink())),
    parse: (t) => parser.parseModule("ab.loom", t, sink()),
    verify: (m) => verifier.verifyModule(m, sink()).ok,
    both: (t) => {
      const s = sink();
      return verifier.verifyModule(parser.parseModule("ab.loom", t, s), s).ok;
    },
  };
}

const PHASES = ["lex", "parse", "verify", "both"] as const;
const ALL_INPUTS: Record<string, string> = {
  saxpy: "examples/kernels/saxpy.loom",
  matmul16: "examples/kernels/matmul16.loom",
  jit_kernel: "examples/integration/jit-kernel/kernel.loom",
  // The suite's two largest kernels, the ones the in-page compile-time goal is about.
  matmul_tiled: "examples/kernels/matmul_tiled.loom",
  row_softmax4: "examples/kernels/row_softmax4.loom",
};

const { values, positionals } = parseArgs({ allowPositionals: true, options: { only: { type: "string" }, rounds: { type: "string", default: "30" }, per: { type: "string", default: "100" }, q: { type: "string", default: "0.5" } } });
if (positionals.length !== 2) throw new Error("usage: frontend-ab.js <distA> <distB> [--rounds N] [--per N] [--q Q]");
const builds = await Promise.all(positionals.map(load));
const rounds = Number(values.rounds), per = Number(values.per), q = Number(values.q);
const quantile = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(xs.length * q))]!;
const out: Record<string, unknown> = { a: positionals[0], b: positionals[1], quantile: q, unit: "ms per call" };
const picked = values.only?.split(",");
const INPUTS = Object.entries(ALL_INPUTS).filter(([name]) => !picked || picked.includes(name));
for (const [name, path] of INPUTS) {
  const text = readFileSync(repoPath(path), "utf8");
  const samples = builds.map(() => Object.fromEntries(PHASES.map((p) => [p, [] as number[]])) as Record<(typeof PHASES)[number], number[]>);
  for (let r = 0; r < rounds + 2; r++) {
    const order = r % 2 === 0 ? [0, 1] : [1, 0];
    for (const i of order) {
      const b = builds[i]!, s = samples[i]!;
      const module = b.parse(text);
      if (!b.verify(module)) throw new Error(`${name} does not verify with ${positionals[i]}`);
      const block = (fn: () => unknown) => {
        const t0 = performance.now();
        for (let k = 0; k < per; k++) fn();
        return (performance.now() - t0) / per;
      };
      const times = { lex: block(() => b.lex(text)), parse: block(() => b.parse(text)), verify: block(() => b.verify(module)), both: block(() => b.both(text)) };
      // The first two rounds warm both builds up.
      if (r >= 2) for (const p of PHASES) s[p].push(times[p]);
    }
  }
  const [a, b] = samples.map((s) => Object.fromEntries(PHASES.map((p) => [p, Math.round(quantile(s[p]) * 1e5) / 1e5])) as Record<(typeof PHASES)[number], number>);
  out[name] = { a, b, ratio_a_to_b: Object.fromEntries(PHASES.map((p) => [p, Math.round((a![p] / b![p]) * 100) / 100])) };
}
console.log(JSON.stringify(out, null, 1));
