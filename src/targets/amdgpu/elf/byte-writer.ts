/** A growable little-endian byte buffer for building ELF pieces. */
export class ByteWriter {
  #bytes: Uint8Array;
  #view: DataView;
  #length = 0;

  /** `capacity`: the expected final size (one allocation when it is right). */
  constructor(capacity = 256) {
    this.#bytes = new Uint8Array(Math.max(capacity, 16));
    this.#view = new DataView(this.#bytes.buffer);
  }

  get length(): number {
    return this.#length;
  }

  #reserve(n: number): number {
    const at = this.#length;
    const need = at + n;
    if (need > this.#bytes.length) {
      let size = this.#bytes.length * 2;
      while (size < need) size *= 2;
      const grown = new Uint8Array(size);
      grown.set(this.#bytes.subarray(0, this.#length));
      this.#bytes = grown;
      this.#view = new DataView(grown.buffer);
    }
    this.#length = need;
    return at;
  }

  u8(v: number): this {
    const at = this.#reserve(1);
    this.#bytes[at] = v;
    return this;
  }
  u16(v: number): this {
    const at = this.#reserve(2);
    this.#view.setUint16(at, v, true);
    return this;
  }
  u32(v: number): this {
    const at = this.#reserve(4);
    this.#view.setUint32(at, v >>> 0, true);
    return this;
  }
  /** A 64-bit field from a safe integer (negative values are two's complement). */
  u64(v: number | bigint): this {
    const at = this.#reserve(8);
    if (typeof v === "number" && Number.isSafeInteger(v)) {
      // Split without BigInt: hi = floor(v / 2^32) (two's complement when negative), lo = the rest.
      const hi = Math.floor(v / 0x100000000);
      this.#view.setUint32(at, v - hi * 0x100000000, true);
      this.#view.setUint32(at + 4, hi >>> 0, true);
    } else {
      this.#view.setBigUint64(at, BigInt.asUintN(64, BigInt(v)), true);
    }
    return this;
  }
  bytes(b: Uint8Array): this {
    const at = this.#reserve(b.length); // may replace #bytes: reserve before reading it
    this.#bytes.set(b, at);
    return this;
  }
  /** `count` copies of the 4-byte little-endian word `w` (code fill). */
  words(w: number, count: number): this {
    const at = this.#reserve(4 * count);
    for (let i = 0; i < count; i++) this.#view.setUint32(at + 4 * i, w >>> 0, true);
    return this;
  }
  /** Zero bytes up to a multiple of `align`. */
  align(align: number): this {
    return this.zeros(alignUp(this.#length, align) - this.#length);
  }
  zeros(n: number): this {
    this.#reserve(n); // fresh bytes are already zero: the buffer is never reused
    return this;
  }
  /** Zero bytes up to absolute offset `at` (which must not be behind the end). */
  padTo(at: number): this {
    if (at < this.#length) throw new RangeError(`ByteWriter.padTo(${at}) is behind the end (${this.#length})`);
    return this.zeros(at - this.#length);
  }
  finish(): Uint8Array {
    // The exact-size buffer is handed over as is (no copy); a writer is not used after finish.
    return this.#length === this.#bytes.length ? this.#bytes : this.#bytes.slice(0, this.#length);
  }
}

export function alignUp(x: number, align: number): number {
  return Math.ceil(x / align) * align;
}
