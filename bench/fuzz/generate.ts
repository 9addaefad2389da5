/**
 * Random well-typed kernels for differential testing (issue 12 item 16), driven by the op
 * registry: every `D`-placed op of the `scalar` and `vector` dialects whose declaration has a
 * generic syntax (`arith`, `cmp`, `cast`) and a declared type rule (`uniform`, `conversion`)
 * becomes a template automatically, so a new op of that shape is fuzzed without an edit here.
 * Control flow (`scf.if`, `scf.for`, `scf.select`), memory (`view.load`/`store`) and subgroup
 * collectives have hand-written templates; every other op is listed in `notGenerated()` with
 * the reason.
 *
 * A program is one kernel: each invocation loads IN_SLOTS words of its row of `%in`, computes,
 * and stores OUT_SLOTS words to its row of `%out` (so one dispatch evaluates the program on many
 * inputs). Undefined behaviour is kept out by construction (divisors made odd and positive,
 * shift amounts masked, float→int inputs clamped), and device freedoms are kept visible
 * (docs/language.md "NaN payloads…"): a float is bitcast to an integer only when its bits are
 * specified (it was moved, never computed) or after NaNs are made the canonical NaN; `fmaf`
 * also gets an unfused spelling so a runner can accept either rounding.
 */
import { OP_INFOS, type OpInfo } from "../../src/dialects/registry.js";
import { CMPF_PREDICATES } from "../../src/dialects/scalar/semantics.js";
import { COMPARE_PREDICATES } from "../../src/dialects/index/semantics.js";
import type { Rand } from "./mutate.js";

export const IN_SLOTS = 8;
/** The last input word of every invocation is −0.0: float constants are added to it (an exact identity), which keeps them opaque to a driver's constant folding (lavapipe folds x·0 to 0 regardless of float controls). */
export const NEG_ZERO_SLOT = IN_SLOTS - 1;
export const OUT_SLOTS = 8;
export const WORKGROUP = 64;

type Ty = "i1" | "i32" | "i64" | "f32" | "f64" | "v4i32" | "v4f32" | "v4i1";
const SPELL: Record<Ty, string> = { i1: "i1", i32: "i32", i64: "i64", f32: "f32", f64: "f64", v4i32: "vector<4xi32>", v4f32: "vector<4xf32>", v4i1: "vector<4xi1>" };
const isFloat = (t: Ty) => t === "f32" || t === "f64" || t === "v4f32";
const isVector = (t: Ty) => t.startsWith("v4");
const WIDTH: Record<Ty, number> = { i1: 1, i32: 32, i64: 64, f32: 32, f64: 64, v4i32: 32, v4f32: 32, v4i1: 1 };

/** Ops whose results are not exact on a device (accuracy is a device freedom), so not compared bit for bit. */
const INEXACT = new Set(["expf", "exp2f", "logf", "log2f", "sqrtf", "rsqrtf", "sinf", "cosf", "tanhf", "erff", "powf", "remf"]);

interface Template {
  readonly op: string;
  readonly kind: "arith" | "cmp" | "cast";
  readonly arity: number;
  /** Operand type → result type choices. */
  readonly signatures: readonly (readonly [Ty, Ty])[];
}

function classTypes(cls: string): Ty[] {
  switch (cls) {
    case "I": return ["i32", "i64"];
    case "F": return ["f32", "f64"];
    case "S": return ["i32", "i64", "f32", "f64"];
    case "vI": case "vN": return ["v4i32"];
    case "vF": return ["v4f32"];
    default: return [];
  }
}

function widthFits(rel: string, from: Ty, to: Ty): boolean {
  const a = WIDTH[from], b = WIDTH[to];
  return rel === "any" || (rel === "wider" ? b > a : rel === "narrower" ? b < a : a === b);
}

/** The registry-derived templates and the ops left out (with why). */
export function registryTemplates(): { templates: Template[]; skipped: Record<string, string> } {
  const templates: Template[] = [];
  const skipped: Record<string, string> = {};
  for (const info of OP_INFOS) templateOf(info, templates, skipped);
  return { templates, skipped };
}

