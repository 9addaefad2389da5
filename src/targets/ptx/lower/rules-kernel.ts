/**
 * `kernel.*` device ops: invocation coordinates (special registers, widened to 64-bit
 * `index`), barriers (`bar.sync 0` for the workgroup, `bar.warp.sync` for a subgroup; both
 * order memory at CTA scope), and subgroup/workgroup collectives. A subgroup is a warp of 32:
 * lane = flat id mod 32, id = flat id / 32 (language.md, PTX). Collectives shuffle with
 * `shfl.sync` over the full warp, so they need a static workgroup whose flat size is a
 * multiple of 32 (every warp full); anything else is TARGET/001.
 */
import type { Op } from "../../../ir/core.js";
import { WARP_SIZE } from "../profile.js";
import { b, BYTES, type KernelLowering, type PtxScalar, type Rule, type Scalar } from "./context.js";
import { combine, select } from "./lanes.js";
import { dynamicWorkgroupReduce, unexpandedScan } from "../../../dialects/lowering.js";

const FULL_MASK = "-1";

function dim(op: Op): "x" | "y" | "z" {
  const d = String(op.props.dim);
  return d === "y" || d === "z" ? d : "x";
}

const DIM_INDEX = { x: 0, y: 1, z: 2 } as const;

function specialRule(register: string): Rule {
  return (cx, op) => cx.set(op.results[0]!, cx.widen(cx.special(`%${register}.${dim(op)}`)));
}

/** The launched block size along `d`: a constant when static. */
function blockSize(cx: KernelLowering, d: "x" | "y" | "z"): Scalar {
  const size = cx.kernel.staticWorkgroupSize;
  return size ? cx.int("i32", size[DIM_INDEX[d]]) : cx.special(`%ntid.${d}`);
}

const workgroupSize: Rule = (cx, op) => {
  const size = cx.kernel.staticWorkgroupSize;
  cx.set(op.results[0]!, size ? cx.i64(size[DIM_INDEX[dim(op)]]) : cx.widen(cx.special(`%ntid.${dim(op)}`)));
};

const dispatchId: Rule = (cx, op) => {
  const d = dim(op);
  const tid = cx.widen(cx.special(`%tid.${d}`));
  cx.set(op.results[0]!, cx.op("mad.wide.u32", "i64", cx.special(`%ctaid.${d}`), blockSize(cx, d), tid));
};

/** The flat invocation id x + sx·(y + sy·z), u32. */
function flatId(cx: KernelLowering): Scalar {
  const size = cx.kernel.staticWorkgroupSize;
  const x = cx.special("%tid.x");
  if (size && size[1] === 1 && size[2] === 1) return x;
  const yz = cx.op("mad.lo.u32", "i32", cx.special("%tid.z"), blockSize(cx, "y"), cx.special("%tid.y"));
  return cx.op("mad.lo.u32", "i32", yz, blockSize(cx, "x"), x);
}

const subgroupLane: Rule = (cx, op) => cx.set(op.results[0]!, cx.widen(cx.special("%laneid")));
const subgroupId: Rule = (cx, op) => cx.set(op.results[0]!, cx.widen(cx.op("shr.u32", "i32", flatId(cx), "5")));
const subgroupSize: Rule = (cx, op) => cx.set(op.results[0]!, cx.i64(WARP_SIZE));
const subgroupCount: Rule = (cx, op) => {
  const size = cx.kernel.staticWorkgroupSize;
  if (size) return cx.set(op.results[0]!, cx.i64(Math.ceil((size[0] * size[1] * size[2]) / WARP_SIZE)));
  const flat = cx.op("mul.lo.u32", "i32", cx.op("mul.lo.u32", "i32", cx.special("%ntid.x"), cx.special("%ntid.y")), cx.special("%ntid.z"));
  cx.set(op.results[0]!, cx.widen(cx.op("shr.u32", "i32", cx.op("add.u32", "i32", flat, "31"), "5")));
};

const barrier: Rule = (cx, op) => {
  if (op.props.scope === "subgroup") cx.ins("bar.warp.sync", FULL_MASK);
  else cx.ins("bar.sync", "0");
};

