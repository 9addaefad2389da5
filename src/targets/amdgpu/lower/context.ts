/**
 * The state of lowering one prepared kernel to AMDGPU machine instructions: what each Loom
 * value became (`Lowered`), the machine program being built, and the TARGET diagnostics
 * found on the way. Rules (rules-*.ts) read operands with `get`/`scalar`, emit with `emit`
 * and the arithmetic helpers here, and record results with `set`.
 *
 * Register classes follow uniformity: a value every invocation of the workgroup shares
 * (the verifier's analysis, joined with the operands' classes for values the pipeline
 * made after verification) lives in SGPRs and is computed by the scalar unit; a varying
 * value lives in VGPRs; a varying i1 is a lane mask in SGPRs (one bit per lane), a uniform
 * i1 an SGPR holding 0 or 1. Floats are computed by the vector unit (gfx9 and gfx11 have
 * no scalar float ALU), so a uniform float is an SGPR only when it comes from the kernarg
 * segment. `index`/`offset`/`i64` are 64-bit; a 64-bit value whose upper half is known to
 * be zero (`narrow`) is kept as its low dword, so bounded index arithmetic is 32-bit.
 */
import type { Op, Value } from "../../../ir/core.js";
import type { PrimName, Type } from "../../../ir/types.js";
import type { LoweredLayout } from "../../../ir/strides.js";
import type { PreparedKernel } from "../../../core/prepared.js";
import type { AmdgpuTargetInfo } from "../profile.js";
import type { IsaFamily } from "../isa/family.js";
import { imm, special, type Operand } from "../isa/operands.js";
import { isLiteral } from "../isa/operands.js";
import { INSTRUCTIONS } from "../isa/opcodes.js";
import { MachineProgram, part, type Label, type MInst, type MOperand, type RegClass, type VReg } from "../machine/program.js";
import { KernelLoweringBase, type RegionLowering } from "../../../dialects/lowering.js";

/**
 * The value classes: i8, i16, f16 and bf16 live in the low bits of one 32-bit register (the
 * bits above are unspecified: gfx9's 16-bit ops zero them, gfx11's keep them, wrapping
 * arithmetic leaves carries there), so only ops that read just those bits (stores,
 * conversions, 16-bit VALU, add/mul/bitwise) take them as they are (lower/half.ts, narrow.ts).
 */
export type Carrier = "i1" | "i8" | "i16" | "i32" | "i64" | "f32" | "f16" | "bf16" | "f64";

/**
 * A scalar value: a constant (`c`, the bits), or a register (`reg`, SGPR or VGPR). An i64
 * in a register is a pair unless `narrow` (then `reg` is its low dword and the high dword
 * is zero). `max` is a proven unsigned upper bound (the value is then non-negative).
 * A varying i1 is a lane mask (`mask`).
 */
export interface Scalar {
  readonly kind: "scalar";
  readonly t: Carrier;
  readonly c?: bigint;
  readonly reg?: VReg;
  readonly narrow?: boolean;
  readonly max?: bigint;
  /** A varying i1: one bit per lane in an SGPR (wave32) or SGPR pair (wave64). */
  readonly mask?: boolean;
  /** A register control flow writes more than once (merges, loop-carried values): never reused by CSE. */
  readonly mutable?: boolean;
}

/** Where a buffer lives: global memory (64-bit addresses), LDS or the invocation's scratch (32-bit offsets). */
export type MemorySpace = "global" | "lds" | "scratch";

export type Lowered =
  | Scalar
  | { readonly kind: "vector"; readonly lanes: readonly Scalar[]; readonly t: Carrier }
  | { readonly kind: "buffer"; readonly space: MemorySpace; readonly addr: Scalar }
  | { readonly kind: "view"; readonly space: MemorySpace; readonly base: Scalar; readonly strides: readonly Scalar[]; readonly element: Carrier; readonly bytes: number }
  | LoweredLayout<Scalar>
  | { readonly kind: "invalid" };

export type Rule = (cx: KernelLowering, op: Op) => void;

export function carrierOf(name: PrimName): Carrier | undefined {
  switch (name) {
    case "i1": return "i1";
    case "i8": return "i8";
    case "i16": return "i16";
    case "i32": return "i32";
    case "index": case "offset": case "i64": return "i64";
    case "f32": return "f32";
    case "f16": return "f16";
    case "bf16": return "bf16";
    case "f64": return "f64";
    default: return undefined;
  }
}

