/** Comparing device (or interpreter) outputs with the expected values of a case. */
import type { ExpectedOutput, HostArray } from "./cases.js";

/** How one output compared with its expectation. */
export interface OutputCheck {
  readonly name: string;
  readonly count: number;
  readonly mismatches: number;
  /** Largest |got − want| (ints: as numbers). */
  readonly maxError: number;
  readonly first?: { readonly index: number; readonly got: number; readonly want: number; readonly allowed: number };
}

const F32_EPSILON = 2 ** -23;

/** Compares `got` with `want` element by element, by `want.compare` (bits, or a float bound). */
export function compareOutput(name: string, got: HostArray, want: ExpectedOutput): OutputCheck {
  const w = want.values;
  if (got.length !== w.length) {
    return { name, count: w.length, mismatches: Math.max(got.length, w.length), maxError: Infinity };
  }
  const c = want.compare;
  const gotBits = new Uint32Array(got.buffer, got.byteOffset, got.length);
  const wantBits = new Uint32Array(w.buffer, w.byteOffset, w.length);
  let mismatches = 0;
  let maxError = 0;
  let first: OutputCheck["first"];
  for (let i = 0; i < w.length; i++) {
    const g = got[i]!;
    const e = w[i]!;
    let ok: boolean;
    let allowed = 0;
    if (c.kind === "exact") ok = gotBits[i] === wantBits[i];
    else if (Number.isNaN(e) || Number.isNaN(g)) ok = Number.isNaN(e) && Number.isNaN(g);
    else {
      allowed = c.epsilons * F32_EPSILON * Math.abs(want.magnitude?.[i] ?? e) + (c.absolute ?? 0);
      ok = g === e || Math.abs(g - e) <= allowed;
    }
    const err = g === e ? 0 : Math.abs(g - e);
    if (err > maxError || Number.isNaN(err)) maxError = Number.isNaN(err) ? Infinity : err;
    if (!ok) {
      mismatches++;
      first ??= { index: i, got: g, want: e, allowed };
    }
  }
  return { name, count: w.length, mismatches, maxError, ...(first ? { first } : {}) };
}

/** One line for a check: the largest error, how many differ, and the first that does. */
export function describeCheck(c: OutputCheck): string {
  const head = `max error ${c.maxError} (${c.mismatches} of ${c.count} differ)`;
  return c.first ? `${head}; first at [${c.first.index}]: got ${c.first.got}, want ${c.first.want} (allowed ±${c.first.allowed})` : head;
}

/** The median of `xs` (NaN when empty). */
export function median(xs: readonly number[]): number {
  if (xs.length === 0) return NaN;
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  const upper = s[m] ?? NaN, lower = s[m - 1] ?? NaN;
  return s.length % 2 ? upper : (lower + upper) / 2;
}
