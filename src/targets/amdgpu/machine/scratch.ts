/**
 * Typed arrays reused from compile to compile by the machine passes (one compile at a time
 * per module instance): fresh typed arrays each need a backing store of their own, which
 * costs more than the passes that fill them. An array is at least as long as asked, never
 * exactly, so users loop to explicit bounds, and clear what they read before writing.
 */
export class Scratch {
  readonly #i32: Int32Array[] = [];
  readonly #u8: Uint8Array[] = [];

  /** Slot `slot`'s Int32Array, at least `n` long (contents left from the last use). */
  i32(slot: number, n: number): Int32Array {
    const a = this.#i32[slot];
    if (a !== undefined && a.length >= n) return a;
    const grown = new Int32Array(Math.max(n, 2 * (a?.length ?? 128)));
    this.#i32[slot] = grown;
    return grown;
  }

  /** Slot `slot`'s Uint8Array, at least `n` long (contents left from the last use). */
  u8(slot: number, n: number): Uint8Array {
    const a = this.#u8[slot];
    if (a !== undefined && a.length >= n) return a;
    const grown = new Uint8Array(Math.max(n, 2 * (a?.length ?? 128)));
    this.#u8[slot] = grown;
    return grown;
  }
}
