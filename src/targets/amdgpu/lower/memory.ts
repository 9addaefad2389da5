/**
 * Buffers, views and atomics. A global buffer is its 64-bit address (from the kernarg
 * segment); a workgroup buffer is its byte offset in LDS (the allocation offset the
 * pipeline assigned). A view is the address of element (0, …, 0) and element strides. An
 * access computes `base + size·Σ iⱼ·sⱼ` (constant parts folded into the instruction's
 * offset field where it fits), then
 *
 *   global: global_load/store_b32|b64|b128 vdst, v[addr:addr+1], off offset:k
 *   LDS:    ds_load/store_b32 vdst, vaddr offset:k   (32-bit addresses)
 *
 * Rank-1 vectors of 2 or 4 dwords along a unit-stride axis are one b64/b128 global access.
 * Atomics: global_atomic_* / ds_* (returning forms when the result is used), cmpxchg on 32-
 * and 64-bit elements of either space, atomic loads and stores; orderings at every scope.
 */
import type { Op, Value } from "../../../ir/core.js";
import { indicesOf } from "../../../dialects/registry.js";
import type { VectorType, ViewType } from "../../../ir/types.js";
import { viewElementStrides } from "../../../ir/strides.js";
import { layoutLowering } from "../../../dialects/layouts.js";
import { imm, OFF } from "../isa/operands.js";
import { part, type MOperand, type VReg } from "../machine/program.js";
import { add64, constantOffset, int32, lshlAdd64, mul64, shl64 } from "./arith.js";
import { drain } from "./kernel-rules.js";
import { operandOf, resultOf, type Carrier, type KernelLowering, type Lowered, type MemorySpace, type Rule, type Scalar } from "./context.js";
import { MAX_PRIVATE_SEGMENT_BYTES, privateLayout } from "./scratch.js";
import { passOperandsThrough } from "../../../dialects/lowering.js";

type Cx = KernelLowering;
type ViewValue = Extract<Lowered, { kind: "view" }>;

const BYTES: Record<Carrier, number> = { i1: 4, i8: 1, i16: 2, i32: 4, i64: 8, f32: 4, f16: 2, bf16: 2, f64: 8 };

function indexScalars(cx: Cx, op: Op): Scalar[] {
  return indicesOf(op).map((i) => (typeof i === "bigint" ? cx.const("i64", i) : cx.scalar(i)));
}

/** Splits `x` into a register part and a constant (for offset fields). */
function splitConstant(x: Scalar): { v?: Scalar; k: bigint } {
  return x.c !== undefined ? { k: BigInt.asIntN(64, x.c) } : { v: x, k: 0n };
}

/** Element offset Σ iⱼ·sⱼ as (register part, constant elements). */
function elementOffset(cx: Cx, view: ViewValue, indices: readonly Scalar[], split: (x: Scalar, cx: Cx) => { v?: Scalar; k: bigint }): { v?: Scalar; k: bigint } {
  let v: Scalar | undefined;
  let k = 0n;
  indices.forEach((i, d) => {
    const term = mul64(cx, i, view.strides[d]!);
    const s = split(term, cx);
    k += s.k;
    if (s.v) v = v ? add64(cx, v, s.v) : s.v;
  });
  return v ? { v, k } : { k };
}

interface Address {
  /** global: a VGPR pair; LDS: a 32-bit VGPR; scratch: a 32-bit VGPR or `off` (the offset alone). */
  readonly reg: MOperand;
  readonly offset: number;
}

/** x·s in 32 bits (x or s a register): a copy, a shift or a multiply. */
function scale32(cx: Cx, x: Scalar, s: Scalar): Scalar {
  const k = s.c !== undefined ? s : x.c !== undefined ? x : undefined;
  const r = k === s ? x : s;
  if (k?.c !== undefined) {
    const c = BigInt.asUintN(32, k.c);
    if (c === 1n) return r;
    if (c !== 0n && (c & (c - 1n)) === 0n) return cx.memo("shl32", [r, c.toString(2).length - 1], () => int32(cx, "shl", r, cx.const("i32", BigInt(c.toString(2).length - 1))));
  }
  return cx.memo("mul32", [x, s], () => int32(cx, "mul", x, s));
}

/**
 * An LDS or scratch address is 32 bits (LDS below 64 KiB, scratch below the private
 * segment's size): the low dword of `base + size·Σ iⱼ·sⱼ`, which 32-bit arithmetic gives
 * directly (sums, products and shifts agree mod 2³²), so no 64-bit pairs are built for it.
 * A constant scratch address is the offset field alone (`off` in the address operand).
 */
