/**
 * `kernel.*` device ops. Workitem ids arrive packed in v0 (x bits 0–9, y 10–19, z 20–29 on
 * gfx90a+/gfx11), workgroup ids in the system SGPRs after the user SGPRs, the workgroup
 * count in the code object v5 hidden argument `hidden_block_count_*` (kernarg offset
 * alignUp(explicit block, 8) + 4·dim), a workgroup size chosen at launch in
 * `hidden_group_size_*` (lower/hidden.ts). A workgroup barrier drains memory (vmcnt, lgkmcnt,
 * gfx11 vscnt) before `s_barrier`, and on gfx11 invalidates the WGP's L0 after it (acquire
 * at workgroup scope in WGP mode); a subgroup barrier only drains (a wave runs in lockstep).
 */
import type { Op } from "../../../ir/core.js";
import { imm } from "../isa/operands.js";
import { waitcntImmediate } from "../isa/encoder.js";
import { part } from "../machine/program.js";
import { add64, compareInt, int32, mul64, select } from "./arith.js";
import { operandOf, resultOf, type KernelLowering, type Rule, type Scalar } from "./context.js";
import { launchedGroupSize } from "./hidden.js";
import { unexpandedScan } from "../../../dialects/lowering.js";

type Cx = KernelLowering;

const DIMS = { x: 0, y: 1, z: 2 } as const;
const dimOf = (op: Op): 0 | 1 | 2 => DIMS[String(op.props.dim) as "x" | "y" | "z"] ?? 0;

/** The workgroup size along `d`: a constant when static, else the launch's hidden_group_size_d. */
function workgroupSize(cx: Cx, d: 0 | 1 | 2): Scalar {
  const size = cx.kernel.staticWorkgroupSize;
  return size ? cx.const("i64", BigInt(size[d])) : launchedGroupSize(cx, d);
}

function workitemId(cx: Cx, op: Op, d: 0 | 1 | 2): Scalar | undefined {
  const size = cx.kernel.staticWorkgroupSize;
  const extent = size?.[d] ?? 1024;
  if (extent === 1) return cx.const("i64", 0n);
  cx.workitemDims = Math.max(cx.workitemDims, d) as 0 | 1 | 2;
  const v0 = cx.fixedReg("v", 0, 1);
  const max = BigInt(extent - 1);
  const onlyX = d === 0 && size !== undefined && size[1] === 1 && size[2] === 1;
  if (onlyX) return cx.sval("i64", v0, { narrow: true, max });
  const r = cx.vreg("v", 1);
  if (d === 0) cx.emit("v_and_b32", [part(r), imm(0x3ff), part(v0)]);
  else cx.emit("v_bfe_u32", [part(r), part(v0), imm(10 * d), imm(10)]);
  void op;
  return cx.sval("i64", r, { narrow: true, max });
}

function workgroupId(cx: Cx, d: 0 | 1 | 2): Scalar {
  cx.workgroupIds[d] = true;
  const index = cx.workgroupIdSgprs[d]!;
  return cx.sval("i64", cx.fixedReg("s", index, 1), { narrow: true, max: 0xffffffffn });
}

const workitemIdRule: Rule = (cx, op) => {
  const v = workitemId(cx, op, dimOf(op));
  if (!v) return cx.poison(op);
  cx.set(resultOf(op), v);
};

const workgroupIdRule: Rule = (cx, op) => cx.set(resultOf(op), workgroupId(cx, dimOf(op)));

const workgroupSizeRule: Rule = (cx, op) => cx.set(resultOf(op), workgroupSize(cx, dimOf(op)));

const dispatchIdRule: Rule = (cx, op) => {
  const d = dimOf(op);
  const tid = workitemId(cx, op, d)!;
  cx.set(resultOf(op), add64(cx, mul64(cx, workgroupId(cx, d), workgroupSize(cx, d)), tid));
};

const workgroupCountRule: Rule = (cx, op) => {
  const d = dimOf(op);
  cx.hiddenBlockCount[d] = true;
  const r = cx.vreg("s", 1);
  cx.emit("s_load_b32", [part(r), part(cx.kernargPointer())], { offset: cx.hiddenArgumentsOffset + 4 * d });
  cx.set(resultOf(op), cx.sval("i64", r, { narrow: true, max: 0xffffffffn }));
};

