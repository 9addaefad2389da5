/**
 * Numbers beyond the container's varints: arbitrary-size zigzag bigints (minimal LEB128,
 * bounded length) and IEEE-754 doubles with one canonical NaN.
 */
import { LoomError } from "../../core/errors.js";
import type { ByteReader, ByteWriter } from "../bytes.js";
import { CANONICAL_NAN_BITS, LIMITS } from "./format.js";

/** Zigzag + LEB128 of any bigint (at most LIMITS.bigintBytes groups). */
export function writeBigZigzag(w: ByteWriter, v: bigint): void {
  let x = v >= 0n ? v << 1n : ((-v) << 1n) - 1n;
  let n = 0;
  do {
    const byte = Number(x & 0x7fn);
    x >>= 7n;
    w.u8(x === 0n ? byte : byte | 0x80);
    if (++n > LIMITS.bigintBytes) throw new LoomError("invalid-argument", `integer ${v} needs more than ${LIMITS.bigintBytes} bytes`);
  } while (x !== 0n);
}

export function readBigZigzag(r: ByteReader, what: string): bigint {
  const groups: number[] = [];
  for (;;) {
    if (groups.length === LIMITS.bigintBytes) r.fail(`${what} is longer than ${LIMITS.bigintBytes} bytes`);
    const byte = r.u8(what);
    groups.push(byte & 0x7f);
    if ((byte & 0x80) === 0) {
      if (byte === 0 && groups.length > 1) r.fail(`${what} is not minimally encoded`);
      break;
    }
  }
  let z = 0n;
  for (let i = groups.length - 1; i >= 0; i--) z = (z << 7n) | BigInt(groups[i]!);
  return (z & 1n) === 0n ? z >> 1n : -((z + 1n) >> 1n);
}

const scratch = new DataView(new ArrayBuffer(8));

export function writeF64(w: ByteWriter, x: number): void {
  if (Number.isNaN(x)) w.u64(CANONICAL_NAN_BITS);
  else {
    scratch.setFloat64(0, x, true);
    w.u64(scratch.getBigUint64(0, true));
  }
}

export function readF64(r: ByteReader, what: string): number {
  const bits = r.u64(what);
  scratch.setBigUint64(0, bits, true);
  const x = scratch.getFloat64(0, true);
  if (Number.isNaN(x) && bits !== CANONICAL_NAN_BITS) r.fail(`${what} is a NaN other than the canonical one`);
  return x;
}

/** Whether a number goes out as PROP_TAG.integer (else PROP_TAG.float). */
export function isWireInteger(x: number): boolean {
  return Number.isSafeInteger(x) && !Object.is(x, -0);
}