function ldsAddress(cx: Cx, view: ViewValue, indices: readonly Scalar[]): Address {
  let k = 0n;
  let sum: Scalar | undefined;
  indices.forEach((i, d) => {
    const stride = view.strides[d]!;
    if (i.c !== undefined && stride.c !== undefined) {
      k += BigInt.asIntN(64, i.c) * BigInt.asIntN(64, stride.c);
      return;
    }
    // Each term in bytes (one shift for `i·(s·size)` when the stride is a constant).
    const bytes = BigInt(view.bytes);
    const term = stride.c !== undefined ? scale32(cx, i, cx.const("i32", BigInt.asUintN(32, stride.c * bytes))) : scale32(cx, scale32(cx, i, stride), cx.const("i32", bytes));
    const prior = sum;
    sum = prior ? cx.memo("add32", [prior, term], () => int32(cx, "add", prior, term)) : term;
  });
  k *= BigInt(view.bytes);
  const base = splitConstant(view.base);
  k += base.k;
  if (base.v) {
    const prior = sum, b = base.v;
    sum = prior ? cx.memo("add32", [prior, b], () => int32(cx, "add", prior, b)) : b;
  }
  // LDS offsets are 16 bits, scratch offsets 12 (of a signed 13); other constants join the register part.
  let offset = Number(BigInt.asIntN(32, k));
  if (offset < 0 || offset > (view.space === "scratch" ? SCRATCH_MAX_OFFSET : 0xffff)) {
    const c = cx.const("i32", BigInt.asUintN(32, k));
    sum = sum ? int32(cx, "add", sum, c) : c;
    offset = 0;
  }
  if (!sum && view.space === "scratch") return { reg: OFF, offset };
  return { reg: cx.v32(sum ? cx.lo(sum) : imm(0)), offset };
}

const SCRATCH_MAX_OFFSET = 4095;

function address(cx: Cx, view: ViewValue, indices: readonly Scalar[]): Address {
  if (view.space !== "global") return ldsAddress(cx, view, indices);
  const shift = Math.log2(view.bytes);
  const base = splitConstant(view.base);
  // Indices that are `x + c` (arith.ts constantOffset) share x's address, c in the offset
  // field, unless the offset then does not fit (the sums themselves are as cheap).
  let e = elementOffset(cx, view, indices, constantOffset);
  const fits = (elements: bigint) => {
    const bytes = elements * BigInt(view.bytes) + base.k;
    return bytes >= -4096n && bytes <= 4095n;
  };
  if (!fits(e.k)) e = elementOffset(cx, view, indices, splitConstant);
  let k = e.k * BigInt(view.bytes);
  k += base.k;
  let sum: Scalar | undefined;
  const wide = e.v !== undefined && !(cx.hiZero(e.v) && e.v.max !== undefined && e.v.max << BigInt(shift) <= 0xffffffffn);
  if (e.v && base.v && view.space === "global" && cx.hasLshlAdd64 && wide) sum = cx.memo("lshlAdd64", [e.v, shift, base.v], () => lshlAdd64(cx, e.v!, shift, base.v!));
  else {
    sum = e.v ? shl64(cx, e.v, shift) : undefined;
    if (base.v) sum = sum ? add64(cx, base.v, sum) : base.v;
  }
  let offset = Number(k);
  if (offset < -4096 || offset > 4095) {
    sum = sum ? add64(cx, sum, cx.const("i64", k)) : cx.const("i64", k);
    offset = 0;
  }
  return { reg: part(cx.vpair(sum ?? cx.const("i64", 0n))), offset };
}

const SIZE_SUFFIX: Record<number, string> = { 1: "b32", 2: "b64", 4: "b128" };

/** Elements narrower than a dword: zero-extending loads (the high half of a 16-bit float is unspecified anyway) and truncating stores. */
const NARROW_LOAD: Record<number, string> = { 1: "u8", 2: "u16" };
const NARROW_STORE: Record<number, string> = { 1: "b8", 2: "b16" };

