/**
 * The compiled program (bytecode → fast and exact JS paths) agrees with the reference
 * interpreter over the IR, exactly: same launch, or the same error status with the output
 * untouched (verification.md "Launch-config bytecode" 1–3).
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import fc from "fast-check";
import { LoomError } from "../../src/core/errors.js";
import { bitsToFloat } from "../../src/dialects/scalar/semantics.js";
import type { LType } from "../../src/launch/model.js";
import { LaunchConfigProgram, type LaunchConfig, type LaunchConfigFunction } from "../../src/launch/program.js";
import { evaluateReference } from "../../src/launch/reference.js";
import { encodeLaunchConfig, type LaunchFunctionSource } from "../../src/launch/source.js";
import { CORPUS } from "./corpus.js";

const sources = CORPUS.map((f) => f());
const program = LaunchConfigProgram.load(encodeLaunchConfig(sources));
const SAFE = BigInt(Number.MAX_SAFE_INTEGER);

type Outcome = { launch: LaunchConfig } | { status: string };

function run(f: () => LaunchConfig): Outcome {
  try {
    return { launch: structuredClone(f()) };
  } catch (e) {
    if (!(e instanceof LoomError)) throw e; // anything else is a bug
    return { status: e.status };
  }
}

const sentinel = (): LaunchConfig => ({ workgroupCount: [9, 9, 9], workgroupSize: [9, 9, 9], workgroupClusterSize: [9, 9, 9], subgroupSize: 9, workgroupStorageBytes: 9 });

/** The number a caller of invokeNumbers would pass for these raw bits, if there is one. */
function asNumber(t: LType, bits: bigint): number | undefined {
  if (t === "f16" || t === "bf16" || t === "f32" || t === "f64") return bitsToFloat(BigInt.asUintN(t === "f64" ? 64 : t === "f32" ? 32 : 16, bits), t);
  const s = BigInt.asIntN(64, bits);
  return s >= -SAFE && s <= SAFE ? Number(s) : undefined;
}

function agree(src: LaunchFunctionSource, fn: LaunchConfigFunction, args: bigint[]): Outcome {
  const expected = run(() => evaluateReference(src, args));
  const context = `${src.exportName}(${args.join(", ")})`;
  assert.deepEqual(run(() => program.invoke(fn, args)), expected, `invoke ${context}`);
  const out = sentinel();
  const into = run(() => (program.invokeInto(fn, args, out), out));
  assert.deepEqual(into, expected, `invokeInto ${context}`);
  if ("status" in into) assert.deepEqual(out, sentinel(), `output touched by failing invokeInto ${context}`);
  const numbers = args.map((a, i) => asNumber(fn.argumentTypes[i]!, a));
  if (numbers.every((n) => n !== undefined)) {
    const out2 = sentinel();
    const viaNumbers = run(() => program.invokeNumbers(fn, numbers as number[], out2));
    assert.deepEqual(viaNumbers, expected, `invokeNumbers ${context} as [${numbers.join(", ")}]`);
    if ("status" in viaNumbers) assert.deepEqual(out2, sentinel());
  }
  return expected;
}

const BOUNDARY: Readonly<Record<string, readonly bigint[]>> = {
  index: [0n, 1n, 15n, 16n, 17n, 63n, 64n, 65n, -1n, -64n, 1n << 31n, 1n << 32n, SAFE, SAFE + 1n, (1n << 63n) - 1n, -(1n << 63n), (1n << 64n) - 1n],
  offset: [0n, 1n, 16n, SAFE, (1n << 63n) - 1n, 1n << 63n],
  i64: [0n, 1n, 3n, -1n, SAFE, (1n << 62n) + 1n, -(1n << 63n)],
  i32: [0n, 1n, 5n, 0x7fffffffn, 0x80000000n, 0xffffffffn, -3n, 1n << 40n],
  f16: [0x0000n, 0x8000n, 0x3c00n, 0x7bffn, 0x7c00n, 0xfc00n, 0x7e00n, 0x0001n, 0x5bd0n],
  bf16: [0x0000n, 0x3f80n, 0x7f80n, 0x7fc0n, 0xc2f7n, 0x4b80n],
  f32: [0x00000000n, 0x80000000n, 0x3f800000n, 0x7f800000n, 0x7fc00000n, 0x4f000000n, 0xcf000000n, 0x42c80000n, 0x3f000000n],
  f64: [0n, 0x3ff0000000000000n, 0x7ff0000000000000n, 0x7ff8000000000000n, 0xc08f400000000000n, 0x4059000000000000n, 0x41e0000000000000n],
};

test("boundary values: every combination agrees with the reference", () => {
  let checked = 0, launched = 0;
  for (const src of sources) {
    const fn = program.lookupFunction(src.exportName);
    const sets = fn.argumentTypes.map((t) => BOUNDARY[t]!);
    const combo = (i: number, acc: bigint[]): void => {
      if (i === sets.length) {
        checked++;
        if ("launch" in agree(src, fn, acc)) launched++;
        return;
      }
      for (const v of sets[i]!) combo(i + 1, [...acc, v]);
    };
    combo(0, []);
  }
  assert.ok(checked > 3000 && launched > 300, `${checked} combinations, ${launched} launched`);
});

const bitsOf = (t: LType): fc.Arbitrary<bigint> => {
  const w = t === "i1" ? 1 : t === "i8" ? 8 : t === "i16" || t === "f16" || t === "bf16" ? 16 : t === "i32" || t === "f32" ? 32 : 64;
  return fc.oneof(
    fc.constantFrom(...(BOUNDARY[t] ?? [0n, 1n])),
    fc.bigInt(-70000n, 70000n),
    fc.bigInt(0n, (1n << BigInt(w)) - 1n),
    fc.bigInt(-(1n << 63n), (1n << 64n) - 1n),
  );
};

test("property: random arguments agree with the reference on every entry point", () => {
  for (const src of sources) {
    const fn = program.lookupFunction(src.exportName);
    fc.assert(
      fc.property(fc.tuple(...fn.argumentTypes.map(bitsOf)), (args) => {
        agree(src, fn, args);
      }),
      { numRuns: 400 },
    );
  }
});

test("property: hostile arguments only ever raise LoomError", () => {
  const anything = fc.oneof(fc.anything(), fc.bigInt(), fc.double(), fc.constant(undefined));
  for (const src of sources) {
    const fn = program.lookupFunction(src.exportName);
    fc.assert(
      fc.property(fc.array(anything, { maxLength: 4 }), (args) => {
        for (const call of [
          () => program.invoke(fn, args as bigint[]),
          () => program.invokeNumbers(fn, args as number[]),
          () => program.invokeInto(fn, args as bigint[], sentinel()),
        ]) {
          try {
            call();
          } catch (e) {
            assert.ok(e instanceof LoomError, `non-LoomError ${String(e)} for ${src.exportName}`);
          }
        }
      }),
      { numRuns: 150 },
    );
  }
});
