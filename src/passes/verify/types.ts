/**
 * Type rules of every v1 op (language.md §3–§4, §10):
 *  TYPE/001 mismatched types (operands that must agree, annotations vs actual types, call
 *           arguments vs parameters), TYPE/002 element types (view/vector element vs scalar),
 *  TYPE/003 operand constraint (an operand outside the op's type class),
 *  TYPE/004 result constraint (result type / width / shape the op cannot produce),
 *  TYPE/005 literal kinds (via literals.ts), TYPE/013 signature argument types.
 * Ops whose declaration carries a type rule (src/dialects/ops: uniform, conversion or a
 * signature of per-operand checks) are checked from it; the rest have checkers below.
 * As in the reference, every failing operand and the result are reported (several diagnostics
 * for one op), at the op; a value that already failed is not compared again, so one mistake
 * still gives one error.
 */
import type { Op, Predicate, Value } from "../../ir/core.js";
import { remapType, type ValueMap } from "../../ir/clone.js";
import {
  bitWidth, isAddress, isFloat, isInt, isPrim, isScalar, T, typeEquals, typeToString,
  type Type, type VectorType, type ViewType,
} from "../../ir/types.js";
import { D } from "../../core/diag/catalog.js";
import type { VerifyContext } from "./context.js";
import { checkLiteral } from "./literals.js";
import { ATOMIC_KINDS, COMBINING_KINDS } from "./typerules.js";
import { INDEX_RESULT, type TypeCheck, type TypeClass, type TypeRef, type TypeRule } from "../../dialects/decl.js";
import { isOp, opInfo, type OpInfo, propOf } from "../../dialects/registry.js";

const s = typeToString;

function isVector(t: Type | undefined): t is VectorType {
  return t?.kind === "vector";
}
function isView(t: Type | undefined): t is ViewType {
  return t?.kind === "view";
}

function inClass(t: Type, c: TypeClass): boolean {
  switch (c) {
    case "I":
      return isInt(t);
    case "F":
      return isFloat(t);
    case "S":
      return isScalar(t);
    case "A":
      return isAddress(t);
    case "index":
      return isPrim(t, "index");
    case "vI":
      return isVector(t) && (isInt(t.element) || t.element.name === "index");
    case "vF":
      return isVector(t) && isFloat(t.element);
    case "N":
      return (isInt(t) && t.name !== "i1") || isPrim(t, "index");
  }
}

const CLASS_NAME: Record<TypeClass, string> = {
  I: "an integer type (i1, i8, i16, i32, i64)",
  F: "a float type (f16, bf16, f32, f64)",
  S: "an integer or float type",
  A: "index or offset",
  index: "index",
  vI: "a vector of integers",
  vF: "a vector of floats",
  N: "index or non-i1 integer scalar",
};

/** Reporting helpers bound to one op (one instance, rebound per op: the checks never nest). */
class OpTypes {
  constructor(
    public ctx: VerifyContext,
    public op: Op,
  ) {}
  bind(ctx: VerifyContext, op: Op): this {
    this.ctx = ctx;
    this.op = op;
    return this;
  }
  mismatch(msg: string): false {
    this.ctx.report(D.typeMismatch, this.op.span, [msg]);
    return false;
  }
  element(msg: string): false {
    this.ctx.report(D.elementTypeMismatch, this.op.span, [msg]);
    return false;
  }
  operand(msg: string): false {
    this.ctx.report(D.operandConstraint, this.op.span, [msg]);
    return false;
  }
  result(msg: string): false {
    this.ctx.report(D.resultConstraint, this.op.span, [msg]);
    return false;
  }
  shape(msg: string): false {
    this.ctx.report(D.extentMismatch, this.op.span, [msg]);
    return false;
  }
  /** Operand `i` must satisfy `ok`; `what` completes "operand #i of X must be ...". */
  operandIs(i: number, ok: (t: Type) => boolean, what: string): boolean {
    const v = this.op.operands[i];
    if (!v || ok(v.type)) return true;
    return this.operand(`operand '%${v.name}' of ${this.op.name} must be ${what}, got ${s(v.type)}`);
  }
  resultIs(i: number, ok: (t: Type) => boolean, what: string): boolean {
    const r = this.op.results[i];
    if (!r || ok(r.type)) return true;
    return this.result(`${this.op.name} produces ${what}, not ${s(r.type)}`);
  }
  /** Value `v` must have exactly type `t` (TYPE/001; SHAPE/002 for a vector of the same element and rank). */
  same(v: Value | undefined, t: Type | undefined, role: string): boolean {
    if (!v || !t || typeEquals(v.type, t)) return true;
    const msg = `${role} '%${v.name}' has type ${s(v.type)}, expected ${s(t)}`;
    return isVector(t) && sameRank(v.type, t.shape) && typeEquals(v.type.element, t.element) ? this.shape(msg) : this.mismatch(msg);
  }
}

const isIndex = (t: Type) => isPrim(t, "index");
const isOffset = (t: Type) => isPrim(t, "offset");
const isBuffer = (t: Type) => isPrim(t, "buffer");
const isI1 = (t: Type) => isPrim(t, "i1");
const isI32 = (t: Type) => isPrim(t, "i32");
/** `t` is a vector of `shape`'s rank (a same-rank shape mismatch is SHAPE/002). */
const sameRank = (t: Type, shape: readonly number[]): t is VectorType => isVector(t) && t.shape.length === shape.length;

/** The types written after `:` that the parser kept (`props.annotatedTypes`). */
function annotatedTypes(op: Op): readonly (Type | undefined)[] | undefined {
  const a = op.props.annotatedTypes;
  return Array.isArray(a) ? (a as (Type | undefined)[]) : undefined;
}

