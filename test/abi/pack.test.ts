/**
 * The shared §7 packer (src/abi/pack.ts): hand-computed bytes, the slot checks, errors with
 * the status a runtime reports; and, on random layouts and values, the bytes of a reference
 * encoder written here from §7 (16-bit floats by search over every decoded value, not by the
 * packer's arithmetic). Comparing with the Vulkan/WebGPU packers would compare the packer with
 * itself: they call it (test/runtime/webgpu/args.test.ts covers that wiring).
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import fc from "fast-check";
import { ARGUMENT_ENCODINGS, ArgumentValueError, layoutArgumentBlock, minifloatBits, packArgumentBlock, writeArgument, type ArgumentSlot, type ArgumentValue, type DeviceArgumentType } from "../../src/abi/index.js";

const hex = (b: Uint8Array) => Buffer.from(b).toString("hex");
const TYPES: readonly DeviceArgumentType[] = ["index", "offset", "i1", "i8", "i16", "i32", "i64", "f16", "bf16", "f32", "f64", "buffer"];

function throwsStatus(fn: () => unknown, status: string, message: RegExp): void {
  assert.throws(fn, (e: unknown) => e instanceof ArgumentValueError && e.status === status && message.test(e.message), String(message));
}

function slotsOf(types: readonly DeviceArgumentType[]): { slots: ArgumentSlot[]; size: number } {
  const layout = layoutArgumentBlock(types);
  assert.ok(!("unsupported" in layout));
  return { slots: layout.slots.map((s, i) => ({ type: s.type, offset: s.offset, name: `a${i}` })), size: layout.size };
}

test("packArgumentBlock writes §7's little-endian bits with zero padding", () => {
  const { slots, size } = slotsOf(["i8", "index", "i1", "f32", "buffer", "offset", "i16", "f64", "f16", "bf16"]);
  const block = packArgumentBlock(slots, [-2, -1n, true, 1.5, { address: 0x1122334455667788n, byteLength: 400 }, 2n ** 63n - 1n, 0xbeef, -0, 1, -2], size);
  assert.equal(
    hex(block),
    "fe00000000000000" + "ffffffffffffffff" + "01000000" + "0000c03f" + "8877665544332211" + "9001000000000000" + "ffffffffffffff7f" + "efbe000000000000" + "0000000000000080" + "003c" + "00c0" + "00000000",
  );
  const view = new DataView(new ArrayBuffer(8));
  writeArgument(view, "i32", 4, 0xffffffff, "x");
  assert.equal(hex(new Uint8Array(view.buffer)), "00000000ffffffff");
});

test("packArgumentBlock rejects bad counts, slots and values with the status to report", () => {
  const { slots, size } = slotsOf(["buffer", "i32"]);
  throwsStatus(() => packArgumentBlock(slots, [{ address: 0, byteLength: 4 }], size), "invalid-argument", /takes 2 argument\(s\), got 1/);
  throwsStatus(() => packArgumentBlock([{ type: "i32", offset: 2 }], [1]), "invalid-argument", /offset 2 is not a multiple of its alignment 4/);
  throwsStatus(() => packArgumentBlock([{ type: "i64", offset: 0, name: "a" }, { type: "i32", offset: 4, name: "b" }], [1, 2]), "invalid-argument", /argument 1 \('b'\) overlaps argument 0 \('a'\)/);
  throwsStatus(() => packArgumentBlock([{ type: "u32" as DeviceArgumentType, offset: 0 }], [1]), "invalid-argument", /unknown type u32/);
  throwsStatus(() => packArgumentBlock([{ type: "i64", offset: 0 }], [1], 4), "invalid-argument", /4-byte block does not hold/);
  throwsStatus(() => packArgumentBlock(slots, [{ address: 0n } as never, 1], size), "invalid-argument", /expected \{ address, byteLength \}/);
  throwsStatus(() => packArgumentBlock(slots, [{ address: -1n, byteLength: 4 }, 1], size), "out-of-range", /address/);
  throwsStatus(() => packArgumentBlock([{ type: "i8", offset: 0 }], [256]), "out-of-range", /256 does not fit i8 \(-128 to 255\)/);
  throwsStatus(() => packArgumentBlock([{ type: "index", offset: 0 }], [2 ** 60]), "invalid-argument", /not exactly representable/);
  throwsStatus(() => packArgumentBlock([{ type: "f32", offset: 0 }], ["1" as never]), "invalid-argument", /expected a number for f32/);
  throwsStatus(() => packArgumentBlock([{ type: "i1", offset: 0 }], [2]), "out-of-range", /does not fit i1/);
});

function valueOf(type: DeviceArgumentType): fc.Arbitrary<ArgumentValue> {
  // Plain numbers too: the packer has BigInt-free paths for them.
  const safe = fc.integer({ min: Number.MIN_SAFE_INTEGER, max: Number.MAX_SAFE_INTEGER });
  switch (type) {
    case "index":
      return fc.oneof(fc.bigInt(-(1n << 63n), (1n << 63n) - 1n), safe);
    case "offset":
      return fc.oneof(fc.bigInt(0n, (1n << 63n) - 1n), fc.integer({ min: 0, max: Number.MAX_SAFE_INTEGER }));
    case "i1":
      return fc.oneof(fc.boolean(), fc.constantFrom(0, 1, 0n, 1n));
    case "i8":
    case "i16":
    case "i32":
    case "i64": {
      const bits = BigInt(type.slice(1));
      const lo = -(1n << (bits - 1n)), hi = (1n << bits) - 1n;
      return fc.oneof(fc.bigInt(lo, hi), fc.integer({ min: Math.max(Number(lo), Number.MIN_SAFE_INTEGER), max: Math.min(Number(hi), Number.MAX_SAFE_INTEGER) }));
    }
    case "buffer":
      return fc.record({ address: fc.oneof(fc.bigInt(0n, (1n << 64n) - 1n), fc.integer({ min: 0, max: 2 ** 40 })), byteLength: fc.oneof(fc.bigInt(0n, (1n << 63n) - 1n), fc.integer({ min: 0, max: 2 ** 40 })) });
    default:
      return fc.oneof(fc.double(), fc.float().map(Number), fc.integer({ min: -70000, max: 70000 }).map((n) => n / 64));
  }
}

/** Every finite value of a 16-bit float format, with its bits, in ascending order (decoded, not rounded). */
function finiteValues(expBits: number, manBits: number): { value: number; bits: number }[] {
  const out: { value: number; bits: number }[] = [];
  const bias = (1 << (expBits - 1)) - 1;
  for (let bits = 0; bits < 1 << 16; bits++) {
    const e = (bits >> manBits) & ((1 << expBits) - 1), m = bits & ((1 << manBits) - 1), sign = bits >> 15 ? -1 : 1;
    if (e === (1 << expBits) - 1 || (bits === 0x8000)) continue; // inf/NaN; -0 apart
    out.push({ value: sign * (e === 0 ? m * 2 ** (1 - bias - manBits) : (1 + m / 2 ** manBits) * 2 ** (e - bias)), bits });
  }
  return out.sort((a, b) => a.value - b.value);
}

