/**
 * The shared §7 packer (src/abi/pack.ts): hand-computed bytes, the slot checks, errors with
 * the status a runtime reports; and, on random layouts and values, the same bytes as the Vulkan
 * runtime's own packer (an independent implementation) and the same 16-bit float bits.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import fc from "fast-check";
import { ArgumentValueError, layoutArgumentBlock, minifloatBits, packArgumentBlock, writeArgument, type ArgumentSlot, type ArgumentValue, type DeviceArgumentType } from "../../src/abi/index.js";
import { bfloat16Bits, float16Bits, packArguments as vulkanPack } from "../../src/runtime/vulkan/args.js";

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
  switch (type) {
    case "index":
      return fc.bigInt(-(1n << 63n), (1n << 63n) - 1n);
    case "offset":
      return fc.bigInt(0n, (1n << 63n) - 1n);
    case "i1":
      return fc.boolean();
    case "i8":
    case "i16":
    case "i32":
    case "i64": {
      const bits = BigInt(type.slice(1));
      return fc.bigInt(-(1n << (bits - 1n)), (1n << bits) - 1n);
    }
    case "buffer":
      return fc.record({ address: fc.bigInt(0n, (1n << 64n) - 1n), byteLength: fc.bigInt(0n, (1n << 63n) - 1n) });
    default:
      return fc.double();
  }
}

test("the shared packer writes the Vulkan runtime's bytes on random layouts and values; 16-bit float bits agree", () => {
  const args = fc.array(fc.constantFrom(...TYPES), { maxLength: 10 }).chain((types) => fc.tuple(fc.constant(types), fc.tuple(...types.map(valueOf))));
  fc.assert(
    fc.property(args, ([types, values]) => {
      const { slots, size } = slotsOf(types);
      assert.deepEqual(packArgumentBlock(slots, values, size), vulkanPack(slots, values, size));
    }),
    { numRuns: 500 },
  );
  fc.assert(
    fc.property(fc.double(), (x) => {
      assert.equal(minifloatBits(x, 5, 10), float16Bits(x));
      assert.equal(minifloatBits(x, 8, 7), bfloat16Bits(x));
    }),
    { numRuns: 2000 },
  );
});
