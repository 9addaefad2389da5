/**
 * The reference launch-config interpreter: evaluates a `LaunchFunctionSource` — the IR
 * config region itself, not the bytecode — with the shared op semantics, by a plain tree
 * walk. It shares no code with the encoder, decoder or code generators, which is what
 * makes it an oracle for them (verification.md "Launch-config bytecode" 1): for any
 * arguments, the compiled program must return the same launch or fail with the same status.
 */
import { LoomError } from "../core/errors.js";
import * as X from "../dialects/index/semantics.js";
import * as S from "../dialects/scalar/semantics.js";
import type { Literal, Op, Predicate, Region, Value } from "../ir/core.js";
import type { LaunchConfig } from "./program.js";
import type { LaunchFunctionSource } from "./source.js";
import { isOp, propOf } from "../dialects/registry.js";

type V = bigint | number;

const ITERATION_BUDGET = 1 << 24;
const U32_MAX = 0xffffffff;

export function evaluateReference(src: LaunchFunctionSource, args: unknown): LaunchConfig {
  return new Interpreter(src).run(args);
}

function typeName(v: Value): string {
  return v.type.kind === "prim" ? v.type.name : "?";
}

class Interpreter {
  readonly env = new Map<Value, V>();
  iterations = 0;
  constructor(readonly src: LaunchFunctionSource) {}

  outOfRange(what: string): never {
    throw new LoomError("out-of-range", `launch-config function '${this.src.exportName}' (reference): ${what}`);
  }
  invalid(what: string): never {
    throw new LoomError("invalid-argument", `launch-config function '${this.src.exportName}' (reference): ${what}`);
  }

  run(args: unknown): LaunchConfig {
    const params = this.src.region.args;
    if (!Array.isArray(args) && !(args instanceof BigUint64Array)) this.invalid("arguments must be a list");
    const list = args as ArrayLike<unknown>;
    if (list.length !== params.length) this.invalid(`wrong argument count ${list.length}`);
    params.forEach((p, i) => this.env.set(p, this.argument(typeName(p), list[i])));
    for (const p of this.src.workloadWhere) this.require(p, "workload where");
    return this.block(this.src.region) as LaunchConfig;
  }

  argument(t: string, x: unknown): V {
    if (typeof x !== "bigint") this.invalid("argument is not a bigint");
    if (x < -(1n << 63n) || x >= 1n << 64n) this.invalid("argument does not fit 64 bits");
    const bits = BigInt.asUintN(64, x);
    if (t === "index") return BigInt.asIntN(64, bits);
    if (t === "offset") return bits <= X.OFFSET_MAX ? bits : this.outOfRange("offset argument above 2^63-1");
    if (S.isIntName(t)) return BigInt.asUintN(S.INT_WIDTHS[t], bits);
    if (S.isFloatName(t)) return S.bitsToFloat(bits, t);
    return this.invalid(`argument type ${t}`);
  }

  get(v: Value): V {
    const x = this.env.get(v);
    if (x === undefined) throw new LoomError("internal", `reference: '%${v.name}' has no value`);
    return x;
  }

  require(p: Predicate, where: string): void {
    const args: S.PredicateOperand[] = p.args.map((a) => (typeof a === "bigint" ? a : { type: typeName(a), value: this.get(a) }));
    if (!S.evaluatePredicate(p.kind, args)) this.outOfRange(`${where} predicate ${p.kind} is false`);
  }

  /** Runs a region; returns the yielded values, or the launch for the config region. */
  block(region: Region): V[] | LaunchConfig {
    for (const op of region.ops) {
      if (isOp(op, "scf.yield")) return op.operands.map((v) => this.get(v));
      if (isOp(op, "kernel.launch.config")) return this.launch(op);
      this.op(op);
    }
    return []; // an omitted empty scf.yield
  }

  ok<T extends V>(x: X.Outcome<T>, op: Op): T {
    if (x instanceof X.Undefined) this.outOfRange(`${op.name}: ${x.reason}`);
    return x;
  }

