/** Unit tests of the ELF building blocks (hashes, byte writer, notes). */
import { test } from "node:test";
import assert from "node:assert/strict";
import { ByteWriter } from "../../src/targets/amdgpu/elf/byte-writer.js";
import { gnuBucketCount, gnuHash, sysvHash } from "../../src/targets/amdgpu/elf/hash.js";
import { elfNote } from "../../src/targets/amdgpu/elf/note.js";

test("symbol hashes match published values", () => {
  assert.equal(gnuHash(""), 5381);
  assert.equal(gnuHash("printf"), 0x156b2bb8);
  assert.equal(gnuHash("exit"), 0x7c967e3f);
  assert.equal(sysvHash(""), 0);
  assert.equal(sysvHash("printf"), 0x077905a6);
  assert.equal(sysvHash("exit"), 0x0006cf04);
});

test("GNU hash bucket count follows ld.lld (load factor 4, at least 1)", () => {
  assert.deepEqual([0, 1, 4, 7, 8, 17].map(gnuBucketCount), [1, 1, 1, 1, 2, 4]);
});

test("ByteWriter grows across writes of every width and keeps earlier bytes", () => {
  const w = new ByteWriter();
  for (let i = 0; i < 100; i++) w.u8(i).u16(0x0102).u32(0x03040506).u64(-1).bytes(new Uint8Array([7, 8, 9]));
  const out = w.finish();
  assert.equal(out.length, 100 * 18);
  assert.deepEqual([...out.subarray(18 * 99, 18 * 100)], [99, 2, 1, 6, 5, 4, 3, 255, 255, 255, 255, 255, 255, 255, 255, 7, 8, 9]);
  assert.throws(() => new ByteWriter().zeros(4).padTo(2), RangeError);
});

test("ELF notes pad the name and descriptor to 4 bytes", () => {
  assert.deepEqual([...elfNote("AMDGPU", 32, new Uint8Array([1, 2, 3]))], [7, 0, 0, 0, 3, 0, 0, 0, 32, 0, 0, 0, ...new TextEncoder().encode("AMDGPU"), 0, 0, 1, 2, 3, 0]);
});