function templateOf(info: OpInfo, out: Template[], skipped: Record<string, string>): void {
  const [dialect, short] = info.name.split(".") as [string, string];
  const handWritten = HAND_WRITTEN[info.name];
  if (handWritten) return;
  if (dialect !== "scalar" && dialect !== "vector") return void (skipped[info.name] = "not a scalar/vector op (index, view, buffer, kernel, scf, func, … ops are generated only through the hand-written templates)");
  if (!info.placement.includes("D")) return void (skipped[info.name] = "not allowed in kernel bodies");
  if (INEXACT.has(short)) return void (skipped[info.name] = "inexact on devices (accuracy is a device freedom)");
  const rule = info.types, syntax = info.syntax;
  if (!rule) return void (skipped[info.name] = "no declared type rule");
  if (rule.kind === "uniform" && (syntax.form === "arith" || syntax.form === "cmp")) {
    const types = classTypes(rule.cls);
    if (types.length === 0) return void (skipped[info.name] = `type class ${rule.cls} not generated`);
    const sigs = types.map((t) => [t, rule.result === "same" ? t : isVector(t) ? "v4i1" : "i1"] as const);
    out.push({ op: info.name, kind: syntax.form, arity: syntax.form === "cmp" ? 2 : rule.arity, signatures: sigs });
    return;
  }
  if (rule.kind === "conversion" && syntax.form === "cast") {
    const vector = dialect === "vector";
    const from = vector ? classTypes(rule.from === "I" ? "vI" : rule.from === "F" ? "vF" : "vI").concat(rule.from === "S" ? ["v4f32"] : []) : classTypes(rule.from);
    const to = vector ? classTypes(rule.to === "I" ? "vI" : rule.to === "F" ? "vF" : "vI").concat(rule.to === "S" ? ["v4f32"] : []) : classTypes(rule.to);
    const sigs: [Ty, Ty][] = [];
    for (const a of from) for (const b of to) if (a !== b && widthFits(rule.width, a, b)) sigs.push([a, b]);
    if (sigs.length === 0) return void (skipped[info.name] = "no pair of generated types fits its width rule");
    out.push({ op: info.name, kind: "cast", arity: 1, signatures: sigs });
    return;
  }
  skipped[info.name] = `syntax '${syntax.form}' with rule '${rule.kind}' has no generic template`;
}

/** Ops the generator emits through hand-written templates (structure, memory, collectives). */
const HAND_WRITTEN: Readonly<Record<string, true>> = {
  "scalar.constant": true, "vector.splat": true, "vector.extract": true, "vector.from_elements": true, "vector.select": true,
  "scf.if": true, "scf.for": true, "scf.yield": true, "scf.select": true, "view.load": true, "view.store": true,
  "buffer.view": true, "index.constant": true, "index.cast": true, "index.div": true, "kernel.workitem.dispatch.id": true,
  "kernel.launch.config": true, "kernel.return": true, "kernel.def": true,
  "kernel.subgroup.reduce": true, "kernel.subgroup.broadcast": true,
};

// ---- program text ---------------------------------------------------------------------------

export interface GeneratedProgram {
  readonly text: string;
  /** The same program with every `fmaf` spelled as `mulf` + `addf` (two roundings), or undefined without fmaf. */
  readonly unfused?: string;
  /** Per output slot: its type ("i32" or "f32"). */
  readonly outputs: readonly ("i32" | "f32")[];
  /** Per input slot: its type. */
  readonly inputs: readonly ("i32" | "f32")[];
  /** Op names the program uses (for coverage counts). */
  readonly ops: readonly string[];
  readonly usesSubgroups: boolean;
}

interface Val { readonly name: string; readonly ty: Ty; /** Bits specified: moved from an input or constant, never computed. */ readonly exact: boolean }

