/**
 * Buffers, views and atomics (docs/ptx.md "Memory"). A buffer is a byte address in a state
 * space (a kernel argument's global address from the argument block, the kernel's `.shared`
 * array plus the allocation's offset, or a `.local` array) with its length; a view is a
 * descriptor over it: the byte address of element (0, …, 0) and element strides. An access
 * computes `base + size·Σ iⱼ·sⱼ` in 64-bit integers and uses `ld/st.<space>`; loads of
 * buffers proven read-only and unaliased use `ld.global.nc`.
 */
import type { Op } from "../../../ir/core.js";
import { indicesOf } from "../../../dialects/registry.js";
import type { ViewType } from "../../../ir/types.js";
import { viewElementStrides } from "../../../ir/strides.js";
import { layoutLowering } from "../../../dialects/layouts.js";
import { knownMultiple } from "./analysis.js";
import { BYTES, b, s, u, type KernelLowering, type Lowered, type PtxScalar, type Rule, type Scalar, type Space } from "./context.js";
import { passOperandsThrough, privateScratchAtomic } from "../../../dialects/lowering.js";

export type ViewValue = Extract<Lowered, { kind: "view" }>;

/** Largest power of two dividing `n` (n > 0), capped at 256. */
export function pow2Part(n: number): number {
  let p = 1;
  while (p < 256 && n % (p * 2) === 0) p *= 2;
  return p;
}

/** Index list ids of an op (`Value | bigint` entries). */
export function indexScalars(cx: KernelLowering, op: Op): Scalar[] {
  return indicesOf(op).map((i) => (typeof i === "bigint" ? cx.i64(i) : cx.scalar(i)));
}

/** The known element multiples of an op's indices. */
export function indexMultiples(cx: KernelLowering, op: Op): number[] {
  return indicesOf(op).map((i) => knownMultiple(i, cx.kernel.staticWorkgroupSize));
}

/** The byte address of `view[indices]`. */
export function elementAddress(cx: KernelLowering, view: ViewValue, indices: readonly Scalar[]): Scalar {
  let elements = cx.i64(0);
  indices.forEach((i, d) => (elements = cx.mad64OrAdd(i, view.strides[d]!, elements)));
  return cx.add64(view.base, cx.mul64(elements, cx.i64(BYTES[view.element])));
}

/** Proven alignment (bytes) of `view[indices]` given each index's known multiple. */
export function elementAlignment(view: ViewValue, multiples: readonly number[]): number {
  let a = view.align;
  multiples.forEach((m, d) => (a = Math.min(a, pow2Part(Math.max(1, m * (view.strideMultiples[d] ?? 1) * BYTES[view.element])))));
  return a;
}

/** The load/store type suffix of an element in memory. */
export function memoryType(t: PtxScalar, forLoad: boolean): string {
  if (t === "i8") return forLoad ? "s8" : "b8";
  return b(t);
}

export function loadElement(cx: KernelLowering, op: Op, view: ViewValue, address: Scalar): Scalar {
  const nc = view.space === "global" && cx.ncLoads.has(op) ? ".nc" : "";
  const d = cx.reg(view.element);
  cx.ins(`ld.${view.space}${nc}.${memoryType(view.element, true)}`, d.r, `[${address.r}]`);
  return d;
}

export function storeElement(cx: KernelLowering, view: ViewValue, address: Scalar, value: Scalar): void {
  cx.ins(`st.${view.space}.${memoryType(view.element, false)}`, `[${address.r}]`, cx.inReg(value).r);
}

// ---- buffers ------------------------------------------------------------------------------

const allocaRule: Rule = (cx, op) => {
  const space: Space = op.props.space === "workgroup" ? "shared" : "local";
  // The pipeline sized every allocation from its size operand's proven maximum.
  const allocation = cx.kernel.allocations.get(op);
  const bytes = allocation?.bytes;
  const align = Number(op.props.align ?? 1);
  if (bytes === undefined) {
    cx.unsupported(op, "'buffer.alloca' without a constant size", "the PTX backend declares scratch as fixed-size arrays");
    return cx.poison(op);
  }
  let addr: Scalar;
  if (space === "shared") {
    const offset = allocation?.offset;
    if (offset === undefined) throw new Error("PTX lowering: workgroup allocation without an offset");
    cx.usesShared = true;
    addr = cx.add64(cx.op("mov.u64", "i64", cx.sharedName), cx.i64(offset));
  } else {
    const name = `${cx.kernel.exportName}_local${cx.locals.length}`;
    cx.locals.push(`\t.local .align ${Math.max(align, 16)} .b8 \t${name}[${Math.max(1, Number(bytes))}];`);
    addr = cx.op("mov.u64", "i64", name);
  }
  cx.set(op.results[0]!, { kind: "buffer", space, addr, length: cx.i64(bytes), align: Math.min(align, pow2Part(allocation?.offset || 256)) });
};

const lengthRule: Rule = (cx, op) => {
  const buf = cx.get(op.operands[0]!);
  if (buf.kind !== "buffer") return cx.poison(op);
  cx.set(op.results[0]!, buf.length);
};


