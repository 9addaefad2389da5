/**
 * The check-harness rules (language.md §11), registered with the verifier on import (with the
 * harness's syntax, api/check-dialect.ts):
 *  - a `check.case` body holds check ops (placement `H`), `func.call`, and pure ops with value
 *    semantics (`index.*`, `scalar.*` constants and arithmetic); anything else is
 *    STRUCTURE/029 (check ops elsewhere are the generic placement rule's);
 *  - value sources, launches and expectations have the types of §11 (TYPE/001 003 004 005);
 *  - `kernel.launch` names a kernel and matches its workload and launch signatures,
 *    `kernel.dispatch` a kernel or an entry declaration with at most three counts
 *    (SYMBOL/002 003, PARSE/010, TYPE/001);
 *  - `check.benchmark` names a case, and each assignment a named parameter of it (STRUCTURE/014);
 *  - a `func.def` body (a host program) and a launch schedule (`kernel.launch.serial` /
 *    `.concurrent`) check their launches the same way; a schedule holds launches and schedules
 *    only, and `kernel.launch.yield` ends a schedule only (STRUCTURE/029).
 */
import type { Literal, Op, Region, Value } from "../../ir/core.js";
import { isFloat, isInt, isPrim, typeEquals, typeToString, type Type } from "../../ir/types.js";
import { D } from "../../core/diag/catalog.js";
import { note } from "../../core/diag/diagnostic.js";
import { isOp, opInfo, propOf } from "../../dialects/registry.js";
import type { VerifyContext } from "./context.js";
import { resolveBodyOp } from "./symbols.js";
import { registerHarnessRules } from "./harness.js";
import { checkOpTypes } from "./types.js";

const TENSOR_ELEMENTS = new Set(["i1", "i8", "i16", "i32", "i64", "f16", "bf16", "f32", "f64"]);

/** May `op` appear in a case body? */
function allowedInCase(op: Op): boolean {
  const info = opInfo(op.name);
  if (!info || info.topLevel) return false;
  if (info.placement.includes("H") || op.name === "func.call") return true;
  // Host-evaluable values: pure ops with value semantics, and the constants.
  return info.pure && (info.evaluate !== undefined || info.syntax.form === "constant");
}

function literalFits(l: Literal, element: Type): boolean {
  if (isFloat(element)) return l.kind === "float" || l.kind === "int";
  if (isPrim(element, "i1")) return l.kind === "bool" || (l.kind === "int" && (l.value === 0n || l.value === 1n));
  return l.kind === "int" && (isInt(element) || isPrim(element, "index") || isPrim(element, "offset"));
}

/** The element type of a tensor, or the type itself for a scalar. */
function elementOf(t: Type): Type {
  return t.kind === "tensor" ? t.element : t;
}

function isHostScalar(t: Type): boolean {
  return (t.kind === "prim" && t.name !== "buffer" && t.name !== "encoding<layout>");
}

function checkLiteral(ctx: VerifyContext, op: Op, l: Literal | undefined, t: Type, what: string): void {
  if (l && !literalFits(l, elementOf(t))) ctx.report(D.literalKind, op.span, [`${what} of '${op.name}' is not a ${typeToString(elementOf(t))} literal`]);
}

function checkResult(ctx: VerifyContext, op: Op, ok: (t: Type) => boolean, wanted: string): Type | undefined {
  const t = op.results[0]?.type;
  if (!t) return undefined;
  if (!ok(t)) {
    ctx.report(D.resultConstraint, op.span, [`'${op.name}' produces ${wanted}, not ${typeToString(t)}`]);
    return undefined;
  }
  return t;
}

const tensorOrScalar = (t: Type) => (t.kind === "tensor" && TENSOR_ELEMENTS.has(t.element.name)) || isHostScalar(t);

/** Static byte size of a tensor type, when every extent is static. */
function staticBytes(t: Type): number | undefined {
  if (t.kind !== "tensor") return undefined;
  let n = 1;
  for (const d of t.dims) {
    if (d.kind !== "static") return undefined;
    n *= d.size;
  }
  const w: Record<string, number> = { i1: 1, i8: 1, i16: 2, f16: 2, bf16: 2, i32: 4, f32: 4, i64: 8, f64: 8 };
  return n * (w[t.element.name] ?? 8);
}

/** The param names a case defines. */
function paramNames(c: Op): Set<string> {
  const out = new Set<string>();
  for (const op of c.regions[0]?.ops ?? []) {
    const name = propOf(op, "paramName");
    if (typeof name === "string") out.add(name);
  }
  return out;
}

