/**
 * IR config region → `LaunchFunction` (the data the `launch` section encodes).
 *
 * The region has passed the verifier, so this only maps values to registers and props to
 * fields; anything outside the launch-config subset (or malformed) is a
 * `LoomError("invalid-argument")` naming the op, never a silently different program.
 */
import { LoomError } from "../core/errors.js";
import { I64_MAX, I64_MIN } from "../dialects/index/semantics.js";
import { INT_WIDTHS, PREDICATE_ARITY, roundToFormat } from "../dialects/scalar/semantics.js";
import type { Literal, Op, Predicate, Region, Span, Value } from "../ir/core.js";
import {
  EXPORT_NAME, FLAG_BITS, LIMITS, isAddressType, isFloatType, isIntType,
  type LOp, type LPredArg, type LPredicate, type LType, type LaunchFunction, type LaunchSourceLocation,
} from "./model.js";
import { OP_BY_NAME } from "./ops.js";
import type { LaunchFunctionSource } from "./source.js";
import { propOf } from "../dialects/registry.js";
import { MAX_STRING_BYTES } from "../bytecode/strings.js";

export function lowerLaunchFunction(src: LaunchFunctionSource): LaunchFunction {
  return new Lowering(src).run();
}

const LTYPES = new Set<string>(["index", "offset", "i1", "i8", "i16", "i32", "i64", "f16", "bf16", "f32", "f64"]);

class Lowering {
  readonly #regs = new Map<Value, number>();
  readonly #types: LType[] = [];
  #opCount = 0;
  /** Locations of the ops other than scf.yield, in encoding order (messages' "op N"). */
  readonly #opLocations: (LaunchSourceLocation | undefined)[] = [];
  constructor(readonly src: LaunchFunctionSource) {}

  fail(what: string, op?: Op): never {
    const at = op ? ` at '${op.name}'${op.span ? ` (${op.span.source}:${op.span.line}:${op.span.column})` : ""}` : "";
    throw new LoomError("invalid-argument", `launch-config function '${this.src.exportName}'${at}: ${what}`);
  }

