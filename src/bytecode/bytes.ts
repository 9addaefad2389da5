/**
 * Byte-level reading and writing for `.loombc`: little-endian fixed-width fields and LEB128
 * varints (unsigned, at most 10 bytes, minimal; signed values zigzag-encoded).
 *
 * `ByteReader` treats its input as hostile: every read is bounds-checked, every varint is
 * checked for minimality and range, and every failure is a `LoomError("data-loss")` that
 * names what was being read and where — never a RangeError, never a huge allocation.
 */
import { LoomError } from "../core/errors.js";

const U64_MAX = (1n << 64n) - 1n;
const EMPTY = new Uint8Array(0);
/** One shared encoder: constructing one per string shows in compile profiles. */
const UTF8 = new TextEncoder();

/**
 * Scratch buffers of finished writers. A fresh typed array costs a backing-store allocation
 * that shows in compile profiles (a launch-config companion takes five writers), so writers
 * borrow one here and `finish()` copies the bytes out and returns it. Writers are used
 * synchronously, so a handful covers every nesting; big ones are not kept.
 */
const SCRATCH: Uint8Array[] = [];
const SCRATCH_KEEP = 8;
const SCRATCH_MAX_BYTES = 1 << 16;

export class ByteWriter {
  #buf = SCRATCH.pop() ?? new Uint8Array(256);
  #len = 0;

  get length(): number {
    return this.#len;
  }

