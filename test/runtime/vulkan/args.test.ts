/** The explicit argument block of language.md §7, packed from typed values (no device needed). */
import { test } from "node:test";
import assert from "node:assert/strict";
import fc from "fast-check";
import { LoomError } from "../../../src/core/errors.js";
import { argumentLayout, bfloat16Bits, float16Bits, packArguments, type ArgType } from "../../../src/runtime/vulkan/index.js";

const hex = (b: Uint8Array) => Buffer.from(b).toString("hex");

function throwsStatus(fn: () => unknown, status: string, message: RegExp): void {
  assert.throws(fn, (e: unknown) => e instanceof LoomError && e.status === status && message.test(e.message));
}

test("argumentLayout follows §7: natural alignment, buffers 16 bytes at 8, size rounded to 8", () => {
  const saxpy = argumentLayout(["buffer", "buffer", "f32", "index"]);
  assert.deepEqual(
    saxpy.slots.map((s) => s.offset),
    [0, 16, 32, 40],
  );
  assert.equal(saxpy.size, 48);
  const mixed = argumentLayout(["i8", "i1", "i16", "f64", "buffer", "bf16"]);
  assert.deepEqual(
    mixed.slots.map((s) => s.offset),
    [0, 4, 8, 16, 24, 40],
  );
  assert.equal(mixed.size, 48);
  assert.equal(argumentLayout(["i8"]).size, 8);
  assert.equal(argumentLayout([]).size, 0);
  throwsStatus(() => argumentLayout(["u32" as ArgType]), "invalid-argument", /types\[0\] = u32/);
});

test("packArguments writes little-endian bits with zero padding", () => {
  const { slots } = argumentLayout(["i8", "index", "i1", "f32", "buffer", "offset", "i16", "f64"]);
  const block = packArguments(slots, [-2, -1n, true, 1.5, { address: 0x1122334455667788n, byteLength: 400 }, 2n ** 63n - 1n, 0xbeef, -0]);
  assert.equal(
    hex(block),
    [
      "fe00000000000000", // i8 -2 @0, padding to 8
      "ffffffffffffffff", // index -1 @8
      "01000000", // i1 @16
      "0000c03f", // f32 1.5 @20
      "8877665544332211", // buffer address @24
      "9001000000000000", // buffer length 400 @32
      "ffffffffffffff7f", // offset 2^63-1 @40
      "efbe000000000000", // i16 0xbeef @48, padding
      "0000000000000080", // f64 -0 @56
    ].join(""),
  );
});

test("integers accept both the signed and the unsigned reading of their bits, nothing wider", () => {
  const one = (type: ArgType, value: number | bigint | boolean) => hex(packArguments([{ type, offset: 0 }], [value]));
  assert.equal(one("i8", -128), "8000000000000000");
  assert.equal(one("i8", 255), "ff00000000000000");
  assert.equal(one("i32", -1), "ffffffff00000000");
  assert.equal(one("i32", 0xffffffff), "ffffffff00000000");
  assert.equal(one("i64", 2n ** 64n - 1n), "ffffffffffffffff");
  assert.equal(one("i64", -(2n ** 63n)), "0000000000000080");
  assert.equal(one("i1", 1), "0100000000000000");
  assert.equal(one("i1", false), "0000000000000000");
  throwsStatus(() => one("i8", 256), "out-of-range", /argument 0: 256 does not fit i8/);
  throwsStatus(() => one("i8", -129), "out-of-range", /does not fit i8/);
  throwsStatus(() => one("i1", 2), "out-of-range", /does not fit i1 \(0 or 1\)/);
  throwsStatus(() => one("offset", -1), "out-of-range", /does not fit offset/);
  throwsStatus(() => one("offset", 2n ** 63n), "out-of-range", /does not fit offset/);
  throwsStatus(() => one("index", 2n ** 63n), "out-of-range", /does not fit index/);
  throwsStatus(() => one("i64", 2n ** 64n), "out-of-range", /does not fit i64/);
  throwsStatus(() => one("i32", 1.5), "invalid-argument", /expected an integer/);
  throwsStatus(() => one("index", 2 ** 60), "invalid-argument", /not exactly representable; pass a bigint/);
  throwsStatus(() => one("f32", 1n), "invalid-argument", /expected a number for f32/);
});

