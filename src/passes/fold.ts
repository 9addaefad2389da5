/**
 * Constant folding and dead-op removal.
 *
 * An `index.*` or `scalar.*` op whose operands are all constants is evaluated with the
 * reference semantics (src/dialects/*\/semantics.ts, the same ones the launch-config
 * evaluator uses) and replaced by a constant op of the same name. An outcome that is
 * undefined behaviour is never folded: in a launch-config region it must stay and fail at
 * invocation (language.md §6), in a body it is the backend's to keep.
 *
 * An op whose declaration has value semantics (`evaluate`, src/dialects/ops) is its own fold
 * hook: with every operand constant (scalars, or vectors built from constants) it is replaced
 * by its value — a constant, or for a vector result `vector.from_elements` of lane constants.
 *
 * A `scalar.bitcast` whose result is a NaN is not folded: folding holds floats as JS numbers,
 * which cannot keep a NaN's payload, and the device keeps it bit-exact.
 *
 * `scf.select` with a constant condition forwards the chosen operand. Dead pure ops are
 * removed (`removeDeadOps`, once per kernel, by the pipeline) from device bodies only: a
 * launch-config region keeps every op because an unused op can still fail the launch (a
 * violated assume, a division precondition).
 */
import { makeConstant } from "../ir/build.js";
import type { Literal, Op, Region, Value } from "../ir/core.js";
import type { ValueMap } from "../ir/clone.js";
import { replaceUsesInRegion } from "../ir/rewrite.js";
import { forEachUse } from "../ir/walk.js";
import type { PrimType } from "../ir/types.js";
import { lookupOp } from "../dialects/table.js";
import { isOp, opInfo, propOf } from "../dialects/registry.js";
import type { EvalValue, Evaluate, Lane } from "../dialects/decl.js";
import { Op as IrOp } from "../ir/core.js";
import { isUndefined } from "../dialects/index/semantics.js";
import { isFloatName, isIntName, roundToFormat } from "../dialects/scalar/semantics.js";
import { bindExactOp, type ExactValue } from "../dialects/eval/exact.js";
import { FLAG_BITS, type LType } from "../dialects/eval/types.js";
import type { DiagnosticSink } from "../core/diag/diagnostic.js";

/** Known values: scalars, and vectors (their lanes, row-major) built from constants. */
type Constants = Map<Value, ExactValue | readonly Lane[]>;

/** Ops never folded: constants themselves, assumes (their facts are checks), effects, math. */
const NOT_FOLDED = new Set(["index.constant", "scalar.constant", "index.assume", "scalar.assume"]);
const MATH = /^scalar\.(expf|exp2f|logf|log2f|sqrtf|rsqrtf|sinf|cosf|tanhf|erff|powf)$/;

export function foldRegion(region: Region, _sink: DiagnosticSink): void {
  const folding = new Folding();
  folding.region(region);
  if (folding.aliases) replaceUsesInRegion(region, folding.aliases);
}

function primName(v: Value): LType | undefined {
  return v.type.kind === "prim" ? (v.type.name as LType) : undefined;
}

/** The exact-domain value of a constant op (ints as bit patterns, floats rounded to type). */
function constantOf(op: Op): ExactValue | undefined {
  const lit = propOf(op, "value");
  const [result] = op.results;
  const t = result && primName(result);
  if (!lit || !t) return undefined;
  if (lit.kind === "bool") return lit.value ? 1n : 0n;
  if (lit.kind === "int") {
    if (t === "index" || t === "offset") return lit.value;
    if (isIntName(t)) return BigInt.asUintN(widthOf(t), lit.value);
    return undefined;
  }
  if (lit.kind === "float" && isFloatName(t)) return roundToFormat(lit.value, t);
  return undefined;
}

function isConstantOp(op: Op): boolean {
  return op.name === "index.constant" || op.name === "scalar.constant";
}

function widthOf(t: "i1" | "i8" | "i16" | "i32" | "i64"): number {
  return t === "i1" ? 1 : Number(t.slice(1));
}

/** The printed literal for an exact-domain value (signed integers, i1 as a bool literal). */
function literalValue(t: LType, v: ExactValue): bigint | number | boolean {
  if (typeof v === "number") return v;
  if (t === "i1") return v !== 0n;
  if (isIntName(t)) return BigInt.asIntN(widthOf(t), v);
  return v;
}

function flagBits(op: Op): number {
  let bits = 0;
  for (const f of propOf(op, "flags") ?? []) bits |= f === "fast" ? 0x1fc : (FLAG_BITS[f] ?? 0);
  return bits;
}

/**
 * One folding walk. Most regions fold nothing: nothing is allocated until something does
 * (the constants of constant ops are read off the op itself; the side tables hold only
 * vector lanes and folded results; a region's op list is copied at its first replacement).
 */
class Folding {
  /** Vector lanes of constant-built vectors and the values of folded results. */
  constants: Constants | undefined;
  /** Results replaced by another value (folded, or a select's chosen operand). */
  aliases: ValueMap | undefined;