  op(op: Op): void {
    const vals = op.operands.map((v) => this.get(v));
    const set = (x: X.Outcome<V>) => this.env.set(op.results[0]!, this.ok(x, op));
    const rt = op.results[0] ? typeName(op.results[0]) : "";
    const t0 = op.operands[0] ? typeName(op.operands[0]) : "";
    const flags = S.flagsFromList(propOf(op, "flags"));
    const [a, b, c] = vals as [V, V, V];
    const name = op.name;
    if (isOp(op, "index.constant") || isOp(op, "scalar.constant")) return void set(this.constant(op.props.value, rt));
    if (X.INDEX_BINARY[name]) return void set(X.INDEX_BINARY[name](rt as X.AddressType, a as bigint, b as bigint));
    if (X.INDEX_UNARY[name]) return void set(X.INDEX_UNARY[name](a as bigint));
    if (isOp(op, "index.cmp")) return void set(X.indexCmp(op.props.predicate, a as bigint, b as bigint));
    switch (name) {
      case "index.madd": return void set(X.indexMadd(a as bigint, b as bigint, c as bigint));
      case "index.scale": return void set(X.indexScale(a as bigint, b as bigint));
      case "index.cast": return void set(X.indexCast(t0 as X.AddressType, rt as X.AddressType, a as bigint));
      case "index.assume": case "scalar.assume":
        for (const p of propOf(op, "predicates") ?? []) this.require(p, name);
        op.results.forEach((r, i) => this.env.set(r, vals[i]!));
        return;
      case "scf.select": return void set(a === 1n ? b : c);
      case "scf.if": {
        const region = a === 1n ? op.regions[0] : op.regions[1];
        const out = region ? (this.block(region) as V[]) : [];
        op.results.forEach((r, i) => this.env.set(r, out[i]!));
        return;
      }
      case "scf.for": return this.loop(op, vals);
    }
    if (!name.startsWith("scalar.")) this.invalid(`op ${name} is not allowed`);
    set(this.scalar(name.slice(7), rt, t0, vals, propOf(op, "predicate"), flags));
  }

  loop(op: Op, vals: V[]): void {
    const [lo, hi, step, ...inits] = vals as bigint[];
    if (step! <= 0n) this.outOfRange("scf.for step is not positive");
    const body = op.regions[0]!;
    let carried: V[] = inits;
    for (let iv = lo!; iv < hi!; iv += step!) {
      if (++this.iterations > ITERATION_BUDGET) this.outOfRange("loop iteration budget exceeded");
      this.env.set(body.args[0]!, iv);
      body.args.slice(1).forEach((v, i) => this.env.set(v, carried[i]!));
      carried = this.block(body) as V[];
    }
    op.results.forEach((r, i) => this.env.set(r, carried[i]!));
  }