const pick = <T>(rand: Rand, xs: readonly T[]): T => xs[Math.floor(rand() * xs.length)]!;

class Emitter {
  lines: string[] = [];
  alt: string[] = [];
  private next = 0;
  readonly ops = new Set<string>();
  usesFma = false;
  usesSubgroups = false;
  constructor(readonly rand: Rand, readonly templates: readonly Template[]) {}
  fresh(): string {
    return `v${this.next++}`;
  }
  emit(line: string, unfused?: string): void {
    this.lines.push(line);
    this.alt.push(unfused ?? line);
  }
}

function constLiteral(rand: Rand, ty: Ty): string {
  if (ty === "i1") return rand() < 0.5 ? "true" : "false";
  if (ty === "i32" || ty === "i64") return String(pick(rand, [0, 1, -1, 7, 31, 2147483647, -2147483648, 65535, Math.floor(rand() * 2000) - 1000]));
  return pick(rand, ["0.0", "-0.0", "1.0", "-1.5", "0.25", "3.0e10", "inf", "-inf", "nan", "1.0e-30", String(Math.fround((rand() - 0.5) * 100)).replace("e+", "e")]).replace(/^(-?\d+)$/, "$1.0");
}

function scalarOf(ty: Ty): Ty {
  return ty === "v4i32" ? "i32" : ty === "v4f32" ? "f32" : ty === "v4i1" ? "i1" : ty;
}

/** A value of type `ty` from the pool, or one made from a pool value. */
function valueOf(e: Emitter, pool: Val[], ty: Ty, depth = 0): Val {
  const have = pool.filter((v) => v.ty === ty);
  if (have.length > 0 && (e.rand() < 0.85 || depth > 2)) return pick(e.rand, have);
  return make(e, pool, ty, depth + 1);
}

function constant(e: Emitter, ty: Ty): Val {
  const name = e.fresh();
  if (isVector(ty)) {
    const s = constant(e, scalarOf(ty));
    e.emit(`  %${name} = vector.splat %${s.name} : ${SPELL[ty]}`);
    e.ops.add("vector.splat");
    return { name, ty, exact: s.exact };
  }
  const literal = constLiteral(e.rand, ty);
  e.ops.add("scalar.constant");
  if ((ty === "f32" || ty === "f64") && literal !== "nan") {
    const lit = e.fresh();
    e.emit(`  %${lit} = scalar.constant ${literal} : ${SPELL[ty]}`);
    e.emit(`  %${name} = scalar.addf %${lit}, %negzero_${ty} : ${SPELL[ty]}`);
    return { name, ty, exact: false };
  }
  e.emit(`  %${name} = scalar.constant ${literal} : ${SPELL[ty]}`);
  return { name, ty, exact: true };
}

/** Makes a value of `ty` from what the pool has (conversions, splats, lane reads, constants). */
function make(e: Emitter, pool: Val[], ty: Ty, depth: number): Val {
  const name = e.fresh();
  if (depth > 3) return constant(e, ty);
  switch (ty) {
    case "i1": {
      const a = valueOf(e, pool, "i32", depth), b = valueOf(e, pool, "i32", depth);
      e.emit(`  %${name} = scalar.cmpi ${pick(e.rand, COMPARE_PREDICATES)}, %${a.name}, %${b.name} : i32`);
      e.ops.add("scalar.cmpi");
      return { name, ty, exact: false };
    }
    case "i64": {
      const a = valueOf(e, pool, "i32", depth);
      const op = e.rand() < 0.5 ? "extsi" : "extui";
      e.emit(`  %${name} = scalar.${op} %${a.name} : i32 to i64`);
      e.ops.add(`scalar.${op}`);
      return { name, ty, exact: false };
    }
    case "f64": {
      const a = valueOf(e, pool, "f32", depth);
      e.emit(`  %${name} = scalar.extf %${a.name} : f32 to f64`);
      e.ops.add("scalar.extf");
      return { name, ty, exact: false };
    }
    case "v4i32": case "v4f32": {
      const s = scalarOf(ty);
      if (e.rand() < 0.5) {
        const a = valueOf(e, pool, s, depth);
        e.emit(`  %${name} = vector.splat %${a.name} : ${SPELL[ty]}`);
        e.ops.add("vector.splat");
        return { name, ty, exact: a.exact };
      }
      const lanes = [0, 1, 2, 3].map(() => valueOf(e, pool, s, depth));
      e.emit(`  %${name} = vector.from_elements ${lanes.map((l) => `%${l.name}`).join(", ")} : ${SPELL[ty]}`);
      e.ops.add("vector.from_elements");
      return { name, ty, exact: lanes.every((l) => l.exact) };
    }
    case "v4i1": {
      const a = valueOf(e, pool, "v4i32", depth), b = valueOf(e, pool, "v4i32", depth);
      e.emit(`  %${name} = vector.cmpi ${pick(e.rand, COMPARE_PREDICATES)}, %${a.name}, %${b.name} : vector<4xi32> -> vector<4xi1>`);
      e.ops.add("vector.cmpi");
      return { name, ty, exact: false };
    }
    default:
      return constant(e, ty);
  }
}

