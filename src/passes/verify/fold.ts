/**
 * Compile-time integer facts the verifier needs: the constant value of an SSA value
 * (literals folded through exact `index` arithmetic), and a finite upper bound where one is
 * provable (constants, `assume` ranges, `index.min`, sums and products of bounded
 * non-negative values). Never throws; results are memoised; a cycle (possible in broken
 * IR) folds to "unknown".
 */
import type { Literal, Op, Value } from "../../ir/core.js";
import { bitWidth, isInt } from "../../ir/types.js";
import * as X from "../../dialects/index/semantics.js";
import { isOp, propOf } from "../../dialects/registry.js";

/** A defined outcome of the shared semantics, or undefined for undefined behaviour. */
function defined(x: X.Outcome<bigint>): bigint | undefined {
  return X.isUndefined(x) ? undefined : x;
}

function producer(v: Value): Op | undefined {
  const owner = v.owner as { results?: unknown };
  return Array.isArray(owner.results) ? (v.owner as Op) : undefined;
}

export class ConstantFolder {
  readonly #constants = new Map<Value, bigint | null>();
  /** Made on first use: most modules ask few bounds and no full-unroll questions. */
  #bounds: Map<Value, bigint | null> | undefined;
  #onceBound: Map<Value, boolean> | undefined;

  /** The integer value of `v` when it folds to a constant (index, offset, iN as signed). */
  constant(v: Value): bigint | undefined {
    // Region arguments and literals answer at once: only folds through other ops are memoised.
    const op = producer(v);
    if (!op) return undefined;
    if (op.name === "index.constant" || op.name === "scalar.constant") return this.#fold(v);
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
    const bounds = (this.#bounds ??= new Map());
    const known = bounds.get(v);
    if (known !== undefined) return known ?? undefined;
    bounds.set(v, null);
    const r = this.#bound(v);
    bounds.set(v, r ?? null);
    return r;
  }

  /**
   * Whether `v` becomes a constant once the compile binds `config.get` and target queries: it
   * is computed from constants and such bindings alone (no arguments, ids or loads). Facts that
   * need such a value constant wait for the compile instead of failing verify.
   */
  constantOnceBound(v: Value): boolean {
    if (this.constant(v) !== undefined) return true;
    const onceBound = (this.#onceBound ??= new Map());
    const known = onceBound.get(v);
    if (known !== undefined) return known;
    onceBound.set(v, false); // in progress: a cycle never becomes constant
    const op = producer(v);
    const r =
      op !== undefined &&
      (isOp(op, "config.get") || isOp(op, "target.subgroup.size") || (/^(index|scalar)\./.test(op.name) && op.operands.length > 0 && op.operands.every((x) => this.constantOnceBound(x))));
    onceBound.set(v, r);
    return r;
  }

  /** The constant of operand `i` of `op`. */
  #operand(op: Op, i: number): bigint | undefined {
    const x = op.operands[i];
    return x ? this.constant(x) : undefined;
  }

  /** The upper bound of operand `i` of `op`. */
  #operandBound(op: Op, i: number): bigint | undefined {
    const x = op.operands[i];
    return x ? this.upperBound(x) : undefined;
  }

  #fold(v: Value): bigint | undefined {
    const op = producer(v);
    if (!op) return undefined;
    switch (op.name) {
      case "index.constant":
      case "scalar.constant": {
        const lit = propOf(op, "value");
        if (lit?.kind === "int" && (isOp(op, "index.constant") || isInt(v.type))) return lit.value;
        if (lit?.kind === "bool" && isInt(v.type)) return lit.value ? 1n : 0n;
        return undefined;
      }
      case "index.madd": {
        const a = this.#operand(op, 0), b = this.#operand(op, 1), c = this.#operand(op, 2);
        return a === undefined || b === undefined || c === undefined ? undefined : defined(X.indexMadd(a, b, c));
      }
      case "index.cast": {
        const from = op.operands[0]?.type, to = v.type;
        const x = this.#operand(op, 0);
        if (x === undefined || from?.kind !== "prim" || to.kind !== "prim") return undefined;
        const value = defined(X.indexCast(from.name as X.AddressType, to.name as X.AddressType, x));
        // Integer results are bit patterns in the shared semantics; the folder speaks signed.
        return value !== undefined && isInt(to) ? BigInt.asIntN(bitWidth(to), value) : value;
      }
      case "index.assume":
      case "scalar.assume": {
        const i = op.results.indexOf(v);
        const src = i >= 0 ? op.operands[i] : undefined;
        return src ? this.constant(src) : undefined;
      }
      case "scf.select": {
        const c = this.#operand(op, 0);
        if (c === undefined) return undefined;
        const pick = op.operands[c !== 0n ? 1 : 2];
        return pick ? this.constant(pick) : undefined;
      }
      default: {
        // Binary index ops: the shared reference semantics (src/dialects/index/semantics.ts).
        const binary = X.INDEX_BINARY[op.name] as (typeof X.INDEX_BINARY)[string] | undefined;
        const t = v.type.kind === "prim" ? v.type.name : undefined;
        if (!binary || (t !== "index" && t !== "offset")) return undefined;
        const a = this.#operand(op, 0), b = this.#operand(op, 1);
        return a === undefined || b === undefined ? undefined : defined(binary(t, a, b));
      }
    }
  }

  #bound(v: Value): bigint | undefined {
    const op = producer(v);
    if (!op) return undefined;
    switch (op.name) {
      case "index.assume":
      case "scalar.assume":
        return assumedMax(op, op.results.indexOf(v));
      case "index.min": {
        const x = this.#operandBound(op, 0), y = this.#operandBound(op, 1);
        if (x === undefined) return y;
        if (y === undefined) return x;
        return x < y ? x : y;
      }
      case "index.add": {
        const x = nonNegative(this.#operandBound(op, 0)), y = nonNegative(this.#operandBound(op, 1));
        return x === undefined || y === undefined ? undefined : x + y;
      }
      case "index.mul":
      case "index.scale": {
        const x = nonNegative(this.#operandBound(op, 0)), y = nonNegative(this.#operandBound(op, 1));
        return x === undefined || y === undefined ? undefined : x * y;
      }
      case "index.cast":
        return this.#operandBound(op, 0);
      case "scf.select": {
        const x = this.#operandBound(op, 1), y = this.#operandBound(op, 2);
        return x === undefined || y === undefined ? undefined : x > y ? x : y;
      }
      // Compile-time constants once bound (api.md `config`) or resolved for the target.
      case "config.get":
      case "target.subgroup.size":
        return X.I64_MAX;
      default:
        return undefined;
    }
  }
}

function nonNegative(x: bigint | undefined): bigint | undefined {
  return x !== undefined && x >= 0n ? x : undefined;
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