/** Every memory access of the wave finished (vmcnt, lgkmcnt, and gfx11 vscnt for stores). */
export function drain(cx: Cx): void {
  cx.emit("s_waitcnt", [], { simm: waitcntImmediate(cx.family, 0, 0) });
  if (cx.family !== "gfx9") cx.emit("s_waitcnt_vscnt", [{ k: "special", name: "null", n: 1 }], { simm: 0 });
}

const barrierRule: Rule = (cx, op) => {
  drain(cx);
  if (op.props.scope === "subgroup") return;
  cx.emit("s_barrier", []);
  if (cx.family === "gfx11") cx.emit("buffer_gl0_inv", []);
};

const laneIdRule: Rule = (cx, op) => {
  const lane = laneIdOperand(cx);
  cx.set(resultOf(op), { ...lane, t: "i64", narrow: true });
};

const subgroupSizeRule: Rule = (cx, op) => cx.set(resultOf(op), cx.const("i64", BigInt(cx.wave)));

/** Whole waves only: a partial wave's inactive lanes would take part in the exchange. */
function fullWaves(cx: Cx, op: Op): boolean {
  const size = cx.kernel.staticWorkgroupSize;
  if (size && (size[0] * size[1] * size[2]) % cx.wave === 0) return true;
  cx.unsupported(op, `'${op.name}' in a workgroup that is not whole waves of ${cx.wave}`, `use a static workgroup size whose product is a multiple of ${cx.wave}`);
  return false;
}

/** The invocation's flat id in its workgroup, x + sx·(y + sy·z) (sizes static or launched). */
function flatLocalId(cx: Cx, op: Op, size: readonly [number, number, number] | undefined): Scalar {
  let id = workitemId(cx, op, 0)!;
  if (!size || size[1] > 1 || size[2] > 1) {
    const yz = int32(cx, "add", workitemId(cx, op, 1)!, int32(cx, "mul", workitemId(cx, op, 2)!, workgroupSize(cx, 1)));
    id = int32(cx, "add", id, int32(cx, "mul", yz, workgroupSize(cx, 0)));
  }
  return id;
}

const MAX_FLAT = 1024;

/** Waves are filled in flat-id order, so the subgroup id is flat id / wave size. */
const subgroupIdRule: Rule = (cx, op) => {
  const size = cx.kernel.staticWorkgroupSize;
  const flat = size ? size[0] * size[1] * size[2] : MAX_FLAT;
  if (flat <= cx.wave) return cx.set(resultOf(op), cx.const("i64", 0n));
  const id = int32(cx, "shru", flatLocalId(cx, op, size), cx.const("i32", BigInt(Math.log2(cx.wave))));
  cx.set(resultOf(op), { ...id, t: "i64", narrow: true, max: BigInt(Math.ceil(flat / cx.wave) - 1) });
};

/** ⌈sx·sy·sz / wave⌉: a constant when the size is static, else from the launched size. */
const subgroupCountRule: Rule = (cx, op) => {
  const size = cx.kernel.staticWorkgroupSize;
  if (size) return cx.set(resultOf(op), cx.const("i64", BigInt(Math.ceil((size[0] * size[1] * size[2]) / cx.wave))));
  const flat = int32(cx, "mul", int32(cx, "mul", workgroupSize(cx, 0), workgroupSize(cx, 1)), workgroupSize(cx, 2));
  const count = int32(cx, "shru", int32(cx, "add", flat, cx.const("i32", BigInt(cx.wave - 1))), cx.const("i32", BigInt(Math.log2(cx.wave))));
  cx.set(resultOf(op), { ...count, t: "i64", narrow: true, max: BigInt(Math.ceil(MAX_FLAT / cx.wave)) });
};

/**
 * Combines two values of a reduction with the scalar op of its kind (`addf` → `scalar.addf`),
 * on the reduction's own type: undefined where that op is not selected on the type.
 */
export type Combine = (cx: Cx, op: Op, a: Scalar, b: Scalar) => Scalar | undefined;

const WIDE = new Set(["i64", "f64"]);

/** An i1 kind's meaning on 0/1 in an i32 (true is −1 to the signed kinds, so their min is `or`). */
const BOOLEAN_KINDS: Readonly<Record<string, Parameters<typeof int32>[1]>> = {
  andi: "and", muli: "and", maxsi: "and", minui: "and", ori: "or", minsi: "or", maxui: "or", xori: "xor", addi: "xor",
};