test("packArguments rejects wrong counts, misplaced slots and malformed buffers", () => {
  const slots = argumentLayout(["buffer", "i32"]).slots;
  const buf = { address: 0n, byteLength: 4 };
  throwsStatus(() => packArguments(slots, [buf]), "invalid-argument", /takes 2 argument\(s\), got 1/);
  throwsStatus(() => packArguments([{ type: "i32", offset: 2 }], [1]), "invalid-argument", /offset 2 is not a multiple of its alignment 4/);
  throwsStatus(
    () => packArguments([{ type: "i64", offset: 0, name: "a" }, { type: "i32", offset: 4, name: "b" }], [1, 2]),
    "invalid-argument",
    /argument 1 \('b'\) overlaps argument 0 \('a'\)/,
  );
  throwsStatus(() => packArguments(slots, [{ address: 0n }, 1] as never), "invalid-argument", /expected \{ address, byteLength \}/);
  throwsStatus(() => packArguments(slots, [{ address: -1n, byteLength: 4 }, 1]), "out-of-range", /address/);
  throwsStatus(() => packArguments(slots, [buf, 1], 16), "invalid-argument", /the 16-byte block does not hold the slots \(20 bytes\)/);
  assert.equal(packArguments(slots, [buf, 1], 32).byteLength, 32);
  assert.equal(packArguments([], []).byteLength, 0);
});

test("f16 rounds to nearest even straight from the double (hand-computed IEEE binary16 vectors)", () => {
  const cases: [number, number][] = [
    [0, 0x0000],
    [-0, 0x8000],
    [1, 0x3c00],
    [-2, 0xc000],
    [0.5, 0x3800],
    [65504, 0x7bff], // largest finite
    [65519.99, 0x7bff], // below the overflow midpoint
    [65520, 0x7c00], // midpoint to 2^16 rounds to even = infinity
    [Infinity, 0x7c00],
    [-Infinity, 0xfc00],
    [2 ** -14, 0x0400], // smallest normal
    [2 ** -24, 0x0001], // smallest subnormal
    [2 ** -25, 0x0000], // tie between 0 and 2^-24 → even (0)
    [3 * 2 ** -25, 0x0002], // tie between 1 and 2 ulps → even (2)
    [2 ** -25 + 2 ** -40, 0x0001], // just above the tie
    [1 + 2 ** -11, 0x3c00], // tie → even mantissa 0
    [1 + 3 * 2 ** -11, 0x3c02], // tie → even mantissa 2
    [1 + 2 ** -11 + 2 ** -30, 0x3c01], // above the tie (a float32 detour would round this differently)
    [0.1, 0x2e66],
    [1 / 3, 0x3555],
    [2047.5, 0x6800], // 2047.5 is a tie at exponent 10: rounds to 2048 (mantissa even)
  ];
  for (const [x, bits] of cases) assert.equal(float16Bits(x), bits, `f16(${x})`);
  assert.equal(float16Bits(NaN) & 0x7e00, 0x7e00);
});

test("bf16 equals round-to-nearest-even of the float32 bits for every float32 (property)", () => {
  // Independent reference: the usual bit trick on the f32 pattern, valid for f32 inputs.
  const reference = (x: number) => {
    const u = new Uint32Array(new Float32Array([x]).buffer)[0]!;
    return ((u + 0x7fff + ((u >>> 16) & 1)) >>> 16) & 0xffff;
  };
  fc.assert(
    fc.property(fc.float({ noNaN: true }), (x) => bfloat16Bits(x) === reference(x)),
    { numRuns: 5000, seed: 7 },
  );
  assert.equal(bfloat16Bits(1), 0x3f80);
  assert.equal(bfloat16Bits(-2), 0xc000);
  assert.equal(bfloat16Bits(NaN) & 0x7fc0, 0x7fc0);
  // 1 + 2^-8 + 2^-30 is above the tie; a float32 detour would make it a tie and round down.
  assert.equal(bfloat16Bits(1 + 2 ** -8 + 2 ** -30), 0x3f81);
});
