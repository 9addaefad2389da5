/**
 * Device arguments of a dispatch: JS values checked against the `launch(…)` signature and
 * converted to interpreter values. Scalars are numbers or bigints (booleans for `i1`);
 * buffers are a `Uint8Array` (read and written in place), optionally with a device-visible
 * byte length shorter than the array, or null for a null buffer (length 0).
 */
import { LoomError } from "../core/errors.js";
import type { Predicate, Region, Value } from "../ir/core.js";
import { typeToString } from "../ir/types.js";
import { I64_MAX, I64_MIN } from "../dialects/index/semantics.js";
import { evaluatePredicate, INT_WIDTHS, isFloatName, isIntName, roundToFormat, type PredicateOperand } from "../dialects/scalar/semantics.js";
import { BufferRoot } from "./memory.js";
import type { Val } from "./state.js";
import { describePredicate } from "./ops-arith.js";

export type BufferArg = Uint8Array | { readonly bytes: Uint8Array; readonly byteLength: number } | null;
/** A reference-interpreter kernel argument: a scalar (bigint, number or boolean) or a host buffer. */
export type ArgValue = bigint | number | boolean | BufferArg;

function bad(i: number, v: Value, why: string): never {
  throw new LoomError("invalid-argument", `interpretDispatch: argument ${i} '%${v.name}' (${typeToString(v.type)}) ${why}`);
}

function toInteger(i: number, v: Value, x: ArgValue): bigint {
  if (typeof x === "bigint") return x;
  if (typeof x === "number" && Number.isSafeInteger(x)) return BigInt(x);
  if (typeof x === "boolean") return x ? 1n : 0n;
  return bad(i, v, `must be a bigint or a safe integer, got ${typeof x === "number" ? x : typeof x}`);
}

function toBuffer(i: number, v: Value, x: ArgValue): BufferRoot {
  const label = v.name;
  if (x === null) return new BufferRoot(new Uint8Array(0), 0, "global", label);
  if (x instanceof Uint8Array) return new BufferRoot(x, x.byteLength, "global", label);
  if (typeof x === "object" && x.bytes instanceof Uint8Array) {
    const n = x.byteLength;
    if (!Number.isSafeInteger(n) || n < 0 || n > x.bytes.byteLength) bad(i, v, `has byteLength ${n}, outside [0, ${x.bytes.byteLength}]`);
    return new BufferRoot(x.bytes, n, "global", label);
  }
  return bad(i, v, "must be a Uint8Array, { bytes, byteLength } or null");
}

/** Converts `args` for the device arguments `params` (the body region's arguments). */
export function convertArgs(params: readonly Value[], args: readonly ArgValue[]): Val[] {
  if (!Array.isArray(args)) throw new LoomError("invalid-argument", "interpretDispatch: 'args' must be an array");
  if (args.length !== params.length) throw new LoomError("invalid-argument", `interpretDispatch: the kernel takes ${params.length} device argument(s), got ${args.length}`);
  return params.map((v, i) => {
    const x = args[i]!;
    const t = v.type;
    if (t.kind !== "prim") return bad(i, v, "has a type that is not a v1 device argument type");
    const name = t.name;
    if (name === "buffer") return toBuffer(i, v, x);
    if (isFloatName(name)) {
      if (typeof x !== "number") bad(i, v, "must be a number");
      return roundToFormat(x, name);
    }
    const n = toInteger(i, v, x);
    if (name === "index") return n >= I64_MIN && n <= I64_MAX ? n : bad(i, v, `value ${n} is outside the signed 64-bit range`);
    if (name === "offset") return n >= 0n && n <= I64_MAX ? n : bad(i, v, `value ${n} is outside [0, 2^63-1]`);
    if (isIntName(name)) {
      const w = BigInt(INT_WIDTHS[name]);
      if (n < -(1n << (w - 1n)) || n >= 1n << w) bad(i, v, `value ${n} does not fit in ${w} bits`);
      return BigInt.asUintN(Number(w), n);
    }
    return bad(i, v, "has a type that is not a v1 device argument type");
  });
}

/** Checks `launch(…) where […]` over scalar device arguments, as the host runtime does before dispatch. */
export function checkLaunchWhere(body: Region, preds: readonly Predicate[], args: readonly Val[]): void {
  for (const p of preds) {
    const operands: PredicateOperand[] = [];
    let scalar = true;
    for (const a of p.args) {
      if (typeof a === "bigint") operands.push(a);
      else {
        const i = body.args.indexOf(a);
        const value = args[i];
        if (i < 0 || (typeof value !== "bigint" && typeof value !== "number") || a.type.kind !== "prim") scalar = false;
        else operands.push({ type: a.type.name, value });
      }
    }
    if (scalar && !evaluatePredicate(p.kind, operands)) {
      throw new LoomError("failed-precondition", `interpretDispatch: the launch predicate ${describePredicate(p)} is false for these arguments`);
    }
  }
}
