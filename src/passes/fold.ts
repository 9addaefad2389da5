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
  const constants: Constants = new Map();
  const aliases: ValueMap = new Map();
  foldInto(region, constants, aliases);
  replaceUsesInRegion(region, aliases);
}

function primName(v: Value): LType | undefined {
  return v.type.kind === "prim" ? (v.type.name as LType) : undefined;
}

/** The exact-domain value of a constant op (ints as bit patterns, floats rounded to type). */
function constantOf(op: Op): ExactValue | undefined {
  const lit = propOf(op, "value");
  const t = primName(op.results[0]!);
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

function isScalarConstant(c: ExactValue | readonly Lane[] | undefined): boolean {
  return c !== undefined && !Array.isArray(c);
}

function foldInto(region: Region, constants: Constants, aliases: ValueMap): void {
  // The region's ops are rebuilt into `out` (a splice per fold would make folding quadratic).
  const out: Op[] = [];
  const replace = (...replacement: Op[]) => {
    for (const r of replacement) r.parent = region;
    out.push(...replacement);
  };
  const resolve = (v: Value) => aliases.get(v) ?? v;
  for (const op of region.ops) {
    out.push(op);
    for (const inner of op.regions) foldInto(inner, constants, aliases);
    if (isOp(op, "index.constant") || isOp(op, "scalar.constant")) {
      const [result] = op.results;
      const c = constantOf(op);
      if (c !== undefined && result) constants.set(result, c);
      continue;
    }
    if (isOp(op, "vector.constant") || isOp(op, "vector.splat") || isOp(op, "vector.from_elements")) {
      const [result] = op.results;
      const lanes = vectorConstantOf(op, constants, resolve);
      if (lanes && result) constants.set(result, lanes);
      continue;
    }
    const evaluate = opInfo(op.name)?.evaluate;
    if (evaluate) {
      const replacement = foldEvaluated(op, evaluate, constants, aliases, resolve);
      if (replacement) {
        out.pop();
        replace(...replacement);
      }
      continue;
    }
    if (isOp(op, "scf.select")) {
      const [c, ifTrue, ifFalse] = op.operands;
      const [result] = op.results;
      const cond = c && constants.get(resolve(c));
      const chosen = cond === undefined ? undefined : cond !== 0n ? ifTrue : ifFalse;
      if (result && chosen) aliases.set(result, resolve(chosen));
      continue;
    }
    if (op.results.length !== 1 || (op.dialect !== "index" && op.dialect !== "scalar")) continue;
    // Most ops have an operand that is not a constant: settle that before allocating anything.
    if (!op.operands.every((v) => isScalarConstant(constants.get(resolve(v))))) continue;
    if (NOT_FOLDED.has(op.name) || MATH.test(op.name)) continue;
    const operands = op.operands.map((v) => constants.get(resolve(v)));
    const result = op.results[0]!;
    const t = primName(result);
    const operandTypes = op.operands.map(primName);
    if (!t || operandTypes.some((x) => x === undefined)) continue;
    let value: ExactValue | ReturnType<ReturnType<typeof bindExactOp>>;
    try {
      const fn = bindExactOp(op.name, t, operandTypes as LType[], flagBits(op), propOf(op, "predicate"));
      value = fn(...(operands as ExactValue[]));
    } catch {
      continue; // an op the evaluator does not know is simply not folded
    }
    if (isUndefined(value)) continue;
    // A NaN is a JS number here and has lost its payload; bitcasts are bit-exact on the
    // device (docs/language.md "NaN payloads"), so a bitcast that makes a NaN is left to it.
    if (op.name === "scalar.bitcast" && typeof value === "number" && Number.isNaN(value)) continue;
    const replacement = makeConstant(result.type as PrimType, literalValue(t, value as ExactValue), result.name, op.span);
    replacement.comments = op.comments;
    replacement.blankBefore = op.blankBefore;
    out.pop();
    replace(replacement);
    aliases.set(result, replacement.results[0]!);
    constants.set(replacement.results[0]!, value as ExactValue);
  }
  region.ops = out;
}

/** The lanes of a vector built from constants, or undefined. */
function vectorConstantOf(op: Op, constants: Constants, resolve: (v: Value) => Value): readonly Lane[] | undefined {
  const r = op.results[0]!;
  if (r.type.kind !== "vector") return undefined;
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
  const lanes = op.operands.map((v) => constants.get(resolve(v)));
  if (lanes.some((l) => l === undefined || Array.isArray(l))) return undefined;
  return isOp(op, "vector.splat") ? new Array<Lane>(n).fill(lanes[0] as Lane) : (lanes as Lane[]);
}

/** The ops replacing an op with declared semantics by its value, when every operand is known. */
function foldEvaluated(op: Op, evaluate: Evaluate, constants: Constants, aliases: ValueMap, resolve: (v: Value) => Value): Op[] | undefined {
  const result = op.results[0];
  if (!result || op.results.length !== 1) return undefined;
  const args = op.operands.map((v) => constants.get(resolve(v)));
  if (args.some((a) => a === undefined)) return undefined;
  const value = evaluate(args as EvalValue[], { operands: op.operands.map((v) => v.type), result: result.type });
  if (isUndefined(value)) return undefined; // UB stays for the backend (or the launch) to meet
  const lanes = Array.isArray(value) ? value : undefined;
  let replacement: Op[];
  if (lanes && result.type.kind === "vector") {
    const element = result.type.element;
    const t = element.name as LType;
    const parts = lanes.map((l, i) => makeConstant(element, literalValue(t, l as ExactValue), `${result.name}_${i}`, op.span));
    const build = new IrOp("vector.from_elements", op.span);
    build.operands = parts.map((c) => c.results[0]!);
    build.addResult(result.name, result.type, result.span);
    replacement = [...parts, build];
  } else if (!lanes && result.type.kind === "prim") {
    replacement = [makeConstant(result.type, literalValue(result.type.name as LType, value as ExactValue), result.name, op.span)];
  } else return undefined;
  replacement[0]!.comments = op.comments;
  replacement[0]!.blankBefore = op.blankBefore;
  const last = replacement[replacement.length - 1]!;
  aliases.set(result, last.results[0]!);
  constants.set(last.results[0]!, value as ExactValue | readonly Lane[]);
  return replacement;
}

/**
 * Removes pure ops whose results are unused, transitively, from a device body (the
 * pipeline's one dead-op pass), and returns the use count of every value still used.
 * Linear: use counts are taken once, and removing an op decrements its operands' counts,
 * queueing a defining op whose results just lost their last use.
 */
export function removeDeadOps(region: Region): Map<Value, number> {
  const uses = new Map<Value, number>();
  const all: Op[] = [];
  const count = (v: Value) => void uses.set(v, (uses.get(v) ?? 0) + 1);
  const collect = (r: Region) => {
    for (const op of r.ops) {
      all.push(op);
      forEachUse(op, count);
      op.regions.forEach(collect);
    }
  };
  collect(region);
  const removed = new Set<Op>();
  const isDead = (op: Op) => {
    const info = lookupOp(op.name);
    return info?.pure === true && !info.terminator && op.regions.length === 0 && op.results.length > 0 && op.results.every((v) => !uses.has(v));
  };
  const queue = all.filter(isDead);
  const release = (v: Value) => {
    const n = (uses.get(v) ?? 0) - 1;
    if (n > 0) return void uses.set(v, n);
    uses.delete(v);
    if (v.owner instanceof IrOp && !removed.has(v.owner) && isDead(v.owner)) queue.push(v.owner);
  };
  for (let op = queue.pop(); op !== undefined; op = queue.pop()) {
    if (removed.has(op)) continue;
    removed.add(op);
    forEachUse(op, release);
  }
  if (removed.size === 0) return uses;
  const sweep = (r: Region) => {
    r.ops = r.ops.filter((op) => !removed.has(op));
    for (const op of r.ops) op.regions.forEach(sweep);
  };
  sweep(region);
  return uses;
}