  #reserve(n: number): void {
    if (this.#len + n <= this.#buf.length) return;
    let size = this.#buf.length * 2;
    while (size < this.#len + n) size *= 2;
    const next = new Uint8Array(size);
    next.set(this.#buf.subarray(0, this.#len));
    this.#buf = next;
  }

  u8(v: number): this {
    this.#reserve(1);
    this.#buf[this.#len++] = v & 0xff;
    return this;
  }
  u16(v: number): this {
    return this.u8(v).u8(v >>> 8);
  }
  u32(v: number): this {
    return this.u16(v & 0xffff).u16(v >>> 16);
  }
  u64(v: bigint | number): this {
    if (typeof v === "number" && Number.isSafeInteger(v) && v >= 0) return this.u32(v % 0x100000000).u32(Math.floor(v / 0x100000000));
    const x = BigInt(v);
    return this.u32(Number(x & 0xffffffffn)).u32(Number((x >> 32n) & 0xffffffffn));
  }
  bytes(b: Uint8Array): this {
    this.#reserve(b.length);
    this.#buf.set(b, this.#len);
    this.#len += b.length;
    return this;
  }
  /** Zero bytes up to the next multiple of `n`. */
  padTo(n: number): this {
    while (this.#len % n !== 0) this.u8(0);
    return this;
  }
  /** Unsigned LEB128 of a value in `[0, 2^64)`. */
  varuint(v: number | bigint): this {
    if (typeof v === "number" && v >= 0 && v <= 0xffffffff && Number.isInteger(v)) {
      // The common case (counts, registers, string indices) without BigInt arithmetic.
      let x = v;
      this.#reserve(5);
      while (x >= 0x80) {
        this.#buf[this.#len++] = (x & 0x7f) | 0x80;
        x = Math.floor(x / 128);
      }
      this.#buf[this.#len++] = x;
      return this;
    }
    let x = BigInt(v);
    if (x < 0n || x > U64_MAX) throw new RangeError(`varuint out of range: ${x}`);
    if (typeof v === "number" && !Number.isSafeInteger(v)) throw new RangeError(`varuint of a non-integer: ${v}`);
    do {
      const byte = Number(x & 0x7fn);
      x >>= 7n;
      this.u8(x === 0n ? byte : byte | 0x80);
    } while (x !== 0n);
    return this;
  }
  /** Zigzag + LEB128 of a value in `[−2^63, 2^63)`. */
  varint(v: bigint): this {
    return this.varuint(v >= 0n ? v << 1n : ((-v) << 1n) - 1n);
  }
  /** Length-prefixed UTF-8. */
  string(s: string): this {
    let ascii = true;
    for (let i = 0; i < s.length && ascii; i++) ascii = s.charCodeAt(i) < 0x80;
    if (!ascii) {
      const b = UTF8.encode(s);
      return this.varuint(b.length).bytes(b);
    }
    // ASCII (every name the compiler writes): its UTF-8 is its char codes, no encoder round trip.
    this.varuint(s.length);
    this.#reserve(s.length);
    for (let i = 0; i < s.length; i++) this.#buf[this.#len++] = s.charCodeAt(i);
    return this;
  }
  /** The bytes written; the writer must not be used afterwards. */
  finish(): Uint8Array {
    const out = this.#buf.slice(0, this.#len);
    this.release();
    return out;
  }
  /** The bytes written so far, without a copy: valid until this writer is written to or released. */
  view(): Uint8Array {
    return this.#buf.subarray(0, this.#len);
  }
  /** Gives the scratch buffer back without copying anything out; the writer must not be used afterwards. */
  release(): void {
    if (this.#buf !== EMPTY && SCRATCH.length < SCRATCH_KEEP && this.#buf.length <= SCRATCH_MAX_BYTES) SCRATCH.push(this.#buf);
    this.#buf = EMPTY;
    this.#len = 0;
  }
}

export class ByteReader {
  #pos = 0;
  constructor(
    readonly bytes: Uint8Array,
    /** Where these bytes live, for messages ("launch section"). */
    readonly where: string,
    /** Offset of `bytes[0]` in the file, for messages. */
    readonly base = 0,
  ) {}

  get position(): number {
    return this.#pos;
  }
  get remaining(): number {
    return this.bytes.length - this.#pos;
  }
  get atEnd(): boolean {
    return this.#pos === this.bytes.length;
  }

  fail(what: string): never {
    throw new LoomError("data-loss", `malformed .loombc: ${this.where} at byte ${this.base + this.#pos}: ${what}`);
  }

  #need(n: number, what: string): void {
    if (n > this.bytes.length - this.#pos) this.fail(`truncated ${what} (needs ${n} byte(s), ${this.remaining} left)`);
  }

  u8(what = "byte"): number {
    this.#need(1, what);
    return this.bytes[this.#pos++]!;
  }
  u16(what = "u16"): number {
    this.#need(2, what);
    const b = this.bytes, p = this.#pos;
    this.#pos += 2;
    return b[p]! | (b[p + 1]! << 8);
  }
  u32(what = "u32"): number {
    this.#need(4, what);
    const b = this.bytes, p = this.#pos;
    this.#pos += 4;
    return (b[p]! | (b[p + 1]! << 8) | (b[p + 2]! << 16) | (b[p + 3]! << 24)) >>> 0;
  }
  u64(what = "u64"): bigint {
    const lo = this.u32(what), hi = this.u32(what);
    return (BigInt(hi) << 32n) | BigInt(lo);
  }
  bytesOf(n: number, what: string): Uint8Array {
    this.#need(n, what);
    const out = this.bytes.subarray(this.#pos, this.#pos + n);
    this.#pos += n;
    return out;
  }

  /** Unsigned LEB128 in `[0, 2^64)`: at most 10 bytes, no redundant trailing zero groups. */
  varuint64(what = "varint"): bigint {
    let result = 0n, shift = 0n;
    for (let i = 0; i < 10; i++) {
      const byte = this.u8(what);
      if (i === 9 && byte > 1) this.fail(`${what} exceeds 64 bits`);
      result |= BigInt(byte & 0x7f) << shift;
      if ((byte & 0x80) === 0) {
        if (byte === 0 && i > 0) this.fail(`${what} is not minimally encoded`);
        return result;
      }
      shift += 7n;
    }
    return this.fail(`${what} is longer than 10 bytes`);
  }
  /** An unsigned varint that must be ≤ `max` (a safe integer), as a number. */
  varuint(what: string, max: number): number {
    const v = this.varuint64(what);
    if (v > BigInt(max)) this.fail(`${what} ${v} exceeds the limit ${max}`);
    return Number(v);
  }
  /** A zigzag varint in `[−2^63, 2^63)`. */
  varint(what = "signed varint"): bigint {
    const z = this.varuint64(what);
    return (z & 1n) === 0n ? z >> 1n : -((z + 1n) >> 1n);
  }
  /** Length-prefixed UTF-8, validated; at most `maxBytes`. */
  string(what: string, maxBytes: number): string {
    const n = this.varuint(`${what} length`, maxBytes);
    const raw = this.bytesOf(n, what);
    try {
      return new TextDecoder("utf-8", { fatal: true, ignoreBOM: true }).decode(raw);
    } catch {
      return this.fail(`${what} is not valid UTF-8`);
    }
  }
  /** Fails unless every byte was consumed. */
  expectEnd(): void {
    if (!this.atEnd) this.fail(`${this.remaining} unexpected trailing byte(s)`);
  }
}
