/**
 * The metadata MessagePack writer (src/targets/amdgpu/elf/msgpack.ts) against the
 * `@msgpack/msgpack` encoder with sorted keys, byte for byte: fixed cases at every size
 * boundary, then random metadata-shaped values.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import fc from "fast-check";
import { encode } from "@msgpack/msgpack";
import { encodeMsgpack, type MsgpackValue } from "../../src/targets/amdgpu/elf/msgpack.js";

const same = (v: MsgpackValue) => assert.deepEqual([...encodeMsgpack(v)], [...encode(v, { sortKeys: true })], JSON.stringify(v));

test("integers, strings, arrays and maps at every size boundary encode as @msgpack/msgpack encodes them", () => {
  for (const n of [0, 1, 0x7f, 0x80, 0xff, 0x100, 0xffff, 0x10000, 0xffffffff, 0x100000000, Number.MAX_SAFE_INTEGER]) same(n);
  for (const n of [-1, -0x20, -0x21, -0x80, -0x81, -0x8000, -0x8001, -0x80000000, -0x80000001, Number.MIN_SAFE_INTEGER]) same(n);
  for (const len of [0, 31, 32, 255, 256, 70000]) same("a".repeat(len));
  same("gfx1100 ünïcode ✓");
  for (const len of [0, 15, 16, 70000]) same(Array.from({ length: len }, (_, i) => i));
  same(Object.fromEntries(Array.from({ length: 17 }, (_, i) => [`.k${(i * 7) % 17}`, i % 2 === 0])));
  same({ "amdhsa.version": [1, 2], "amdhsa.target": "amdgcn-amd-amdhsa--gfx1100", "amdhsa.kernels": [{ ".name": "k", ".sgpr_count": 10 }] });
});

test("random metadata-shaped values encode as @msgpack/msgpack encodes them", () => {
  const value: fc.Arbitrary<MsgpackValue> = fc.letrec<{ v: MsgpackValue }>((tie) => ({
    v: fc.oneof(
      { depthSize: "small" },
      fc.string(),
      fc.string({ unit: "binary" }),
      fc.boolean(),
      fc.maxSafeInteger(),
      fc.integer(),
      fc.array(tie("v"), { maxLength: 20 }),
      fc.dictionary(fc.string(), tie("v"), { maxKeys: 20 }),
    ),
  })).v;
  fc.assert(fc.property(value, (v) => same(v)), { numRuns: 500 });
});