const U32 = 0xffffffffn;
/** 2⁶³, once (a BigInt expression allocates each time it is evaluated). */
export const I64_SIGN = 1n << 63n;

/** Memo operation names, by index (a process-wide handful: the integer memo keys hold 4 bits of it). */
const MEMO_OPS = new Map<string, number>();
// 3 bits of kind per operand leave room for four carriers; constants of the others take string keys.
const CARRIER_CODE: Readonly<Record<Carrier, number>> = { i1: 0, i32: 1, i64: 2, f32: 3, i8: -1, i16: -1, f16: -1, bf16: -1, f64: -1 };

export class KernelLowering extends KernelLoweringBase<Lowered, KernelLowering> {
  readonly program = new MachineProgram();
  /** The op whose selection made each virtual register (by id), for diagnostics after allocation. */
  readonly vregOps: Op[] = [];
  private currentOp: Op | undefined;
  private varying: ReadonlySet<Value> = new Set();
  readonly family: IsaFamily;
  readonly wave: 32 | 64;
  /** Hardware-initialized registers the kernel read. */
  workgroupIds = [false, false, false];
  workitemDims: 0 | 1 | 2 = 0;
  usesVcc = false;
  /** Hidden kernel arguments read (code object v5 `hidden_block_count_*`). */
  hiddenBlockCount = [false, false, false];
  /** Whether the code reads the launched workgroup size (`hidden_group_size_*`, lower/hidden.ts). */
  hiddenGroupSize = false;

  /** The next lowered region shares the current CSE scope (an unrolled iteration: straight-line code under the same EXEC). */
  shareNextScope = false;


  constructor(
    kernel: PreparedKernel,
    readonly info: AmdgpuTargetInfo,
    wave: 32 | 64,
    /** SGPR index of the kernarg segment pointer. */
    readonly kernargSgpr: number,
    /** SGPR index of each workgroup id (system SGPRs: x, then y and z when enabled). */
    readonly workgroupIdSgprs: readonly number[],
    /** Kernarg offset of the code object v5 hidden arguments. */
    readonly hiddenArgumentsOffset: number,
    /** The back end's region lowering (kernel.ts), which `lowerRegion` calls for the control rules. */
    regionOps: RegionLowering<KernelLowering, Lowered>,
  ) {
    super(kernel, "AMDGPU", regionOps);
    this.family = info.processor.family;
    this.wave = wave;
  }

  /** gfx940+ `v_lshl_add_u64` (64-bit (a << k) + b in one VALU instruction). */
  get hasLshlAdd64(): boolean {
    return /^gfx94|^gfx950/.test(this.info.processor.name);
  }

  get target(): string {
    return `AMDGPU profile '${this.kernel.profile.identifier}' (${this.info.targetId})`;
  }

  // ---- diagnostics --------------------------------------------------------------------------

  checkTypes(op: Op): boolean {
    return this.selectable(op, op.operands) && this.selectable(op, op.results);
  }

  /** False (after reporting at `op`) when one of `values` has a type the selection lacks. */
  private selectable(op: Op, values: readonly Value[]): boolean {
    for (let i = 0; i < values.length; i++) {
      const t = values[i]!.type;
      const name = t.kind === "prim" ? t.name : t.element.name;
      if (carrierOf(name) !== undefined || name === "buffer" || name === "encoding<layout>" || name.startsWith("view")) continue;
      this.unsupported(op, `'${op.name}' on type '${name}'`, "not selected by the AMDGPU back end");
      return false;
    }
    return true;
  }

  // ---- values -------------------------------------------------------------------------------


  scalar(v: Value): Scalar {
    const l = this.get(v);
    if (l.kind === "scalar") return l;
    if (l.kind === "invalid") return { kind: "scalar", t: this.carrier(v.type) ?? "i32", c: 0n };
    throw new Error(`AMDGPU lowering: '%${v.name}' is a ${l.kind}, not a scalar`);
  }


  carrier(t: Type): Carrier | undefined {
    if (t.kind === "prim") return carrierOf(t.name);
    return carrierOf(t.element.name);
  }

  /** Uniformity of a value of the body (uniformity.ts: the verifier's analysis joined with the body's own). */
  uniform(v: Value): boolean {
    return !this.varying.has(v);
  }

  /** Takes the set itself (bodyVarying makes one per kernel; no copy). */
  setVarying(varying: ReadonlySet<Value>): void {
    this.varying = varying;
  }