type Rule<K extends TypeRule["kind"]> = Extract<TypeRule, { kind: K }>;

/** How the reference names the operands of a uniform op, by arity. */
const ROLES: Record<number, readonly string[]> = { 1: ["input"], 2: ["lhs", "rhs"], 3: ["a", "b", "c"] };
/** The name of operand `i` of a uniform op of `arity` operands (looked up only to report). */
const roleName = (arity: number, i: number) => ROLES[arity]?.[i] ?? `operand #${i}`;

/**
 * Every failing operand and the result are reported (TYPE/003 per operand outside the class,
 * TYPE/004 for a result outside it, TYPE/001 where operands disagree), as the reference does.
 */
function checkUniform(c: OpTypes, op: Op, rule: Rule<"uniform">): void {
  if (op.operands.length !== rule.arity) return; // PARSE/010 territory
  const result = op.results[0];
  let failed = false;
  // The reference checks a vector op's one annotated type once: the result (TYPE/004) when it
  // is the operands' type and fails too, else the first failing operand (TYPE/003).
  const once = rule.cls[0] === "v";
  // Indexed loops, not forEach: this runs for most ops and should allocate nothing.
  for (let i = 0; i < op.operands.length; i++) {
    const v = op.operands[i]!;
    if (inClass(v.type, rule.cls)) continue;
    const resultFailsToo = rule.result === "same" && result !== undefined && !inClass(result.type, rule.cls);
    if (!once || (!failed && !resultFailsToo)) c.operand(`${roleName(rule.arity, i)} '%${v.name}' of ${op.name} must be ${CLASS_NAME[rule.cls]}, got ${s(v.type)}`);
    failed = true;
  }
  const first = op.operands[0];
  if (!first) return;
  for (let i = 1; i < op.operands.length; i++) {
    const v = op.operands[i]!;
    if (typeEquals(v.type, first.type)) continue;
    failed = true;
    c.mismatch(`${roleName(rule.arity, 0)} '%${first.name}' (${s(first.type)}) and ${roleName(rule.arity, i)} '%${v.name}' (${s(v.type)}) of ${op.name} must have one type`);
  }
  if (rule.result === "same") {
    if (!result) return;
    if (!inClass(result.type, rule.cls)) return void c.result(`result '%${result.name}' of ${op.name} must be ${CLASS_NAME[rule.cls]}, got ${s(result.type)}`);
    if (!failed && !typeEquals(result.type, first.type)) c.mismatch(`result '%${result.name}' has type ${s(result.type)}, the operands ${s(first.type)}`);
    return;
  }
  // Comparisons: the annotation names the operand type; the result is i1 (lanewise).
  const annotated = annotatedTypes(op)?.[0];
  if (failed) return;
  if (annotated && !typeEquals(annotated, first.type)) return void c.mismatch(`operands of ${op.name} have type ${s(first.type)}, the annotation says ${s(annotated)}`);
  if (result) {
    const want: Type = isVector(first.type) ? { kind: "vector", shape: first.type.shape, element: T.i1 } : T.i1;
    if (!typeEquals(result.type, want)) c.result(`${op.name} produces ${s(want)}, not ${s(result.type)}`);
  }
}

function checkConversion(c: OpTypes, op: Op, rule: Rule<"conversion">, vector: boolean): void {
  const name = op.name.slice(op.name.indexOf(".") + 1);
  const x = op.operands[0], r = op.results[0];
  if (!x || !r) return;
  let from = x.type, to = r.type;
  if (vector) {
    if (!isVector(from)) return void c.operand(`${op.name} converts vectors, got ${s(from)}`);
    if (!isVector(to)) return void c.result(`${op.name} produces a vector, not ${s(to)}`);
    if (name === "bitcast" && from.shape.join("x") !== to.shape.join("x")) {
      // A bitcast may regroup lanes as long as the total bits agree (§4.7).
      const bits = (v: VectorType) => v.shape.reduce((a, b) => a * b, 1) * bitWidth(v.element);
      if (!isScalar(from.element) || !isScalar(to.element) || bits(from) !== bits(to)) c.result(`${op.name} keeps the total bits: ${s(from)} to ${s(to)}`);
      return;
    }
    if (from.shape.join("x") !== to.shape.join("x")) return void c.result(`${op.name} keeps the shape: ${s(from)} to ${s(to)}`);
    from = from.element;
    to = to.element;
  }
  const kind = (k: "I" | "F" | "S") => (k === "I" ? "I" : k === "F" ? "F" : "S") as TypeClass;
  if (!inClass(from, kind(rule.from))) return void c.operand(`${op.name} converts from ${CLASS_NAME[kind(rule.from)]}, got ${s(from)}`);
  if (!inClass(to, kind(rule.to))) return void c.result(`${op.name} converts to ${CLASS_NAME[kind(rule.to)]}, got ${s(to)}`);
  const wf = bitWidth(from), wt = bitWidth(to);
  const ok = rule.width === "any" || (rule.width === "wider" ? wt > wf : rule.width === "narrower" ? wt < wf : wt === wf && !typeEquals(from, to));
  if (!ok) c.result(`${op.name} from ${s(from)} to ${s(to)}: the result must be ${rule.width === "equal" ? "a different type of equal width" : `strictly ${rule.width}`}`);
}

function refValue(op: Op, r: TypeRef): Value | undefined {
  return "operand" in r ? op.operands[r.operand] : op.results[r.result];
}

/**
 * The checks of a `signature` rule: every failing operand and result is reported, except a
 * `sameAs` check against a value that already failed (one mistake, one report).
 */