const alignmentRule: Rule = (cx, op) => {
  const n = Number(op.props.minimumAlignment ?? 1);
  op.results.forEach((r, i) => {
    const buf = cx.get(op.operands[i]!);
    cx.set(r, buf.kind === "buffer" ? { ...buf, align: Math.max(buf.align, Math.min(256, n)) } : buf);
  });
};

/** Element strides of a view type (ir/strides.ts), with their known multiples. */
function stridesOf(cx: KernelLowering, type: ViewType): { strides: Scalar[]; multiples: number[] } | undefined {
  const st = viewElementStrides<Scalar>(type, {
    constant: (n) => cx.i64(n),
    extent: (v) => cx.scalar(v),
    mul: (a, b) => cx.mul64(a, b),
    lowered: (v) => cx.get(v),
  });
  if (!st) return undefined;
  if (!st.dense) return { strides: st.strides, multiples: st.strides.map((x) => (x.c !== undefined ? Math.max(1, Number(x.c < 0n ? -x.c : x.c) % 65536) : 1)) };
  const multiples: number[] = new Array<number>(type.dims.length);
  let multiple = 1;
  for (let d = type.dims.length - 1; d >= 0; d--) {
    multiples[d] = multiple;
    const dim = type.dims[d]!;
    multiple = Math.min(65536, multiple * (dim.kind === "static" ? Math.max(1, dim.size) : knownMultiple(dim.value, cx.kernel.staticWorkgroupSize)));
  }
  return { strides: st.strides, multiples };
}

const viewRule: Rule = (cx, op) => {
  const buf = cx.get(op.operands[0]!);
  const type = op.results[0]!.type as ViewType;
  if (buf.kind !== "buffer") return cx.poison(op);
  const element = cx.typeOf(op.results[0]!);
  if (element === "pred") {
    cx.unsupported(op, "a view of 'i1' elements", "i1 has no memory representation; view i8 or i32 and compare");
    return cx.poison(op);
  }
  const st = stridesOf(cx, type);
  if (!st) return cx.poison(op);
  const offset = cx.scalar(op.operands[1]!);
  const align = Math.min(buf.align, pow2Part(knownMultiple(op.operands[1]!, cx.kernel.staticWorkgroupSize)));
  cx.set(op.results[0]!, { kind: "view", space: buf.space, base: cx.add64(buf.addr, offset), strides: st.strides, element, align, strideMultiples: st.multiples });
};

const subviewRule: Rule = (cx, op) => {
  const v = cx.get(op.operands[0]!);
  if (v.kind !== "view") return cx.poison(op);
  const origin = indexScalars(cx, op);
  const base = elementAddress(cx, v, origin);
  cx.set(op.results[0]!, { ...v, base, align: elementAlignment(v, indexMultiples(cx, op)) });
};


// ---- plain access -------------------------------------------------------------------------

const loadRule: Rule = (cx, op) => {
  const v = cx.get(op.operands[0]!);
  if (v.kind !== "view") return cx.poison(op);
  cx.set(op.results[0]!, loadElement(cx, op, v, elementAddress(cx, v, indexScalars(cx, op))));
};

const storeRule: Rule = (cx, op) => {
  const v = cx.get(op.operands[1]!);
  if (v.kind !== "view") return;
  storeElement(cx, v, elementAddress(cx, v, indexScalars(cx, op)), cx.scalar(op.operands[0]!));
};

// ---- atomics ------------------------------------------------------------------------------

/** Loom scopes → PTX scopes (a thread or subgroup needs at least the CTA's). */
const SCOPES: Readonly<Record<string, string>> = { thread: "cta", subgroup: "cta", workgroup: "cta", device: "gpu", system: "sys" };
const RANK: Readonly<Record<string, number>> = { relaxed: 0, acquire: 1, release: 1, acq_rel: 2, seq_cst: 3 };

function scopeOf(op: Op): string {
  return SCOPES[String(op.props.scope)] ?? "gpu";
}

/** The `.sem` of an RMW for Loom ordering `o`; seq_cst is `fence.sc` + `acq_rel` (the PTX memory model's mapping). */
function rmwSemantics(cx: KernelLowering, op: Op, o: string): string {
  if (o === "seq_cst") {
    cx.ins(`fence.sc.${scopeOf(op)}`);
    return "acq_rel";
  }
  return RANK[o] === undefined ? "relaxed" : o;
}

/** The stronger of two orderings (acquire + release = acq_rel). */
function stronger(a: string, x: string): string {
  if ((a === "acquire" && x === "release") || (a === "release" && x === "acquire")) return "acq_rel";
  return (RANK[a] ?? 0) >= (RANK[x] ?? 0) ? a : x;
}

