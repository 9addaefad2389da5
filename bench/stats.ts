/** Timing helpers for benchmarks (never used by tests). */
import { spawnSync } from "node:child_process";
import { performance } from "node:perf_hooks";
import { fileURLToPath } from "node:url";

/** A path in the repository, from a compiled bench (dist/bench/) or a source one. */
export const repoPath = (p: string): string => fileURLToPath(new URL(`../../${p}`, import.meta.url));

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