function checkSignature(c: OpTypes, op: Op, rule: Rule<"signature">): void {
  let failed: Set<Value> | undefined; // made on the first failure
  for (const check of rule.checks) {
    if (failed && "sameAs" in check) {
      const other = refValue(op, check.sameAs);
      if (other && failed.has(other)) continue;
    }
    const v = refValue(op, check);
    if (v && failed?.has(v)) continue;
    if (!checkOne(c, op, check) && v) (failed ??= new Set()).add(v);
  }
}

function checkOne(c: OpTypes, op: Op, check: TypeCheck): boolean {
  const v = refValue(op, check);
  if (!v) return true;
  const operand = "operand" in check;
  if ("is" in check) {
    if (inClass(v.type, check.is)) return true; // the usual case, without a closure
    const what = CLASS_NAME[check.is];
    return operand ? c.operandIs(check.operand, (t) => inClass(t, check.is), what) : c.resultIs(check.result, (t) => inClass(t, check.is), what);
  }
  const role = operand ? "operand" : "result";
  if ("sameAs" in check) return c.same(v, refValue(op, check.sameAs)?.type, role);
  const of = refValue(op, check.elementOf);
  if (!of) return true;
  // A result that must be a vector and is not (an operand's class is checked on its own).
  if (!isVector(of.type)) return "operand" in check.elementOf || c.result(`${op.name} produces a vector, not ${s(of.type)}`);
  if (typeEquals(v.type, of.type.element)) return true;
  return c.element(`${role} '%${v.name}' of ${op.name} has type ${s(v.type)}, the lanes of '%${of.name}' are ${s(of.type.element)}`);
}

function checkIndexCast(c: OpTypes, op: Op): void {
  const x = op.operands[0], r = op.results[0];
  if (!x || !r) return;
  const ok = (t: Type) => isInt(t) || isAddress(t);
  const what = "an integer, index, or offset";
  const input = ok(x.type), output = ok(r.type);
  if (!input) c.operand(`input '%${x.name}' of index.cast must be ${what}, got ${s(x.type)}`);
  if (!output) c.result(`result '%${r.name}' of index.cast must be ${what}, got ${s(r.type)}`);
  if (!input || !output) return;
  const valid = (isInt(x.type) && isAddress(r.type)) || (isAddress(x.type) && isInt(r.type)) || (isAddress(x.type) && isAddress(r.type) && !typeEquals(x.type, r.type));
  if (!valid) c.result(`result '%${r.name}' of index.cast from ${s(x.type)} to ${s(r.type)} crosses no index or offset boundary (one side an integer and the other index/offset, or index↔offset)`);
}

const INTEGER_PREDICATES = new Set(["eq", "ne", "lt", "le", "gt", "ge", "mul", "min", "max", "pow2", "range"]);

/**
 * Float class predicates need float arguments, the integer predicates (relations, `mul`,
 * `min`/`max`, `pow2`, `range`) integer or address ones, as the reference requires; assume
 * predicates must mention an operand.
 */
function checkPredicates(c: OpTypes, preds: unknown, operands?: readonly Value[]): void {
  for (const p of Array.isArray(preds) ? (preds as Predicate[]) : []) {
    const args = Array.isArray(p?.args) ? p.args : [];
    if (p.kind === "not_nan" || p.kind === "not_inf" || p.kind === "finite") {
      for (const a of args) {
        if (typeof a === "bigint" || !isFloat(a.type)) {
          c.ctx.report(D.operandConstraint, p.span ?? c.op.span, [`predicate '${p.kind}' needs a float value, got ${typeof a === "bigint" ? "an integer literal" : s(a.type)}`]);
          break;
        }
      }
    }
    // Relations, divisibility, powers of two and ranges are facts about integers and addresses.
    if (INTEGER_PREDICATES.has(p.kind)) {
      const bad = args.find((a) => typeof a !== "bigint" && isFloat(a.type));
      if (bad && typeof bad !== "bigint") c.ctx.report(D.operandConstraint, p.span ?? c.op.span, [`predicate '${p.kind}' needs an integer, index or offset value, got '%${bad.name}' of type ${s(bad.type)}`]);
    }
    if (operands && !args.some((a) => typeof a !== "bigint" && operands.includes(a))) {
      c.ctx.report(D.operandConstraint, p.span ?? c.op.span, [`predicate '${p.kind}' of ${c.op.name} must mention one of its operands`]);
    }
  }
}

function checkAssume(c: OpTypes, op: Op, cls: TypeClass): void {
  let failed = false;
  op.operands.forEach((v, i) => {
    if (inClass(v.type, cls)) return;
    failed = true;
    // An address value given to scalar.assume is TYPE/004 in the reference ("use index.assume").
    if (cls === "S" && isAddress(v.type)) c.result(`values[${i}] '%${v.name}' of ${op.name} is ${s(v.type)}, not an integer or floating-point scalar; use index.assume`);
    else c.operand(`values[${i}] '%${v.name}' of ${op.name} must be ${cls === "A" ? "an address (index or offset)" : CLASS_NAME[cls]}, got ${s(v.type)}`);
  });
  if (failed) return;
  op.results.forEach((r, i) => {
    const v = op.operands[i];
    if (v && !typeEquals(r.type, v.type)) c.mismatch(`values[${i}] '%${v.name}' has type ${s(v.type)}, results[${i}] '%${r.name}' ${s(r.type)}`);
  });
  checkPredicates(c, op.props.predicates, op.operands);
}

function checkIndexList(c: OpTypes, indices: readonly unknown[]): boolean {
  for (const v of indices) {
    if (typeof v === "bigint" || !v || typeof v !== "object") continue;
    const val = v as Value;
    if (val.type && !isIndex(val.type)) return c.operand(`index '%${val.name}' must be index, got ${s(val.type)}`);
  }
  return true;
}

