/**
 * Agreement of the two evaluators of one artifact — generated code (`LaunchConfigProgram.load`)
 * and closures (`{ codegen: false }`) — with each other (same launch, or the same LoomError
 * status and message; the same fast-path return code) and with the reference interpreter.
 */
import assert from "node:assert/strict";
import fc from "fast-check";
import { LoomError } from "../../src/core/errors.js";
import { bitsToFloat } from "../../src/dialects/scalar/semantics.js";
import type { LType } from "../../src/launch/model.js";
import { LaunchConfigProgram, type LaunchConfig, type LaunchConfigFunction } from "../../src/launch/program.js";
import { evaluateReference } from "../../src/launch/reference.js";
import { encodeLaunchConfig, type LaunchFunctionSource } from "../../src/launch/source.js";

const SAFE = BigInt(Number.MAX_SAFE_INTEGER);

export type Outcome = { launch: LaunchConfig } | { status: string; message: string };

export function run(f: () => LaunchConfig): Outcome {
  try {
    return { launch: structuredClone(f()) };
  } catch (e) {
    if (!(e instanceof LoomError)) throw e; // anything else is a bug
    return { status: e.status, message: e.message };
  }
}

export const sentinel = (): LaunchConfig => ({ workgroupCount: [9, 9, 9], workgroupSize: [9, 9, 9], workgroupClusterSize: [9, 9, 9], subgroupSize: 9, workgroupStorageBytes: 9 });
const statusOf = (o: Outcome) => ("launch" in o ? o : { status: o.status });

/** Every entry point of `p` on the same arguments; outputs of failures must stay untouched. */
export function entryPoints(p: LaunchConfigProgram, fn: LaunchConfigFunction, args: unknown, numbers: unknown): Outcome[] {
  const out = sentinel(), out2 = sentinel();
  const results = [run(() => p.invoke(fn, args as bigint[])), run(() => (p.invokeInto(fn, args as bigint[], out), out))];
  if ("status" in results[1]!) assert.deepEqual(out, sentinel(), "output touched by a failing invokeInto");
  if (numbers !== undefined) {
    results.push(run(() => p.invokeNumbers(fn, numbers as number[], out2)));
    if ("status" in results[2]!) assert.deepEqual(out2, sentinel(), "output touched by a failing invokeNumbers");
  }
  return results;
}

/** The number a caller of invokeNumbers would pass for these raw bits, if there is one. */
export function asNumber(t: LType, bits: bigint): number | undefined {
  if (t === "f16" || t === "bf16" || t === "f32" || t === "f64") return bitsToFloat(BigInt.asUintN(t === "f64" ? 64 : t === "f32" ? 32 : 16, bits), t);
  const s = BigInt.asIntN(64, bits);
  return s >= -SAFE && s <= SAFE ? Number(s) : undefined;
}

/** Both evaluators of one set of functions, with what the checks have seen. */
export class TwoEvaluators {
  readonly generated: LaunchConfigProgram;
  readonly closures: LaunchConfigProgram;
  /** Fast-path return codes seen: done, bail, budget. */
  readonly fastCodes = [0, 0, 0];
  /** Error messages seen. */
  readonly messages = new Set<string>();

  constructor(readonly sources: readonly LaunchFunctionSource[]) {
    const bytes = encodeLaunchConfig(sources);
    this.generated = LaunchConfigProgram.load(bytes);
    this.closures = LaunchConfigProgram.load(bytes, { codegen: false });
    assert.equal(this.generated.evaluator, "codegen");
    assert.equal(this.closures.evaluator, "closures");
  }

  /** Checks one call on every entry point of both; returns the reference outcome. */
  agree(src: LaunchFunctionSource, args: bigint[]): Outcome {
    const g = this.generated.lookupFunction(src.exportName), c = this.closures.lookupFunction(src.exportName);
    const numbers = args.map((a, i) => asNumber(g.argumentTypes[i]!, a));
    const usable = numbers.every((n) => n !== undefined) ? numbers : undefined;
    const context = `${src.exportName}(${args.join(", ")})`;
    const want = entryPoints(this.generated, g, args, usable);
    assert.deepEqual(entryPoints(this.closures, c, args, usable), want, `closures vs generated code: ${context}`);
    if (usable) {
      // The closure fast path bails exactly where the generated one does: not merely correct, as fast.
      const o1 = sentinel(), o2 = sentinel();
      const code = g.fast(usable, o1);
      assert.equal(c.fast(usable, o2), code, `fast-path return code: ${context}`);
      assert.deepEqual(o2, o1, `fast-path output: ${context}`);
      this.fastCodes[code]!++;
    }
    const reference = run(() => evaluateReference(src, args));
    for (const o of want) assert.deepEqual(statusOf(o), statusOf(reference), `generated code vs reference: ${context}`);
    for (const o of want) if ("message" in o) this.messages.add(o.message);
    return reference;
  }

