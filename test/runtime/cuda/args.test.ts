/** The explicit argument block packed from a kernel-interface record (no driver needed). */
import { test } from "node:test";
import assert from "node:assert/strict";
import { LoomError } from "../../../src/core/errors.js";
import { checkKernelInterface, halfBits, kernelInterface, packArguments, type CudaKernelInterface } from "../../../src/runtime/cuda/index.js";

const hex = (b: Uint8Array) => Buffer.from(b).toString("hex");

function throwsStatus(fn: () => unknown, status: string, message: RegExp): void {
  assert.throws(fn, (e: unknown) => e instanceof LoomError && e.status === status && message.test(e.message), `expected ${status} ${message}`);
}

test("kernelInterface lays the block out by §7: natural alignment, buffers 16 bytes at 8, size rounded to 8", () => {
  const saxpy = kernelInterface("saxpy", [["x", "buffer"], ["y", "buffer"], ["a", "f32"], ["n", "index"]]);
  assert.deepEqual(saxpy.arguments.map((a) => [a.offset, a.size]), [[0, 16], [16, 16], [32, 4], [40, 8]]);
  assert.equal(saxpy.argumentBlockBytes, 48);
  assert.equal(saxpy.workgroupSize, "launch-config");
  const mixed = kernelInterface("k", [["a", "i8"], ["b", "i1"], ["c", "i16"], ["d", "f64"], ["e", "buffer"], ["f", "bf16"]]);
  assert.deepEqual(mixed.arguments.map((a) => a.offset), [0, 4, 8, 16, 24, 40]);
  assert.equal(mixed.argumentBlockBytes, 48);
  assert.equal(kernelInterface("none", []).argumentBlockBytes, 0);
});

test("packArguments writes each value at its record offset, little-endian, padding zero", () => {
  const record = kernelInterface("k", [["a", "i8"], ["n", "index"], ["p", "i1"], ["s", "f32"], ["buf", "buffer"], ["o", "offset"], ["h", "i16"], ["d", "f64"]]);
  const block = packArguments(record, [-2, -1n, true, 1.5, { address: 0x1122334455667788n, byteLength: 400 }, 2n ** 63n - 1n, 0xbeef, -0]);
  assert.equal(
    hex(block),
    [
      "fe00000000000000", // i8 -2, padding to 8
      "ffffffffffffffff", // index -1
      "01000000", // i1 true
      "0000c03f", // f32 1.5
      "8877665544332211", // buffer address
      "9001000000000000", // buffer length 400
      "ffffffffffffff7f", // offset 2^63-1
      "efbe000000000000", // i16 0xbeef, padding
      "0000000000000080", // f64 -0
    ].join(""),
  );
});

test("a record from the compiler (extra fields, declared offsets) packs by its offsets, not by recomputing them", () => {
  // Offsets as a record would state them; bufferAddressing and the rest are ignored.
  const record = {
    symbol: "k",
    entryName: "k",
    arguments: [
      { name: "n", type: "i32", offset: 8, size: 4 },
      { name: "x", type: "buffer", offset: 16, size: 16 },
    ],
    argumentBlockBytes: 32,
    bufferAddressing: "device-address",
    bindings: [],
    workgroupSize: [256, 1, 1],
    subgroup: { size: 32, fullSubgroups: false, operations: [] },
    requiredFeatures: [],
    workgroupStorageBytes: 0,
  } as const satisfies CudaKernelInterface & Record<string, unknown>;
  checkKernelInterface(record);
  const block = packArguments(record, [7, { address: 16n, byteLength: 8n }]);
  assert.equal(hex(block), "0000000000000000" + "07000000" + "00000000" + "1000000000000000" + "0800000000000000");
});

test("values the type cannot hold are out-of-range; wrong kinds and counts are invalid-argument", () => {
  const r = kernelInterface("k", [["a", "i8"], ["b", "offset"], ["c", "buffer"], ["d", "i1"]]);
  const ok = [0, 0, { address: 0, byteLength: 0 }, 0] as const;
  throwsStatus(() => packArguments(r, [256, 0, ok[2], 0]), "out-of-range", /argument 0 \('a'\): 256 does not fit i8/);
  throwsStatus(() => packArguments(r, [-129, 0, ok[2], 0]), "out-of-range", /-129 does not fit i8/);
  assert.equal(packArguments(r, [255, 0, ok[2], 0])[0], 255); // the unsigned reading
  throwsStatus(() => packArguments(r, [0, -1, ok[2], 0]), "out-of-range", /'b'.*does not fit offset/);
  throwsStatus(() => packArguments(r, [0, 2 ** 60, ok[2], 0]), "invalid-argument", /not exactly representable; pass a bigint/);
  throwsStatus(() => packArguments(r, [0, 0, 5, 0]), "invalid-argument", /'c'.*expected a CudaBuffer or \{ address, byteLength \}/);
  throwsStatus(() => packArguments(r, [0, 0, ok[2], 2]), "out-of-range", /'d'.*does not fit i1/);
  throwsStatus(() => packArguments(r, [0, 0, ok[2]]), "invalid-argument", /takes 4 arguments \(a, b, c, d\), got 3/);
  throwsStatus(() => packArguments(r, [0.5, 0, ok[2], 0]), "invalid-argument", /expected an integer/);
});