function load(cx: Cx, view: ViewValue, at: Address, dwords: number): VReg {
  const d = cx.vreg("v", Math.max(1, dwords));
  const suffix = view.bytes < 4 ? NARROW_LOAD[view.bytes]! : SIZE_SUFFIX[dwords]!;
  if (view.space === "lds") cx.emit(`ds_load_${suffix}`, [part(d), at.reg], { offset: at.offset });
  else if (view.space === "scratch") cx.emit(`scratch_load_${suffix}`, [part(d), at.reg, OFF], { offset: at.offset });
  else cx.emit(`global_load_${suffix}`, [part(d), at.reg, OFF], { offset: at.offset });
  return d;
}

function store(cx: Cx, view: ViewValue, at: Address, data: VReg): void {
  const suffix = view.bytes < 4 ? NARROW_STORE[view.bytes]! : SIZE_SUFFIX[data.n]!;
  if (view.space === "lds") cx.emit(`ds_store_${suffix}`, [at.reg, part(data)], { offset: at.offset });
  else if (view.space === "scratch") cx.emit(`scratch_store_${suffix}`, [at.reg, part(data), OFF], { offset: at.offset });
  else cx.emit(`global_store_${suffix}`, [at.reg, part(data), OFF], { offset: at.offset });
}

/** A scalar's dwords in VGPRs, for store data. */
function dataRegs(cx: Cx, x: Scalar): VReg {
  if (x.t === "i64" || x.t === "f64") return cx.vpair(x);
  return cx.own32(cx.lo(x.mask ? boolToInt(cx, x) : x));
}

function boolToInt(cx: Cx, x: Scalar): Scalar {
  const d = cx.vreg("v", 1);
  cx.emit("v_cndmask_b32_e64", [part(d), imm(0), imm(1), part(x.reg!)]);
  return cx.sval("i32", d);
}

function elementCarrier(cx: Cx, op: Op, result: number): Carrier | undefined {
  return cx.carrier(op.results[result]!.type);
}

// ---- buffers and views --------------------------------------------------------------------

const allocaRule: Rule = (cx, op) => {
  const a = cx.kernel.allocations.get(op);
  if (op.props.space === "workgroup" && a?.offset !== undefined) return cx.set(resultOf(op), { kind: "buffer", space: "lds", addr: cx.const("i64", BigInt(a.offset)) });
  const offset = privateLayout(cx.kernel).offsets.get(op);
  if (op.props.space !== "private" || offset === undefined) {
    cx.unsupported(op, `'buffer.alloca<${String(op.props.space)}>' without a proven size`);
    return cx.poison(op);
  }
  if (!cx.info.processor.architectedFlatScratch) {
    cx.unsupported(op, `'buffer.alloca<private>' on ${cx.info.processor.name}`, "private memory is selected where flat scratch is architected (gfx94x, gfx11); gfx90a's scratch buffer setup is not written");
    return cx.poison(op);
  }
  const total = privateLayout(cx.kernel).bytes;
  if (total > MAX_PRIVATE_SEGMENT_BYTES) {
    cx.unsupported(op, `${total} bytes of private memory per invocation`, `the AMDGPU back end lays out at most ${MAX_PRIVATE_SEGMENT_BYTES} bytes of scratch per invocation`);
    return cx.poison(op);
  }
  cx.set(resultOf(op), { kind: "buffer", space: "scratch", addr: cx.const("i64", BigInt(offset)) });
};


/** Element strides of a view type (ir/strides.ts). */
function stridesOf(cx: Cx, type: ViewType): Scalar[] | undefined {
  return viewElementStrides<Scalar>(type, {
    constant: (n) => cx.const("i64", BigInt(n)),
    extent: (v) => cx.scalar(v),
    mul: (a, b) => mul64(cx, a, b),
    lowered: (v) => cx.get(v),
  })?.strides;
}

const viewRule: Rule = (cx, op) => {
  const buf = cx.get(operandOf(op, 0));
  if (buf.kind !== "buffer") return cx.poison(op);
  const element = cx.carrier(resultOf(op).type);
  if (!element || element === "i1") {
    cx.unsupported(op, "a view of this element type", "views hold i8 to i64 and float elements");
    return cx.poison(op);
  }
  const strides = stridesOf(cx, resultOf(op).type as ViewType);
  if (!strides) return cx.poison(op);
  const base = add64(cx, buf.addr, cx.scalar(operandOf(op, 1)));
  cx.set(resultOf(op), { kind: "view", space: buf.space, base, strides, element, bytes: BYTES[element] });
};