// ---- subgroup collectives -----------------------------------------------------------------

function fullWarps(cx: KernelLowering, op: Op): boolean {
  const size = cx.kernel.staticWorkgroupSize;
  if (size && (size[0] * size[1] * size[2]) % WARP_SIZE === 0) return true;
  cx.unsupported(op, `'${op.name}' in a workgroup that is not whole warps`, `PTX collectives shuffle across full warps of ${WARP_SIZE}; use a static workgroup size whose product is a multiple of ${WARP_SIZE}`);
  return false;
}

/** `shfl.sync.<mode>.b32` of any scalar: 64-bit values as two halves, 16-bit widened, i1 as 0/1. */
function shuffle(cx: KernelLowering, mode: string, v0: Scalar, lane: Scalar | string, clamp: string): Scalar {
  const v = cx.inReg(v0);
  const one = (x: Scalar): Scalar => cx.op(`shfl.sync.${mode}.b32`, "i32", x, typeof lane === "string" ? lane : lane.r, clamp, FULL_MASK);
  switch (b(v.t)) {
    case "b32": return { ...one(v), t: v.t };
    case "b64": {
      const lo = cx.reg("i32"), hi = cx.reg("i32");
      cx.ins("mov.b64", `{${lo.r}, ${hi.r}}`, v.r);
      const d = cx.reg(v.t);
      cx.ins("mov.b64", d.r, `{${one(lo).r}, ${one(hi).r}}`);
      return d;
    }
    case "b16": return { ...cx.op("cvt.u16.u32", v.t, one(cx.op("cvt.u32.u16", "i32", v))), t: v.t };
    default: return cx.op("setp.ne.u32", "pred", one(cx.op("selp.u32", "i32", "1", "0", v.r)), "0");
  }
}

/** Butterfly reduction: every lane combines with lane ^ k for k = cluster/2 … 1 (all lanes get one value). */
const subgroupReduce: Rule = (cx, op) => {
  if (!fullWarps(cx, op)) return cx.poison(op);
  const kind = String(op.props.kind);
  const t = cx.typeOf(op.results[0]!);
  const cluster = Number(op.props.clusterSize ?? WARP_SIZE);
  let v = cx.inReg(cx.scalar(op.operands[0]!));
  for (let k = cluster / 2; k >= 1; k /= 2) v = combine(cx, op, kind, t, v, shuffle(cx, "bfly", v, String(k), "0x1f"));
  cx.set(op.results[0]!, v);
};

const subgroupShuffle: Rule = (cx, op) => {
  if (!fullWarps(cx, op)) return cx.poison(op);
  const [v, off, width] = op.operands.map((x) => cx.scalar(x)) as [Scalar, Scalar, Scalar];
  const lane = cx.special("%laneid");
  // Segments of `width` lanes: base = lane & ~(width − 1); the source must stay in the segment.
  const base = cx.op("and.b32", "i32", lane, cx.op("not.b32", "i32", cx.op("sub.s32", "i32", cx.inReg(width), "1")));
  const mode = String(op.props.mode);
  const src =
    mode === "xor" ? cx.op("xor.b32", "i32", lane, off)
    : mode === "up" ? cx.op("sub.s32", "i32", lane, off)
    : mode === "down" ? cx.op("add.s32", "i32", lane, off)
    : cx.op("add.s32", "i32", base, off);
  const valid = cx.op("setp.lt.u32", "pred", cx.op("sub.s32", "i32", src, base), width);
  const shuffled = shuffle(cx, "idx", v, select(cx, valid, src, lane), "0x1f");
  cx.set(op.results[0]!, select(cx, valid, shuffled, v));
  cx.set(op.results[1]!, valid);
};

const subgroupBroadcast: Rule = (cx, op) => {
  if (!fullWarps(cx, op)) return cx.poison(op);
  cx.set(op.results[0]!, shuffle(cx, "idx", cx.scalar(op.operands[0]!), cx.inReg(cx.scalar(op.operands[1]!)), "0x1f"));
};