  // ---- emission -----------------------------------------------------------------------------
  vreg(cls: RegClass, n: number, fixed?: number): VReg {
    const r = this.program.vreg(cls, n, fixed);
    if (this.currentOp) this.vregOps[r.id] = this.currentOp;
    return r;
  }

  /** The op being selected (the region lowering calls this before each rule). */
  beforeRule(op: Op): void {
    this.currentOp = op;
  }

  emit(mnemonic: string, operands: readonly MOperand[], fields?: Omit<MInst, "mnemonic" | "operands">): void {
    for (let i = 0; i < operands.length; i++) {
      const o = operands[i]!;
      if (o.k === "special" && o.name === "vcc") {
        this.usesVcc = true;
        break;
      }
    }
    // The table row travels with the instruction (dce, copies, allocation, waits and the encoder read it).
    const def = INSTRUCTIONS.get(mnemonic);
    if (fields === undefined) return this.program.emit({ mnemonic, operands, def });
    // Field by field (object spread is a slow generic copy in V8); absent fields stay absent.
    const inst: { -readonly [K in keyof MInst]: MInst[K] } = { mnemonic, operands, def };
    if (fields.simm !== undefined) inst.simm = fields.simm;
    if (fields.offset !== undefined) inst.offset = fields.offset;
    if (fields.glc !== undefined) inst.glc = fields.glc;
    if (fields.sc1 !== undefined) inst.sc1 = fields.sc1;
    if (fields.target !== undefined) inst.target = fields.target;
    this.program.emit(inst);
  }

  label(): Label {
    return this.program.label();
  }

  place(l: Label): void {
    this.program.place(l);
  }

  branch(mnemonic: string, target: Label): void {
    this.program.emit({ mnemonic, operands: [], def: INSTRUCTIONS.get(mnemonic), simm: 0, target });
  }

  get vcc(): Operand {
    this.usesVcc = true;
    return special("vcc", this.wave / 32);
  }

  get exec(): Operand {
    return special("exec", this.wave / 32);
  }

  /** Lane-mask width in SGPRs. */
  get maskDwords(): number {
    return this.wave / 32;
  }

  /** `s_*_b32` or `s_*_b64` for lane-mask operations. */
  maskOp(base: string): string {
    return `${base}_b${this.wave}`;
  }

  /** Facts arith.ts folds through, by result register: k·x (u32 k), x << k, x + k (64-bit). */
  readonly multiples = new Map<VReg, { readonly x: Scalar; readonly k: number }>();
  readonly shifts = new Map<VReg, { readonly x: Scalar; readonly k: number }>();
  readonly offsets = new Map<VReg, { readonly v: Scalar; readonly k: bigint }>();

  private fixedRegs = new Map<string, VReg>();
  private readonly scopes: Map<number | string, Scalar>[] = [new Map()];
  private readonly ids = new Map<object, number>();
  /** Constants by bits, one id each (memo keys), per carrier (CARRIER_CODE). */
  private readonly constantIds = new Map<bigint, number>();

  /** Region scopes for common-subexpression reuse: a value computed in an enclosing region dominates. */
  pushScope(): void {
    this.scopes.push(new Map());
  }
  popScope(): void {
    this.scopes.pop();
  }

  /**
   * `fn()` once per scope chain for the same operation on the same operands (pure helpers
   * only). A register control flow rewrites (a loop-carried value, a merge) is rewritten only
   * after the region reading it ends, so such operands reuse within their own region only.
   */
  memo(op: string, operands: readonly (Scalar | number)[], fn: () => Scalar): Scalar {
    let innermost = false;
    for (let i = 0; i < operands.length; i++) {
      const o = operands[i];
      if (o !== undefined && typeof o !== "number" && o.mutable) innermost = true;
    }
    const key = this.memoKey(op, operands);
    for (let i = this.scopes.length - 1; i >= (innermost ? this.scopes.length - 1 : 0); i--) {
      const hit = this.scopes[i]!.get(key);
      if (hit) return hit;
    }
    const r = fn();
    this.scopes.at(-1)!.set(key, r);
    return r;
  }