const subviewRule: Rule = (cx, op) => {
  const v = cx.get(operandOf(op, 0));
  if (v.kind !== "view") return cx.poison(op);
  const e = elementOffset(cx, v, indexScalars(cx, op), splitConstant);
  const bytes = e.v ? shl64(cx, e.v, Math.log2(v.bytes)) : cx.const("i64", 0n);
  const base = add64(cx, add64(cx, v.base, bytes), cx.const("i64", e.k * BigInt(v.bytes)));
  cx.set(resultOf(op), { ...v, base });
};


function scalarOf(t: Carrier, d: VReg, cx: Cx): Scalar {
  return cx.sval(t, d);
}

const loadRule: Rule = (cx, op) => {
  const v = cx.get(operandOf(op, 0));
  if (v.kind !== "view") return cx.poison(op);
  const t = elementCarrier(cx, op, 0)!;
  const d = load(cx, v, address(cx, v, indexScalars(cx, op)), v.bytes / 4);
  cx.set(resultOf(op), scalarOf(t, d, cx));
};

const storeRule: Rule = (cx, op) => {
  const v = cx.get(operandOf(op, 1));
  if (v.kind !== "view") return;
  store(cx, v, address(cx, v, indexScalars(cx, op)), dataRegs(cx, cx.scalar(operandOf(op, 0))));
};

// ---- vectors ------------------------------------------------------------------------------

function vectorShape(op: Op, operand: number | "result"): readonly number[] {
  const t = (operand === "result" ? resultOf(op) : operandOf(op, operand)).type as VectorType;
  return t.shape;
}

/**
 * The origins of a vector access's rows: the vector's axes map onto the view's trailing axes,
 * so a rank-k access is the rank-1 accesses along the last axis at every index of the first
 * k − 1 vector axes (row-major, the order of the vector's lanes).
 */
function rowOrigins(cx: Cx, op: Op, shape: readonly number[]): Scalar[][] {
  const origin = indexScalars(cx, op);
  const first = origin.length - shape.length;
  let rows: Scalar[][] = [origin];
  for (const [axis, extent] of shape.slice(0, -1).entries()) {
    const d = first + axis;
    rows = rows.flatMap((o) => Array.from({ length: extent }, (_, k) => (k === 0 ? o : o.map((x, i) => (i === d ? add64(cx, x, cx.const("i64", BigInt(k))) : x)))));
  }
  return rows;
}

/**
 * The address of each lane of a row (a rank-1 access along the view's last axis from
 * `origin`): on a unit-stride last axis, lane i is lane 0's address with i·element bytes more
 * in the instruction's offset field (one address register for all lanes) while the offset
 * fits; otherwise each lane's own address.
 */
function laneAddresses(cx: Cx, v: ViewValue, origin: readonly Scalar[], n: number): Address[] {
  const fits = (o: number) => (v.space === "lds" ? o >= 0 && o <= 0xffff : v.space === "scratch" ? o >= 0 && o <= SCRATCH_MAX_OFFSET : o >= -4096 && o <= 4095);
  if (v.strides.at(-1)?.c === 1n) {
    const first = address(cx, v, origin);
    if (fits(first.offset + (n - 1) * v.bytes)) return Array.from({ length: n }, (_, i) => ({ reg: first.reg, offset: first.offset + i * v.bytes }));
  }
  const last = origin.length - 1;
  return Array.from({ length: n }, (_, lane) => address(cx, v, origin.map((x, d) => (d === last ? add64(cx, x, cx.const("i64", BigInt(lane))) : x))));
}

function wholeAccess(v: ViewValue, n: number): boolean {
  return v.space === "global" && v.bytes === 4 && (n === 2 || n === 4) && v.strides.at(-1)?.c === 1n;
}

const vectorLoad: Rule = (cx, op) => {
  const v = cx.get(operandOf(op, 0));
  const shape = vectorShape(op, "result");
  if (v.kind !== "view") return cx.poison(op);
  const n = shape.at(-1)!;
  const t = v.element;
  const lanes = rowOrigins(cx, op, shape).flatMap((origin): Scalar[] => {
    if (!wholeAccess(v, n)) return laneAddresses(cx, v, origin, n).map((at) => scalarOf(t, load(cx, v, at, v.bytes / 4), cx));
    const d = load(cx, v, address(cx, v, origin), n);
    return Array.from({ length: n }, (_, i) => {
      const r = cx.vreg("v", 1);
      cx.emit("v_mov_b32", [part(r), part(d, i, 1)]);
      return cx.sval(t, r);
    });
  });
  cx.set(resultOf(op), { kind: "vector", lanes, t });
};