/** Makes `v`'s NaNs the canonical NaN, so its bits are specified (bitcast operands, docs/language.md). */
function canonicalNaNs(e: Emitter, pool: Val[], v: Val): Val {
  if (v.exact || !isFloat(v.ty)) return v;
  const t = SPELL[v.ty], u = e.fresh(), q = e.fresh(), r = e.fresh();
  if (isVector(v.ty)) {
    e.emit(`  %${u} = vector.cmpf uno, %${v.name}, %${v.name} : ${t} -> vector<4xi1>`);
    const s = e.fresh();
    e.emit(`  %${s} = scalar.constant nan : f32`);
    e.emit(`  %${q} = vector.splat %${s} : ${t}`);
    e.emit(`  %${r} = vector.select %${u}, %${q}, %${v.name} : ${t}`);
    ["vector.cmpf", "vector.select", "vector.splat"].forEach((o) => e.ops.add(o));
  } else {
    e.emit(`  %${u} = scalar.cmpf uno, %${v.name}, %${v.name} : ${t}`);
    e.emit(`  %${q} = scalar.constant nan : ${t}`);
    e.emit(`  %${r} = scf.select %${u}, %${q}, %${v.name} : ${t}`);
    ["scalar.cmpf", "scf.select"].forEach((o) => e.ops.add(o));
  }
  void pool;
  return { name: r, ty: v.ty, exact: true };
}

const DIVISIONS = new Set(["divsi", "divui", "remsi", "remui", "ceildivsi", "ceildivui", "floordivsi"]);
const SHIFTS = new Set(["shli", "shrsi", "shrui"]);

/** An operand made safe for `short` at position `k` (no UB by construction). */
function sanitize(e: Emitter, short: string, dialect: string, k: number, v: Val): Val {
  const t = SPELL[v.ty];
  const lit = (x: string) => {
    const c = e.fresh();
    if (isVector(v.ty)) {
      const s = e.fresh();
      e.emit(`  %${s} = scalar.constant ${x} : ${SPELL[scalarOf(v.ty)]}`);
      e.emit(`  %${c} = vector.splat %${s} : ${t}`);
    } else e.emit(`  %${c} = scalar.constant ${x} : ${t}`);
    return c;
  };
  const binop = (op: string, a: string, b: string) => {
    const r = e.fresh();
    e.emit(`  %${r} = ${dialect}.${op} %${a}, %${b} : ${t}`);
    e.ops.add(`${dialect}.${op}`);
    return r;
  };
  if (k === 1 && DIVISIONS.has(short)) {
    // (b >> 1) | 1: positive and odd, so never zero and never −1.
    const half = binop("shrui", v.name, lit("1"));
    return { name: binop("ori", half, lit("1")), ty: v.ty, exact: false };
  }
  // The sign of a NaN that arithmetic made is unspecified; copysignf reads it.
  if (k === 1 && short === "copysignf") return canonicalNaNs(e, [], v);
  if (k === 1 && SHIFTS.has(short)) return { name: binop("andi", v.name, lit(String(WIDTH[v.ty] - 1))), ty: v.ty, exact: false };
  return v;
}