  scalar(name: string, rt: string, t0: string, v: V[], predicate: string | undefined, f: S.IntFlags & S.FloatFlags): X.Outcome<V> {
    const [a, b, c] = v;
    const I = rt as S.IntName, F = rt as S.FloatName;
    const ia = a as bigint, ib = b as bigint, fa = a as number, fb = b as number;
    switch (name) {
      case "addi": return S.addi(I, ia, ib, f);
      case "subi": return S.subi(I, ia, ib, f);
      case "muli": return S.muli(I, ia, ib, f);
      case "shli": return S.shli(I, ia, ib, f);
      case "divsi": return S.divsi(I, ia, ib);
      case "divui": return S.divui(I, ia, ib);
      case "remsi": return S.remsi(I, ia, ib);
      case "remui": return S.remui(I, ia, ib);
      case "ceildivsi": return S.ceildivsi(I, ia, ib);
      case "ceildivui": return S.ceildivui(I, ia, ib);
      case "floordivsi": return S.floordivsi(I, ia, ib);
      case "minsi": return S.minsi(I, ia, ib);
      case "maxsi": return S.maxsi(I, ia, ib);
      case "minui": return S.minui(I, ia, ib);
      case "maxui": return S.maxui(I, ia, ib);
      case "andi": return S.andi(I, ia, ib);
      case "ori": return S.ori(I, ia, ib);
      case "xori": return S.xori(I, ia, ib);
      case "shrsi": return S.shrsi(I, ia, ib);
      case "shrui": return S.shrui(I, ia, ib);
      case "negi": return S.negi(I, ia);
      case "absi": return S.absi(I, ia);
      case "addf": return S.addf(F, fa, fb, f);
      case "subf": return S.subf(F, fa, fb, f);
      case "mulf": return S.mulf(F, fa, fb, f);
      case "divf": return S.divf(F, fa, fb, f);
      case "remf": return S.remf(F, fa, fb, f);
      case "copysignf": return S.copysignf(F, fa, fb, f);
      case "minimumf": return S.minimumf(F, fa, fb, f);
      case "maximumf": return S.maximumf(F, fa, fb, f);
      case "minnumf": return S.minnumf(F, fa, fb, f);
      case "maxnumf": return S.maxnumf(F, fa, fb, f);
      case "negf": return S.negf(F, fa, f);
      case "absf": return S.absf(F, fa, f);
      case "ceilf": return S.ceilf(F, fa, f);
      case "floorf": return S.floorf(F, fa, f);
      case "truncf": return S.truncf(F, fa, f);
      case "roundf": return S.roundf(F, fa, f);
      case "roundevenf": return S.roundevenf(F, fa, f);
      case "fmaf": return S.fmaf(F, fa, fb, c as number, f);
      case "cmpi": return S.cmpi(predicate as X.ComparePredicate, t0 as S.IntName, ia, ib);
      case "cmpf": return S.cmpf(predicate as S.CmpfPredicate, fa, fb, f);
      case "sitofp": return S.sitofp(t0 as S.IntName, F, ia);
      case "uitofp": return S.uitofp(t0 as S.IntName, F, ia);
      case "fptosi": return S.fptosi(t0 as S.FloatName, I, fa);
      case "fptoui": return S.fptoui(t0 as S.FloatName, I, fa);
      case "extf": return S.extf(t0 as S.FloatName, F, fa);
      case "fptrunc": return S.fptrunc(t0 as S.FloatName, F, fa);
      case "extsi": return S.extsi(t0 as S.IntName, I, ia);
      case "extui": return S.extui(t0 as S.IntName, I, ia);
      case "trunci": return S.trunci(t0 as S.IntName, I, ia);
      case "bitcast": return S.bitcast(t0 as S.IntName, rt as S.IntName, a!);
    }
    return this.invalid(`op scalar.${name} is not allowed`);
  }

  constant(lit: Literal, t: string): V {
    if (t === "index" || t === "offset") return lit.value as bigint;
    if (S.isIntName(t)) return lit.kind === "bool" ? (lit.value ? 1n : 0n) : BigInt.asUintN(S.INT_WIDTHS[t], lit.value as bigint);
    if (lit.kind === "ident") return lit.value === "inf" ? Infinity : NaN;
    return S.roundToFormat(lit.value as number, t as S.FloatName);
  }

  launch(op: Op): LaunchConfig {
    const v = op.operands.map((x) => this.get(x) as bigint);
    const { maxWorkgroupCount, maxWorkgroupSize, maxFlatWorkgroupSize } = this.src.limits;
    const count = v.slice(0, 3), size = v.slice(3, 6), cluster = v.length > 6 ? v.slice(6) : [1n, 1n, 1n];
    count.forEach((n, d) => {
      if (n < 0n || n > BigInt(U32_MAX) || n > BigInt(maxWorkgroupCount[d]!)) this.outOfRange(`workgroup count ${d} = ${n}`);
    });
    size.forEach((n, d) => {
      if (n < 1n || n > BigInt(maxWorkgroupSize[d]!)) this.outOfRange(`workgroup size ${d} = ${n}`);
    });
    if (size[0]! * size[1]! * size[2]! > BigInt(maxFlatWorkgroupSize)) this.outOfRange("flat workgroup size");
    if (cluster.some((n) => n !== 1n)) this.outOfRange("cluster size");
    const n3 = (x: bigint[]) => x.map(Number) as [number, number, number];
    return { workgroupCount: n3(count), workgroupSize: n3(size), workgroupClusterSize: n3(cluster), subgroupSize: this.src.subgroupSize, workgroupStorageBytes: this.src.workgroupStorageBytes };
  }
}