  /** Hostile arguments (anything at all): both raise the same LoomError, or agree. */
  agreeHostile(src: LaunchFunctionSource, args: unknown): void {
    const g = this.generated.lookupFunction(src.exportName), c = this.closures.lookupFunction(src.exportName);
    const want = entryPoints(this.generated, g, args, args);
    assert.deepEqual(entryPoints(this.closures, c, args, args), want);
    for (const o of want) if ("message" in o) this.messages.add(o.message);
  }
}

export const BOUNDARY: Readonly<Record<LType, readonly bigint[]>> = {
  index: [0n, 1n, 15n, 16n, 17n, 63n, 64n, 65n, 257n, -1n, -64n, 1n << 31n, 1n << 32n, SAFE, SAFE + 1n, (1n << 63n) - 1n, -(1n << 63n), (1n << 64n) - 1n],
  offset: [0n, 1n, 16n, SAFE, (1n << 63n) - 1n, 1n << 63n],
  i1: [0n, 1n, 2n, 3n],
  i8: [0n, 1n, 0x7fn, 0x80n, 0xffn, 0x17fn],
  i16: [0n, 1n, 0x7fffn, 0x8000n, 0xffffn],
  i32: [0n, 1n, 5n, 0x7fffffffn, 0x80000000n, 0xffffffffn, -3n, 1n << 40n],
  i64: [0n, 1n, 3n, 63n, 64n, -1n, SAFE, SAFE + 1n, (1n << 62n) + 1n, -(1n << 63n)],
  // Floats: zeros, ones, infinities, NaN, subnormals, and the edges of integer conversions (±128, −129, 255, 256, 2^31, 2^63).
  f16: [0x0000n, 0x8000n, 0x3c00n, 0x7bffn, 0x7c00n, 0xfc00n, 0x7e00n, 0x0001n, 0x5bd0n, 0x5800n, 0xd800n, 0xd808n, 0x5bf8n, 0x5c00n, 0xb800n],
  bf16: [0x0000n, 0x3f80n, 0x7f80n, 0x7fc0n, 0xc2f7n, 0x4b80n, 0x4300n, 0xc300n, 0xc301n, 0x4380n, 0x4f00n, 0xcf00n],
  f32: [0x00000000n, 0x80000000n, 0x3f800000n, 0x7f800000n, 0x7fc00000n, 0x4f000000n, 0xcf000000n, 0x42c80000n, 0x3f000000n, 0x40200000n, 0x43000000n, 0xc3000000n, 0xc3010000n, 0x437f0000n, 0x43800000n, 0x5f000000n, 0xdf000000n, 0x00000001n],
  f64: [0n, 0x3ff0000000000000n, 0x7ff0000000000000n, 0x7ff8000000000000n, 0xc08f400000000000n, 0x4059000000000000n, 0x41e0000000000000n, 0xbfe8000000000000n, 0xc060200000000000n, 0x4060000000000000n, 0x406fe00000000000n, 0x43e0000000000000n, 0xc3e0000000000000n, 0x4340000000000000n, 0x0000000000000001n],
};

/** Raw 64-bit slots for an argument of type `t`: boundary values, small values, any bits. */
export const bitsOf = (t: LType): fc.Arbitrary<bigint> => {
  const w = t === "i1" ? 1 : t === "i8" ? 8 : t === "i16" || t === "f16" || t === "bf16" ? 16 : t === "i32" || t === "f32" ? 32 : 64;
  return fc.oneof(
    fc.constantFrom(...BOUNDARY[t]),
    fc.bigInt(-70000n, 70000n),
    fc.bigInt(0n, (1n << BigInt(w)) - 1n),
    fc.bigInt(-(1n << 63n), (1n << 64n) - 1n),
  );
};
