/**
 * The state of lowering one prepared kernel to one PTX `.entry`: what each Loom value became
 * (`Lowered`), the instruction lines, virtual registers by class, labels, and the TARGET
 * diagnostics found on the way. Rules (rules-*.ts) read operands with `get`/`scalar`, emit
 * with `ins`, and record results with `set`.
 *
 * PTX registers are mutable, so SSA values map to registers defined once, and values that
 * leave a region (scf results, loop-carried values) get registers of their own that each
 * path assigns with `mov` (see rules-control.ts). Constants are immediates where PTX takes
 * them, so address arithmetic folds; `reg` materializes one where it does not.
 *
 * Errors never stop lowering: an unsupported op is reported at its span and its results
 * become `invalid`, so one pass finds every problem; a kernel with diagnostics is not printed.
 */
import type { Op, Value } from "../../../ir/core.js";
import type { PrimName, Type } from "../../../ir/types.js";
import type { LoweredLayout } from "../../../ir/strides.js";
import type { PreparedKernel } from "../../../core/prepared.js";
import type { PtxFeature, PtxTargetInfo } from "../profile.js";
import { KernelLoweringBase, type RegionLowering } from "../../../dialects/lowering.js";
import { floatToBits, roundToFormat } from "../../../dialects/scalar/semantics.js";

/** The carrier of a Loom scalar: `index`/`offset` are i64; i8 lives sign-extended in 16 bits. */
export type PtxScalar = "pred" | "i8" | "i16" | "i32" | "i64" | "f16" | "bf16" | "f32" | "f64";
export type Space = "global" | "shared" | "local";

/** A scalar: a register name or an immediate (`c` holds an integer immediate's value). */
export interface Scalar {
  readonly kind: "scalar";
  readonly r: string;
  readonly t: PtxScalar;
  readonly c?: bigint;
}

export type Lowered =
  | Scalar
  | { readonly kind: "vector"; readonly lanes: readonly Scalar[]; readonly t: PtxScalar }
  | {
      readonly kind: "buffer";
      readonly space: Space;
      /** Byte address (global: a global address; shared/local: the window offset). */
      readonly addr: Scalar;
      readonly length: Scalar;
      /** Proven alignment of `addr` in bytes. */
      readonly align: number;
    }
  | {
      readonly kind: "view";
      readonly space: Space;
      /** Byte address of element (0, …, 0). */
      readonly base: Scalar;
      /** Element strides per dimension. */
      readonly strides: readonly Scalar[];
      readonly element: PtxScalar;
      /** Proven alignment of `base` in bytes, and of each stride (in elements). */
      readonly align: number;
      readonly strideMultiples: readonly number[];
    }
  | LoweredLayout<Scalar>
  | { readonly kind: "invalid" };

export type Rule = (cx: KernelLowering, op: Op) => void;

export function ptxScalarOf(name: PrimName): PtxScalar | undefined {
  switch (name) {
    case "i1": return "pred";
    case "index": case "offset": return "i64";
    case "i8": case "i16": case "i32": case "i64": case "f16": case "bf16": case "f32": case "f64": return name;
    default: return undefined;
  }
}

export const BITS: Readonly<Record<PtxScalar, number>> = { pred: 1, i8: 16, i16: 16, i32: 32, i64: 64, f16: 16, bf16: 16, f32: 32, f64: 64 };
/** Bytes in memory. */
export const BYTES: Readonly<Record<PtxScalar, number>> = { pred: 4, i8: 1, i16: 2, i32: 4, i64: 8, f16: 2, bf16: 2, f32: 4, f64: 8 };
// The suffixes as tables: rules ask for them on every instruction.
const suffixes = (letter: string): Readonly<Record<PtxScalar, string>> =>
  Object.fromEntries(Object.entries(BITS).map(([t, n]) => [t, `${letter}${n}`])) as Record<PtxScalar, string>;
const B_SUFFIX: Readonly<Record<PtxScalar, string>> = { ...suffixes("b"), pred: "pred" };
const S_SUFFIX = suffixes("s");
const U_SUFFIX = suffixes("u");
/** Bit-size type suffix (`b32`). */
export const b = (t: PtxScalar): string => B_SUFFIX[t];
/** Signed / unsigned integer suffix of the carrier (`s16` for i8). */
export const s = (t: PtxScalar): string => S_SUFFIX[t];
export const u = (t: PtxScalar): string => U_SUFFIX[t];

/** Register classes (`.reg .b32`), their name prefixes, and each carrier's class. */
const REG_CLASSES = ["pred", "b16", "b32", "b64"] as const;
const REG_PREFIXES = ["%p", "%rs", "%r", "%rd"] as const;
const REG_CLASS_OF: Readonly<Record<PtxScalar, number>> = { pred: 0, i8: 1, i16: 1, f16: 1, bf16: 1, i32: 2, f32: 2, i64: 3, f64: 3 };