/**
 * The reduced operand, how to combine it, and how the result becomes the op's: i1 values (lane
 * masks or uniform bits) reduce as 0/1 in an i32 and compare with 0 at the end.
 */
function reduction(cx: Cx, op: Op, combine: Combine): [Scalar, Combine, (r: Scalar) => Scalar] | undefined {
  const x = cx.scalar(operandOf(op, 0));
  if (x.t !== "i1") return [x, combine, (r) => r];
  const bool = BOOLEAN_KINDS[String(op.props.kind)];
  if (!bool) return void unreduced(cx, op, x);
  return [select(cx, x, cx.const("i32", 1n), cx.const("i32", 0n)), (c, _op, a, b) => int32(c, bool, a, b), (r) => compareInt(cx, "ne", r, cx.const("i32", 0n), 32)];
}

/**
 * Butterfly reduction through `ds_bpermute_b32` (LDS hardware, no LDS memory): every lane
 * combines with lane ^ k for k = cluster/2 … 1, so all lanes get the result (float lanes
 * combine in the same order on every lane pair, so the result is the same on all lanes).
 */
const subgroupReduceRule = (combine: Combine): Rule => (cx, op) => {
  if (!fullWaves(cx, op)) return cx.poison(op);
  const reduced = reduction(cx, op, combine);
  if (!reduced) return;
  const [x, by, finish] = reduced;
  const cluster = Number(op.props.clusterSize ?? cx.wave);
  const r = butterfly(cx, op, x, by, cluster);
  if (!r) return unreduced(cx, op, x);
  cx.set(resultOf(op), finish(r));
};

function unreduced(cx: Cx, op: Op, x: Scalar): void {
  cx.unsupported(op, `'${op.name}<${String(op.props.kind)}>' on ${x.t}`, `the AMDGPU back end does not select 'scalar.${String(op.props.kind)}' on ${x.t}`);
  cx.poison(op);
}

/**
 * Every lane combines with lane ^ k for k = cluster/2 … 1 through `ds_bpermute_b32` (one per
 * dword): all lanes of a cluster end with the same bits. Undefined where `combine` is.
 */
function butterfly(cx: Cx, op: Op, x: Scalar, combine: Combine, cluster: number): Scalar | undefined {
  const laneId = part(laneIdOperand(cx).reg!);
  const wide = WIDE.has(x.t);
  const own = (y: Scalar): Scalar => (wide ? cx.sval(x.t, cx.vpair(y)) : y.reg?.cls === "v" && y.reg.n === 1 ? y : cx.sval(x.t, cx.own32(cx.lo(y))));
  let v: Scalar = wide ? own(x) : cx.sval(x.t, cx.own32(cx.lo(x)));
  for (let k = cluster / 2; k >= 1; k /= 2) {
    const partner = cx.vreg("v", 1);
    cx.emit("v_xor_b32", [part(partner), imm(k), laneId]);
    const addr = cx.vreg("v", 1);
    cx.emit("v_lshlrev_b32", [part(addr), imm(2), part(partner)]);
    const other = cx.vreg("v", wide ? 2 : 1);
    if (wide) for (let d = 0; d < 2; d++) cx.emit("ds_bpermute_b32", [part(other, d, 1), part(addr), part(v.reg!, d, 1)]);
    else cx.emit("ds_bpermute_b32", [part(other), part(addr), cx.lo(v)]);
    const r = combine(cx, op, v, cx.sval(x.t, other));
    if (!r) return undefined;
    v = own(r);
  }
  return v;
}

/** The lane id (v_mbcnt_lo, and v_mbcnt_hi in wave64) as a 32-bit VGPR operand. */
function laneIdOperand(cx: Cx): Scalar {
  const lane = cx.vreg("v", 1);
  cx.emit("v_mbcnt_lo_u32_b32", [part(lane), imm(-1), imm(0)]);
  if (cx.wave === 32) return cx.sval("i32", lane, { max: 31n });
  const h = cx.vreg("v", 1);
  cx.emit("v_mbcnt_hi_u32_b32", [part(h), imm(-1), part(lane)]);
  return cx.sval("i32", h, { max: 63n });
}