// ---- workgroup reduction ------------------------------------------------------------------

/**
 * Every invocation stores its value in the collective's scratch (one slot per invocation, at
 * the offset the pipeline assigned, PreparedKernel.allocations), `bar.sync`, then folds all slots in flat-id order,
 * so every invocation gets the same result and float association is fixed; a second
 * `bar.sync` keeps the scratch reusable.
 */
const workgroupReduce: Rule = (cx, op) => {
  const size = cx.kernel.staticWorkgroupSize;
  if (!size) return dynamicWorkgroupReduce(cx, op);
  const offset = cx.kernel.allocations.get(op)?.offset;
  if (offset === undefined) throw new Error("PTX lowering: workgroup reduction without scratch");
  cx.usesShared = true;
  const kind = String(op.props.kind);
  const t = cx.typeOf(op.results[0]!);
  const slot: PtxScalar = t === "pred" ? "i32" : t;
  const bytes = BYTES[slot];
  const flat = size[0] * size[1] * size[2];
  const scratch = cx.add64(cx.op("mov.u64", "i64", cx.sharedName), cx.i64(offset));
  const v = cx.scalar(op.operands[0]!);
  const stored = t === "pred" ? cx.op("selp.u32", "i32", "1", "0", cx.inReg(v).r) : cx.inReg(v);
  const mine = cx.op("mad.wide.u32", "i64", flatId(cx), String(bytes), scratch);
  const memType = slot === "i8" ? "b8" : b(slot);
  cx.ins(`st.shared.${memType}`, `[${mine.r}]`, stored.r);
  cx.ins("bar.sync", "0");
  const load = (address: string): Scalar => {
    const d = cx.reg(slot);
    cx.ins(`ld.shared.${slot === "i8" ? "s8" : b(slot)}`, d.r, `[${address}]`);
    return t === "pred" ? cx.op("setp.ne.u32", "pred", d, "0") : d;
  };
  const acc = cx.reg(t);
  const first = load(scratch.r);
  cx.ins(`mov.${b(t)}`, acc.r, first.r);
  if (flat > 1) {
    const cursor = cx.reg("i64");
    const end = cx.reg("i64");
    cx.ins("add.s64", cursor.r, scratch.r, String(bytes));
    cx.ins("add.s64", end.r, scratch.r, String(bytes * flat));
    const head = cx.label();
    cx.place(head);
    const next = combine(cx, op, kind, t, acc, load(cursor.r));
    cx.ins(`mov.${b(t)}`, acc.r, next.r);
    cx.ins("add.s64", cursor.r, cursor.r, String(bytes));
    const more = cx.op("setp.lt.u64", "pred", cursor, end);
    cx.guarded(more, false, "bra", head);
  }
  cx.ins("bar.sync", "0");
  cx.set(op.results[0]!, acc);
};

/** A false condition traps: the launch fails with an error the runtime reports. */
const assertRule: Rule = (cx, op) => {
  cx.guarded(cx.inReg(cx.scalar(op.operands[0]!)), true, "trap", );
};

export const KERNEL_RULES = {
  "kernel.workitem.id": specialRule("tid"),
  "kernel.workgroup.id": specialRule("ctaid"),
  "kernel.workgroup.count": specialRule("nctaid"),
  "kernel.workitem.dispatch.id": dispatchId,
  "kernel.workgroup.size": workgroupSize,
  "kernel.subgroup.id": subgroupId,
  "kernel.subgroup.size": subgroupSize,
  "kernel.subgroup.lane.id": subgroupLane,
  "kernel.subgroup.count": subgroupCount,
  "kernel.barrier": barrier,
  "kernel.subgroup.reduce": subgroupReduce,
  "kernel.subgroup.shuffle": subgroupShuffle,
  "kernel.subgroup.broadcast": subgroupBroadcast,
  "kernel.workgroup.reduce": workgroupReduce,
  "kernel.workgroup.scan": unexpandedScan,
  "kernel.assert": assertRule,
} as const satisfies Record<string, Rule>;
