/** LEB128 varints and fixed-width fields of ByteWriter/ByteReader. */
import { test } from "node:test";
import assert from "node:assert/strict";
import fc from "fast-check";
import { LoomError } from "../../src/core/errors.js";
import { ByteReader, ByteWriter } from "../../src/bytecode/bytes.js";

const dataLoss = (f: () => unknown, text: RegExp) =>
  assert.throws(f, (e: unknown) => e instanceof LoomError && e.status === "data-loss" && text.test(e.message));

test("varuint encodes known values", () => {
  const hex = (v: bigint) => Buffer.from(new ByteWriter().varuint(v).finish()).toString("hex");
  assert.equal(hex(0n), "00");
  assert.equal(hex(127n), "7f");
  assert.equal(hex(128n), "8001");
  assert.equal(hex(300n), "ac02");
  assert.equal(hex((1n << 64n) - 1n), "ffffffffffffffffff01");
  assert.equal(Buffer.from(new ByteWriter().varint(-1n).varint(1n).varint(-(1n << 63n)).finish()).toString("hex"), "0102ffffffffffffffffff01");
});

test("reader rejects overlong, over-wide and truncated varints", () => {
  const r = (hex: string) => new ByteReader(Uint8Array.from(Buffer.from(hex, "hex")), "test");
  dataLoss(() => r("8000").varuint64(), /not minimally encoded/);
  dataLoss(() => r("ffffffffffffffffff02").varuint64(), /exceeds 64 bits/);
  dataLoss(() => r("ffffffffffffffffff8001").varuint64(), /exceeds 64 bits/);
  dataLoss(() => r("80").varuint64(), /truncated/);
  dataLoss(() => r("ac02").varuint("count", 10), /exceeds the limit 10/);
  dataLoss(() => r("02c3").string("name", 100), /truncated name/);
  dataLoss(() => r("01ff").string("name", 100), /not valid UTF-8/);
  dataLoss(() => r("0102").u16().toString() + r("01").u32(), /truncated u32/);
});

test("property: varints and fixed fields round-trip and consume exactly their bytes", () => {
  fc.assert(
    fc.property(fc.bigInt(0n, (1n << 64n) - 1n), fc.bigInt(-(1n << 63n), (1n << 63n) - 1n), fc.nat(), fc.string(), (u, s, n, str) => {
      const bytes = new ByteWriter().varuint(u).varint(s).u32(n).u64(u).string(str).u8(7).finish();
      const r = new ByteReader(bytes, "test");
      assert.equal(r.varuint64(), u);
      assert.equal(r.varint(), s);
      assert.equal(r.u32(), n);
      assert.equal(r.u64(), u);
      assert.equal(r.string("s", 1 << 20), str);
      assert.equal(r.u8(), 7);
      assert.ok(r.atEnd);
    }),
    { numRuns: 500 },
  );
});