/** Clamps a float so that converting it to `to` is in range (NaN becomes the low bound). */
function clampForInt(e: Emitter, v: Val, op: string, to: Ty, dialect: string): Val {
  const t = SPELL[v.ty];
  const wide = WIDTH[to] === 64;
  const [lo, hi] = op.endsWith("fptoui") ? ["0.0", wide ? "1.0e19" : "4.0e9"] : [wide ? "-9.0e18" : "-2.0e9", wide ? "9.0e18" : "2.0e9"];
  const c = (x: string) => {
    const r = e.fresh();
    if (isVector(v.ty)) {
      const s = e.fresh();
      e.emit(`  %${s} = scalar.constant ${x} : f32`);
      e.emit(`  %${r} = vector.splat %${s} : ${t}`);
    } else e.emit(`  %${r} = scalar.constant ${x} : ${t}`);
    return r;
  };
  const a = e.fresh(), b = e.fresh();
  e.emit(`  %${a} = ${dialect}.maxnumf %${v.name}, %${c(lo)} : ${t}`);
  e.emit(`  %${b} = ${dialect}.minnumf %${a}, %${c(hi)} : ${t}`);
  return { name: b, ty: v.ty, exact: false };
}

function fromTemplate(e: Emitter, pool: Val[], tpl: Template): Val | undefined {
  const [dialect, short] = tpl.op.split(".") as [string, string];
  const [from, to] = pick(e.rand, tpl.signatures);
  const name = e.fresh();
  if (tpl.kind === "cast") {
    let a = valueOf(e, pool, from);
    if (short === "bitcast") a = canonicalNaNs(e, pool, a);
    if (short === "fptosi" || short === "fptoui") a = clampForInt(e, a, short, to, dialect);
    e.emit(`  %${name} = ${tpl.op} %${a.name} : ${SPELL[from]} to ${SPELL[to]}`);
    e.ops.add(tpl.op);
    return { name, ty: to, exact: short === "bitcast" && a.exact };
  }
  const args = Array.from({ length: tpl.arity }, (_, k) => sanitize(e, short, dialect, k, valueOf(e, pool, from)));
  const list = args.map((a) => `%${a.name}`).join(", ");
  if (tpl.kind === "cmp") {
    const preds = isFloat(from) ? CMPF_PREDICATES : COMPARE_PREDICATES;
    e.emit(`  %${name} = ${tpl.op} ${pick(e.rand, preds)}, ${list} : ${SPELL[from]}${isVector(from) ? ` -> ${SPELL[to]}` : ""}`);
  } else if (short === "fmaf") {
    const m = e.fresh();
    e.usesFma = true;
    e.emit(`  %${name} = ${tpl.op} ${list} : ${SPELL[from]}`, `  %${m} = ${dialect}.mulf %${args[0]!.name}, %${args[1]!.name} : ${SPELL[from]}\n  %${name} = ${dialect}.addf %${m}, %${args[2]!.name} : ${SPELL[from]}`);
  } else e.emit(`  %${name} = ${tpl.op} ${list} : ${SPELL[from]}`);
  e.ops.add(tpl.op);
  return { name, ty: to, exact: false };
}

const GEN_TYPES: readonly Ty[] = ["i32", "f32", "i64", "f64", "v4i32", "v4f32", "i1"];