  /**
   * The memo key of an operation on operands: registers by the identity of their Scalar,
   * constants by carrier and bits, numbers by value. Usually one safe integer (the op's
   * index, then per operand a 16-bit code: small id × 8 + kind, + 1), else a string.
   */
  private memoKey(op: string, operands: readonly (Scalar | number)[]): number | string {
    let opIndex = MEMO_OPS.get(op);
    if (opIndex === undefined && MEMO_OPS.size < 16) MEMO_OPS.set(op, (opIndex = MEMO_OPS.size));
    if (opIndex !== undefined && operands.length <= 3) {
      let key = 0;
      let scale = 16;
      let packed = true;
      for (let i = 0; i < operands.length && packed; i++) {
        const o = operands[i];
        if (o === undefined) {
          packed = false;
          break;
        }
        let id: number, kind: number;
        if (typeof o === "number") (id = o), (kind = 0);
        else if (o.c !== undefined) {
          let c = this.constantIds.get(o.c);
          if (c === undefined) this.constantIds.set(o.c, (c = this.constantIds.size));
          const code = CARRIER_CODE[o.t];
          if (code < 0) {
            packed = false;
            break;
          }
          (id = c), (kind = 2 + code);
        } else (id = this.idOf(o)), (kind = 1);
        if (!Number.isInteger(id) || id < 0 || id >= 8191) packed = false;
        else {
          key += scale * (id * 8 + kind + 1);
          scale *= 65536;
        }
      }
      if (packed) return opIndex + key;
    }
    let key = `${op}(`;
    for (let i = 0; i < operands.length; i++) {
      const o = operands[i];
      if (o === undefined) continue;
      if (i > 0) key += ",";
      key += typeof o === "number" ? `#${o}` : o.c !== undefined ? `c${o.t}:${o.c}` : `r${this.idOf(o)}`;
    }
    return key + ")";
  }

  private idOf(o: object): number {
    let id = this.ids.get(o);
    if (id === undefined) this.ids.set(o, (id = this.nextId++));
    return id;
  }
  private nextId = 0;

  /** A hardware-initialized register, as one fixed virtual register per kernel. */
  fixedReg(cls: RegClass, index: number, n: number): VReg {
    const key = `${cls}${index}:${n}`;
    let r = this.fixedRegs.get(key);
    if (!r) this.fixedRegs.set(key, (r = this.vreg(cls, n, index)));
    return r;
  }

  kernargPointer(): VReg {
    return this.fixedReg("s", this.kernargSgpr, 2);
  }

  // ---- constants ------------------------------------------------------------------------------
  const(t: Carrier, c: bigint): Scalar {
    if (t === "f64") return { kind: "scalar", t, c: BigInt.asUintN(64, c) };
    const bits = t === "i64" ? BigInt.asUintN(64, c) : t === "i1" ? (c !== 0n ? 1n : 0n) : BigInt.asUintN(32, c);
    if (t === "f16" || t === "bf16" || t === "i16") return { kind: "scalar", t, c: bits & 0xffffn };
    if (t === "i8") return { kind: "scalar", t, c: bits & 0xffn };
    return t === "f32" ? { kind: "scalar", t, c: bits } : { kind: "scalar", t, c: bits, max: t === "i64" && bits >= I64_SIGN ? undefined : bits };
  }

  // ---- operands -------------------------------------------------------------------------------
  isS(x: Scalar): boolean {
    return x.reg?.cls === "s";
  }
  isV(x: Scalar): boolean {
    return x.reg?.cls === "v";
  }

  /** A 32-bit operand (the low dword of a 64-bit value). */
  lo(x: Scalar): MOperand {
    if (x.c !== undefined) return imm(Number(x.c & U32));
    return x.t === "i64" && !x.narrow ? part(x.reg!, 0, 1) : part(x.reg!, 0, 1);
  }

  /** The high dword of a 64-bit value. */
  hi(x: Scalar): MOperand {
    if (x.c !== undefined) return imm(Number((x.c >> 32n) & U32));
    return x.narrow ? imm(0) : part(x.reg!, 1, 1);
  }

  /** Whether the 64-bit value's high dword is zero. */
  hiZero(x: Scalar): boolean {
    return x.narrow === true || (x.c !== undefined && x.c >= 0n && x.c <= U32);
  }

  /** x in a 32-bit VGPR (moves SGPRs and immediates). */
  v32(o: MOperand): MOperand {
    if (o.k === "vreg" && o.r.cls === "v") return o;
    const d = this.vreg("v", 1);
    this.emit("v_mov_b32", [part(d), o]);
    return part(d);
  }

  /** A whole 1-dword VGPR holding the 32-bit operand (a register of its own when `o` is part of a tuple). */
  own32(o: MOperand): VReg {
    if (o.k === "vreg" && o.r.cls === "v" && o.r.n === 1) return o.r;
    const d = this.vreg("v", 1);
    this.emit("v_mov_b32", [part(d), o]);
    return d;
  }