test("the buffer check sees every buffer value before it is written", () => {
  const r = kernelInterface("k", [["x", "buffer"], ["y", "buffer"]]);
  const seen: string[] = [];
  packArguments(r, [{ address: 1n, byteLength: 2n }, { address: 3, byteLength: 4 }], (address, length, what) => seen.push(`${address}+${length} ${what()}`));
  assert.deepEqual(seen, ["1+2 kernel 'k' argument 0 ('x')", "3+4 kernel 'k' argument 1 ('y')"]);
  throwsStatus(
    () =>
      packArguments(r, [{ address: 1n, byteLength: 2n }, { address: 3n, byteLength: 4n }], () => {
        throw new LoomError("out-of-range", "not ours");
      }),
    "out-of-range",
    /not ours/,
  );
});

test("checkKernelInterface rejects records the runtime could not launch by", () => {
  const good = kernelInterface("k", [["x", "buffer"], ["n", "i32"]]);
  const bad = (patch: Record<string, unknown>) => ({ ...good, ...patch }) as unknown as CudaKernelInterface;
  throwsStatus(() => checkKernelInterface(bad({ entryName: "" })), "invalid-argument", /entryName/);
  throwsStatus(() => checkKernelInterface(bad({ argumentBlockBytes: 20 })), "invalid-argument", /multiple of 8/);
  throwsStatus(() => checkKernelInterface(bad({ argumentBlockBytes: 16 })), "invalid-argument", /'n'.*ends at 20, past the 16-byte block/);
  throwsStatus(() => checkKernelInterface(bad({ arguments: [{ name: "x", type: "buffer", offset: 4, size: 16 }] })), "invalid-argument", /offset 4 is not a multiple of 8/);
  throwsStatus(() => checkKernelInterface(bad({ arguments: [{ name: "x", type: "buffer", offset: 0, size: 8 }] })), "invalid-argument", /size 8, the ABI says 16/);
  throwsStatus(
    () => checkKernelInterface(bad({ arguments: [{ name: "x", type: "buffer", offset: 0, size: 16 }, { name: "n", type: "i32", offset: 8, size: 4 }] })),
    "invalid-argument",
    /'n'\) overlaps 'x'/,
  );
  throwsStatus(() => checkKernelInterface(bad({ arguments: [{ name: "u", type: "u32", offset: 0, size: 4 }] })), "invalid-argument", /unknown type u32/);
  throwsStatus(() => checkKernelInterface(bad({ workgroupSize: [0, 1, 1] })), "invalid-argument", /workgroupSize/);
  throwsStatus(() => checkKernelInterface(bad({ workgroupStorageBytes: -1 })), "invalid-argument", /workgroupStorageBytes/);
  throwsStatus(() => checkKernelInterface(bad({ bufferAddressing: "bindings" })), "invalid-argument", /"device-address"/);
});

test("halfBits rounds to nearest even straight from the double", () => {
  const f16 = (x: number) => halfBits(x, 5, 10);
  const bf16 = (x: number) => halfBits(x, 8, 7);
  assert.equal(f16(1), 0x3c00);
  assert.equal(f16(-2), 0xc000);
  assert.equal(f16(65504), 0x7bff);
  assert.equal(f16(65520), 0x7c00); // rounds up to infinity
  assert.equal(f16(2 ** -24), 0x0001); // smallest subnormal
  assert.equal(f16(2 ** -25), 0x0000); // a tie rounds to even (zero)
  assert.equal(f16(1 + 2 ** -11), 0x3c00); // tie → even
  assert.equal(f16(1 + 3 * 2 ** -11), 0x3c02); // tie → even (up)
  assert.equal(f16(NaN), 0x7e00);
  assert.equal(f16(-0), 0x8000);
  assert.equal(bf16(1), 0x3f80);
  assert.equal(bf16(3.140625), 0x4049);
  assert.equal(bf16(-Infinity), 0xff80);
  // Straight from the double: 1 + 2^-8 + 2^-30 is above the bf16 tie, though its f32 rounding is not.
  assert.equal(bf16(1 + 2 ** -8 + 2 ** -30), 0x3f81);
});