/** Integer immediates 0…255 per carrier, made once: address arithmetic asks for the same few. */
const SMALL_INTS: Partial<Record<PtxScalar, Scalar[]>> = {};

export class KernelLowering extends KernelLoweringBase<Lowered, KernelLowering> {
  readonly lines: string[] = [];
  /** Module-scope-in-function declarations (`.local` arrays). */
  readonly locals: string[] = [];
  /** Registers made so far, per class of REG_CLASSES. */
  private readonly counts = [0, 0, 0, 0];
  private labels = 0;
  /** Name of the kernel's `.shared` array (declared when the kernel has workgroup storage). */
  readonly sharedName: string;
  /** Name of the `.param` argument block. */
  readonly paramName: string;
  /** Loads that may use `ld.global.nc` (see analysis.ts). */
  ncLoads: ReadonlySet<Op> = new Set();
  usesShared = false;


  constructor(
    kernel: PreparedKernel,
    readonly info: PtxTargetInfo,
    /** The back end's region lowering (kernel.ts), which `lowerRegion` calls for the control rules. */
    regionOps: RegionLowering<KernelLowering, Lowered>,
  ) {
    super(kernel, "PTX", regionOps);
    this.sharedName = `${kernel.exportName}_shared`;
    this.paramName = `${kernel.exportName}_param`;
  }

  get target(): string {
    return `PTX profile '${this.kernel.profile.identifier}' (${this.info.target})`;
  }

  // ---- diagnostics --------------------------------------------------------------------------


  requireFeature(at: Op | Value, feature: PtxFeature, what: string): boolean {
    if (this.info.features[feature]) return true;
    this.unsupported(at, what, `the profile lacks the PTX feature '${feature}' (set identity.features.${feature} when the device has it)`);
    return false;
  }

  /** Checks the types an op touches; reports the first the profile cannot carry. */
  checkTypes(op: Op): boolean {
    return this.carriesTypes(op, op.operands) && this.carriesTypes(op, op.results);
  }

  private carriesTypes(op: Op, values: readonly Value[]): boolean {
    for (const v of values) {
      const t = v.type;
      const name = t.kind === "prim" ? t.name : t.element.name;
      if (name === "f64" && !this.requireFeature(op, "f64", `'${op.name}' on type 'f64'`)) return false;
    }
    return true;
  }

  // ---- values -------------------------------------------------------------------------------


  /** The scalar a value became (a placeholder register for an invalid one). */
  scalar(v: Value): Scalar {
    const l = this.get(v);
    if (l.kind === "scalar") return l;
    if (l.kind === "invalid") return { kind: "scalar", r: "%invalid", t: this.scalarType(v.type) ?? "i64" };
    throw new Error(`PTX lowering: '%${v.name}' is a ${l.kind}, not a scalar`);
  }


  scalarType(t: Type): PtxScalar | undefined {
    return ptxScalarOf(t.kind === "prim" ? t.name : t.element.name);
  }

  /** The carrier of a value's type (callers have checked it is a scalar or vector). */
  typeOf(v: Value): PtxScalar {
    const t = this.scalarType(v.type);
    if (!t) throw new Error(`PTX lowering: no carrier for '%${v.name}'`);
    return t;
  }

  // ---- emission -----------------------------------------------------------------------------
  reg(t: PtxScalar): Scalar {
    const cls = REG_CLASS_OF[t];
    const n = this.counts[cls]!;
    this.counts[cls] = n + 1;
    return { kind: "scalar", r: REG_PREFIXES[cls]! + n, t };
  }

  registerDeclarations(): string[] {
    const out: string[] = [];
    REG_CLASSES.forEach((cls, i) => {
      const n = this.counts[i]!;
      if (n > 0) out.push(`\t.reg .${cls} \t${REG_PREFIXES[i]}<${n}>;`);
    });
    return out;
  }

  label(): string {
    return `$L__${this.labels++}`;
  }

  ins(opcode: string, ...operands: string[]): void {
    let line = `\t${opcode}`;
    for (let i = 0; i < operands.length; i++) line += (i === 0 ? " \t" : ", ") + operands[i];
    this.lines.push(line + ";");
  }

  /** `@p opcode …` (or `@!p` when `negate`). */
  guarded(p: Scalar, negate: boolean, opcode: string, ...operands: string[]): void {
    this.lines.push(`\t@${negate ? "!" : ""}${p.r} ${opcode}${operands.length ? ` \t${operands.join(", ")}` : ""};`);
  }

  place(label: string): void {
    this.lines.push(`${label}:`);
  }

  comment(text: string): void {
    this.lines.push(`\t// ${text}`);
  }

  /** A fresh register of type `t` holding `opcode(operands)`. */
  op(opcode: string, t: PtxScalar, ...operands: (Scalar | string)[]): Scalar {
    const d = this.reg(t);
    // One string per line, built in place (this runs for nearly every instruction).
    let line = `\t${opcode} \t${d.r}`;
    for (const x of operands) line += ", " + (typeof x === "string" ? x : x.r);
    this.lines.push(line + ";");
    return d;
  }