/** A kernel argument type accepts a case value: a tensor for a `buffer`, else the same type. */
function accepts(param: Type, given: Type): boolean {
  // A view names its buffer's bytes too (a launch program refines its buffers to views).
  if (isPrim(param, "buffer")) return given.kind === "tensor" || given.kind === "view" || isPrim(given, "buffer");
  return typeEquals(param, given);
}

function checkLaunch(ctx: VerifyContext, op: Op & { props: { symbol?: unknown; bracketCount?: unknown } }): void {
  const symbol = typeof op.props.symbol === "string" ? op.props.symbol : undefined;
  if (symbol === undefined) return;
  const entry = ctx.symbols.get(symbol);
  if (!entry) {
    ctx.report(D.unresolvedSymbol, op.span, [symbol]);
    return;
  }
  const target = entry.op;
  const dispatch = op.name === "kernel.dispatch";
  const isKernel = isOp(target, "kernel.def") || isOp(target, "kernel.decl");
  if (!(isKernel || (dispatch && isOp(target, "kernel.entry.decl")))) {
    ctx.report(D.wrongSymbolKind, op.span, [symbol, entry.kind === "kernel" ? "kernel entry declaration" : entry.kind, dispatch ? "kernel" : "kernel with a launch configuration"], { related: [note(`'@${symbol}' defined here`, target.span)] });
    return;
  }
  const n = typeof op.props.bracketCount === "number" ? op.props.bracketCount : 0;
  const sizeCount = typeof op.props.sizeCount === "number" ? op.props.sizeCount : 0;
  const bracket = op.operands.slice(0, n);
  const args = op.operands.slice(n, op.operands.length - sizeCount);
  const launchArgs = isOp(target, "kernel.entry.decl") ? (target.regions[0]?.args ?? []) : (target.regions[1]?.args ?? []);
  if (dispatch) {
    // Counts are one to three index values, or one dense view<3xi32> holding them (an indirect dispatch).
    if (bracket.length < 1 || bracket.length > 3) ctx.report(D.valueOutOfRange, op.span, [`workgroup count operand count of '${op.name}' is ${bracket.length}, expected one to three`]);
    const indirect = bracket.length === 1 && isIndirectCounts(bracket[0]!.type);
    for (const v of indirect ? [] : bracket) if (!isPrim(v.type, "index")) ctx.report(D.operandConstraint, op.span, [`workgroup_counts %${v.name} of '${op.name}' is ${typeToString(v.type)}, expected index or dense view<3xi32>`]);
    if (sizeCount !== 0 && sizeCount !== 3) ctx.report(D.valueOutOfRange, op.span, [`workgroup size operand count of '${op.name}' is ${sizeCount}, expected zero or three`]);
    for (const v of op.operands.slice(op.operands.length - sizeCount)) if (!isPrim(v.type, "index")) ctx.report(D.operandConstraint, op.span, [`workgroup size %${v.name} of '${op.name}' is ${typeToString(v.type)}, expected index`]);
  } else {
    const workload = target.regions[0]?.args ?? [];
    if (workload.length !== bracket.length) {
      ctx.report(D.countMismatch, op.span, [`'${op.name}' passes ${bracket.length} workload value(s), @${symbol} takes ${workload.length} kernel workload value(s)`]);
    } else {
      workload.forEach((w, i) => {
        const v = bracket[i]!;
        if (!typeEquals(w.type, v.type)) ctx.report(D.typeMismatch, op.span, [`workload %${v.name} is ${typeToString(v.type)}, @${symbol} takes %${w.name}: ${typeToString(w.type)}`]);
      });
    }
  }
  if (launchArgs.length !== args.length) {
    ctx.report(D.countMismatch, op.span, [`'${op.name}' passes ${args.length} argument(s), @${symbol} takes ${launchArgs.length} kernel ABI argument(s)`]);
    return;
  }
  launchArgs.forEach((a, i) => {
    const v = args[i]!;
    if (!accepts(a.type, v.type)) ctx.report(D.typeMismatch, op.span, [`argument %${v.name} is ${typeToString(v.type)}, @${symbol} takes %${a.name}: ${typeToString(a.type)}`]);
  });
}

/** A dense `view<3xi32>`: the workgroup counts of an indirect dispatch, read by the device. */
function isIndirectCounts(t: Type): boolean {
  return t.kind === "view" && t.dims.length === 1 && t.dims[0]?.kind === "static" && t.dims[0].size === 3 && isPrim(t.element, "i32") && (t.layout === undefined || (t.layout.kind === "named" && t.layout.name === "dense"));
}

