/**
 * The tests' input generator: a 32-bit linear congruential sequence (Numerical Recipes'
 * constants) in [0, 1). Deterministic and tiny; not the harness's `random`, whose sequence the
 * check cases' expected values depend on.
 */
export function lcg(seed: number): () => number {
  let s = seed >>> 0;
  return () => ((s = (Math.imul(s, 1664525) + 1013904223) >>> 0), s / 2 ** 32);
}