/** One random op (or structure) appended to the block; its results join `pool`. */
function step(e: Emitter, pool: Val[], depth: number, topLevel: boolean): void {
  const r = e.rand();
  if (r < 0.07 && depth < 2) return structuredIf(e, pool, depth);
  if (r < 0.12 && depth < 2) return structuredFor(e, pool, depth);
  if (r < 0.17) {
    const ty = pick(e.rand, GEN_TYPES.filter((t) => !isVector(t)));
    const c = valueOf(e, pool, "i1"), a = valueOf(e, pool, ty), b = valueOf(e, pool, ty);
    const name = e.fresh();
    e.emit(`  %${name} = scf.select %${c.name}, %${a.name}, %${b.name} : ${SPELL[ty]}`);
    e.ops.add("scf.select");
    pool.push({ name, ty, exact: a.exact && b.exact });
    return;
  }
  if (r < 0.21) {
    const ty = pick(e.rand, ["v4i32", "v4f32"] as const);
    const v = valueOf(e, pool, ty), name = e.fresh();
    e.emit(`  %${name} = vector.extract %${v.name}[${Math.floor(e.rand() * 4)}] : ${SPELL[ty]} -> ${SPELL[scalarOf(ty)]}`);
    e.ops.add("vector.extract");
    pool.push({ name, ty: scalarOf(ty), exact: v.exact });
    return;
  }
  if (r < 0.24) {
    const ty = pick(e.rand, ["v4i32", "v4f32"] as const);
    const m = valueOf(e, pool, "v4i1"), a = valueOf(e, pool, ty), b = valueOf(e, pool, ty), name = e.fresh();
    e.emit(`  %${name} = vector.select %${m.name}, %${a.name}, %${b.name} : ${SPELL[ty]}`);
    e.ops.add("vector.select");
    pool.push({ name, ty, exact: a.exact && b.exact });
    return;
  }
  if (r < 0.3 && topLevel) return collective(e, pool);
  const tpl = pick(e.rand, e.templates);
  const v = fromTemplate(e, pool, tpl);
  if (v) pool.push(v);
}

/** Integer reductions and min/max are independent of the combining order; float sums are not (a device freedom). */
const REDUCE_KINDS: Record<"i32" | "f32", readonly string[]> = { i32: ["addi", "muli", "maxsi", "minui", "andi", "ori", "xori"], f32: ["maxnumf", "minimumf", "maximumf", "minnumf"] };

function collective(e: Emitter, pool: Val[]): void {
  const ty = pick(e.rand, ["i32", "f32"] as const);
  const v = valueOf(e, pool, ty), name = e.fresh();
  e.usesSubgroups = true;
  if (e.rand() < 0.6) {
    const kind = pick(e.rand, REDUCE_KINDS[ty]);
    e.emit(`  %${name} = kernel.subgroup.reduce<${kind}> %${v.name} : ${ty}`);
    e.ops.add("kernel.subgroup.reduce");
    pool.push({ name, ty, exact: false });
  } else {
    e.emit(`  %${name} = kernel.subgroup.broadcast %${v.name} from %lane0 : ${ty}, i32`);
    e.ops.add("kernel.subgroup.broadcast");
    pool.push({ name, ty, exact: v.exact });
  }
}

function block(e: Emitter, pool: Val[], depth: number, ops: number): Val[] {
  const inner = [...pool];
  for (let i = 0; i < ops; i++) step(e, inner, depth + 1, false);
  return inner;
}

function structuredIf(e: Emitter, pool: Val[], depth: number): void {
  const ty = pick(e.rand, GEN_TYPES);
  const c = valueOf(e, pool, "i1"), name = e.fresh();
  e.emit(`  %${name} = scf.if %${c.name} -> (${SPELL[ty]}) {`);
  const a = valueOf(e, block(e, pool, depth, 1 + Math.floor(e.rand() * 3)), ty);
  e.emit(`  scf.yield %${a.name} : ${SPELL[ty]}`);
  e.emit(`  } else {`);
  const b = valueOf(e, block(e, pool, depth, 1 + Math.floor(e.rand() * 3)), ty);
  e.emit(`  scf.yield %${b.name} : ${SPELL[ty]}`);
  e.emit(`  }`);
  e.ops.add("scf.if");
  pool.push({ name, ty, exact: a.exact && b.exact });
}