function isKernelSymbol(ctx: VerifyContext, symbol: unknown): boolean {
  const op = typeof symbol === "string" ? ctx.symbols.get(symbol)?.op : undefined;
  return isOp(op, "kernel.def") || isOp(op, "kernel.decl");
}

function sameOperandTypes(ctx: VerifyContext, op: Op): Type | undefined {
  const [a, b] = op.operands;
  if (!a || !b) return undefined;
  if (!typeEquals(a.type, b.type)) {
    ctx.report(D.typeMismatch, op.span, [`'${op.name}' compares ${typeToString(a.type)} with ${typeToString(b.type)}`]);
    return undefined;
  }
  return a.type;
}

function checkCaseOp(ctx: VerifyContext, op: Op): void {
  switch (op.name) {
    case "check.param.seed":
      checkResult(ctx, op, isInt, "an integer seed");
      return;
    case "check.param.choice":
      checkResult(ctx, op, (t) => (isInt(t) && !isPrim(t, "i1")) || isPrim(t, "index"), "an index or integer (not i1)");
      return;
    case "check.param.range": {
      const t = checkResult(ctx, op, (t) => isInt(t) || isFloat(t) || isPrim(t, "index"), "an index, integer or float");
      if (t && isOp(op, "check.param.range")) for (const k of ["lower", "upper", "step"] as const) checkLiteral(ctx, op, op.props[k], t, k);
      return;
    }
    case "check.literal": {
      const t = checkResult(ctx, op, isHostScalar, "a scalar");
      if (t && isOp(op, "check.literal")) checkLiteral(ctx, op, op.props.value, t, "value");
      return;
    }
    case "check.generate.fill":
    case "check.generate.iota": {
      const t = checkResult(ctx, op, tensorOrScalar, "a tensor or a scalar");
      if (!t) return;
      if (isOp(op, "check.generate.fill")) checkLiteral(ctx, op, op.props.value, t, "value");
      else if (isOp(op, "check.generate.iota")) {
        for (const k of ["offset", "step"] as const) checkLiteral(ctx, op, op.props[k], t, k);
        if (op.props.period !== undefined && op.props.period <= 0n) ctx.report(D.valueOutOfRange, op.span, [`period must be positive, got ${op.props.period}`]);
      }
      return;
    }
    case "check.generate.random.uniform": {
      const seed = op.operands[0];
      if (seed && !isInt(seed.type)) ctx.report(D.operandConstraint, op.span, [`seed %${seed.name} must be an integer, got ${typeToString(seed.type)}`]);
      const t = checkResult(ctx, op, tensorOrScalar, "a tensor or a scalar");
      if (t && isOp(op, "check.generate.random.uniform")) for (const k of ["lower", "upper"] as const) checkLiteral(ctx, op, op.props[k], t, k);
      return;
    }
    case "check.tensor.view": {
      const from = propOf(op, "annotatedTypes")?.[0];
      const source = op.operands[0];
      const to = op.results[0]?.type;
      if (!source || !to || !from) return;
      if (!typeEquals(source.type, from)) ctx.report(D.typeMismatch, op.span, [`%${source.name} is ${typeToString(source.type)}, annotated ${typeToString(from)}`]);
      if (source.type.kind !== "tensor" || to.kind !== "tensor") {
        ctx.report(D.operandConstraint, op.span, ["'check.tensor.view' takes and produces tensors"]);
        return;
      }
      const offset = isOp(op, "check.tensor.view") ? Number(op.props.offset) : 0;
      const whole = staticBytes(source.type), part = staticBytes(to);
      if (whole !== undefined && part !== undefined && offset + part > whole) {
        ctx.report(D.staticOutOfBounds, op.span, [`bytes [${offset}, ${offset + part}) of a ${whole}-byte tensor`]);
      }
      return;
    }
    case "kernel.launch":
    case "kernel.dispatch":
      checkLaunch(ctx, op);
      return;
    case "kernel.launch.serial":
    case "kernel.launch.concurrent":
      for (const r of op.regions) walkHostLaunches(ctx, r);
      return;
    case "check.oracle.call": {
      const callee = op.props.callee;
      if (typeof callee === "string" && !ctx.symbols.get(callee)) ctx.report(D.unresolvedSymbol, op.span, [callee]);
      return;
    }
    case "check.expect.equal":
    case "check.expect.bitwise":
    case "check.expect":
      sameOperandTypes(ctx, op);
      return;
    case "check.file.read.npy":
      checkResult(ctx, op, tensorOrScalar, "a tensor or a scalar");
      return;
    case "check.requires":
    case "check.skip_if":
    case "check.expect.event":
    case "check.file.write.npy":
      // Provider names and attributes belong to the runner; the harness reports what it cannot establish.
      return;
    case "check.expect.close": {
      const t = sameOperandTypes(ctx, op);
      if (t && !isFloat(elementOf(t))) ctx.report(D.operandConstraint, op.span, [`'check.expect.close' compares floats, not ${typeToString(t)}`]);
      return;
    }
    case "check.expect.shape": {
      const v = op.operands[0];
      const shape = propOf(op, "shape") ?? [];
      if (!v) return;
      if (v.type.kind !== "tensor") ctx.report(D.operandConstraint, op.span, [`'check.expect.shape' takes a tensor, not ${typeToString(v.type)}`]);
      else if (v.type.dims.length !== shape.length) ctx.report(D.indexCount, op.span, [shape.length, v.type.dims.length]);
      return;
    }
    default:
      // `func.call @k(tensors…)` of a kernel launches it with no workload (as the reference allows).
      if (isOp(op, "func.call") && isKernelSymbol(ctx, op.props.symbol)) {
        checkLaunch(ctx, op);
        return;
      }
      // func.call and host-evaluable ops: the body rules of their own ops.
      resolveBodyOp(ctx, op);
      checkOpTypes(ctx, op, op.props.indices);
  }
}