const vectorStore: Rule = (cx, op) => {
  const v = cx.get(operandOf(op, 1));
  const value = cx.get(operandOf(op, 0));
  const shape = vectorShape(op, 0);
  if (v.kind !== "view" || value.kind !== "vector") return;
  const n = shape.at(-1)!;
  rowOrigins(cx, op, shape).forEach((origin, row) => {
    const lanes = value.lanes.slice(row * n, row * n + n);
    if (!wholeAccess(v, n)) return laneAddresses(cx, v, origin, n).forEach((at, i) => store(cx, v, at, dataRegs(cx, lanes[i]!)));
    const d = cx.vreg("v", n);
    lanes.forEach((l, i) => cx.emit("v_mov_b32", [part(d, i, 1), cx.lo(l)]));
    store(cx, v, address(cx, v, origin), d);
  });
};

/** The view operand of a plain access (`view.load`/`store`, `vector.load`/`store`), by op name. */
const VIEW_OPERAND: Readonly<Record<string, number>> = { "view.load": 0, "vector.load": 0, "view.store": 1, "vector.store": 1 };

/** Whether `op` is a plain access (`view.load`/`store`, `vector.load`/`store`). */
export const isPlainAccess = (op: Op): boolean => VIEW_OPERAND[op.name] !== undefined;

/**
 * Computes the address arithmetic of the plain access `op` now, in the current CSE scope, when
 * its view and indices are `available` (already lowered), so that selecting `op` later, inside
 * a region, finds every part of it memoized. control.ts calls it before a varying `scf.if`:
 * computed under the if's EXEC mask, the address would hold only those lanes and could not
 * be shared with the next guarded access (LLVM hoists such arithmetic out of conditional blocks).
 */
export function precomputeAddress(cx: Cx, op: Op, available: (v: Value) => boolean): void {
  const at = VIEW_OPERAND[op.name];
  const view = at === undefined ? undefined : op.operands[at];
  if (!view || !available(view) || !indicesOf(op).every((i) => typeof i === "bigint" || available(i))) return;
  const v = cx.get(view);
  const indices = indexScalars(cx, op);
  // The memo reuses a register control flow rewrites (a loop's induction variable) only in its
  // own region: the branch would compute the address again.
  if (v.kind === "view" && !v.base.mutable && !indices.some((i) => i.mutable)) address(cx, v, indices);
}

// ---- atomics ------------------------------------------------------------------------------

const GLOBAL_ATOMICS: Record<string, string> = {
  addi: "global_atomic_add_u32", subi: "global_atomic_sub_u32", andi: "global_atomic_and_b32", ori: "global_atomic_or_b32", xori: "global_atomic_xor_b32",
  minsi: "global_atomic_min_i32", maxsi: "global_atomic_max_i32", minui: "global_atomic_min_u32", maxui: "global_atomic_max_u32",
  xchgi: "global_atomic_swap_b32", xchgf: "global_atomic_swap_b32", addf: "global_atomic_add_f32",
};
/** The 64-bit forms: the 32-bit mnemonic with the 64-bit type suffix. */
const to64 = (m: string) => m.replace(/32$/, "64");
const GLOBAL_ATOMICS_64: Record<string, string> = Object.fromEntries(Object.entries(GLOBAL_ATOMICS).filter(([k]) => k.endsWith("i")).map(([k, m]) => [k, to64(m)]));
const LDS_ATOMICS: Record<string, string> = {
  addi: "ds_add", subi: "ds_sub", andi: "ds_and", ori: "ds_or", xori: "ds_xor", minsi: "ds_min", maxsi: "ds_max", minui: "ds_min", maxui: "ds_max", addf: "ds_add",
  xchgi: "ds_swap", xchgf: "ds_swap",
};
const LDS_SUFFIX: Record<string, string> = { addi: "u32", subi: "u32", andi: "b32", ori: "b32", xori: "b32", minsi: "i32", maxsi: "i32", minui: "u32", maxui: "u32", addf: "f32", xchgi: "b32", xchgf: "b32" };
/** LDS exchanges exist only with a return (`ds_wrxchg_rtn` / `ds_storexchg_rtn`). */
const RETURN_ONLY = new Set(["ds_swap"]);