  resolve(v: Value): Value {
    return this.aliases?.get(v) ?? v;
  }

  /** The known value of `v` (after aliasing): a constant op's, a folded result's, a vector's lanes. */
  known(v: Value): ExactValue | readonly Lane[] | undefined {
    const r = this.resolve(v);
    const folded = this.constants?.get(r);
    if (folded !== undefined) return folded;
    const owner = r.owner;
    return owner instanceof IrOp && isConstantOp(owner) ? constantOf(owner) : undefined;
  }

  #remember(v: Value, c: ExactValue | readonly Lane[]): void {
    (this.constants ??= new Map()).set(v, c);
  }
  #alias(from: Value, to: Value): void {
    (this.aliases ??= new Map()).set(from, to);
  }

  region(region: Region): void {
    // The region's ops are rebuilt into `out` once one folds (a splice per fold would make folding quadratic).
    const ops = region.ops;
    let out: Op[] | undefined;
    let i = -1;
    for (const op of ops) {
      i++;
      for (const inner of op.regions) this.region(inner);
      const replacement = this.fold(op);
      if (replacement === undefined) {
        out?.push(op);
        continue;
      }
      out ??= ops.slice(0, i);
      for (const r of replacement) {
        r.parent = region;
        out.push(r);
      }
    }
    if (out) region.ops = out;
  }

  /** The ops replacing `op`, or undefined to keep it (recording what it makes known). */
  fold(op: Op): Op[] | undefined {
    const name = op.name;
    if (isConstantOp(op)) return undefined; // read off the op when used
    if (name === "vector.constant" || name === "vector.splat" || name === "vector.from_elements") {
      const [result] = op.results;
      const lanes = vectorConstantOf(op, this);
      if (lanes && result) this.#remember(result, lanes);
      return undefined;
    }
    const evaluate = opInfo(name)?.evaluate;
    if (evaluate) return this.#foldEvaluated(op, evaluate);
    if (name === "scf.select") {
      const [c, ifTrue, ifFalse] = op.operands;
      const [result] = op.results;
      const cond = c && this.known(c);
      const chosen = cond === undefined ? undefined : cond !== 0n ? ifTrue : ifFalse;
      if (result && chosen) this.#alias(result, this.resolve(chosen));
      return undefined;
    }
    if (op.results.length !== 1 || !(name.startsWith("index.") || name.startsWith("scalar."))) return undefined;
    // Most ops have an operand that is not a constant: settle that before allocating anything.
    for (const v of op.operands) if (!isScalarConstant(this.known(v))) return undefined;
    if (NOT_FOLDED.has(name) || MATH.test(name)) return undefined;
    const operands = op.operands.map((v) => this.known(v));
    const [result] = op.results;
    const t = result && primName(result);
    const operandTypes = op.operands.map(primName);
    if (!t || operandTypes.some((x) => x === undefined)) return undefined;
    let value: ExactValue | ReturnType<ReturnType<typeof bindExactOp>>;
    try {
      const fn = bindExactOp(name, t, operandTypes as LType[], flagBits(op), propOf(op, "predicate"));
      value = fn(...(operands as ExactValue[]));
    } catch {
      return undefined; // an op the evaluator does not know is simply not folded
    }
    if (isUndefined(value)) return undefined;
    // A NaN is a JS number here and has lost its payload; bitcasts are bit-exact on the
    // device (docs/language.md "NaN payloads"), so a bitcast that makes a NaN is left to it.
    if (name === "scalar.bitcast" && typeof value === "number" && Number.isNaN(value)) return undefined;
    const replacement = makeConstant(result.type as PrimType, literalValue(t, value as ExactValue), result.name, op.span);
    const [made] = replacement.results;
    if (!made) return undefined;
    replacement.comments = op.comments;
    replacement.blankBefore = op.blankBefore;
    this.#alias(result, made);
    this.#remember(made, value as ExactValue);
    return [replacement];
  }

  /** The ops replacing an op with declared semantics by its value, when every operand is known. */
  #foldEvaluated(op: Op, evaluate: Evaluate): Op[] | undefined {
    const result = op.results[0];
    if (!result || op.results.length !== 1) return undefined;
    for (const v of op.operands) if (this.known(v) === undefined) return undefined;
    const args = op.operands.map((v) => this.known(v));
    const value = evaluate(args as EvalValue[], { operands: op.operands.map((v) => v.type), result: result.type });
    if (isUndefined(value)) return undefined; // UB stays for the backend (or the launch) to meet
    const lanes = Array.isArray(value) ? value : undefined;
    let replacement: Op[], first: Op, folded: Value;
    if (lanes && result.type.kind === "vector") {
      const element = result.type.element;
      const t = element.name as LType;
      const parts = lanes.map((l, i) => makeConstant(element, literalValue(t, l as ExactValue), `${result.name}_${i}`, op.span));
      const build = new IrOp("vector.from_elements", op.span);
      build.operands = parts.map((c) => c.results[0]);
      folded = build.addResult(result.name, result.type, result.span);
      replacement = [...parts, build];
      first = parts[0] ?? build;
    } else if (!lanes && result.type.kind === "prim") {
      const c = makeConstant(result.type, literalValue(result.type.name as LType, value as ExactValue), result.name, op.span);
      folded = c.results[0];
      replacement = [c];
      first = c;
    } else return undefined;
    first.comments = op.comments;
    first.blankBefore = op.blankBefore;
    this.#alias(result, folded);
    this.#remember(folded, value as ExactValue | readonly Lane[]);
    return replacement;
  }
}