/** The low dword of an index/i32 operand, as an i32 scalar. */
function low32(cx: Cx, x: Scalar): Scalar {
  if (x.c !== undefined) return cx.const("i32", BigInt.asUintN(32, x.c));
  return { kind: "scalar", t: "i32", reg: x.reg!, ...(x.max !== undefined && x.max <= 0xffffffffn ? { max: x.max } : {}) };
}

/** Every lane reads `x` of lane `source` (a 32-bit lane index) through `ds_bpermute_b32`, dword by dword. */
function permute(cx: Cx, x: Scalar, source: Scalar): Scalar {
  const addr = int32(cx, "shl", source, cx.const("i32", 2n));
  const address = cx.v32(cx.lo(addr));
  const dwords = (x.t === "i64" && !cx.hiZero(x)) || x.t === "f64" ? 2 : 1;
  const d = cx.vreg("v", dwords);
  for (let i = 0; i < dwords; i++) cx.emit("ds_bpermute_b32", [part(d, i, 1), address, cx.v32(i === 0 ? cx.lo(x) : cx.hi(x))]);
  return cx.sval(x.t, d, dwords === 1 && x.t === "i64" ? { narrow: true, ...(x.max !== undefined ? { max: x.max } : {}) } : {});
}

/**
 * `kernel.subgroup.shuffle<mode> %v, %offset, %width`: segments of `width` lanes; the source
 * position is pos ^ o, pos − o, pos + o or o; a source outside the segment leaves the value
 * and yields valid = false (the interpreter's rule). One `ds_bpermute_b32` per dword.
 */
const subgroupShuffleRule: Rule = (cx, op) => {
  if (!fullWaves(cx, op)) return cx.poison(op);
  const x = cx.scalar(operandOf(op, 0));
  const offset = low32(cx, cx.scalar(operandOf(op, 1)));
  const width = low32(cx, cx.scalar(operandOf(op, 2)));
  const lane = laneIdOperand(cx);
  const widthMinusOne = int32(cx, "sub", width, cx.const("i32", 1n));
  const position = int32(cx, "and", lane, widthMinusOne);
  const base = int32(cx, "sub", lane, position);
  const mode = String(op.props.mode);
  const from = mode === "xor" ? int32(cx, "xor", position, offset) : mode === "up" ? int32(cx, "sub", position, offset) : mode === "down" ? int32(cx, "add", position, offset) : offset;
  const valid = compareInt(cx, "ult", from, width, 32);
  const source = select(cx, valid, int32(cx, "add", base, from), lane);
  const shuffled = permuteValue(cx, x, source);
  cx.set(resultOf(op), select(cx, valid, shuffled, x));
  if (op.results[1]) cx.set(op.results[1], valid);
};

/** `permute`, for i1 too: a lane mask moves as 0/1 in an i32 and compares with 0 after. */
function permuteValue(cx: Cx, x: Scalar, source: Scalar): Scalar {
  if (x.t !== "i1") return permute(cx, x, source);
  const zero = cx.const("i32", 0n);
  return compareInt(cx, "ne", permute(cx, select(cx, x, cx.const("i32", 1n), zero), source), zero, 32);
}

/** `kernel.subgroup.broadcast %v from %lane` (the lane is uniform): `ds_bpermute_b32` from that lane. */
const subgroupBroadcastRule: Rule = (cx, op) => {
  if (!fullWaves(cx, op)) return cx.poison(op);
  const x = cx.scalar(operandOf(op, 0));
  if (x.c !== undefined || (cx.isS(x) && !x.mask)) return cx.set(resultOf(op), x);
  cx.set(resultOf(op), permuteValue(cx, x, low32(cx, cx.scalar(operandOf(op, 1)))));
};

const MAX_FOLD = 256;

/** Slot bytes of a reduced value (the pipeline's collective scratch, passes/storage.ts) and its LDS load/store suffixes. */
const SLOTS: Readonly<Record<string, readonly [bytes: number, load: string, store: string]>> = {
  i8: [1, "u8", "b8"], i16: [2, "u16", "b16"], f16: [2, "u16", "b16"], bf16: [2, "u16", "b16"],
  i32: [4, "b32", "b32"], f32: [4, "b32", "b32"], i64: [8, "b64", "b64"], f64: [8, "b64", "b64"],
};

