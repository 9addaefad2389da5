/**
 * The launch-config encoding: round trips, determinism, and hostile bytes (every truncation,
 * every bit flip, random mutations with the checksum re-sealed so that the decoder's own
 * validation is exercised) — always a clean LoomError, never another exception or a hang.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import fc from "fast-check";
import { LoomError } from "../../src/core/errors.js";
import { crc32 } from "../../src/bytecode/crc32.js";
import { decodeLaunchConfig } from "../../src/launch/decode.js";
import { encodeLaunchFunctions } from "../../src/launch/encode.js";
import type { LOp, LaunchFunction } from "../../src/launch/model.js";
import { LaunchConfigProgram, createLaunchConfig } from "../../src/launch/program.js";
import { encodeLaunchConfig } from "../../src/launch/source.js";
import { OP_BY_NAME, OP_LIST } from "../../src/launch/ops.js";
import { CORPUS } from "./corpus.js";
import { independentRead } from "../bytecode/independent-reader.js";

const corpusBytes = () => encodeLaunchConfig(CORPUS.map((f) => f()));

function isDataLoss(e: unknown): boolean {
  return e instanceof LoomError && e.status === "data-loss";
}

function reseal(b: Uint8Array): Uint8Array {
  const c = b.slice();
  if (c.length < 12) return c;
  new DataView(c.buffer).setUint32(8, crc32(c, 8), true);
  return c;
}

test("encode → decode → encode is byte-identical and deterministic", () => {
  const bytes = corpusBytes();
  assert.deepEqual(corpusBytes(), bytes); // fresh IR, same bytes
  const decoded = decodeLaunchConfig(bytes);
  assert.deepEqual(encodeLaunchFunctions(decoded.functions, decoded.producer), bytes);
  assert.equal(decoded.producer, "loomc-ts");
  assert.deepEqual(independentRead(bytes).sections.map((s) => s.kind), [0, 256]);
  assert.deepEqual(encodeLaunchConfig([]), encodeLaunchConfig([])); // an empty program is valid
  assert.deepEqual(LaunchConfigProgram.load(encodeLaunchConfig([])).functionNames, []);
});

test("every truncation and every single-bit flip is data-loss", () => {
  const bytes = corpusBytes();
  for (let n = 0; n < bytes.length; n++) assert.throws(() => LaunchConfigProgram.load(bytes.subarray(0, n)), isDataLoss, `truncated to ${n}`);
  for (let i = 0; i < bytes.length * 8; i++) {
    const f = bytes.slice();
    f[i >> 3]! ^= 1 << (i & 7);
    assert.throws(() => LaunchConfigProgram.load(f), isDataLoss, `bit ${i}`);
  }
});

/** Loads (possibly corrupted) bytes; when they load, invokes every function once. */
function loadAndPoke(bytes: Uint8Array): void {
  let p: LaunchConfigProgram;
  try {
    p = LaunchConfigProgram.load(bytes);
  } catch (e) {
    assert.ok(isDataLoss(e), `load threw ${String(e)}`);
    return;
  }
  for (const name of p.functionNames) {
    const fn = p.lookupFunction(name);
    try {
      p.invokeNumbers(fn, fn.argumentTypes.map(() => 1), createLaunchConfig());
    } catch (e) {
      assert.ok(e instanceof LoomError && e.status !== "internal", `invoke threw ${String(e)}`);
    }
  }
}

test("single-bit flips of the payload, re-sealed, decode cleanly or fail cleanly", () => {
  const bytes = corpusBytes();
  const start = independentRead(bytes).sections[0]!.bytes.byteOffset - bytes.byteOffset;
  // Every third bit: each byte is hit at varying bit positions; a successful load compiles
  // seven functions, so all bits would cost seconds for little extra coverage.
  for (let i = start * 8; i < bytes.length * 8; i += 3) {
    const f = bytes.slice();
    f[i >> 3]! ^= 1 << (i & 7);
    loadAndPoke(reseal(f));
  }
});

test("property: random mutations, re-sealed, never escape as anything but LoomError", () => {
  const bytes = corpusBytes();
  fc.assert(
    fc.property(fc.array(fc.tuple(fc.nat(bytes.length - 1), fc.integer({ min: 0, max: 255 })), { minLength: 1, maxLength: 6 }), fc.nat(bytes.length), (edits, cut) => {
      const f = bytes.slice();
      for (const [at, v] of edits) f[at] = v;
      loadAndPoke(reseal(f));
      loadAndPoke(reseal(f.subarray(0, cut - (cut % 8))));
    }),
    { numRuns: 1000 },
  );
});

// ---- decoder validation on well-sealed but malformed programs ---------------------------------

const LIMITS = { maxWorkgroupCount: [65535, 65535, 65535] as [number, number, number], maxWorkgroupSize: [1024, 1024, 1024] as [number, number, number], maxFlatWorkgroupSize: 1024 };

