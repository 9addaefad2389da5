/**
 * A `.loombc` container reader written from docs/bytecode.md, not from src/bytecode
 * (verification.md ".loombc bytecode" 2). It imports nothing from the reader it checks
 * except the CRC-32 routine, and asserts every documented rule.
 */
import assert from "node:assert/strict";
import { crc32 } from "../../src/bytecode/crc32.js";

const FORMAT_VERSION = 1;

/** Reads a container the way docs/bytecode.md describes it, asserting every rule. */
export function independentRead(b: Uint8Array): { producer: string; sections: { kind: number; bytes: Uint8Array }[] } {
  const dv = new DataView(b.buffer, b.byteOffset, b.byteLength);
  assert.deepEqual([...b.subarray(0, 4)], [0x4c, 0x4f, 0x4f, 0x4d], "magic");
  assert.equal(b[4], FORMAT_VERSION, "format version");
  assert.ok(b[5]! <= 2, "location mode");
  const count = dv.getUint16(6, true);
  assert.equal(dv.getUint32(12, true), 0, "reserved");
  const copy = b.slice();
  copy.fill(0, 8, 12);
  assert.equal(crc32(copy), dv.getUint32(8, true), "checksum");
  let p = 16;
  while (b[p] !== 0) p++;
  const producer = new TextDecoder().decode(b.subarray(16, p));
  p++;
  while (p % 8) assert.equal(b[p++], 0, "header padding");
  const sections: { kind: number; bytes: Uint8Array }[] = [];
  const kinds = new Set<number>();
  let end = p + 24 * count;
  for (let i = 0; i < count; i++, p += 24) {
    const kind = dv.getUint16(p, true);
    assert.equal(dv.getUint16(p + 2, true), 0, "flags");
    assert.equal(dv.getUint32(p + 4, true), 0, "entry reserved");
    const off = Number(dv.getBigUint64(p + 8, true)), len = Number(dv.getBigUint64(p + 16, true));
    assert.ok(!kinds.has(kind), "repeated kind");
    kinds.add(kind);
    assert.ok(off >= end && off % 8 === 0, "sorted, non-overlapping, aligned");
    assert.ok(off + len <= b.length, "inside the file");
    sections.push({ kind, bytes: b.subarray(off, off + len) });
    end = off + len;
  }
  return { producer, sections };
}