/**
 * Whole waves: a butterfly reduction in each wave (all lanes get the same bits), one LDS
 * slot per wave (in the collective's scratch, at the offset the pipeline assigned),
 * barrier, every invocation folds the wave slots in wave order, barrier again so the
 * scratch can be reused; one wave needs no LDS. Otherwise every invocation stores its value
 * in a slot of its own and all slots are folded in flat-id order. Either way the
 * association is the same everywhere, so every invocation gets the same value.
 */
const workgroupReduceRule = (combine: Combine): Rule => (cx, op) => {
  const size = cx.kernel.staticWorkgroupSize;
  const offset = cx.kernel.allocations.get(op)?.offset;
  const reduced = reduction(cx, op, combine);
  if (!reduced) return;
  const [x, by, finish] = reduced;
  const [bytes, load, store] = SLOTS[x.t] ?? [4, "b32", "b32"];
  const flat = size ? size[0] * size[1] * size[2] : 0;
  const wholeWaves = flat > 0 && flat % cx.wave === 0;
  if (!size || offset === undefined || (!wholeWaves && flat > MAX_FOLD) || offset + bytes * flat > 0xffff) {
    cx.unsupported(op, `'kernel.workgroup.reduce<${String(op.props.kind)}>' on ${x.t}${size ? ` over ${flat} invocations` : " with a dynamic workgroup size"}`, `the AMDGPU back end reduces over whole waves, or at most ${MAX_FOLD} invocations, of a static workgroup`);
    return cx.poison(op);
  }
  const id = flatLocalId(cx, op, size);
  // Whole waves: a butterfly per wave, then one slot per wave; otherwise one slot per invocation.
  const value = wholeWaves ? butterfly(cx, op, x, by, cx.wave) : x;
  if (!value) return unreduced(cx, op, x);
  const slots = wholeWaves ? flat / cx.wave : flat;
  if (slots === 1) return cx.set(resultOf(op), finish(value));
  const slotIndex = wholeWaves ? int32(cx, "shru", id, cx.const("i32", BigInt(Math.log2(cx.wave)))) : id;
  const slot = bytes === 1 ? slotIndex : int32(cx, "shl", slotIndex, cx.const("i32", BigInt(Math.log2(bytes))));
  const data = bytes === 8 ? cx.vpair(value) : cx.own32(cx.lo(value));
  cx.emit(`ds_store_${store}`, [cx.v32(cx.lo(slot)), part(data)], { offset });
  drain(cx);
  cx.emit("s_barrier", []);
  const zero = cx.v32(imm(0));
  let acc: Scalar | undefined;
  for (let k = 0; k < slots; k++) {
    const d = cx.vreg("v", bytes === 8 ? 2 : 1);
    cx.emit(`ds_load_${load}`, [part(d), zero], { offset: offset + bytes * k });
    const v = cx.sval(x.t, d);
    acc = acc ? by(cx, op, acc, v) : v;
    if (!acc) return unreduced(cx, op, x);
  }
  drain(cx);
  cx.emit("s_barrier", []);
  cx.set(resultOf(op), finish(acc ?? value));
};

/** The `kernel.*` rules; the reductions combine through `combine` (the scalar rules of rules.ts). */
export function kernelRules(combine: Combine) {
  return { ...KERNEL_RULES, "kernel.subgroup.reduce": subgroupReduceRule(combine), "kernel.workgroup.reduce": workgroupReduceRule(combine) } as const satisfies Record<string, Rule>;
}

const KERNEL_RULES = {
  "kernel.workgroup.scan": unexpandedScan,
  "kernel.workitem.id": workitemIdRule,
  "kernel.workgroup.id": workgroupIdRule,
  "kernel.workgroup.size": workgroupSizeRule,
  "kernel.workgroup.count": workgroupCountRule,
  "kernel.workitem.dispatch.id": dispatchIdRule,
  "kernel.barrier": barrierRule,
  "kernel.subgroup.lane.id": laneIdRule,
  "kernel.subgroup.size": subgroupSizeRule,
  "kernel.subgroup.shuffle": subgroupShuffleRule,
  "kernel.subgroup.broadcast": subgroupBroadcastRule,
  "kernel.subgroup.id": subgroupIdRule,
  "kernel.subgroup.count": subgroupCountRule,
} as const satisfies Record<string, Rule>;