function viewOperand(c: OpTypes, op: Op, i: number): ViewType | undefined {
  const v = op.operands[i];
  if (!v) return undefined;
  if (isView(v.type)) return v.type;
  c.operand(`operand '%${v.name}' of ${op.name} must be a view, got ${s(v.type)}`);
  return undefined;
}

const ATOMIC_TYPES = ["i32", "i64", "f32"];

/** `props.kind` (an atomic or combining kind, `what`) must be one of `kinds` for `t`'s class. */
function checkKind(c: OpTypes, op: Op, t: Type, kinds: { readonly int: readonly string[]; readonly float: readonly string[] }, what: string): boolean {
  const kind = op.props.kind;
  if (typeof kind !== "string") return true;
  const allowed = isFloat(t) ? kinds.float : kinds.int;
  return allowed.includes(kind) || c.operand(`${what} kind '${kind}' is not valid for ${s(t)} (allowed: ${allowed.join(", ")})`);
}

/** The type `vector.extract` yields / `vector.insert` takes for `k` leading indices. */
function vectorSlot(v: VectorType, k: number): Type {
  return k >= v.shape.length ? v.element : { kind: "vector", shape: v.shape.slice(k), element: v.element };
}

/** Parameter types and result types of a call's target, with callee args bound to the call operands. */
function calleeSignature(ctx: VerifyContext, op: Op): { params: Type[]; results: Type[]; callee: Op } | undefined {
  const name = isOp(op, "template.apply") ? op.props.family : op.props.symbol;
  if (typeof name !== "string") return undefined;
  const entry = ctx.symbols.get(name);
  if (!entry) return undefined;
  const want = isOp(op, "func.call") ? ["func.def", "func.decl"] : isOp(op, "template.apply") ? ["template.decl"] : ["template.def"];
  if (!want.includes(entry.op.name)) return undefined;
  const region = entry.op.regions[0];
  const args = region?.args ?? [];
  const map: ValueMap = new Map();
  args.forEach((a, i) => {
    const v = op.operands[i];
    if (v) map.set(a, v);
  });
  const resultTypes = propOf(entry.op, "resultTypes") ?? [];
  return { params: args.map((a) => remapType(a.type, map)), results: resultTypes.map((t) => remapType(t, map)), callee: entry.op };
}

function checkCall(c: OpTypes, op: Op): void {
  const sig = calleeSignature(c.ctx, op);
  if (!sig) return;
  const callee = `'@${sig.callee.symbol ?? "?"}'`;
  if (op.operands.length !== sig.params.length) return void c.ctx.report(D.countMismatch, op.span, [`${callee} takes ${sig.params.length} argument(s), the call passes ${op.operands.length}`]);
  if (op.results.length !== sig.results.length) return void c.ctx.report(D.countMismatch, op.span, [`${callee} returns ${sig.results.length} value(s), the call expects ${op.results.length}`]);
  for (let i = 0; i < op.operands.length; i++) {
    // A check case's tensor binds to a `buffer` parameter, as in a kernel launch: a declared
    // function of buffers is how a test module names a kernel another module defines.
    const param = sig.params[i];
    if (op.operands[i]?.type.kind === "tensor" && param && isBuffer(param)) continue;
    if (!c.same(op.operands[i], sig.params[i], `argument #${i}`)) return;
  }
  for (let i = 0; i < op.results.length; i++) if (!c.same(op.results[i], sig.results[i], `result #${i}`)) return;
}

type Checker = (c: OpTypes, op: Op) => void;

const opnd = (op: Op, i: number) => op.operands[i];

