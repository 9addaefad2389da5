/**
 * A MessagePack writer for the code object metadata: maps with sorted keys (as LLVM and
 * `@msgpack/msgpack` with `sortKeys` write them), arrays, strings, booleans and safe
 * integers, each in its shortest form. It writes into one growing buffer, with no
 * intermediate encoder state per call; test/amdgpu/msgpack.test.ts checks it byte for
 * byte against `@msgpack/msgpack`.
 */
import { LoomError } from "../../../core/errors.js";
import { isAscii } from "./hash.js";

export type MsgpackValue = string | number | boolean | readonly MsgpackValue[] | { readonly [key: string]: MsgpackValue | undefined };

const utf8 = new TextEncoder();

/** A growing MessagePack buffer; callers that know their map keys write them in sorted order themselves. */
export class MsgpackWriter {
  bytes = new Uint8Array(1024);
  view = new DataView(this.bytes.buffer);
  length = 0;

  reserve(n: number): number {
    const at = this.length;
    if (at + n > this.bytes.length) {
      let size = this.bytes.length * 2;
      while (size < at + n) size *= 2;
      const grown = new Uint8Array(size);
      grown.set(this.bytes.subarray(0, at));
      this.bytes = grown;
      this.view = new DataView(grown.buffer);
    }
    this.length = at + n;
    return at;
  }
  u8(v: number): void {
    const at = this.reserve(1);
    this.bytes[at] = v;
  }
  /** A type byte then a big-endian field of `size` bytes (1, 2 or 4). */
  head(type: number, v: number, size: 1 | 2 | 4): void {
    const at = this.reserve(1 + size);
    this.bytes[at] = type;
    if (size === 1) this.bytes[at + 1] = v;
    else if (size === 2) this.view.setUint16(at + 1, v);
    else this.view.setUint32(at + 1, v);
  }
  /** A safe integer in its shortest form. */
  int(v: number): void {
    if (!Number.isSafeInteger(v)) throw new LoomError("internal", `AMDGPU metadata: ${v} is not an integer`);
    int(this, v);
  }
  str(s: string): void {
    str(this, s);
  }
  /** Bytes already in MessagePack form (a `packed` constant). */
  raw(b: Uint8Array): void {
    const at = this.reserve(b.length);
    if (b.length > 32) this.bytes.set(b, at);
    else for (let i = 0; i < b.length; i++) this.bytes[at + i] = b[i]!;
  }
  bool(b: boolean): void {
    this.u8(b ? 0xc3 : 0xc2);
  }
  /** A map header of `n` entries (then n key/value pairs, keys sorted). */
  map(n: number): void {
    count(this, n, 0x80, 0xde);
  }
  /** An array header of `n` elements. */
  array(n: number): void {
    count(this, n, 0x90, 0xdc);
  }
}

type Writer = MsgpackWriter;

function int(w: Writer, v: number): void {
  if (v >= 0) {
    if (v < 0x80) w.u8(v);
    else if (v < 0x100) w.head(0xcc, v, 1);
    else if (v < 0x10000) w.head(0xcd, v, 2);
    else if (v < 0x100000000) w.head(0xce, v, 4);
    else {
      const at = w.reserve(9);
      w.bytes[at] = 0xcf;
      w.view.setBigUint64(at + 1, BigInt(v));
    }
  } else if (v >= -0x20) w.u8((0xe0 | (v + 0x20)) & 0xff);
  else if (v >= -0x80) w.head(0xd0, v & 0xff, 1);
  else if (v >= -0x8000) w.head(0xd1, v & 0xffff, 2);
  else if (v >= -0x80000000) w.head(0xd2, v >>> 0, 4);
  else {
    const at = w.reserve(9);
    w.bytes[at] = 0xd3;
    w.view.setBigInt64(at + 1, BigInt(v));
  }
}

function str(w: Writer, s: string): void {
  const ascii = isAscii(s);
  const encoded = ascii ? undefined : utf8.encode(s);
  const n = encoded ? encoded.length : s.length;
  if (n < 32) w.u8(0xa0 | n);
  else if (n < 0x100) w.head(0xd9, n, 1);
  else if (n < 0x10000) w.head(0xda, n, 2);
  else w.head(0xdb, n, 4);
  const at = w.reserve(n);
  if (encoded) w.bytes.set(encoded, at);
  else for (let i = 0; i < n; i++) w.bytes[at + i] = s.charCodeAt(i);
}

function count(w: Writer, n: number, fix: number, c16: number): void {
  if (n < 16) w.u8(fix | n);
  else if (n < 0x10000) w.head(c16, n, 2);
  else w.head(c16 + 1, n, 4);
}

function value(w: Writer, v: MsgpackValue | undefined): void {
  if (v === undefined) w.u8(0xc0);
  else if (typeof v === "string") str(w, v);
  else if (typeof v === "number") w.int(v); else if (typeof v === "boolean") w.u8(v ? 0xc3 : 0xc2);
  else if (Array.isArray(v)) {
    count(w, v.length, 0x90, 0xdc);
    for (const x of v as readonly MsgpackValue[]) value(w, x);
  } else {
    const keys = Object.keys(v).sort();
    count(w, keys.length, 0x80, 0xde);
    for (const k of keys) {
      str(w, k);
      value(w, (v as { readonly [key: string]: MsgpackValue | undefined })[k]);
    }
  }
}

/** The MessagePack string of `s`, encoded once (for fixed map keys and values). */
export function packed(s: string): Uint8Array {
  const w = new MsgpackWriter();
  str(w, s);
  return w.bytes.slice(0, w.length);
}

/** One scratch buffer per process (compiles are synchronous): only the result is copied out. */
const scratch = new MsgpackWriter();

/** MessagePack bytes of `v`, map keys sorted. */
export function encodeMsgpack(v: MsgpackValue): Uint8Array {
  scratch.length = 0;
  value(scratch, v);
  return scratch.bytes.slice(0, scratch.length);
}