function fn(body: LOp[], registerTypes: LaunchFunction["registerTypes"], extra: Partial<LaunchFunction> = {}): LaunchFunction {
  return { exportName: "k", args: [{ name: "n", type: "index" }], where: [], subgroupSize: 0, workgroupStorageBytes: 0, limits: LIMITS, body, registerTypes, ...extra };
}
const launch: LOp = { kind: "launch", operands: [0, 0, 0, 0, 0, 0] };

function rejectsWith(f: LaunchFunction | LaunchFunction[], text: RegExp): void {
  const bytes = encodeLaunchFunctions(Array.isArray(f) ? f : [f]);
  assert.throws(() => LaunchConfigProgram.load(bytes), (e: unknown) => isDataLoss(e) && text.test((e as Error).message), String(text));
}

test("the decoder validates registers, types, structure and limits", () => {
  const c = (result: number, type: "index" | "i32" = "index", value: bigint = 1n): LOp => ({ kind: "constant", name: type === "index" ? "index.constant" : "scalar.constant", type, value, result });
  // Sanity: the minimal function is accepted.
  assert.deepEqual(LaunchConfigProgram.load(encodeLaunchFunctions([fn([launch], ["index"])])).functionNames, ["k"]);
  rejectsWith(fn([{ kind: "launch", operands: [0, 0, 0, 0, 0, 5] }], ["index"]), /refers to value 5, which is not defined yet/);
  rejectsWith(fn([c(1, "i32"), { kind: "simple", name: "index.add", type: "index", operands: [0, 1], flags: 0, result: 2 }, launch], ["index", "i32", "index"]), /index\.add: operands \(index, i32\) must all be index/);
  rejectsWith(fn([c(1, "i32"), { kind: "launch", operands: [0, 0, 0, 1, 0, 0] }], ["index", "i32"]), /operands must be index/);
  rejectsWith(fn([c(1), { kind: "simple", name: "index.add", type: "index", operands: [0, 1], flags: 1, result: 2 }, launch], ["index", "index", "index"]), /does not accept flags/);
  rejectsWith(fn([], ["index"]), /empty region/);
  rejectsWith(fn([launch, launch], ["index"]), /must be the last op/);
  rejectsWith(fn([c(1)], ["index", "index"]), /does not end with kernel\.launch\.config/);
  const ifOp = (then: LOp[]): LOp => ({ kind: "if", cond: 0, resultTypes: [], then, else: [], hasElse: false, results: [] });
  rejectsWith(fn([ifOp([{ kind: "yield", operands: [] }]), launch], ["index"]), /scf\.if condition has type index/);
  // A value defined inside a region is out of scope after it.
  const cmp: LOp = { kind: "simple", name: "index.cmp", type: "i1", operands: [0, 0], flags: 0, predicate: "eq", result: 1 };
  const scoped: LOp = { kind: "if", cond: 1, resultTypes: [], then: [c(2), { kind: "yield", operands: [] }], else: [], hasElse: false, results: [] };
  rejectsWith(fn([cmp, scoped, { kind: "launch", operands: [2, 0, 0, 0, 0, 0] }], ["index", "i1", "index"]), /out of scope/);
  rejectsWith(fn([cmp, { kind: "if", cond: 1, resultTypes: [], then: [{ kind: "yield", operands: [0] }], else: [], hasElse: false, results: [] }, launch], ["index", "i1"]), /yields \(index\), expected \(\)/);
  // Nesting depth is bounded (no unbounded recursion on hostile input).
  let deep: LOp[] = [{ kind: "yield", operands: [] }];
  for (let i = 0; i < 80; i++) deep = [{ kind: "if", cond: 1, resultTypes: [], then: deep, else: [], hasElse: false, results: [] }, { kind: "yield", operands: [] }];
  rejectsWith(fn([cmp, deep[0]!, launch], ["index", "i1"]), /nested deeper than 64/);
});

test("the decoder rejects bad names and out-of-domain constants; the writer rejects duplicate names", () => {
  assert.throws(() => encodeLaunchFunctions([fn([launch], ["index"]), fn([launch], ["index"])]), (e: unknown) => e instanceof LoomError && e.status === "invalid-argument");
  rejectsWith(fn([launch], ["index"], { exportName: "not valid" }), /is not an identifier/);
  rejectsWith(fn([{ kind: "constant", name: "index.constant", type: "offset", value: 1n << 63n, result: 1 }, launch], ["index", "offset"]), /exceeds 2\^63-1/);
  rejectsWith(fn([{ kind: "constant", name: "index.constant", type: "i32", value: 1n, result: 1 }, launch], ["index", "i32"]), /index\.constant of type i32/);
});

test("opcode numbers are stable (docs/launch-config.md)", () => {
  const code = (name: string) => OP_BY_NAME.get(name)!.opcode;
  assert.equal(OP_LIST.length, 83);
  assert.deepEqual(
    ["index.constant", "index.add", "index.madd", "index.cmp", "index.assume", "scalar.constant", "scalar.shli", "scalar.fmaf", "scalar.bitcast", "scf.select", "kernel.launch.config"].map(code),
    [0, 2, 17, 22, 23, 24, 44, 64, 76, 78, 82],
  );
});