const CHECKERS: Record<string, Checker> = {
  "index.constant": (c, op) => {
    const r = op.results[0];
    if (r && c.resultIs(0, isAddress, "index or offset")) checkLiteral(c.ctx, op, op.props.value, r.type);
  },
  "index.cast": checkIndexCast,
  "index.scale": (c, op) => {
    if (c.operandIs(0, isIndex, "index") && c.operandIs(1, isOffset, "offset")) c.resultIs(0, isOffset, "offset");
  },
  "index.assume": (c, op) => checkAssume(c, op, "A"),
  "scalar.assume": (c, op) => checkAssume(c, op, "S"),
  "scalar.constant": (c, op) => {
    const r = op.results[0];
    if (r && c.resultIs(0, isScalar, "an integer or float type")) checkLiteral(c.ctx, op, op.props.value, r.type);
  },
  "scf.if": (c) => void c.operandIs(0, isI1, "i1"),
  "scf.condition": (c) => void c.operandIs(0, isI1, "i1"),
  "scf.for": (c, op) => {
    const lo = opnd(op, 0);
    if (!lo || !c.operandIs(0, isAddress, "index or offset")) return;
    for (let i = 1; i <= 2; i++) {
      const bound = op.operands[i];
      // The message is spelled only when reporting (it names the lower bound's type).
      if (bound && !typeEquals(bound.type, lo.type) && !c.operandIs(i, (t) => typeEquals(t, lo.type), `${s(lo.type)} like the lower bound`)) return;
    }
    const u = op.props.unroll;
    if (u && typeof u === "object" && "type" in u && !isIndex((u as Value).type)) c.operand(`unroll factor '%${(u as Value).name}' must be index`);
  },
  "scf.select": (c, op) => {
    if (!c.operandIs(0, isI1, "i1")) return;
    const t = op.results[0]?.type ?? opnd(op, 1)?.type;
    if (t) c.same(opnd(op, 1), t, "operand") && c.same(opnd(op, 2), t, "operand");
  },
  "kernel.launch.config": (c, op) => {
    // Every operand that is not index, by the reference's operand names.
    op.operands.forEach((v, i) => {
      if (isIndex(v.type)) return;
      const role = `${i < 3 ? "workgroups" : i < 6 ? "workgroup_size" : "cluster_size"}_${"xyz"[i % 3]}`;
      c.operand(`${role} '%${v.name}' of kernel.launch.config must be index, got ${s(v.type)}`);
    });
  },
  "kernel.subgroup.reduce": (c, op) => checkReduce(c, op),
  "kernel.workgroup.reduce": (c, op) => checkReduce(c, op),
  "kernel.workgroup.scan": (c, op) => checkReduce(c, op),
  "kernel.subgroup.shuffle": (c, op) => {
    const v = opnd(op, 0);
    if (!v || !c.operandIs(0, isScalar, "an integer or float type") || !c.operandIs(1, isI32, "i32") || !c.operandIs(2, isI32, "i32")) return;
    if (c.same(op.results[0], v.type, "result")) c.resultIs(1, isI1, "i1 as its second result");
  },
  "kernel.subgroup.broadcast": (c, op) => {
    const v = opnd(op, 0);
    if (v && c.operandIs(0, isScalar, "an integer or float type") && c.operandIs(1, isI32, "i32")) c.same(op.results[0], v.type, "result");
  },
  "kernel.assert": (c) => void c.operandIs(0, isI1, "i1"),
  "buffer.view": (c, op) => {
    if (c.operandIs(0, isBuffer, "buffer") && c.operandIs(1, isOffset, "offset")) c.resultIs(0, isView, "a view");
  },
  "buffer.alloca": (c) => {
    if (c.operandIs(0, isOffset, "offset")) c.resultIs(0, isBuffer, "buffer");
  },
  "buffer.assume.noalias": (c, op) => checkBufferIdentity(c, op),
  "buffer.assume.alignment": (c, op) => checkBufferIdentity(c, op),
  "buffer.assume.memory_space": (c, op) => checkBufferIdentity(c, op),
  "buffer.length": (c) => {
    if (c.operandIs(0, isBuffer, "buffer")) c.resultIs(0, isOffset, "offset");
  },
  "encoding.layout.dense": (c) => void c.resultIs(0, (t) => isPrim(t, "encoding<layout>"), "encoding<layout>"),
  "encoding.layout.strided": (c, op) => {
    if (!c.resultIs(0, (t) => isPrim(t, "encoding<layout>"), "encoding<layout>")) return;
    const strides = op.props.strides;
    for (const v of Array.isArray(strides) ? strides : []) {
      if (typeof v === "bigint") {
        if (v < 0n) return void c.ctx.report(D.valueOutOfRange, op.span, [`stride ${v} must be ≥ 0`]);
      } else if (v && typeof v === "object" && "type" in v && !isIndex((v as Value).type)) {
        return void c.operand(`stride '%${(v as Value).name}' must be index`);
      }
    }
  },
  "view.load": (c, op) => {
    const view = viewOperand(c, op, 0);
    const r = op.results[0];
    if (view && r && !typeEquals(r.type, view.element)) c.element(`view.load of ${s(view)} yields ${s(view.element)}, not ${s(r.type)}`);
  },
  "view.store": (c, op) => {
    const view = viewOperand(c, op, 1);
    const x = opnd(op, 0);
    if (view && x && !typeEquals(x.type, view.element)) c.element(`storing ${s(x.type)} into ${s(view)}`);
  },
  "view.subview": (c, op) => {
    const view = viewOperand(c, op, 0);
    const r = op.results[0];
    if (!view || !r || !c.resultIs(0, isView, "a view")) return;
    const rt = r.type as ViewType;
    if (rt.dims.length !== view.dims.length) return void c.result(`view.subview keeps the rank: ${s(view)} to ${s(rt)}`);
    if (!typeEquals(rt.element, view.element)) return void c.element(`view.subview keeps the element type: ${s(view)} to ${s(rt)}`);
    const sameLayout = typeEquals({ ...view, dims: rt.dims }, rt);
    if (!sameLayout) c.result(`view.subview keeps the layout: ${s(view)} to ${s(rt)}`);
  },
  "view.atomic.rmw": (c, op) => checkAtomic(c, op, 0, 1, true),
  "view.atomic.reduce": (c, op) => checkAtomic(c, op, 0, 1, false),
  "view.atomic.store": (c, op) => checkAtomic(c, op, 0, 1, false),
  "view.atomic.load": (c, op) => {
    const view = viewOperand(c, op, 0);
    if (!view) return;
    if (!ATOMIC_TYPES.includes(view.element.name)) return void c.operand(`atomic access needs an i32, i64 or f32 view, got ${s(view)}`);
    const r = op.results[0];
    if (r && !typeEquals(r.type, view.element)) c.element(`view.atomic.load of ${s(view)} yields ${s(view.element)}, not ${s(r.type)}`);
  },
  "view.atomic.cmpxchg": (c, op) => {
    const view = viewOperand(c, op, 2);
    const exp = opnd(op, 0);
    if (!view || !exp) return;
    if (!c.operandIs(0, (t) => isPrim(t, "i32") || isPrim(t, "i64"), "i32 or i64")) return;
    if (!c.same(opnd(op, 1), exp.type, "operand")) return;
    if (!typeEquals(view.element, exp.type)) return void c.element(`cmpxchg of ${s(exp.type)} on ${s(view)}`);
    c.same(op.results[0], exp.type, "result");
  },
  "vector.constant": (c, op) => {
    const r = op.results[0];
    if (r && c.resultIs(0, isVector, "a vector")) checkLiteral(c.ctx, op, op.props.value, (r.type as VectorType).element);
  },
  "vector.splat": (c, op) => {
    const r = op.results[0], x = opnd(op, 0);
    if (r && x && c.resultIs(0, isVector, "a vector") && !typeEquals(x.type, (r.type as VectorType).element)) c.element(`splat of ${s(x.type)} into ${s(r.type)}`);
  },
  "vector.from_elements": (c, op) => {
    const r = op.results[0];
    if (!r || !c.resultIs(0, isVector, "a vector")) return;
    const vt = r.type as VectorType;
    const lanes = vt.shape.reduce((a, b) => a * b, 1);
    if (op.operands.length !== lanes) return void c.ctx.report(D.countMismatch, op.span, [`${s(vt)} has ${lanes} lanes, ${op.operands.length} element(s) given`]);
    const bad = op.operands.find((x) => !typeEquals(x.type, vt.element));
    if (bad) c.element(`element '%${bad.name}' has type ${s(bad.type)}, ${s(vt)} holds ${s(vt.element)}`);
  },
  "vector.extract": (c, op) => {
    const v = opnd(op, 0), r = op.results[0];
    if (!v || !r || !c.operandIs(0, isVector, "a vector")) return;
    const k = Array.isArray(op.props.indices) ? op.props.indices.length : 0;
    const vt = v.type as VectorType;
    if (k < 1 || k > vt.shape.length) return; // SUBRANGE/001
    const want = vectorSlot(vt, k);
    if (!typeEquals(r.type, want)) c.result(`extracting ${k} index(es) from ${s(vt)} yields ${s(want)}, not ${s(r.type)}`);
  },
  "vector.insert": (c, op) => {
    const x = opnd(op, 0), v = opnd(op, 1);
    if (!x || !v || !c.operandIs(1, isVector, "a vector")) return;
    const vt = v.type as VectorType;
    if (!c.same(op.results[0], vt, "result")) return;
    const k = Array.isArray(op.props.indices) ? op.props.indices.length : 0;
    if (k < 1 || k > vt.shape.length) return;
    // The reference's code for a value of the wrong tail type is TYPE/003.
    const slot = vectorSlot(vt, k);
    if (!typeEquals(x.type, slot)) c.operand(`inserted value '%${x.name}' has type ${s(x.type)}, expected ${s(slot)}`);
  },
  "vector.load": (c, op) => {
    const view = viewOperand(c, op, 0);
    const r = op.results[0];
    if (view && r && c.resultIs(0, isVector, "a vector")) checkVectorAccess(c, r.type as VectorType, view);
  },
  "vector.store": (c, op) => {
    const view = viewOperand(c, op, 1);
    if (view && c.operandIs(0, isVector, "a vector")) checkVectorAccess(c, opnd(op, 0)!.type as VectorType, view);
  },
  "vector.select": (c, op) => {
    const m = opnd(op, 0), a = opnd(op, 1);
    if (!m || !a || !c.operandIs(1, isVector, "a vector")) return;
    const at = a.type as VectorType;
    const mask: Type = { kind: "vector", shape: at.shape, element: T.i1 };
    if (!typeEquals(m.type, mask)) {
      const msg = `vector.select mask must be ${s(mask)}, got ${s(m.type)}`;
      return void (sameRank(m.type, at.shape) && isI1(m.type.element) ? c.shape(msg) : c.operand(msg));
    }
    c.same(opnd(op, 2), at, "operand") && c.same(op.results[0], at, "result");
  },
  "vector.reduce": (c, op) => {
    const v = opnd(op, 0);
    if (!v || !c.operandIs(0, isVector, "a vector")) return;
    const elem = (v.type as VectorType).element;
    const flags = op.props.flags;
    if (Array.isArray(flags) && flags.length > 0 && !isFloat(elem)) return void c.operand(`input '%${v.name}' (${s(v.type)}) needs a floating-point element type when float flags are present`);
    const init = opnd(op, 1);
    if (init && !typeEquals(init.type, elem)) return void c.element(`init '%${init.name}' has type ${s(init.type)}, the lanes are ${s(elem)}`);
    if (c.same(op.results[0], elem, "result")) checkKind(c, op, elem, COMBINING_KINDS, "combining");
  },
  "func.call": checkCall,
  "template.apply": checkCall,
  "template.call": checkCall,
  "config.get": (c, op) => {
    const name = op.props.symbol;
    if (typeof name !== "string") return;
    const decl = c.ctx.symbols.configDecl(name) ?? c.ctx.symbols.configDef(name);
    const t = decl ? propOf(decl, "type") : undefined;
    if (t && typeof t === "object") c.same(op.results[0], t, "result");
  },
};