/**
 * The fences an atomic's ordering needs (AMDGPUUsage memory model, as llc-19 emits it for
 * non-tgsplit gfx942 and gfx11 in WGP mode) and its scope level (0 = workgroup or narrower,
 * 1 = device, 2 = system). Release = every earlier memory access finished (`s_waitcnt
 * vmcnt(0) lgkmcnt(0)`, gfx11 also vscnt), at device/system scope on gfx94x after writing
 * back L2 (`buffer_wbl2 sc1`, system `sc0 sc1`); acquire = the atomic finished, then the
 * caches the scope does not share invalidated: gfx11 the WGP's L0 (`buffer_gl0_inv`; device and
 * system also GL1, `buffer_gl1_inv` first), gfx94x at device/system scope `buffer_inv sc1`
 * (system `sc0 sc1`). gfx90a (non-tgsplit) has no SC bits: device scope needs no write-back
 * and acquires with `buffer_wbinvl1_vol` (its L1); system scope writes L2 back first
 * (`buffer_wbl2`) and acquires with `buffer_invl2` then `buffer_wbinvl1_vol`; its atomic loads
 * carry `glc`, its stores and read-modify-writes nothing beyond `glc` to return.
 */
function atomicFences(cx: Cx, op: Op, ordering = String(op.props.ordering ?? "relaxed"), failure = "relaxed"): { release: boolean; acquire: boolean; level: number } | undefined {
  const scope = String(op.props.scope ?? "device");
  const level = scope === "system" ? 2 : scope === "device" ? 1 : 0;
  const relaxed = ordering === "relaxed" && failure === "relaxed";
  const both = ordering === "acq_rel" || ordering === "seq_cst";
  return { release: both || ordering === "release", acquire: both || ordering === "acquire" || !relaxed && failure !== "relaxed", level };
}

/** gfx94x and gfx950 keep caches coherent with SC bits; gfx90a with glc and its own cache operations. */
const hasScBits = (cx: Cx) => cx.family === "gfx9" && cx.info.processor.name !== "gfx90a";

/**
 * The cache bits of an atomic's own access at scope `level`: gfx94x SC0 (`glc`) as `sc0`
 * asks, SC1 beyond workgroup scope; gfx90a `glc` as `sc0` asks at workgroup scope and none
 * beyond it (its atomic loads add `glc` themselves).
 */
const scopeBits = (cx: Cx, level: number, sc0: boolean) => {
  if (cx.family !== "gfx9") return {};
  if (!hasScBits(cx)) return level > 0 ? {} : { glc: sc0 };
  return { glc: sc0, ...(level > 0 ? { sc1: true } : {}) };
};

/** SC1 on a read-modify-write at system scope (gfx94x only). */
const systemSc1 = (cx: Cx, level: number) => (level === 2 && hasScBits(cx) ? { sc1: true } : {});

function releaseFence(cx: Cx, level: number): void {
  if (level > 0 && hasScBits(cx)) cx.emit("buffer_wbl2", [], scopeBits(cx, level, level === 2));
  else if (level === 2 && cx.family === "gfx9") cx.emit("buffer_wbl2", []);
  drain(cx);
}

/** Atomics on private memory: no other invocation can see it, but no scratch atomic is written. */
function privateAtomic(cx: Cx, op: Op): void {
  cx.unsupported(op, `'${op.name}' on private memory`, "use view.load/view.store on a private buffer (no other invocation can see it)");
}

function acquireFence(cx: Cx, space: MemorySpace, level = 0): void {
  drain(cx);
  if (level > 0) {
    if (hasScBits(cx)) return cx.emit("buffer_inv", [], scopeBits(cx, level, level === 2));
    if (cx.family === "gfx9") {
      if (level === 2) cx.emit("buffer_invl2", []);
      return cx.emit("buffer_wbinvl1_vol", []);
    }
    cx.emit("buffer_gl1_inv", []);
  }
  if (cx.family === "gfx11" && (space === "global" || level > 0)) cx.emit("buffer_gl0_inv", []);
}

