/**
 * `Value.mark` epochs: each walk that keeps scratch in the marks takes a fresh range, so a mark
 * another walk (or an earlier run) left behind never reads as one of its own.
 */
let last = 0;

/** A fresh epoch `e`; marks `e` to `e + extra` belong to the caller. */
export function nextMarkEpoch(extra: number): number {
  const epoch = last + 1;
  last = epoch + extra;
  return epoch;
}
