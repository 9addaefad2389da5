/** Timing helpers for benchmarks (never used by tests). */
import { spawnSync } from "node:child_process";
import { performance } from "node:perf_hooks";
import { fileURLToPath } from "node:url";

/** A path in the repository, from a compiled bench (dist/bench/) or a source one. */
export const repoPath = (p: string): string => fileURLToPath(new URL(`../../${p}`, import.meta.url));

/**
 * Warms a bench's cases up together before any is timed: runs them round-robin (one call
 * each per round) in windows of `WARMUP_WINDOW` rounds, for at least `minMs` of wall time
 * and until two windows in a row bring the fastest round no more than 5% below the fastest
 * before them (V8 has stopped tiering up; the fastest round, not the median, because the
 * machine's load moves the median by 2×), or `maxMs` has passed. Why: the cases share the
 * front end, so with a per-case count the first case measured ran before V8 had tiered the
 * shared code up (saxpy measured first read twice its warm figure) and later cases profited
 * from the earlier ones' calls. Returns what the JSON reports as `warmup`.
 */
export function warmUpRoundRobin(cases: readonly (() => unknown)[], minMs = 2000, maxMs = 20000): { rule: string; ms: number; rounds: number; stable: boolean; fastest_round_ms: number } {
  const t0 = performance.now();
  let fastest = Infinity;
  let flat = 0;
  let rounds = 0;
  for (;;) {
    let windowFastest = Infinity;
    for (let i = 0; i < WARMUP_WINDOW; i++) {
      const r0 = performance.now();
      for (const c of cases) c();
      windowFastest = Math.min(windowFastest, performance.now() - r0);
    }
    rounds += WARMUP_WINDOW;
    flat = windowFastest >= 0.95 * fastest ? flat + 1 : 0;
    fastest = Math.min(fastest, windowFastest);
    const elapsed = performance.now() - t0;
    if ((elapsed >= minMs && flat >= 2) || elapsed >= maxMs) {
      return {
        rule: `every case round-robin in windows of ${WARMUP_WINDOW} rounds, >= ${minMs} ms and until two windows in a row bring the fastest round < 5% down (<= ${maxMs} ms); then ${PER_CASE_WARMUP} calls of the case timed next`,
        ms: round(elapsed),
        rounds,
        stable: flat >= 2,
        fastest_round_ms: round(fastest),
      };
    }
  }
}

const WARMUP_WINDOW = 50;
/** Calls of a case right before its timing, after the shared warm-up (its own inline caches). */
export const PER_CASE_WARMUP = 100;

/** The percentiles of `samples` timed calls of `fn` after its `PER_CASE_WARMUP` calls (the shared warm-up done). */
export function timeWarmed(fn: () => unknown, samples: number): { p50: number; p99: number; min: number } {
  return percentiles(timeSamples(fn, { warmup: PER_CASE_WARMUP, samples }));
}

/** Runs `fn` `warmup` times, then times `samples` single calls (ms each). */
export function timeSamples(fn: () => unknown, o: { warmup: number; samples: number }): number[] {
  for (let i = 0; i < o.warmup; i++) fn();
  const out = new Array<number>(o.samples);
  for (let i = 0; i < o.samples; i++) {
    const t0 = performance.now();
    fn();
    out[i] = performance.now() - t0;
  }
  return out;
}

export function percentiles(xs: number[]): { p50: number; p99: number; min: number } {
  const s = [...xs].sort((a, b) => a - b);
  const at = (q: number) => s[Math.min(s.length - 1, Math.floor(q * s.length))]!;
  return { p50: round(at(0.5)), p99: round(at(0.99)), min: round(s[0]!) };
}

function round(x: number): number {
  return Math.round(x * 1e6) / 1e6;
}

/** Median wall time of running a whole process `runs` times; undefined when it fails to run. */
export function wholeProcessMs(cmd: string, args: string[], runs: number): number | undefined {
  const probe = spawnSync(cmd, args);
  if (probe.error || probe.status !== 0) return undefined;
  const times: number[] = [];
  for (let i = 0; i < runs; i++) {
    const t0 = performance.now();
    spawnSync(cmd, args);
    times.push(performance.now() - t0);
  }
  return percentiles(times).p50;
}