  /** Any operand (1 or 2 dwords) in VGPRs. */
  toVgpr(o: MOperand): MOperand {
    const n = o.k === "vreg" || o.k === "s" || o.k === "v" ? o.n : 1;
    if (n === 1) return this.v32(o);
    if (o.k === "vreg" && o.r.cls === "v") return o;
    const d = this.vreg("v", 2);
    if (o.k === "vreg") {
      this.emit("v_mov_b32", [part(d, 0, 1), part(o.r, o.sub, 1)]);
      this.emit("v_mov_b32", [part(d, 1, 1), part(o.r, o.sub + 1, 1)]);
    } else throw new Error("AMDGPU lowering: a 64-bit operand outside a register");
    return part(d);
  }

  /** An operand usable where gfx9 VOP3 forbids literals (moved into an SGPR). */
  vop3(o: MOperand): MOperand {
    if (this.family === "gfx9" && o.k === "imm" && isLiteral(o)) {
      const d = this.vreg("s", 1);
      this.emit("s_mov_b32", [part(d), o]);
      return part(d);
    }
    return o;
  }

  /** A 32-bit SGPR operand or inline/literal immediate for SALU sources. */
  s32(o: MOperand): MOperand {
    return o;
  }

  /** The 64-bit value in a VGPR pair. */
  vpair(x: Scalar): VReg {
    if (x.reg && x.reg.cls === "v" && !x.narrow && x.reg.n === 2) return x.reg;
    const d = this.vreg("v", 2);
    this.emit("v_mov_b32", [part(d, 0, 1), this.lo(x)]);
    this.emit("v_mov_b32", [part(d, 1, 1), this.hi(x)]);
    return d;
  }

  /** The 64-bit value in an SGPR pair (x must not be a VGPR value). */
  spair(x: Scalar): VReg {
    if (x.reg && x.reg.cls === "s" && !x.narrow && x.reg.n === 2) return x.reg;
    const d = this.vreg("s", 2);
    if (x.c !== undefined && this.inline64(x.c)) {
      this.emit("s_mov_b64", [part(d), imm(Number(BigInt.asIntN(32, x.c)))]);
      return d;
    }
    this.emit("s_mov_b32", [part(d, 0, 1), this.lo(x)]);
    this.emit("s_mov_b32", [part(d, 1, 1), this.hi(x)]);
    return d;
  }

  /** A 64-bit constant that is an inline constant of a 64-bit operand. */
  inline64(c: bigint): boolean {
    const s = BigInt.asIntN(64, c);
    return s >= -16n && s <= 64n;
  }

  /** A 64-bit operand for VALU sources: a pair register or an inline constant. */
  src64(x: Scalar): MOperand {
    if (x.c !== undefined && this.inline64(x.c)) return imm(Number(BigInt.asIntN(32, x.c)));
    if (x.reg && !x.narrow && x.reg.n === 2) return part(x.reg);
    return part(this.isS(x) || x.c !== undefined ? this.spairOrV(x) : this.vpair(x));
  }

  private spairOrV(x: Scalar): VReg {
    return x.reg?.cls === "v" ? this.vpair(x) : this.spair(x);
  }

  // ---- results --------------------------------------------------------------------------------
  sval(t: Carrier, reg: VReg, extra?: Partial<Scalar>): Scalar {
    return extra === undefined ? { kind: "scalar", t, reg } : { kind: "scalar", t, reg, ...extra };
  }

  /** Sum of two upper bounds, when both are known. */
  static addMax(a?: bigint, b?: bigint): bigint | undefined {
    return a !== undefined && b !== undefined ? a + b : undefined;
  }
}

/** Result `i` of `op` (the registry's arity guarantees it; a missing one is a lowering bug). */
export function resultOf(op: Op, i = 0): Value {
  const r = op.results[i];
  if (r === undefined) throw new Error(`AMDGPU lowering: '${op.name}' has no result ${i}`);
  return r;
}

/** Operand `i` of `op` (as resultOf). */
export function operandOf(op: Op, i: number): Value {
  const v = op.operands[i];
  if (v === undefined) throw new Error(`AMDGPU lowering: '${op.name}' has no operand ${i}`);
  return v;
}

export const fitsU32 = (max: bigint | undefined): boolean => max !== undefined && max <= U32;
