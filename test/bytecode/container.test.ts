/** The `.loombc` container, checked against an independent reader (./independent-reader.ts). */
import { test } from "node:test";
import assert from "node:assert/strict";
import { LoomError } from "../../src/core/errors.js";
import { hasLoomMagic, readContainer, writeContainer } from "../../src/bytecode/container.js";
import { crc32 } from "../../src/bytecode/crc32.js";
import { independentRead } from "./independent-reader.js";
import { SECTION, isKnownSectionKind, registerSectionKind, sectionKindName } from "../../src/bytecode/sections.js";
import { StringTableBuilder, decodeStringTable } from "../../src/bytecode/strings.js";

const sample = () =>
  writeContainer({
    locationMode: 1,
    producer: "test-producer",
    sections: [
      { kind: SECTION.strings, bytes: Uint8Array.of(1, 0) },
      { kind: 300, bytes: Uint8Array.of(1, 2, 3, 4, 5, 6, 7, 8, 9) },
      { kind: SECTION.launch, bytes: new Uint8Array(0) },
    ],
  });

test("header and directory follow the documented layout", () => {
  const b = sample();
  assert.ok(hasLoomMagic(b));
  assert.equal(b.length % 8, 0);
  const r = independentRead(b);
  assert.equal(r.producer, "test-producer");
  assert.deepEqual(r.sections.map((s) => [s.kind, [...s.bytes]]), [[0, [1, 0]], [300, [1, 2, 3, 4, 5, 6, 7, 8, 9]], [256, []]]);
  const c = readContainer(b);
  assert.equal(c.producer, "test-producer");
  assert.equal(c.locationMode, 1);
  assert.deepEqual(c.sections.map((s) => s.kind), [0, 300, 256]);
  // Unknown kinds are kept (skippable), and decode→encode is the identity.
  assert.deepEqual(writeContainer({ locationMode: c.locationMode, producer: c.producer, sections: c.sections }), b);
});

test("every truncation and every single-bit flip is a clean data-loss error", () => {
  const b = sample();
  for (let n = 0; n < b.length; n++) {
    assert.throws(() => readContainer(b.subarray(0, n)), (e: unknown) => e instanceof LoomError && e.status === "data-loss", `truncated to ${n}`);
  }
  for (let i = 0; i < b.length * 8; i++) {
    const f = b.slice();
    f[i >> 3]! ^= 1 << (i & 7);
    assert.throws(() => readContainer(f), (e: unknown) => e instanceof LoomError && e.status === "data-loss", `bit ${i}`);
  }
});

/** Rewrites the checksum so that a deliberately corrupted file reaches the structural checks. */
function reseal(b: Uint8Array): Uint8Array {
  const c = b.slice();
  new DataView(c.buffer).setUint32(8, crc32(c, 8), true);
  return c;
}

test("structural checks hold without the checksum", () => {
  const b = sample();
  const DIR = 32; // 16 fixed bytes + "test-producer\0", padded to 8
  const cases: [string, (c: Uint8Array) => void, RegExp][] = [
    ["version", (c) => (c[4] = 2), /unsupported format version 2/],
    ["location mode", (c) => (c[5] = 3), /location mode 3/],
    ["reserved", (c) => (c[12] = 1), /reserved header word/],
    ["section count", (c) => (c[6] = 4), /./],
    ["flags", (c) => (c[DIR + 2] = 1), /non-zero flags/],
    ["repeated kind", (c) => (c[DIR + 24] = 0, c[DIR + 25] = 0), /appears twice/],
    ["offset", (c) => (c[DIR + 8] = c[DIR + 8]! + 8), /starts at/],
    ["length", (c) => (c[DIR + 16] = 0xff), /outside the file|starts at/],
    ["padding", (c) => (c[c.length - 1] = 1), /padding is not zero/],
  ];
  for (const [name, mutate, text] of cases) {
    const c = b.slice();
    mutate(c);
    assert.throws(() => readContainer(reseal(c)), (e: unknown) => e instanceof LoomError && e.status === "data-loss" && text.test(e.message), name);
  }
  assert.throws(() => readContainer(new Uint8Array(16)), /missing 'LOOM' magic/);
});

test("string table: interned, index 0 empty, validated", () => {
  const s = new StringTableBuilder();
  assert.equal(s.intern("count"), 1);
  assert.equal(s.intern(""), 0);
  assert.equal(s.intern("count"), 1);
  assert.equal(s.intern("é"), 2);
  assert.deepEqual(decodeStringTable(s.encode(), 0), ["", "count", "é"]);
  assert.throws(() => decodeStringTable(Uint8Array.of(2, 0, 0), 0), /repeats/);
  assert.throws(() => decodeStringTable(Uint8Array.of(1, 1, 65), 0), /string 0 must be empty/);
  assert.throws(() => decodeStringTable(Uint8Array.of(0x7f, 0), 0), /exceeds the limit|truncated/);
});

test("section kinds form an extensible registry", () => {
  assert.equal(sectionKindName(SECTION.launch), "launch");
  assert.equal(sectionKindName(4242), "kind#4242");
  assert.equal(registerSectionKind(4242, "test-kind"), 4242);
  assert.ok(isKnownSectionKind(4242));
  assert.equal(registerSectionKind(4242, "test-kind"), 4242); // idempotent
  assert.throws(() => registerSectionKind(4242, "other"), /already 'test-kind'/);
  assert.throws(() => registerSectionKind(4243, "launch"), /already kind 256/);
});