  run(): LaunchFunction {
    const { src } = this;
    if (!EXPORT_NAME.test(src.exportName)) this.fail("export name must match [A-Za-z_][A-Za-z0-9_]*");
    const args = src.region.args.map((v) => ({ name: v.name, type: this.define(v) }));
    const where = src.workloadWhere.map((p) => this.predicate(p));
    const body = this.region(src.region, "launch", 0);
    const limits = {
      maxWorkgroupCount: this.triple(src.limits.maxWorkgroupCount, "maxWorkgroupCount"),
      maxWorkgroupSize: this.triple(src.limits.maxWorkgroupSize, "maxWorkgroupSize"),
      maxFlatWorkgroupSize: this.u32(src.limits.maxFlatWorkgroupSize, "maxFlatWorkgroupSize"),
    };
    const fn: { -readonly [K in keyof LaunchFunction]: LaunchFunction[K] } = {
      exportName: src.exportName,
      args,
      where,
      subgroupSize: this.u32(src.subgroupSize, "subgroupSize"),
      workgroupStorageBytes: this.u32(src.workgroupStorageBytes, "workgroupStorageBytes"),
      limits,
      body,
      registerTypes: this.#types,
    };
    const functionAt = locationOf(src.region.parent?.span);
    const whereAt = src.workloadWhere.map((p) => locationOf(p.span));
    // Only a function with some known location carries a table (keeps decode → encode exact).
    const known = functionAt !== undefined || whereAt.some((l) => l !== undefined) || this.#opLocations.some((l) => l !== undefined);
    if (known) fn.locations = { function: functionAt, where: whereAt, ops: this.#opLocations };
    return fn;
  }

  u32(v: number, what: string): number {
    if (!Number.isInteger(v) || v < 0 || v > LIMITS.u32) this.fail(`${what} ${v} is not a u32`);
    return v;
  }
  triple(v: readonly number[], what: string): [number, number, number] {
    if (v.length !== 3) this.fail(`${what} must have 3 entries`);
    return [this.u32(v[0]!, what), this.u32(v[1]!, what), this.u32(v[2]!, what)];
  }

  typeOf(v: Value, op?: Op): LType {
    const t = v.type;
    if (t.kind !== "prim" || !LTYPES.has(t.name)) this.fail(`value '%${v.name}' has a type not allowed in a launch-config function`, op);
    return t.name as LType;
  }
  define(v: Value, op?: Op): LType {
    const t = this.typeOf(v, op);
    if (this.#types.length >= LIMITS.registers) this.fail("too many values", op);
    this.#regs.set(v, this.#types.length);
    this.#types.push(t);
    return t;
  }
  use(v: Value, op: Op): number {
    const r = this.#regs.get(v);
    if (r === undefined) this.fail(`'%${v.name}' is not defined here`, op);
    return r;
  }

  uses(op: Op): number[] {
    const out: number[] = [];
    for (const v of op.operands) out.push(this.use(v, op));
    return out;
  }

  predicate(p: Predicate, op?: Op): LPredicate {
    if (PREDICATE_ARITY[p.kind] !== p.args.length) this.fail(`predicate ${p.kind} with ${p.args.length} argument(s)`, op);
    const args: LPredArg[] = p.args.map((a) => {
      if (typeof a !== "bigint") return this.use(a, op ?? this.src.region.ops[0]!);
      if (a < I64_MIN || a > I64_MAX) this.fail(`predicate literal ${a} is outside the 64-bit range`, op);
      return a;
    });
    return { kind: p.kind, args };
  }

  region(region: Region, terminator: "launch" | "yield", depth: number): LOp[] {
    if (depth > LIMITS.nesting) this.fail(`regions nested deeper than ${LIMITS.nesting}`);
    const ops: LOp[] = [];
    for (const op of region.ops) {
      if (++this.#opCount > LIMITS.opsPerFunction) this.fail("too many ops", op);
      ops.push(this.op(op, depth));
    }
    const last = ops[ops.length - 1];
    if (terminator === "launch") {
      if (last?.kind !== "launch") this.fail("the config region must end with kernel.launch.config");
    } else if (last?.kind !== "yield") {
      ops.push({ kind: "yield", operands: [] }); // the parser may omit an empty scf.yield
    }
    for (let i = 0; i < ops.length - 1; i++) {
      const o = ops[i]!;
      if (o.kind === "launch" || o.kind === "yield") this.fail(`'${o.kind === "launch" ? "kernel.launch.config" : "scf.yield"}' must be the last op of its region`);
    }
    return ops;
  }

  op(op: Op, depth: number): LOp {
    const info = OP_BY_NAME.get(op.name);
    if (!info) this.fail(`'${op.name}' is not allowed in a launch-config function`, op);
    if (info.shape !== "yield") this.#opLocations.push(locationOf(op.span)); // before the op's regions: encoding order
    switch (info.shape) {
      case "constant": {
        const type = this.typeOf(op.results[0] ?? this.fail("constant without a result", op), op);
        const value = this.constant(op, type);
        return { kind: "constant", name: op.name as "index.constant", type, value, result: this.defineResult(op, 0) };
      }
      case "simple": {
        if (op.operands.length !== info.arity || op.results.length !== 1) this.fail(`expects ${info.arity} operand(s) and one result`, op);
        const operands = this.uses(op);
        const type = this.typeOf(op.results[0]!, op);
        const flags = this.flags(op, info.flags);
        const predicate = op.props.predicate;
        if (info.predicates && (typeof predicate !== "string" || !info.predicates.includes(predicate))) this.fail(`unknown predicate '${String(predicate)}'`, op);
        const result = this.defineResult(op, 0);
        return info.predicates ? { kind: "simple", name: op.name, type, operands, flags, predicate: predicate as string, result } : { kind: "simple", name: op.name, type, operands, flags, result };
      }
      case "assume": {
        if (op.operands.length === 0 || op.operands.length !== op.results.length || op.operands.length > LIMITS.assumeValues) this.fail("assume needs one result per operand", op);
        const operands = this.uses(op);
        const predicates = (propOf(op, "predicates") ?? []).map((p) => this.predicate(p, op));
        return { kind: "assume", name: op.name as "index.assume", operands, predicates, results: op.results.map((_, i) => this.defineResult(op, i)) };
      }
      case "select": {
        if (op.operands.length !== 3 || op.results.length !== 1) this.fail("scf.select takes 3 operands", op);
        const [c, a, b] = this.uses(op) as [number, number, number];
        return { kind: "select", operands: [c, a, b], result: this.defineResult(op, 0) };
      }
      case "if": {
        if (op.operands.length !== 1 || op.regions.length < 1 || op.regions.length > 2) this.fail("scf.if takes a condition and one or two regions", op);
        const cond = this.use(op.operands[0]!, op);
        const resultTypes = op.results.map((v) => this.typeOf(v, op));
        const then = this.region(op.regions[0]!, "yield", depth + 1);
        const hasElse = op.regions.length === 2;
        const els = hasElse ? this.region(op.regions[1]!, "yield", depth + 1) : [];
        return { kind: "if", cond, resultTypes, then, else: els, hasElse, results: op.results.map((_, i) => this.defineResult(op, i)) };
      }
      case "for": {
        if (op.operands.length < 3 || op.regions.length !== 1) this.fail("scf.for takes bounds, a step and one region", op);
        const [lo, hi, step, ...inits] = this.uses(op) as [number, number, number, ...number[]];
        const body = op.regions[0]!;
        if (body.args.length !== inits.length + 1 || op.results.length !== inits.length) this.fail("scf.for iteration arguments, inits and results disagree", op);
        const iv = this.#types.length;
        this.define(body.args[0]!, op);
        const iterArgs = body.args.slice(1).map((v) => (this.define(v, op), this.#regs.get(v)!));
        const ops = this.region(body, "yield", depth + 1);
        return { kind: "for", lo, hi, step, inits, iv, iterArgs, body: ops, results: op.results.map((_, i) => this.defineResult(op, i)) };
      }
      case "yield":
        return { kind: "yield", operands: this.uses(op) };
      case "launch": {
        if (op.operands.length !== 6 && op.operands.length !== 9) this.fail("kernel.launch.config takes 6 or 9 operands", op);
        return { kind: "launch", operands: this.uses(op) };
      }
    }
  }

  defineResult(op: Op, i: number): number {
    this.define(op.results[i]!, op);
    return this.#types.length - 1;
  }

  flags(op: Op, allowed: number): number {
    const list = op.props.flags;
    if (list === undefined || list === null) return 0;
    if (!Array.isArray(list)) this.fail("flags must be a list", op);
    let bits = 0;
    for (const f of list) {
      const b = f === "fast" ? 0x1fc : typeof f === "string" ? FLAG_BITS[f] : undefined;
      if (b === undefined || (b & ~allowed) !== 0) this.fail(`flag '${String(f)}' is not allowed here`, op);
      bits |= b;
    }
    return bits;
  }

  constant(op: Op, type: LType): bigint | number {
    const lit = propOf(op, "value");
    if (!lit || typeof lit !== "object" || !("kind" in lit)) this.fail("constant without a literal", op);
    if (isAddressType(type)) {
      if (lit.kind !== "int") this.fail("index.constant needs an integer literal", op);
      const lo = type === "offset" ? 0n : I64_MIN;
      if (lit.value < lo || lit.value > I64_MAX) this.fail(`literal ${lit.value} is out of range for ${type}`, op);
      return lit.value;
    }
    if (isIntType(type)) {
      const w = BigInt(INT_WIDTHS[type]);
      if (lit.kind === "bool") {
        if (type !== "i1") this.fail("true/false is only an i1 literal", op);
        return lit.value ? 1n : 0n;
      }
      if (lit.kind !== "int") this.fail(`${type} constant needs an integer literal`, op);
      const min = type === "i1" ? 0n : -(1n << (w - 1n));
      if (lit.value < min || lit.value > (1n << w) - 1n) this.fail(`literal ${lit.value} is out of range for ${type}`, op);
      return BigInt.asUintN(Number(w), lit.value);
    }
    if (!isFloatType(type)) this.fail(`constant of type ${type}`, op);
    if (lit.kind === "float") return roundToFormat(lit.value, type);
    if (lit.kind === "ident" && (lit.value === "inf" || lit.value === "nan")) return lit.value === "inf" ? Infinity : NaN;
    return this.fail(`${type} constant needs a float literal`, op);
  }
}

/** A span's start as a location table entry; spans without a usable start are unknown. */
function locationOf(span: Span | undefined): LaunchSourceLocation | undefined {
  if (!span || span.source === "" || !(span.line >= 1 && span.line <= LIMITS.u32) || !(span.column >= 1 && span.column <= LIMITS.u32)) return undefined;
  if (!Number.isInteger(span.line) || !Number.isInteger(span.column)) return undefined;
  if (span.source.length * 3 > MAX_STRING_BYTES && new TextEncoder().encode(span.source).length > MAX_STRING_BYTES) return undefined;
  return { source: span.source, line: span.line, column: span.column };
}
