/**
 * Compile-time integer facts the verifier needs: the constant value of an SSA value
 * (literals folded through exact `index` arithmetic), and a finite upper bound where one is
 * provable (constants, `assume` ranges, `index.min`, sums and products of bounded
 * non-negative values). Never throws; results are memoised; a cycle (possible in broken
 * IR) folds to "unknown".
 */
import type { Literal, Op, Value } from "../../ir/core.js";
import { isInt } from "../../ir/types.js";

const I64_MIN = -(1n << 63n);
const I64_MAX = (1n << 63n) - 1n;

function inI64(v: bigint): bigint | undefined {
  return v >= I64_MIN && v <= I64_MAX ? v : undefined;
}

function producer(v: Value): Op | undefined {
  const owner = v.owner as { results?: unknown };
  return Array.isArray(owner.results) ? (v.owner as Op) : undefined;
}

export class ConstantFolder {
  readonly #constants = new Map<Value, bigint | null>();
  readonly #bounds = new Map<Value, bigint | null>();

  /** The integer value of `v` when it folds to a constant (index, offset, iN as signed). */
  constant(v: Value): bigint | undefined {
    const known = this.#constants.get(v);
    if (known !== undefined) return known ?? undefined;
    this.#constants.set(v, null); // in progress: a cycle folds to unknown
    const r = this.#fold(v);
    this.#constants.set(v, r ?? null);
    return r;
  }

  /** A proven finite upper bound of `v` (assuming it is non-negative where it is a size). */
  upperBound(v: Value): bigint | undefined {
    const c = this.constant(v);
    if (c !== undefined) return c;
    const known = this.#bounds.get(v);
    if (known !== undefined) return known ?? undefined;
    this.#bounds.set(v, null);
    const r = this.#bound(v);
    this.#bounds.set(v, r ?? null);
    return r;
  }

  #fold(v: Value): bigint | undefined {
    const op = producer(v);
    if (!op) return undefined;
    const k = (i: number) => {
      const x = op.operands[i];
      return x ? this.constant(x) : undefined;
    };
    const both = (f: (a: bigint, b: bigint) => bigint | undefined) => {
      const a = k(0), b = k(1);
      return a === undefined || b === undefined ? undefined : f(a, b);
    };
    switch (op.name) {
      case "index.constant":
      case "scalar.constant": {
        const lit = op.props.value as Literal | undefined;
        if (lit?.kind === "int" && (op.name === "index.constant" || isInt(v.type))) return lit.value;
        if (lit?.kind === "bool" && isInt(v.type)) return lit.value ? 1n : 0n;
        return undefined;
      }
      case "index.add":
        return both((a, b) => inI64(a + b));
      case "index.sub":
        return both((a, b) => inI64(a - b));
      case "index.mul":
        return both((a, b) => inI64(a * b));
      case "index.div":
        return both((a, b) => (a >= 0n && b > 0n ? a / b : undefined));
      case "index.rem":
        return both((a, b) => (a >= 0n && b > 0n ? a % b : undefined));
      case "index.min":
        return both((a, b) => (a < b ? a : b));
      case "index.max":
        return both((a, b) => (a > b ? a : b));
      case "index.madd": {
        const a = k(0), b = k(1), c = k(2);
        return a === undefined || b === undefined || c === undefined ? undefined : inI64(a * b + c);
      }
      case "index.scale":
        return both((a, b) => inI64(a * b));
      case "index.cast":
        return k(0);
      case "index.assume":
      case "scalar.assume": {
        const i = op.results.indexOf(v);
        const src = i >= 0 ? op.operands[i] : undefined;
        return src ? this.constant(src) : undefined;
      }
      case "scf.select": {
        const c = k(0);
        if (c === undefined) return undefined;
        const pick = op.operands[c !== 0n ? 1 : 2];
        return pick ? this.constant(pick) : undefined;
      }
      default:
        return undefined;
    }
  }

  #bound(v: Value): bigint | undefined {
    const op = producer(v);
    if (!op) return undefined;
    const b = (i: number) => {
      const x = op.operands[i];
      return x ? this.upperBound(x) : undefined;
    };
    const nonNeg = (x: bigint | undefined) => (x !== undefined && x >= 0n ? x : undefined);
    switch (op.name) {
      case "index.assume":
      case "scalar.assume":
        return assumedMax(op, op.results.indexOf(v));
      case "index.min": {
        const x = b(0), y = b(1);
        if (x === undefined) return y;
        if (y === undefined) return x;
        return x < y ? x : y;
      }
      case "index.add": {
        const x = nonNeg(b(0)), y = nonNeg(b(1));
        return x === undefined || y === undefined ? undefined : x + y;
      }
      case "index.mul":
      case "index.scale": {
        const x = nonNeg(b(0)), y = nonNeg(b(1));
        return x === undefined || y === undefined ? undefined : x * y;
      }
      case "index.cast":
        return b(0);
      case "scf.select": {
        const x = b(1), y = b(2);
        return x === undefined || y === undefined ? undefined : x > y ? x : y;
      }
      // Compile-time constants once bound (api.md `config`) or resolved for the target.
      case "config.get":
      case "target.subgroup.size":
        return I64_MAX;
      default:
        return undefined;
    }
  }
}

/** The tightest `range(v, lo, hi)` / `max(v, n)` / `le(v, n)` / `lt(v, n)` bound an assume states for its i-th value. */
function assumedMax(op: Op, i: number): bigint | undefined {
  const operand = op.operands[i];
  if (!operand) return undefined;
  const preds = op.props.predicates;
  let best: bigint | undefined;
  for (const p of Array.isArray(preds) ? preds : []) {
    const pred = p as { kind?: unknown; args?: unknown };
    const args = Array.isArray(pred.args) ? pred.args : [];
    if (args[0] !== operand) continue;
    let hi: unknown;
    if (pred.kind === "range") hi = args[2];
    else if (pred.kind === "max" || pred.kind === "le") hi = args[1];
    else if (pred.kind === "lt") hi = typeof args[1] === "bigint" ? args[1] - 1n : undefined;
    if (typeof hi === "bigint" && (best === undefined || hi < best)) best = hi;
  }
  return best;
}