const rmwRule: Rule = (cx, op) => {
  const kind = String(op.props.kind);
  const v = cx.get(operandOf(op, 1));
  const fences = v.kind === "view" ? atomicFences(cx, op) : undefined;
  if (v.kind !== "view" || !fences) return cx.poison(op);
  if (v.space === "scratch") {
    privateAtomic(cx, op);
    return cx.poison(op);
  }
  const bytes = v.bytes;
  if ((bytes !== 4 && bytes !== 8) || (bytes === 8 && kind.endsWith("f"))) {
    cx.unsupported(op, `'${kind}' atomics on '${v.element}' elements`);
    return cx.poison(op);
  }
  const result = op.results[0];
  const at = address(cx, v, indexScalars(cx, op));
  const data = dataRegs(cx, cx.scalar(operandOf(op, 0)));
  if (fences.release) releaseFence(cx, fences.level);
  const space = v.space;
  const after = () => fences.acquire && acquireFence(cx, space, fences.level);
  const base = (space === "lds" ? LDS_ATOMICS : bytes === 8 ? GLOBAL_ATOMICS_64 : GLOBAL_ATOMICS)[kind];
  if (!base) {
    cx.unsupported(op, `'${kind}' atomics on ${space === "lds" ? "workgroup" : "global"} memory`);
    return cx.poison(op);
  }
  const returns = (result !== undefined && (cx.kernel.uses.get(result) ?? 0) > 0) || RETURN_ONLY.has(base);
  const d = returns ? cx.vreg("v", bytes / 4) : undefined;
  if (space === "lds") {
    const suffix = bytes === 8 ? to64(LDS_SUFFIX[kind]!) : LDS_SUFFIX[kind]!;
    if (d) cx.emit(`${base}_rtn_${suffix}`, [part(d), at.reg, part(data)], { offset: at.offset });
    else cx.emit(`${base}_${suffix}`, [at.reg, part(data)], { offset: at.offset });
  } else if (d) cx.emit(base, [part(d), at.reg, part(data), OFF], { offset: at.offset, glc: true, ...systemSc1(cx, fences.level) });
  else cx.emit(base, [at.reg, part(data), OFF], { offset: at.offset, ...systemSc1(cx, fences.level) });
  after();
  if (result) cx.set(result, d ? cx.sval(v.element, d) : { kind: "invalid" });
};

/** The view operand of an atomic access and its fences, or undefined (reported) when not selected. */
function atomicAccess(cx: Cx, op: Op, at: number, fences: ReturnType<typeof atomicFences>): ViewValue | undefined {
  const v = cx.get(operandOf(op, at));
  if (v.kind !== "view" || !fences) return undefined;
  if (v.space === "scratch") return void privateAtomic(cx, op);
  return v;
}

/**
 * Atomic load and store (LLVM's sequences): an ordinary access, with glc on gfx11 global
 * loads and on gfx94x the scope's SC bits on global loads and stores (workgroup sc0, device
 * sc1, system sc0 sc1); the ordering's fences around it as for read-modify-writes (a seq_cst
 * load also releases first, as LLVM does).
 */
const atomicLoadRule: Rule = (cx, op) => {
  const fences = atomicFences(cx, op);
  const v = atomicAccess(cx, op, 0, fences);
  if (!v) return cx.poison(op);
  const at = address(cx, v, indexScalars(cx, op));
  if (fences!.release) releaseFence(cx, fences!.level);
  const d = cx.vreg("v", Math.max(1, v.bytes / 4));
  const suffix = v.bytes < 4 ? NARROW_LOAD[v.bytes]! : SIZE_SUFFIX[d.n]!;
  if (v.space === "lds") cx.emit(`ds_load_${suffix}`, [part(d), at.reg], { offset: at.offset });
  else cx.emit(`global_load_${suffix}`, [part(d), at.reg, OFF], { offset: at.offset, glc: true, ...scopeBits(cx, fences!.level, fences!.level !== 1) });
  if (fences!.acquire) acquireFence(cx, v.space, fences!.level);
  cx.set(resultOf(op), scalarOf(elementCarrier(cx, op, 0)!, d, cx));
};

const atomicStoreRule: Rule = (cx, op) => {
  const fences = atomicFences(cx, op);
  const v = atomicAccess(cx, op, 1, fences);
  if (!v) return;
  const at = address(cx, v, indexScalars(cx, op));
  const data = dataRegs(cx, cx.scalar(operandOf(op, 0)));
  if (fences!.release) releaseFence(cx, fences!.level);
  const suffix = v.bytes < 4 ? NARROW_STORE[v.bytes]! : SIZE_SUFFIX[data.n]!;
  if (v.space === "lds") cx.emit(`ds_store_${suffix}`, [at.reg, part(data)], { offset: at.offset });
  else cx.emit(`global_store_${suffix}`, [at.reg, part(data), OFF], { offset: at.offset, ...scopeBits(cx, fences!.level, fences!.level !== 1) });
};

