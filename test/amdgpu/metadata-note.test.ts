/**
 * The code object metadata note, which metadata.ts writes directly into one buffer, against
 * the same metadata built as a plain object (`metadataMap`) and encoded by `@msgpack/msgpack`
 * with sorted keys, then wrapped by `elfNote`: byte for byte, for random kernels on every
 * family (optional keys: `.agpr_count`, `.reqd_workgroup_size`, `.workgroup_processor_mode`).
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import fc from "fast-check";
import { encode } from "@msgpack/msgpack";
import type { Value } from "../../src/ir/core.js";
import { T } from "../../src/ir/types.js";
import type { ArgSlot } from "../../src/core/prepared.js";
import { amdgpuInfoOf } from "../../src/targets/amdgpu/profile.js";
import { metadataNote, NT_AMDGPU_METADATA, type KernelMetadataInput } from "../../src/targets/amdgpu/metadata.js";
import { metadataMap } from "./metadata-map.js";
import { elfNote } from "../../src/targets/amdgpu/elf/note.js";
import type { KernelDescriptor } from "../../src/targets/amdgpu/descriptor.js";
import { profile } from "./fixtures.js";

const TARGETS = ["gfx1100", "gfx942", "gfx90a", "gfx950", "gfx11-generic", "gfx1200"];

const u32 = fc.integer({ min: 0, max: 0xffffffff });
const small = fc.integer({ min: 0, max: 70000 });
const arg: fc.Arbitrary<Omit<ArgSlot, "value">> = fc.record({
  name: fc.oneof(fc.string({ minLength: 1, maxLength: 40 }), fc.constantFrom("a", "x_ünï", "n".repeat(40))),
  type: fc.constantFrom(T.buffer, T.i32, T.f32, T.index, T.i1),
  offset: small,
  size: fc.constantFrom(4, 8, 16),
  align: fc.constantFrom(1, 2, 4, 8, 16),
});
const descriptor: fc.Arbitrary<KernelDescriptor> = fc.record({
  groupSegmentFixedSize: small,
  privateSegmentFixedSize: small,
  kernargSize: small,
  computePgmRsrc1: u32,
  computePgmRsrc2: u32,
  computePgmRsrc3: u32,
  kernelCodeProperties: fc.integer({ min: 0, max: 0xffff }),
  userSgprCount: fc.integer({ min: 0, max: 32 }),
  nextFreeVgpr: fc.integer({ min: 1, max: 512 }),
  accumOffset: fc.integer({ min: 0, max: 256 }),
  sgprCount: fc.integer({ min: 0, max: 108 }),
  vgprCount: fc.integer({ min: 0, max: 512 }),
  agprCount: fc.integer({ min: 0, max: 256 }),
});
const kernel: fc.Arbitrary<KernelMetadataInput> = fc
  .record({
    name: fc.oneof(fc.string({ minLength: 1, maxLength: 300 }), fc.constantFrom("k", "saxpy")),
    args: fc.array(arg, { maxLength: 20 }),
    hidden: fc.subarray(["hidden_block_count_x", "hidden_block_count_y", "hidden_block_count_z"] as const),
    kernargSize: small,
    wavefrontSize: fc.constantFrom(32, 64),
    maxFlatWorkgroupSize: fc.integer({ min: 1, max: 1024 }),
    required: fc.option(fc.tuple(fc.integer({ min: 1, max: 1024 }), fc.integer({ min: 1, max: 1024 }), fc.integer({ min: 1, max: 64 })), { nil: undefined }),
    descriptor,
  })
  .map(({ hidden, required, args, ...k }) => ({
    ...k,
    // The metadata reads no IR value of an argument.
    args: args.map((a) => ({ ...a, value: undefined as unknown as Value })),
    hiddenArguments: hidden.map((kind, i) => ({ kind, offset: k.kernargSize + 4 * i, size: 4 })),
    ...(required ? { requiredWorkgroupSize: required } : {}),
  }));

test("the directly written metadata note equals the metadata map through @msgpack/msgpack", () => {
  fc.assert(
    fc.property(fc.constantFrom(...TARGETS), fc.array(kernel, { minLength: 1, maxLength: 3 }), (target, kernels) => {
      const info = amdgpuInfoOf(profile(target))!;
      const expected = elfNote("AMDGPU", NT_AMDGPU_METADATA, encode(metadataMap(info, kernels), { sortKeys: true }));
      assert.deepEqual([...metadataNote(info, kernels)], [...expected]);
    }),
    { numRuns: 300 },
  );
});