function structuredFor(e: Emitter, pool: Val[], depth: number): void {
  const ty = pick(e.rand, ["i32", "f32", "v4f32", "v4i32"] as const);
  const init = valueOf(e, pool, ty), name = e.fresh(), iv = e.fresh(), acc = e.fresh(), ivi = e.fresh();
  e.emit(`  %${name} = scf.for %${iv} = [%c0 to %c${pick(e.rand, [0, 1, 3])} step %c1](%${acc} = %${init.name} : ${SPELL[ty]}) -> (${SPELL[ty]}) {`);
  e.emit(`  %${ivi} = index.cast %${iv} : index to i32`);
  const inner = block(e, [...pool, { name: acc, ty, exact: false }, { name: ivi, ty: "i32", exact: false }], depth, 1 + Math.floor(e.rand() * 3));
  const y = valueOf(e, inner, ty);
  e.emit(`  scf.yield %${y.name} : ${SPELL[ty]}`);
  e.emit(`  }`);
  e.ops.add("scf.for");
  pool.push({ name, ty, exact: false });
}

/** Converts `v` to a 32-bit output of type `want`. */
function toOutput(e: Emitter, pool: Val[], v: Val, want: "i32" | "f32"): Val {
  let x = v;
  if (isVector(x.ty)) {
    const name = e.fresh();
    e.emit(`  %${name} = vector.extract %${x.name}[${Math.floor(e.rand() * 4)}] : ${SPELL[x.ty]} -> ${SPELL[scalarOf(x.ty)]}`);
    x = { name, ty: scalarOf(x.ty), exact: x.exact };
  }
  const conv = (op: string, to: Ty, exact = false) => {
    const name = e.fresh();
    e.emit(`  %${name} = scalar.${op} %${x.name} : ${SPELL[x.ty]} to ${SPELL[to]}`);
    e.ops.add(`scalar.${op}`);
    x = { name, ty: to, exact };
  };
  if (x.ty === "i1") conv("extui", "i32");
  if (x.ty === "i64") conv("trunci", "i32");
  if (x.ty === "f64") conv("fptrunc", "f32");
  if (x.ty !== want) {
    x = canonicalNaNs(e, pool, x);
    conv("bitcast", want, x.exact);
  }
  return x;
}

export interface GenerateOptions {
  /** Ops in the kernel body (not counting structure and helpers). */
  readonly ops?: number;
  /** Emit subgroup collectives (needs a dispatch whose subgroups are full). */
  readonly subgroups?: boolean;
}