function atomicTarget(cx: KernelLowering, op: Op, viewOperand: number, floatAdd: boolean): { view: ViewValue; address: Scalar } | undefined {
  const v = cx.get(op.operands[viewOperand]!);
  if (v.kind !== "view") return undefined;
  if (v.space === "local") return privateScratchAtomic(cx, op);
  if (v.element === "i64" && !cx.requireFeature(op, "int64Atomics", "64-bit atomics")) return undefined;
  if (floatAdd && !cx.requireFeature(op, "float32AtomicAdd", "atomic f32 add")) return undefined;
  if (v.element !== "i32" && v.element !== "i64" && v.element !== "f32") {
    cx.unsupported(op, `atomics on '${v.element}' elements`);
    return undefined;
  }
  return { view: v, address: elementAddress(cx, v, indexScalars(cx, op)) };
}

/** The `atom` operation and type for an RMW kind. */
function rmwOperation(kind: string, t: PtxScalar): string {
  switch (kind) {
    case "xchgi": case "xchgf": return `exch.${b(t)}`;
    case "addi": case "subi": return `add.${u(t)}`;
    case "andi": return `and.${b(t)}`;
    case "ori": return `or.${b(t)}`;
    case "xori": return `xor.${b(t)}`;
    case "minsi": return `min.${s(t)}`;
    case "maxsi": return `max.${s(t)}`;
    case "minui": return `min.${u(t)}`;
    case "maxui": return `max.${u(t)}`;
    case "addf": return "add.f32";
    default: throw new Error(`PTX lowering: unknown atomic kind '${kind}'`);
  }
}

const rmwRule: Rule = (cx, op) => {
  const kind = String(op.props.kind);
  const t = atomicTarget(cx, op, 1, kind === "addf");
  if (!t) return cx.poison(op);
  const e = t.view.element;
  let value = cx.inReg(cx.scalar(op.operands[0]!));
  if (kind === "subi") value = cx.op(`neg.${s(e)}`, e, value);
  const ordering = String(op.props.ordering);
  const sem = rmwSemantics(cx, op, ordering);
  const where = `.${sem}.${scopeOf(op)}.${t.view.space}`;
  const operation = rmwOperation(kind, e);
  const result = op.results[0];
  // `red` has no acquire semantics; a reduce that needs them is an `atom` with an unused result.
  if (!result && (sem === "relaxed" || sem === "release")) {
    cx.ins(`red${where}.${operation}`, `[${t.address.r}]`, value.r);
    return;
  }
  const d = cx.reg(e);
  cx.ins(`atom${where}.${operation}`, d.r, `[${t.address.r}]`, value.r);
  if (result) cx.set(result, d);
};

const cmpxchgRule: Rule = (cx, op) => {
  const t = atomicTarget(cx, op, 2, false);
  if (!t) return cx.poison(op);
  const e = t.view.element;
  const sem = rmwSemantics(cx, op, stronger(String(op.props.successOrdering), String(op.props.failureOrdering)));
  const d = cx.reg(e);
  cx.ins(`atom.${sem}.${scopeOf(op)}.${t.view.space}.cas.${b(e)}`, d.r, `[${t.address.r}]`, cx.inReg(cx.scalar(op.operands[0]!)).r, cx.inReg(cx.scalar(op.operands[1]!)).r);
  cx.set(op.results[0]!, d);
};

const atomicLoadRule: Rule = (cx, op) => {
  const t = atomicTarget(cx, op, 0, false);
  if (!t) return cx.poison(op);
  let sem = String(op.props.ordering);
  if (sem === "seq_cst") {
    cx.ins(`fence.sc.${scopeOf(op)}`);
    sem = "acquire";
  }
  if (sem !== "acquire") sem = "relaxed";
  const d = cx.reg(t.view.element);
  cx.ins(`ld.${sem}.${scopeOf(op)}.${t.view.space}.${b(t.view.element)}`, d.r, `[${t.address.r}]`);
  cx.set(op.results[0]!, d);
};

const atomicStoreRule: Rule = (cx, op) => {
  const t = atomicTarget(cx, op, 1, false);
  if (!t) return;
  let sem = String(op.props.ordering);
  if (sem === "seq_cst") {
    cx.ins(`fence.sc.${scopeOf(op)}`);
    sem = "release";
  }
  if (sem !== "release") sem = "relaxed";
  cx.ins(`st.${sem}.${scopeOf(op)}.${t.view.space}.${b(t.view.element)}`, `[${t.address.r}]`, cx.inReg(cx.scalar(op.operands[0]!)).r);
};

export const MEMORY_RULES = {
  "buffer.alloca": allocaRule,
  "buffer.view": viewRule,
  "buffer.length": lengthRule,
  "buffer.assume.noalias": passOperandsThrough,
  "buffer.assume.alignment": alignmentRule,
  "buffer.assume.memory_space": passOperandsThrough,
  ...layoutLowering<KernelLowering, Scalar>((cx, n) => cx.i64(n), (cx, v) => cx.scalar(v)),
  "view.subview": subviewRule,
  "view.load": loadRule,
  "view.store": storeRule,
  "view.atomic.rmw": rmwRule,
  "view.atomic.reduce": rmwRule,
  "view.atomic.cmpxchg": cmpxchgRule,
  "view.atomic.load": atomicLoadRule,
  "view.atomic.store": atomicStoreRule,
} as const satisfies Record<string, Rule>;