function isScalarConstant(c: ExactValue | readonly Lane[] | undefined): boolean {
  return c !== undefined && !Array.isArray(c);
}

/** The lanes of a vector built from constants, or undefined. */
function vectorConstantOf(op: Op, folding: Folding): readonly Lane[] | undefined {
  const [r] = op.results;
  if (r?.type.kind !== "vector") return undefined;
  const n = r.type.shape.reduce((a, b) => a * b, 1);
  if (isOp(op, "vector.constant")) {
    const lit = propOf(op, "value");
    const t = r.type.element.name as LType;
    if (!lit) return undefined;
    let lane: ExactValue | undefined;
    if (lit.kind === "bool") lane = lit.value ? 1n : 0n;
    else if (lit.kind === "int") lane = t === "index" || t === "offset" ? lit.value : isIntName(t) ? BigInt.asUintN(widthOf(t), lit.value) : undefined;
    else if (lit.kind === "float" && isFloatName(t)) lane = roundToFormat(lit.value, t);
    return lane === undefined ? undefined : new Array<Lane>(n).fill(lane);
  }
  for (const v of op.operands) if (!isScalarConstant(folding.known(v))) return undefined;
  const lanes = op.operands.map((v) => folding.known(v) as Lane);
  const [first] = lanes;
  return isOp(op, "vector.splat") ? (first === undefined ? undefined : new Array<Lane>(n).fill(first)) : lanes;
}

/**
 * Removes pure ops whose results are unused, transitively, from a device body (the
 * pipeline's one dead-op pass), and returns the use count of every value still used.
 * Linear: use counts are taken once, and removing an op decrements its operands' counts,
 * queueing a defining op whose results just lost their last use.
 */
export function removeDeadOps(region: Region): Map<Value, number> {
  const uses = new Map<Value, number>();
  const queue = countUses(region, uses, undefined);
  if (!queue) return uses; // the usual case: nothing is dead
  const removed = new Set<Op>();
  const release = (v: Value) => {
    const n = (uses.get(v) ?? 0) - 1;
    if (n > 0) return void uses.set(v, n);
    uses.delete(v);
    if (v.owner instanceof IrOp && !removed.has(v.owner) && isDead(v.owner, uses)) queue.push(v.owner);
  };
  for (let op = queue.pop(); op !== undefined; op = queue.pop()) {
    if (removed.has(op)) continue;
    removed.add(op);
    forEachUse(op, release);
  }
  const sweep = (r: Region) => {
    r.ops = r.ops.filter((op) => !removed.has(op));
    for (const op of r.ops) op.regions.forEach(sweep);
  };
  sweep(region);
  return uses;
}

const countUse = (v: Value): void => void v.mark++;

/**
 * Counts the uses of every value of `region` in its `mark` (a map lookup per use costs more),
 * then moves the counts of the region's own values into `uses` (zeroing the marks) and appends
 * its dead ops to `queue` (undefined while there is none). Each mark is zeroed at its
 * definition, and in a verified body every use of a value lies after it in its own region, so
 * a region's counts are complete once its ops are walked.
 */
function countUses(region: Region, uses: Map<Value, number>, queue: Op[] | undefined): Op[] | undefined {
  clearMarks(region.args);
  const ops = region.ops;
  for (const op of ops) {
    forEachUse(op, countUse);
    clearMarks(op.results);
    for (const r of op.regions) queue = countUses(r, uses, queue);
  }
  keepCounts(region.args, uses);
  for (const op of ops) {
    keepCounts(op.results, uses);
    if (isDead(op, uses)) (queue ??= []).push(op);
  }
  return queue;
}

function clearMarks(values: readonly Value[]): void {
  for (const v of values) v.mark = 0;
}

function keepCounts(values: readonly Value[], uses: Map<Value, number>): void {
  for (const v of values) {
    if (v.mark > 0) uses.set(v, v.mark);
    v.mark = 0;
  }
}

/** A pure op, not a terminator and without regions, none of whose results is used. */
function isDead(op: Op, uses: ReadonlyMap<Value, number>): boolean {
  // Most ops have a used result: settled before the op table is read.
  if (op.regions.length !== 0 || op.results.length === 0) return false;
  for (const v of op.results) if (uses.has(v)) return false;
  const info = lookupOp(op.name);
  return info?.pure === true && !info.terminator;
}