/** Round-to-nearest-even by search over the decoded table: an oracle independent of minifloatBits. */
function nearestBits(table: readonly { value: number; bits: number }[], x: number, expBits: number, manBits: number): number {
  const inf = ((1 << expBits) - 1) << manBits;
  if (Number.isNaN(x)) return inf | (1 << (manBits - 1));
  if (Object.is(x, -0)) return 0x8000;
  const sign = x < 0 ? 0x8000 : 0;
  const max = table[table.length - 1]!.value;
  const halfUlp = 2 ** (((1 << expBits) - 2) - ((1 << (expBits - 1)) - 1) - manBits - 1);
  if (Math.abs(x) >= max + halfUlp) return sign | inf;
  let lo = 0, hi = table.length - 1;
  while (hi - lo > 1) {
    const mid = (lo + hi) >> 1;
    if (table[mid]!.value <= x) lo = mid;
    else hi = mid;
  }
  const a = table[lo]!, b = table[hi]!;
  const da = Math.abs(x - a.value), db = Math.abs(b.value - x);
  const pick = da < db ? a : db < da ? b : (a.bits & 1) === 0 ? a : b;
  // Zero rounds keep the sign of x.
  return pick.value === 0 ? sign : pick.bits;
}
const F16 = finiteValues(5, 10), BF16 = finiteValues(8, 7);

/** §7 bytes of one value, computed here from the language spec (little-endian bit patterns). */
function referenceBytes(type: DeviceArgumentType, value: ArgumentValue): number[] {
  const le = (v: bigint, bytes: number) => Array.from({ length: bytes }, (_, k) => Number((BigInt.asUintN(bytes * 8, v) >> BigInt(8 * k)) & 0xffn));
  switch (type) {
    case "buffer": {
      const b = value as { address: bigint | number; byteLength: bigint | number };
      return [...le(BigInt(b.address), 8), ...le(BigInt(b.byteLength), 8)];
    }
    case "i1":
      return le(value === true || value === 1 || value === 1n ? 1n : 0n, 4);
    case "f32":
      return [...new Uint8Array(new Float32Array([value as number]).buffer)];
    case "f64":
      return [...new Uint8Array(new Float64Array([value as number]).buffer)];
    case "f16":
      return le(BigInt(nearestBits(F16, value as number, 5, 10)), 2);
    case "bf16":
      return le(BigInt(nearestBits(BF16, value as number, 8, 7)), 2);
    default:
      return le(BigInt(value as number | bigint), ARGUMENT_ENCODINGS[type].size);
  }
}

test("packArgumentBlock writes, on random layouts and values, the bytes a reference encoder computes from §7", () => {
  const args = fc.array(fc.constantFrom(...TYPES), { maxLength: 10 }).chain((types) => fc.tuple(fc.constant(types), fc.tuple(...types.map(valueOf))));
  fc.assert(
    fc.property(args, ([types, values]) => {
      const { slots, size } = slotsOf(types);
      const expected = new Uint8Array(size);
      slots.forEach((slot, i) => expected.set(referenceBytes(slot.type, values[i]!), slot.offset));
      assert.deepEqual(packArgumentBlock(slots, values, size), expected);
    }),
    { numRuns: 500 },
  );
  for (const x of [65504, 65519.99, 65520, 2 ** -24, 2 ** -25, 3 * 2 ** -26, 1 + 2 ** -11, 1 + 3 * 2 ** -11, -0, NaN, Infinity]) {
    assert.equal(minifloatBits(x, 5, 10), nearestBits(F16, x, 5, 10), `f16 ${x}`);
    assert.equal(minifloatBits(x, 8, 7), nearestBits(BF16, x, 8, 7), `bf16 ${x}`);
  }
});
