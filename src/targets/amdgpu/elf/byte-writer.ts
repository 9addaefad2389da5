/** A growable little-endian byte buffer for building ELF pieces. */
export class ByteWriter {
  #bytes = new Uint8Array(256);
  #view = new DataView(this.#bytes.buffer);
  #length = 0;

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
    this.#view.setUint8(at, v);
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
    this.#view.setBigUint64(at, BigInt.asUintN(64, BigInt(v)), true);
    return this;
  }
  bytes(b: Uint8Array): this {
    const at = this.#reserve(b.length); // may replace #bytes: reserve before reading it
    this.#bytes.set(b, at);
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
    return this.#bytes.slice(0, this.#length);
  }
}

export function alignUp(x: number, align: number): number {
  return Math.ceil(x / align) * align;
}