/** One random program. `rand` decides everything: the same seed gives the same text. */
export function generateProgram(rand: Rand, options: GenerateOptions = {}): GeneratedProgram {
  const { templates } = registryTemplates();
  const e = new Emitter(rand, templates);
  const inputs = Array.from({ length: IN_SLOTS }, (_, j) => (j === NEG_ZERO_SLOT || rand() < 0.5 ? "f32" : "i32") as "i32" | "f32");
  const outputs = Array.from({ length: OUT_SLOTS }, () => (rand() < 0.5 ? "i32" : "f32") as "i32" | "f32");
  const pool: Val[] = [];
  inputs.forEach((t, j) => {
    if (j === NEG_ZERO_SLOT) return;
    e.emit(`  %in${j} = view.load %in_${t}[%gid, ${j}] : view<[%n]x${IN_SLOTS}x${t}> -> ${t}`);
    pool.push({ name: `in${j}`, ty: t, exact: true });
  });
  e.emit(`  %negzero_f32 = view.load %in_f32[%gid, ${NEG_ZERO_SLOT}] : view<[%n]x${IN_SLOTS}xf32> -> f32`);
  e.emit(`  %negzero_f64 = scalar.extf %negzero_f32 : f32 to f64`);
  const count = options.ops ?? 4 + Math.floor(rand() * 14);
  for (let i = 0; i < count; i++) step(e, pool, 0, options.subgroups !== false);
  const fresh = pool.slice(IN_SLOTS - 1);
  outputs.forEach((t, k) => {
    const src = fresh.length > 0 && rand() < 0.85 ? fresh[fresh.length - 1 - Math.floor(rand() * Math.min(fresh.length, 6))]! : pick(rand, pool);
    const v = toOutput(e, pool, src, t);
    e.emit(`  view.store %${v.name}, %out_${t}[%gid, ${k}] : ${t}, view<[%n]x${OUT_SLOTS}x${t}>`);
  });
  const head = [
    `kernel.def export("fuzz") @fuzz(%n: index) {`,
    `  %c1 = index.constant 1 : index`,
    `  %wg = index.constant ${WORKGROUP} : index`,
    `  %groups = index.div %n, %wg : index`,
    `  kernel.launch.config workgroups(%groups, %c1, %c1) workgroup_size(%wg, %c1, %c1) : index`,
    `} launch(%n: index, %in: buffer, %out: buffer) {`,
    `  %origin = index.constant 0 : offset`,
    `  %c0 = index.constant 0 : index`,
    `  %c1 = index.constant 1 : index`,
    `  %c3 = index.constant 3 : index`,
    `  %lane0 = scalar.constant 0 : i32`,
    `  %gid = kernel.workitem.dispatch.id<x> : index`,
    ...(["i32", "f32"] as const).flatMap((t) => [
      `  %in_${t} = buffer.view %in[%origin] : buffer -> view<[%n]x${IN_SLOTS}x${t}>`,
      `  %out_${t} = buffer.view %out[%origin] : buffer -> view<[%n]x${OUT_SLOTS}x${t}>`,
    ]),
  ];
  const tail = ["  kernel.return", "}", ""];
  const text = [...head, ...e.lines, ...tail].join("\n");
  return {
    text,
    ...(e.usesFma ? { unfused: [...head, ...e.alt, ...tail].join("\n") } : {}),
    inputs,
    outputs,
    ops: [...e.ops].sort(),
    usesSubgroups: e.usesSubgroups,
  };
}

// ---- inputs ---------------------------------------------------------------------------------

/** Input words that reach the interesting cases: signs, limits, infinities, NaN payloads, subnormals. */
const F32_SPECIAL = [0x00000000, 0x80000000, 0x3f800000, 0xbf800000, 0x3f000000, 0x7f800000, 0xff800000, 0x7fc00000, 0xffc00000, 0x7fa00001, 0xff800001, 0x7fc12345, 0x7f7fffff, 0x00800000, 0x00000001, 0x4b000000];
const I32_SPECIAL = [0, 1, -1, 2, 31, 32, 0x7fffffff, -0x80000000, 0xffff, 0x10000, 7, -7];

/** Fills `words` (IN_SLOTS per invocation) for the program's input types. */
export function fillInputs(rand: Rand, program: GeneratedProgram, words: Uint32Array): void {
  const f = new Float32Array(1), u = new Uint32Array(f.buffer);
  for (let i = 0; i < words.length; i++) {
    if (i % IN_SLOTS === NEG_ZERO_SLOT) {
      words[i] = 0x80000000;
      continue;
    }
    const t = program.inputs[i % IN_SLOTS];
    const r = rand();
    if (t === "i32") words[i] = (r < 0.4 ? pick(rand, I32_SPECIAL) : r < 0.7 ? Math.floor(rand() * 200) - 100 : Math.floor(rand() * 2 ** 32)) >>> 0;
    else {
      if (r < 0.3) words[i] = pick(rand, F32_SPECIAL) >>> 0;
      else {
        f[0] = r < 0.6 ? Math.round((rand() - 0.5) * 64) / 4 : (rand() - 0.5) * 2 ** Math.floor(rand() * 40 - 20);
        words[i] = u[0]!;
      }
    }
  }
}
