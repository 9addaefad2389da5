/**
 * The WebGPU packer writes the same §7 bytes as the Vulkan runtime's packer (tested on its own
 * against hand-computed vectors) for every argument type, on random layouts and values.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import fc from "fast-check";
import { layoutArgumentBlock, type DeviceArgumentType } from "../../../src/abi/index.js";
import { packArguments } from "../../../src/runtime/webgpu/index.js";
import { packArguments as vulkanPack, type ArgValue } from "../../../src/runtime/vulkan/args.js";

const TYPES: readonly DeviceArgumentType[] = ["index", "offset", "i1", "i8", "i16", "i32", "i64", "f16", "bf16", "f32", "f64", "buffer"];

function valueOf(type: DeviceArgumentType): fc.Arbitrary<ArgValue> {
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
      return fc.record({ address: fc.constant(0), byteLength: fc.integer({ min: 0, max: 2 ** 31 }) });
    default:
      return fc.double();
  }
}

test("packArguments agrees with the Vulkan runtime's packer byte for byte", () => {
  const args = fc.array(fc.constantFrom(...TYPES), { maxLength: 8 }).chain((types) => fc.tuple(fc.constant(types), fc.tuple(...types.map(valueOf))));
  fc.assert(
    fc.property(args, ([types, values]) => {
      const layout = layoutArgumentBlock(types);
      assert.ok(!("unsupported" in layout));
      const slots = layout.slots.map((s, i) => ({ name: `a${i}`, type: s.type, offset: s.offset, size: s.size }));
      assert.deepEqual(packArguments(slots, values, layout.size), vulkanPack(slots, values, layout.size));
    }),
    { numRuns: 500 },
  );
});