  /** `x` in a register (immediates are moved). */
  inReg(x: Scalar): Scalar {
    if (!isImmediate(x)) return x;
    if (x.t === "pred") return this.op("mov.pred", "pred", x.r);
    return this.op(`mov.${b(x.t)}`, x.t, x.r);
  }

  /** An integer immediate of carrier `t`. */
  int(t: PtxScalar, value: bigint | number): Scalar {
    if (typeof value === "bigint" ? value >= 0n && value < 256n : value >= 0 && value < 256 && Number.isInteger(value)) {
      const row = (SMALL_INTS[t] ??= []);
      const n = Number(value);
      return (row[n] ??= this.makeInt(t, value));
    }
    return this.makeInt(t, value);
  }

  private makeInt(t: PtxScalar, value: bigint | number): Scalar {
    const v = BigInt(value);
    const w = t === "i8" ? 8 : BITS[t];
    const c = BigInt.asIntN(w, v);
    return { kind: "scalar", r: c.toString(), t, c };
  }

  i64(value: bigint | number): Scalar {
    return this.int("i64", value);
  }

  /** A float constant: an immediate for f32/f64, a register for 16-bit floats. */
  float(t: PtxScalar, value: number): Scalar {
    const bits = floatBits(t, value);
    if (t === "f32") return { kind: "scalar", r: `0f${bits}`, t };
    if (t === "f64") return { kind: "scalar", r: `0d${bits}`, t };
    return this.op("mov.b16", t, `0x${bits}`);
  }

  bool(value: boolean): Scalar {
    return this.op("mov.pred", "pred", value ? "-1" : "0");
  }

  /** i64 a + b, folding constants. */
  add64(a: Scalar, b2: Scalar): Scalar {
    if (a.c === 0n) return b2;
    if (b2.c === 0n) return a;
    if (a.c !== undefined && b2.c !== undefined) return this.i64(a.c + b2.c);
    return isImmediate(a) ? this.op("add.s64", "i64", b2, a) : this.op("add.s64", "i64", a, b2);
  }

  /** i64 a · b, folding constants and powers of two. */
  mul64(a: Scalar, b2: Scalar): Scalar {
    if (a.c !== undefined && b2.c !== undefined) return this.i64(a.c * b2.c);
    if (a.c === 1n) return b2;
    if (b2.c === 1n) return a;
    if (a.c === 0n || b2.c === 0n) return this.i64(0);
    const aImmediate = isImmediate(a);
    const x = aImmediate ? b2 : a;
    const k = aImmediate ? a.c! : b2.c;
    if (k !== undefined && k > 0n && (k & (k - 1n)) === 0n) return this.op("shl.b64", "i64", x, String(k.toString(2).length - 1));
    return this.op("mul.lo.s64", "i64", x, k !== undefined ? k.toString() : b2);
  }

  /** i64 a · b + c (`mad.lo.s64`), folding constants. */
  mad64(a: Scalar, b2: Scalar, c: Scalar): Scalar {
    if (a.c !== undefined || b2.c !== undefined || c.c === 0n) return this.add64(this.mul64(a, b2), c);
    return this.op("mad.lo.s64", "i64", a, b2, c);
  }

  /** acc + a · b: `mad.lo.s64` when both factors are registers. */
  mad64OrAdd(a: Scalar, b2: Scalar, acc: Scalar): Scalar {
    return this.mad64(a, b2, acc);
  }

  /** A special register (`%tid.x`) as a u32 register. */
  special(name: string): Scalar {
    return this.op("mov.u32", "i32", name);
  }

  /** A u32 register widened to i64. */
  widen(x: Scalar): Scalar {
    return this.op("cvt.u64.u32", "i64", x);
  }
}

export function isImmediate(x: Scalar): boolean {
  return !x.r.startsWith("%");
}

/** Upper-case hex of the IEEE bits of `value` rounded to `t` (RNE). */
export function floatBits(t: PtxScalar, value: number): string {
  const buf = new DataView(new ArrayBuffer(8));
  if (t === "f64") {
    buf.setFloat64(0, value);
    return buf.getBigUint64(0).toString(16).toUpperCase().padStart(16, "0");
  }
  buf.setFloat32(0, value);
  const f32 = buf.getUint32(0);
  if (t === "f32") return f32.toString(16).toUpperCase().padStart(8, "0");
  if (t === "bf16") {
    // Round the f32 bits to the upper 16 (RNE; NaN stays a quiet NaN).
    if (Number.isNaN(value)) return "7FC0";
    const rounded = (f32 + 0x7fff + ((f32 >>> 16) & 1)) >>> 16;
    return (rounded & 0xffff).toString(16).toUpperCase().padStart(4, "0");
  }
  return Number(floatToBits(roundToFormat(value, "f16"), "f16")).toString(16).toUpperCase().padStart(4, "0");
}