function checkReduce(c: OpTypes, op: Op): void {
  const v = opnd(op, 0);
  if (v && c.operandIs(0, isScalar, "an integer or float type") && c.same(op.results[0], v.type, "result")) checkKind(c, op, v.type, COMBINING_KINDS, "combining");
}

function checkBufferIdentity(c: OpTypes, op: Op): void {
  for (let i = 0; i < op.operands.length; i++) if (!c.operandIs(i, isBuffer, "buffer")) return;
  for (let i = 0; i < op.results.length; i++) if (!c.resultIs(i, isBuffer, "buffer")) return;
}

function checkAtomic(c: OpTypes, op: Op, xi: number, vi: number, hasResult: boolean): void {
  const view = viewOperand(c, op, vi);
  const x = opnd(op, xi);
  if (!view || !x) return;
  if (!ATOMIC_TYPES.includes(s(x.type))) return void c.operand(`atomic value '%${x.name}' must be i32, i64 or f32, got ${s(x.type)}`);
  if (!typeEquals(view.element, x.type)) return void c.element(`atomic ${s(x.type)} on ${s(view)}`);
  if (!isOp(op, "view.atomic.store") && !checkKind(c, op, x.type, ATOMIC_KINDS, "atomic")) return;
  if (hasResult) c.same(op.results[0], x.type, "result");
}