/**
 * `view.atomic.cmpxchg %expected, %desired, %v[i]` on 32- and 64-bit elements, returning
 * the old value; the stronger of the two orderings' fences (a failure ordering adds only
 * acquire).
 *
 *   global: global_atomic_cmpswap_b32|b64 with one data tuple {desired, expected} (glc
 *           when the result is used)
 *   LDS:    gfx11 ds_cmpstore[_rtn]_b32|b64 addr, desired, expected;
 *           gfx9  ds_cmpst[_rtn]_b32|b64 addr, expected, desired (the operands swap)
 */
const cmpxchgRule: Rule = (cx, op) => {
  const fences = atomicFences(cx, op, String(op.props.successOrdering ?? "relaxed"), String(op.props.failureOrdering ?? "relaxed"));
  const v = atomicAccess(cx, op, 2, fences);
  if (!v) return cx.poison(op);
  const dwords = v.bytes / 4;
  if (dwords !== 1 && dwords !== 2) {
    cx.unsupported(op, `'view.atomic.cmpxchg' on '${v.element}' elements`);
    return cx.poison(op);
  }
  const at = address(cx, v, indexScalars(cx, op));
  const suffix = SIZE_SUFFIX[dwords]!;
  const expected = cx.scalar(operandOf(op, 0));
  const desired = cx.scalar(operandOf(op, 1));
  const result = resultOf(op);
  const returns = (cx.kernel.uses.get(result) ?? 0) > 0;
  const d = cx.vreg("v", dwords);
  if (v.space === "lds") {
    const [e, n] = [dataRegs(cx, expected), dataRegs(cx, desired)];
    if (fences!.release) releaseFence(cx, fences!.level);
    const pair = cx.family === "gfx9" ? [part(e), part(n)] : [part(n), part(e)];
    if (returns) cx.emit(`ds_cmpswap_rtn_${suffix}`, [part(d), at.reg, ...pair], { offset: at.offset });
    else cx.emit(`ds_cmpswap_${suffix}`, [at.reg, ...pair], { offset: at.offset });
  } else {
    // The data operand is one register tuple: desired in the low half, expected above it.
    const data = cx.vreg("v", 2 * dwords);
    [desired, expected].forEach((x, k) => {
      cx.emit("v_mov_b32", [part(data, k * dwords, 1), cx.lo(x)]);
      if (dwords === 2) cx.emit("v_mov_b32", [part(data, k * dwords + 1, 1), cx.hi(x)]);
    });
    if (fences!.release) releaseFence(cx, fences!.level);
    const sc1 = systemSc1(cx, fences!.level);
    if (returns) cx.emit(`global_atomic_cmpswap_${suffix}`, [part(d), at.reg, part(data), OFF], { offset: at.offset, glc: true, ...sc1 });
    else cx.emit(`global_atomic_cmpswap_${suffix}`, [at.reg, part(data), OFF], { offset: at.offset, ...sc1 });
  }
  if (fences!.acquire) acquireFence(cx, v.space, fences!.level);
  cx.set(result, cx.sval(v.element, d));
};

const bufferLength: Rule = (cx, op) => {
  const arg = operandOf(op, 0);
  const slot = cx.kernel.args.find((a) => a.value === arg);
  if (!slot) {
    cx.unsupported(op, "'buffer.length' of a buffer that is not a kernel argument");
    return cx.poison(op);
  }
  const d = cx.vreg("s", 2);
  cx.emit("s_load_b64", [part(d), part(cx.kernargPointer())], { offset: slot.offset + 8 });
  cx.set(resultOf(op), cx.sval("i64", d));
};

export const MEMORY_RULES = {
  "buffer.alloca": allocaRule,
  "buffer.view": viewRule,
  "buffer.length": bufferLength,
  "buffer.assume.noalias": passOperandsThrough,
  "buffer.assume.alignment": passOperandsThrough,
  "buffer.assume.memory_space": passOperandsThrough,
  ...layoutLowering<KernelLowering, Scalar>((cx, n) => cx.const("i64", n), (cx, v) => cx.scalar(v)),
  "view.subview": subviewRule,
  "view.load": loadRule,
  "view.store": storeRule,
  "view.atomic.rmw": rmwRule,
  "view.atomic.reduce": rmwRule,
  "view.atomic.load": atomicLoadRule,
  "view.atomic.store": atomicStoreRule,
  "view.atomic.cmpxchg": cmpxchgRule,
  "vector.load": vectorLoad,
  "vector.store": vectorStore,
} as const satisfies Record<string, Rule>;