function walkCase(ctx: VerifyContext, region: Region): void {
  for (const op of region.ops) {
    // A terminator other than check.return is the case's wrong terminator (STRUCTURE/018 at the case, structure.ts), as in the reference.
    if (allowedInCase(op)) checkCaseOp(ctx, op);
    else if (opInfo(op.name)?.terminator !== true) ctx.report(D.wrongRegion, op.span, [op.name, "a check.case body (check ops, func.call and host-evaluable values only)"]);
  }
}

function checkBenchmarks(ctx: VerifyContext): void {
  for (const op of ctx.module.ops) {
    if (!isOp(op, "check.benchmark")) continue;
    const entry = ctx.symbols.get(op.props.case);
    if (!entry) {
      ctx.report(D.unresolvedSymbol, op.span, [op.props.case]);
      continue;
    }
    if (!isOp(entry.op, "check.case")) {
      ctx.report(D.wrongSymbolKind, op.span, [op.props.case, entry.kind, "check case"], { related: [note(`'@${op.props.case}' defined here`, entry.op.span)] });
      continue;
    }
    const names = paramNames(entry.op);
    for (const a of op.props.assignments) {
      if (!names.has(a.key)) ctx.report(D.valueOutOfRange, op.span, [`@${op.props.case} has no parameter named "${a.key}" (named: ${[...names].join(", ") || "none"})`]);
    }
  }
}

const SCHEDULE_OPS = new Set(["kernel.launch", "kernel.dispatch", "kernel.launch.serial", "kernel.launch.concurrent", "kernel.launch.yield"]);

function isSchedule(op: Op | null | undefined): boolean {
  return op?.name === "kernel.launch.serial" || op?.name === "kernel.launch.concurrent";
}

/**
 * The host launches of a function body or a launch schedule (a launch program): the contract of
 * each launched kernel; a schedule holds launches and schedules only, and `kernel.launch.yield`
 * ends a schedule only (STRUCTURE/029, naming the expected and the actual parent, as the reference).
 */
function walkHostLaunches(ctx: VerifyContext, region: Region): void {
  const owner = region.parent;
  for (const op of region.ops) {
    if (isOp(op, "kernel.launch") || isOp(op, "kernel.dispatch")) checkLaunch(ctx, op);
    else if (isOp(op, "kernel.launch.yield") && !isSchedule(owner)) {
      ctx.report(D.wrongRegion, op.span, [op.name, `a ${owner?.name ?? "top-level"} body (direct child of kernel.launch.serial or kernel.launch.concurrent only)`]);
    } else if (isSchedule(owner) && !SCHEDULE_OPS.has(op.name)) {
      ctx.report(D.wrongRegion, op.span, [op.name, `a kernel launch schedule (direct child of ${owner?.name ?? "?"}: launches and schedules only)`]);
    }
    for (const r of op.regions) walkHostLaunches(ctx, r);
  }
}

registerHarnessRules({
  checkCase(ctx, op) {
    const body = op.regions[0];
    if (body) walkCase(ctx, body);
  },
  checkHostLaunches(ctx, op) {
    const body = op.regions[0];
    if (body) walkHostLaunches(ctx, body);
  },
  checkBenchmarks,
});