function checkVectorAccess(c: OpTypes, vec: VectorType, view: ViewType): void {
  if (!typeEquals(vec.element, view.element)) return void c.element(`${s(vec)} and ${s(view)} have different element types`);
  if (vec.shape.length > view.dims.length) c.result(`${s(vec)} has a higher rank than ${s(view)}`);
}

/** Dynamic dimensions name `index` values; layout values are `encoding<layout>`; a static strided layout has one stride per dimension (SHAPE/001). */
function checkTypeBindings(c: OpTypes, t: Type): boolean {
  if (!isView(t)) return true;
  for (const d of t.dims) if (d.kind === "dynamic" && d.value.type && !isIndex(d.value.type)) return c.operand(`dimension '%${d.value.name}' of ${s(t)} must be index, got ${s(d.value.type)}`);
  if (t.layout?.kind === "value" && t.layout.value.type && !isPrim(t.layout.value.type, "encoding<layout>")) return c.operand(`layout '%${t.layout.value.name}' must be encoding<layout>`);
  if (t.layout?.kind === "strided" && t.layout.strides.length !== t.dims.length) {
    c.ctx.report(D.strideCount, c.op.span, [`${t.layout.strides.length} stride(s) for the rank-${t.dims.length} ${s(t)}`]);
    return false;
  }
  return true;
}

/** Ops whose `: T` annotation states the result type only (already the result's type). */
const RESULT_ANNOTATED = new Set([
  "index.constant", "scalar.constant", "vector.constant", "vector.splat", "vector.from_elements", "buffer.alloca",
  "encoding.layout.dense", "encoding.layout.strided", "config.get",
]);

/** Which annotated type states each operand (see `annotationIndex`). */
const enum Annotation {
  /** None: the annotation states the result (or there is none). */
  None,
  /** The first type states every operand. */
  First,
  /** `%c, %a, %b : T`: the condition is not annotated, the others by the first type. */
  Select,
  /** `%exp, %new, %v[...] : T, view<...>`. */
  Cmpxchg,
  /** One type per operand. */
  Each,
}

/**
 * For each operand, the index of the annotated type that states it (§4 syntax): one type
 * for all operands (`index.add %a, %b : index`), one per operand (the default), or
 * op-specific layouts; undefined where the operand is not annotated.
 */
function annotationOf(name: string, info: OpInfo | undefined): Annotation {
  if (RESULT_ANNOTATED.has(name) || info?.types === INDEX_RESULT || info?.syntax.form === "words") return Annotation.None;
  if (info?.types?.kind === "uniform" || name === "kernel.launch.config") return Annotation.First;
  switch (name) {
    case "scf.select":
    case "vector.select":
      return Annotation.Select;
    case "view.atomic.cmpxchg":
      return Annotation.Cmpxchg;
    default:
      return Annotation.Each;
  }
}

function annotationIndex(mode: Annotation, i: number): number | undefined {
  switch (mode) {
    case Annotation.None:
      return undefined;
    case Annotation.First:
      return 0;
    case Annotation.Select:
      return i === 0 ? undefined : 0;
    case Annotation.Cmpxchg:
      return i < 2 ? 0 : 1;
    case Annotation.Each:
      return i;
  }
}

/**
 * Operand types stated by annotations (`props.annotatedTypes`, the types written after
 * `:`) must equal the operands' actual types (TYPE/001).
 */
function checkAnnotations(c: OpTypes, op: Op, mode: Annotation): boolean {
  if (mode === Annotation.None) return true;
  const ann = annotatedTypes(op);
  if (!ann) return true;
  for (let i = 0; i < op.operands.length; i++) {
    const k = annotationIndex(mode, i);
    const t = k === undefined ? undefined : ann[k];
    if (t && typeof t === "object" && !c.same(op.operands[i], t, "operand")) return false;
  }
  return true;
}

/** What the type check of an op needs to know from its name, worked out once per name. */
interface TypeFacts {
  readonly info: OpInfo | undefined;
  /**
   * For uniform ops and assumes the annotation is the result type, which the op's own rule
   * compares with each operand (several diagnostics, as the reference reports them).
   */
  readonly annotation: Annotation;
  readonly checker: Checker | undefined;
  /** A conversion of the vector dialect (converts lanes). */
  readonly vector: boolean;
}

const TYPE_FACTS = new Map<string, TypeFacts>();

function typeFactsOf(name: string): TypeFacts {
  let f = TYPE_FACTS.get(name);
  if (f === undefined) {
    const info = opInfo(name);
    const annotationIsResult = (info?.types?.kind === "uniform" && info.types.result === "same") || name === "index.assume" || name === "scalar.assume" || name === "kernel.launch.config";
    f = {
      info,
      annotation: annotationIsResult ? Annotation.None : annotationOf(name, info),
      checker: Object.hasOwn(CHECKERS, name) ? CHECKERS[name] : undefined,
      vector: name.slice(0, name.indexOf(".")) === "vector",
    };
    TYPE_FACTS.set(name, f);
  }
  return f;
}

let shared: OpTypes | undefined;

