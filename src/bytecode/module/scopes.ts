/**
 * Value numbering and visibility, shared by the writer and the reader so that both apply the
 * same scoping rule (docs/bytecode.md "Value references").
 *
 * Values are numbered in stream order. Each belongs to a frame: the region whose argument it is,
 * or the region (or module top level) whose op produced it. A reference is valid when the value
 * is already numbered and its frame is active: the frames of the enclosing regions are active
 * while their ops are read, so a use sees earlier values of its block and of every enclosing
 * block, never a sibling region's or a later one's.
 */
export class Frame {
  active = false;
}

export class Numbering {
  readonly #frames: Frame[] = [];

  get count(): number {
    return this.#frames.length;
  }

  /** Numbers the next value, in `frame`. */
  define(frame: Frame): number {
    this.#frames.push(frame);
    return this.#frames.length - 1;
  }

  /** Why value `n` may not be referenced here, or undefined when it may. */
  problem(n: number): string | undefined {
    const f = this.#frames[n];
    if (f === undefined) return `value #${n} is not defined yet (${this.count} defined so far)`;
    return f.active ? undefined : `value #${n} is not in scope here`;
  }
}

/** Runs `fn` with the given frames active (a frame active already stays so). */
export function withActive<R>(frames: readonly Frame[], fn: () => R): R {
  const changed = frames.filter((f) => !f.active);
  for (const f of changed) f.active = true;
  try {
    return fn();
  } finally {
    for (const f of changed) f.active = false;
  }
}