/** The type rules of a body op (`indices`: its `indices` prop, which the walk reads for the limits too). */
export function checkOpTypes(ctx: VerifyContext, op: Op, indices: unknown): void {
  const c = (shared ??= new OpTypes(ctx, op)).bind(ctx, op);
  const results = op.results;
  for (let i = 0; i < results.length; i++) if (!checkTypeBindings(c, results[i]!.type)) return;
  const regions = op.regions;
  for (let k = 0; k < regions.length; k++) {
    const args = regions[k]!.args;
    for (let i = 0; i < args.length; i++) if (!checkTypeBindings(c, args[i]!.type)) return;
  }
  const facts = typeFactsOf(op.name);
  if (!checkAnnotations(c, op, facts.annotation)) return;
  if (Array.isArray(indices) && !checkIndexList(c, indices)) return;
  const rule = facts.info?.types;
  switch (rule?.kind) {
    case "uniform": return checkUniform(c, op, rule);
    case "conversion": return checkConversion(c, op, rule, facts.vector);
    case "signature": return checkSignature(c, op, rule);
    case undefined: return facts.checker?.(c, op);
  }
}

/**
 * A provider's signature is its family's (the `template.decl`): as many arguments (STRUCTURE/013)
 * of the same types, and the same result types (TYPE/001), at the provider, as the reference
 * checks it once for every later selection.
 */
function checkProviderSignature(ctx: VerifyContext, c: OpTypes, op: Op): void {
  const family = op.props.family;
  const decl = typeof family === "string" ? ctx.symbols.get(family)?.op : undefined;
  if (!decl || !isOp(decl, "template.decl")) return;
  const args = op.regions[0]?.args ?? [], contract = decl.regions[0]?.args ?? [];
  if (args.length !== contract.length) return void ctx.report(D.countMismatch, op.span, [`provider '@${op.symbol ?? "?"}' takes ${args.length} argument(s), its family '@${family}' ${contract.length}`]);
  const map: ValueMap = new Map();
  // Equal lengths (checked above): each contract argument has its provider argument.
  const pairs = contract.flatMap((a, i) => { const arg = args[i]; return arg ? [[a, arg] as const] : []; });
  for (const [a, arg] of pairs) map.set(a, arg);
  for (const [i, [a, arg]] of pairs.entries()) {
    const want = remapType(a.type, map), got = arg.type;
    if (!typeEquals(got, want)) c.mismatch(`implementation argument ${i} '%${arg.name}' has type ${s(got)}, contract argument ${i} of '@${family}' ${s(want)}`);
  }
  const results = propOf(op, "resultTypes") ?? [];
  const wanted = decl.props.resultTypes ?? [];
  if (results.length !== wanted.length) return void ctx.report(D.countMismatch, op.span, [`provider '@${op.symbol ?? "?"}' returns ${results.length} value(s), its family '@${family}' ${wanted.length}`]);
  for (const [i, t] of wanted.entries()) {
    const want = remapType(t, map), got = results[i];
    if (got && !typeEquals(got, want)) c.mismatch(`implementation result ${i} has type ${s(got)}, contract result ${i} of '@${family}' ${s(want)}`);
  }
}

/** Signature argument types of kernels and config declarations/definitions (TYPE/013, TYPE/003). */
export function checkTopLevelTypes(ctx: VerifyContext, op: Op): void {
  const c = new OpTypes(ctx, op);
  const workload = (t: Type) => isAddress(t) || isScalar(t);
  // A vector device argument verifies, as in the reference; no v1 ABI passes one, so compiling it
  // is TARGET/001 at the argument (passes/pipeline.ts) rather than an error in valid source.
  const device = (t: Type) => workload(t) || isBuffer(t) || t.kind === "vector";
  if (isOp(op, "kernel.def") || isOp(op, "kernel.decl")) {
    const sides: [number, (t: Type) => boolean, string][] = [[0, workload, "workload argument types are index, offset, integers and floats"], [1, device, "device argument types are index, offset, integers, floats, vectors and buffer"]];
    for (const [i, ok, what] of sides) {
      const bad = op.regions[i]?.args.find((a) => !ok(a.type));
      if (bad) ctx.report(D.blockArgType, bad.span ?? op.span, [`'%${bad.name}' has type ${s(bad.type)}; ${what}`]);
    }
    checkPredicates(c, op.props.workloadWhere);
    checkPredicates(c, op.props.launchWhere);
  }
  if (isOp(op, "template.def")) checkProviderSignature(ctx, c, op);
  if (isOp(op, "func.def") || isOp(op, "func.decl") || isOp(op, "template.def") || isOp(op, "template.decl")) {
    for (const a of op.regions[0]?.args ?? []) if (!checkTypeBindings(c, a.type)) return;
    checkPredicates(c, op.props.where);
  }
  if (isOp(op, "config.decl") || isOp(op, "config.def")) {
    const t = propOf(op, "type");
    if (!t || typeof t !== "object") return;
    if (!workload(t)) return void c.operand(`config keys have index, offset, integer or float type, got ${s(t)}`);
    const arg = op.regions[0]?.args[0];
    if (arg && !typeEquals(arg.type, t)) return void c.mismatch(`'%${arg.name}' has type ${s(arg.type)}, the key has type ${s(t)}`);
    checkPredicates(c, op.props.where);
    if (isOp(op, "config.def")) {
      checkLiteral(ctx, op, op.props.value, t);
      const decl = op.symbol === undefined ? undefined : ctx.symbols.configDecl(op.symbol);
      const declType = decl ? propOf(decl, "type") : undefined;
      if (declType && typeof declType === "object" && !typeEquals(declType, t)) c.mismatch(`config.def @${op.symbol} has type ${s(t)}, its config.decl has type ${s(declType)}`);
    }
  }
}
