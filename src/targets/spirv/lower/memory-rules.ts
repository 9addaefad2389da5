/**
 * Buffers, views and atomics (docs/abi.md "SPIR-V"). A buffer is a compile-time root (a
 * kernel argument or a scratch allocation); a view is a descriptor over a root: a byte base
 * and element strides, all u64 ids. An element access computes the element index
 * `base / size + Σ iⱼ·sⱼ` and addresses it in a variable typed by the element:
 *  - argument, ABI "bindings": a StorageBuffer `Block { T data[]; }` at set 0, binding k
 *    (one variable per element type; they alias the same descriptor);
 *  - argument, ABI "device-address": the push-constant address converted to a
 *    PhysicalStorageBuffer pointer;
 *  - scratch: a Workgroup (or Function) array of T sized by the allocation.
 */
import type { OpName } from "../../../dialects/registry.js";
import type { Op, Predicate, Value } from "../../../ir/core.js";
import { privateScratchAtomic } from "../../../dialects/lowering.js";
import { indicesOf } from "../../../dialects/registry.js";
import { BUFFER_ADDRESS_FIELD, BUFFER_LENGTH_FIELD } from "../../../abi/index.js";
import type { ViewType } from "../../../ir/types.js";
import { viewElementStrides } from "../../../ir/strides.js";
import { layoutLowering } from "../../../dialects/layouts.js";
import * as I from "../instructions.js";
import type { Id, Word } from "../instructions.js";
import { scalarBytes, scalarKey, U32, U64, type ScalarType } from "../module.js";
import { Decoration, MemoryAccess, MemorySemantics, Op as S, Scope, StorageClass } from "../spec.js";
import { identityRule } from "./arith-rules.js";
import type { BufferRoot, KernelLowering, Lowered, OpRule } from "./context.js";
import { propOf } from "../../../dialects/registry.js";

type ViewDescriptor = Extract<Lowered, { kind: "view" }>;

export interface ElementPointer {
  readonly ptr: Id;
  /** Memory operands for OpLoad/OpStore (Aligned for physical pointers). */
  readonly access: readonly Word[];
  /** "buffer" (StorageBuffer / PhysicalStorageBuffer), "workgroup" or "private". */
  readonly space: "buffer" | "workgroup" | "private";
}

function storageClassOf(root: BufferRoot): number {
  if (root.kind === "argument") return StorageClass.StorageBuffer;
  return root.space === "workgroup" ? StorageClass.Workgroup : StorageClass.Function;
}

function bufferVariable(cx: KernelLowering, root: Extract<BufferRoot, { kind: "argument" }>, element: ScalarType): Id {
  // A number, not a string: this runs for every access (element widths are 8–64, so /8 ≤ 8).
  const key = root.binding * 32 + (element.kind === "float" ? 16 : 0) + (element.kind === "bool" ? 0 : element.width / 8);
  let v = cx.bufferVariables.get(key);
  if (v === undefined) {
    const m = cx.module;
    const size = scalarBytes(element);
    const block = m.typeBlock([{ type: m.typeRuntimeArray(m.scalar(element), size), offset: 0 }]);
    v = m.globalVariable(m.typePointer(StorageClass.StorageBuffer, block), StorageClass.StorageBuffer);
    m.decorate(v, Decoration.DescriptorSet, 0);
    m.decorate(v, Decoration.Binding, root.binding);
    m.name(v, `${root.slot.name}_${scalarKey(element)}`);
    cx.bufferVariables.set(key, v);
  }
  cx.iface.add(v);
  return v;
}

const scratchIds = new WeakMap<Op, number>();
let nextScratch = 0;
function scratchKey(op: Op): number {
  let k = scratchIds.get(op);
  if (k === undefined) scratchIds.set(op, (k = nextScratch++));
  return k;
}

function scratchVariable(cx: KernelLowering, root: Extract<BufferRoot, { kind: "scratch" }>, element: ScalarType): Id {
  const key = `scratch:${scratchKey(root.op)}`;
  let v = cx.memo.get(key);
  if (v === undefined) {
    const m = cx.module;
    const length = Math.max(1, Math.floor(root.bytes / scalarBytes(element)));
    const storage = storageClassOf(root);
    const ptr = m.typePointer(storage, m.typeArray(m.scalar(element), length));
    if (root.space === "workgroup") {
      v = m.globalVariable(ptr, storage);
    } else {
      v = m.id();
      cx.fn.addLocalVariable(I.variable(ptr, v, storage));
    }
    const name = root.op.results[0]?.name;
    if (name) m.name(v, name);
    cx.memo.set(key, v);
  }
  if (root.space === "workgroup") cx.iface.add(v);
  return v;
}

/**
 * The element index of `view[indices]` in units of the element type, u64. Array access chains
 * take it as u32 (`arrayIndex`): an in-bounds index of a storage buffer or a workgroup array is
 * below 2^32 (Vulkan ranges are u32), and drivers address 32-bit indices much faster.
 */
function elementIndex(cx: KernelLowering, view: ViewDescriptor, indices: readonly Id[]): Id {
  const size = scalarBytes(view.element);
  const shift = Math.log2(size);
  const baseValue = cx.constValue(view.base);
  let index = baseValue !== undefined ? cx.u64(baseValue >> BigInt(shift)) : shift === 0 ? view.base : cx.binary(S.ShiftRightLogical, U64, view.base, cx.u64(shift));
  indices.forEach((i, d) => (index = cx.add64(index, cx.mul64(i, view.strides[d]!))));
  return index;
}

function arrayIndex(cx: KernelLowering, index: Id): Id {
  const constant = cx.constValue(index);
  return constant !== undefined ? cx.u32(Number(BigInt.asUintN(32, constant))) : cx.unary(S.UConvert, U32, index);
}

export function elementPointer(cx: KernelLowering, view: ViewDescriptor, indices: readonly Id[]): ElementPointer {
  const m = cx.module;
  const index = elementIndex(cx, view, indices);
  const root = view.root;
  const type = m.scalar(view.element);
  const ptr = m.id();
  if (root.kind === "argument" && cx.info.abi === "device-address") {
    const size = scalarBytes(view.element);
    const address = cx.add64(cx.loadPush(root.slot.offset + BUFFER_ADDRESS_FIELD), cx.mul64(index, cx.u64(size)));
    cx.emit(I.unary(S.ConvertUToPtr, m.typePointer(StorageClass.PhysicalStorageBuffer, type), ptr, address));
    return { ptr, access: [MemoryAccess.Aligned, size], space: "buffer" };
  }
  if (root.kind === "argument") {
    const variable = bufferVariable(cx, root, view.element);
    cx.emit(I.accessChain(m.typePointer(StorageClass.StorageBuffer, type), ptr, variable, [cx.u32(0), arrayIndex(cx, index)]));
    return { ptr, access: [], space: "buffer" };
  }
  const variable = scratchVariable(cx, root, view.element);
  cx.emit(I.accessChain(m.typePointer(storageClassOf(root), type), ptr, variable, [arrayIndex(cx, index)]));
  return { ptr, access: [], space: root.space };
}

// ---- wide accesses --------------------------------------------------------------------------
//
// A rank-1 `vector.load`/`vector.store` of 2 or 4 lanes of a 32-bit type along a unit-stride
// axis becomes one 8- or 16-byte access when its element index is provably a multiple of the
// lane count: through a second view of the binding typed as a runtime array of vectors
// (`vec4 data[]`, stride 16, indexed by i / 4) under the "bindings" ABI, or through a
// PhysicalStorageBuffer pointer to the vector with `Aligned 8|16` under "device-address"
// (which also needs the buffer's base alignment, `buffer.assume.alignment`). The facts come from
// the IR: known multiples of index values, the view's dims and base offset.

const MULTIPLE_CAP = 1 << 16;

function gcd(a: number, b: number): number {
  while (b) [a, b] = [b, a % b];
  return a;
}

const lcm = (a: number, b: number): number => Math.min(MULTIPLE_CAP, (a / gcd(a, b)) * b);

function intConstant(op: Op): bigint | undefined {
  const lit = op.name === "index.constant" || op.name === "scalar.constant" ? propOf(op, "value") : undefined;
  return lit?.kind === "int" ? lit.value : undefined;
}

/** A number every value of `v` is a multiple of (1 when nothing is known; capped at 2^16). */
export function knownMultiple(v: Value | bigint, staticSize?: readonly number[]): number {
  if (typeof v === "bigint") return v === 0n ? MULTIPLE_CAP : Number(v < 0n ? -v : v) % MULTIPLE_CAP || MULTIPLE_CAP;
  if (!("operands" in v.owner)) {
    // An `scf.for` induction variable takes lo, lo + step, …: a multiple of gcd(lo, step).
    const loop = v.owner.parent;
    if (loop?.name === "scf.for" && v.owner.args[0] === v) return gcd(knownMultiple(loop.operands[0]!, staticSize), knownMultiple(loop.operands[2]!, staticSize));
    return 1;
  }
  const def = v.owner;
  const m = (i: number) => knownMultiple(def.operands[i]!, staticSize);
  const c = intConstant(def);
  if (c !== undefined) return knownMultiple(c);
  switch (def.name) {
    case "index.mul": case "index.scale": return Math.min(MULTIPLE_CAP, m(0) * m(1));
    case "index.add": case "index.sub": case "index.min": case "index.max": return gcd(m(0), m(1));
    case "index.madd": return gcd(Math.min(MULTIPLE_CAP, m(0) * m(1)), m(2));
    case "index.shli": {
      const k = def.operands[1]!.owner;
      const s = "operands" in k ? intConstant(k) : undefined;
      return s !== undefined && s >= 0n && s < 16n ? Math.min(MULTIPLE_CAP, m(0) * 2 ** Number(s)) : 1;
    }
    case "index.assume": {
      const operand = def.operands[def.results.indexOf(v)]!;
      let known = knownMultiple(operand, staticSize);
      for (const p of (def.props.predicates ?? []) as readonly Predicate[]) {
        const [a, n] = p.args;
        if (p.kind === "mul" && (a === v || a === operand) && typeof n === "bigint" && n > 0n) known = lcm(known, Number(n % BigInt(MULTIPLE_CAP)) || MULTIPLE_CAP);
      }
      return known;
    }
    case "kernel.workgroup.size": {
      const d = { x: 0, y: 1, z: 2 }[String(def.props.dim) as "x"] ?? 0;
      return staticSize?.[d] ?? 1;
    }
    default: return 1;
  }
}

/** The proven base alignment in bytes of a buffer value (kernel arguments: 1 unless assumed). */
function bufferAlignment(v: Value): number {
  if (!("operands" in v.owner)) return 1;
  const def = v.owner;
  const i = def.results.indexOf(v);
  switch (def.name) {
    case "buffer.assume.alignment": return Math.max(bufferAlignment(def.operands[i]!), Math.min(256, Number(def.props.minimumAlignment ?? 1)));
    case "buffer.assume.noalias": case "buffer.assume.memory_space": return bufferAlignment(def.operands[i]!);
    case "buffer.alloca": return Number(def.props.align ?? 1);
    default: return 1;
  }
}

/** Facts of a dense `buffer.view` (or a subview of one): multiples of the base element index and of each stride, the buffer's alignment. */
interface ViewFacts {
  readonly baseMultiple: number;
  readonly strideMultiples: readonly number[];
  readonly bufferAlign: number;
}

function viewFacts(view: Value, elementBytes: number, staticSize?: readonly number[]): ViewFacts | undefined {
  if (!("operands" in view.owner)) return undefined;
  const def = view.owner;
  if (def.name === "view.subview") {
    const parent = viewFacts(def.operands[0]!, elementBytes, staticSize);
    if (!parent) return undefined;
    const moved = indicesOf(def).reduce((acc, o, d) => gcd(acc, Math.min(MULTIPLE_CAP, knownMultiple(o, staticSize) * (parent.strideMultiples[d] ?? 1))), MULTIPLE_CAP);
    return { ...parent, baseMultiple: gcd(parent.baseMultiple, moved) };
  }
  if (def.name !== "buffer.view") return undefined;
  const type = view.type as ViewType;
  if (type.layout && type.layout.kind === "value") {
    const layoutDef = type.layout.value.owner;
    if (!("operands" in layoutDef) || layoutDef.name !== "encoding.layout.dense") return undefined;
  }
  const strideMultiples = new Array<number>(type.dims.length);
  let running = 1;
  if (type.layout?.kind === "strided") {
    // A static strided layout: each stride's power-of-two part (a stride of 0 moves nothing).
    type.layout.strides.forEach((s, d) => (strideMultiples[d] = s === 0 ? MULTIPLE_CAP : Math.min(MULTIPLE_CAP, s & -s)));
  } else {
    for (let d = type.dims.length - 1; d >= 0; d--) {
      strideMultiples[d] = running;
      const dim = type.dims[d]!;
      running = Math.min(MULTIPLE_CAP, running * (dim.kind === "static" ? Math.max(1, dim.size) : knownMultiple(dim.value, staticSize)));
    }
  }
  const offsetBytes = knownMultiple(def.operands[1]!, staticSize);
  const baseMultiple = offsetBytes >= MULTIPLE_CAP ? MULTIPLE_CAP : offsetBytes % elementBytes === 0 ? offsetBytes / elementBytes : 1;
  return { baseMultiple, strideMultiples, bufferAlign: bufferAlignment(def.operands[0]!) };
}

export interface WidePointer {
  readonly ptr: Id;
  readonly access: readonly Word[];
  /** The vector type id of the access. */
  readonly vectorType: Id;
}

/**
 * One pointer to the `lanes`-wide vector at `view[indices]` (the access `op` of the IR view
 * `viewValue`), or undefined where the access must stay lane by lane.
 */
export function widePointer(cx: KernelLowering, op: Op, viewValue: Value, view: ViewDescriptor, indices: readonly Id[], lanes: number): WidePointer | undefined {
  const element = view.element;
  if ((lanes !== 2 && lanes !== 4) || element.kind === "bool" || element.width !== 32 || view.root.kind !== "argument") return undefined;
  const last = view.strides[view.strides.length - 1];
  if (last === undefined || cx.constValue(last) !== 1n) return undefined;
  const staticSize = cx.kernel.staticWorkgroupSize;
  const facts = viewFacts(viewValue, 4, staticSize);
  if (!facts) return undefined;
  const multiple = indicesOf(op).reduce((acc, i, d) => gcd(acc, Math.min(MULTIPLE_CAP, knownMultiple(i, staticSize) * (facts.strideMultiples[d] ?? 1))), facts.baseMultiple);
  if (multiple % lanes !== 0) return undefined;
  const m = cx.module;
  const vectorType = m.typeVector(element, lanes);
  const index = elementIndex(cx, view, indices);
  const root = view.root;
  const ptr = m.id();
  if (cx.info.abi === "device-address") {
    if (facts.bufferAlign < lanes * 4) return undefined;
    const address = cx.add64(cx.loadPush(root.slot.offset + BUFFER_ADDRESS_FIELD), cx.mul64(index, cx.u64(4)));
    cx.emit(I.unary(S.ConvertUToPtr, m.typePointer(StorageClass.PhysicalStorageBuffer, vectorType), ptr, address));
    return { ptr, access: [MemoryAccess.Aligned, lanes * 4], vectorType };
  }
  const key = `buffer:${root.binding}:v${lanes}${scalarKey(element)}`;
  let variable = cx.memo.get(key);
  if (variable === undefined) {
    const block = m.typeBlock([{ type: m.typeRuntimeArray(vectorType, lanes * 4), offset: 0 }]);
    variable = m.globalVariable(m.typePointer(StorageClass.StorageBuffer, block), StorageClass.StorageBuffer);
    m.decorate(variable, Decoration.DescriptorSet, 0);
    m.decorate(variable, Decoration.Binding, root.binding);
    m.name(variable, `${root.slot.name}_v${lanes}${scalarKey(element)}`);
    cx.memo.set(key, variable);
  }
  cx.iface.add(variable);
  const vectorIndex = cx.binary(S.ShiftRightLogical, U64, index, cx.u64(Math.log2(lanes)));
  cx.emit(I.accessChain(m.typePointer(StorageClass.StorageBuffer, vectorType), ptr, variable, [cx.u32(0), arrayIndex(cx, vectorIndex)]));
  return { ptr, access: [], vectorType };
}

/** The ids of an index list (`Value | bigint` entries). */
export function indexIds(cx: KernelLowering, op: Op): Id[] {
  return indicesOf(op).map((i) => (typeof i === "bigint" ? cx.u64(i) : cx.scalar(i)));
}

// ---- buffers ------------------------------------------------------------------------------

const allocaRule: OpRule = (cx, op) => {
  const space = op.props.space === "workgroup" ? "workgroup" : "private";
  // The size the pipeline recorded (passes/storage.ts: the verifier's bound, the offset plan).
  const bytes = cx.kernel.allocations.get(op)?.bytes;
  if (bytes === undefined) {
    cx.unsupported(op, "'buffer.alloca' without a constant size", "the SPIR-V backend declares scratch as fixed-size arrays");
    return cx.poison(op);
  }
  cx.set(op.results[0]!, { kind: "buffer", root: { kind: "scratch", op, space, bytes } });
};

const lengthRule: OpRule = (cx, op) => {
  const b = cx.get(op.operands[0]!);
  if (b.kind !== "buffer") return cx.poison(op);
  const root = b.root;
  const id = root.kind === "argument" ? cx.loadPush(root.slot.offset + BUFFER_LENGTH_FIELD) : cx.u64(root.bytes);
  cx.set(op.results[0]!, { kind: "scalar", id, type: U64 });
};

/** Checks that `element` may live in `root`, reporting at `op`. */
function checkElement(cx: KernelLowering, op: Op, root: BufferRoot, element: ScalarType): boolean {
  if (element.kind === "bool") {
    cx.unsupported(op, "a view of 'i1' elements", "Vulkan has no in-memory boolean type; view i8 or i32 and compare");
    return false;
  }
  if (root.kind === "argument" && element.width === 8) {
    if (!cx.requireFeature(op, "storageBuffer8BitAccess", "8-bit elements in a storage buffer")) return false;
    cx.module.require("StorageBuffer8BitAccess");
  }
  if (root.kind === "argument" && element.width === 16) {
    if (!cx.requireFeature(op, "storageBuffer16BitAccess", "16-bit elements in a storage buffer")) return false;
    cx.module.require("StorageBuffer16BitAccess");
  }
  if (root.kind === "scratch") {
    const seen = cx.scratchElements.get(root.op);
    if (seen !== undefined && seen !== scalarKey(element)) {
      cx.unsupported(op, "viewing one scratch allocation with two element types", "the SPIR-V backend gives each allocation one typed array");
      return false;
    }
    cx.scratchElements.set(root.op, scalarKey(element));
  }
  return true;
}

/** Element strides of a view type (ir/strides.ts). */
function stridesOf(cx: KernelLowering, type: ViewType): Id[] | undefined {
  return viewElementStrides<Id>(type, {
    constant: (n) => cx.u64(n),
    extent: (v) => cx.scalar(v),
    mul: (a, b) => cx.mul64(a, b),
    lowered: (v) => cx.get(v),
  })?.strides;
}

const viewRule: OpRule = (cx, op) => {
  const b = cx.get(op.operands[0]!);
  const type = op.results[0]!.type as ViewType;
  const strides = b.kind === "buffer" ? stridesOf(cx, type) : undefined;
  if (b.kind !== "buffer" || !strides) return cx.poison(op);
  const element = cx.scalarType(type);
  if (!checkElement(cx, op, b.root, element)) return cx.poison(op);
  cx.set(op.results[0]!, { kind: "view", root: b.root, base: cx.scalar(op.operands[1]!), strides, element });
};

const subviewRule: OpRule = (cx, op) => {
  const v = cx.get(op.operands[0]!);
  if (v.kind !== "view") return cx.poison(op);
  // The origin moves by Σ oⱼ·sⱼ elements; strides stay those of the parent storage.
  let elements = cx.u64(0);
  indexIds(cx, op).forEach((o, d) => (elements = cx.add64(elements, cx.mul64(o, v.strides[d]!))));
  const base = cx.add64(v.base, cx.mul64(elements, cx.u64(scalarBytes(v.element))));
  cx.set(op.results[0]!, { ...v, base });
};


// ---- plain access -------------------------------------------------------------------------

const loadRule: OpRule = (cx, op) => {
  const v = cx.get(op.operands[0]!);
  if (v.kind !== "view") return cx.poison(op);
  const p = elementPointer(cx, v, indexIds(cx, op));
  const id = cx.module.id();
  cx.emit(I.load(cx.typeId(v.element), id, p.ptr, p.access));
  cx.set(op.results[0]!, { kind: "scalar", id, type: v.element });
};

const storeRule: OpRule = (cx, op) => {
  const v = cx.get(op.operands[1]!);
  if (v.kind !== "view") return;
  const p = elementPointer(cx, v, indexIds(cx, op));
  cx.emit(I.store(p.ptr, cx.scalar(op.operands[0]!), p.access));
};

// ---- atomics ------------------------------------------------------------------------------

/** Loom scopes → SPIR-V; Vulkan has no CrossDevice scope, so `system` is `Device`. */
const SCOPES: Readonly<Record<string, number>> = {
  thread: Scope.Invocation,
  subgroup: Scope.Subgroup,
  workgroup: Scope.Workgroup,
  device: Scope.Device,
  system: Scope.Device,
};

const ORDERINGS: Readonly<Record<string, number>> = {
  relaxed: MemorySemantics.None,
  acquire: MemorySemantics.Acquire,
  release: MemorySemantics.Release,
  acq_rel: MemorySemantics.AcquireRelease,
  seq_cst: MemorySemantics.SequentiallyConsistent,
};

function semantics(cx: KernelLowering, ordering: unknown, space: ElementPointer["space"]): Id {
  const order = ORDERINGS[String(ordering)] ?? MemorySemantics.None;
  const storage = order === MemorySemantics.None ? 0 : space === "workgroup" ? MemorySemantics.WorkgroupMemory : MemorySemantics.UniformMemory;
  return cx.u32(order | storage);
}

function scopeId(cx: KernelLowering, scope: unknown): Id {
  return cx.u32(SCOPES[String(scope)] ?? Scope.Device);
}

/** The view of an atomic op, after checking the element's atomic features. */
function atomicTarget(cx: KernelLowering, op: Op, viewOperand: number, floatAdd: boolean): { view: ViewDescriptor; p: ElementPointer } | undefined {
  const v = cx.get(op.operands[viewOperand]!);
  if (v.kind !== "view") return undefined;
  if (v.root.kind === "scratch" && v.root.space === "private") return privateScratchAtomic(cx, op);
  const shared = v.root.kind === "scratch";
  if (v.element.kind === "int" && v.element.width === 64) {
    if (!cx.requireFeature(op, shared ? "shaderSharedInt64Atomics" : "shaderBufferInt64Atomics", "64-bit atomics")) return undefined;
    cx.module.require("Int64Atomics");
  }
  if (floatAdd) {
    if (!cx.requireFeature(op, shared ? "shaderSharedFloat32AtomicAdd" : "shaderBufferFloat32AtomicAdd", "atomic f32 add")) return undefined;
    cx.module.require("AtomicFloat32AddEXT");
    cx.module.requireExtension("SPV_EXT_shader_atomic_float_add");
  }
  return { view: v, p: elementPointer(cx, v, indexIds(cx, op)) };
}

const RMW_OPCODES: Readonly<Record<string, I.AtomicRmwOpcode>> = {
  xchgi: S.AtomicExchange, addi: S.AtomicIAdd, subi: S.AtomicISub, andi: S.AtomicAnd, ori: S.AtomicOr, xori: S.AtomicXor,
  minsi: S.AtomicSMin, maxsi: S.AtomicSMax, minui: S.AtomicUMin, maxui: S.AtomicUMax, xchgf: S.AtomicExchange, addf: S.AtomicFAddEXT,
};

const rmwRule: OpRule = (cx, op) => {
  const kind = String(op.props.kind);
  const opcode = RMW_OPCODES[kind];
  if (opcode === undefined) throw new Error(`SPIR-V lowering: unknown atomic kind '${kind}'`);
  const t = atomicTarget(cx, op, 1, kind === "addf");
  if (!t) return cx.poison(op);
  const id = cx.module.id();
  cx.emit(I.atomicRmw(opcode, cx.typeId(t.view.element), id, t.p.ptr, scopeId(cx, op.props.scope), semantics(cx, op.props.ordering, t.p.space), cx.scalar(op.operands[0]!)));
  if (op.results[0]) cx.set(op.results[0], { kind: "scalar", id, type: t.view.element });
};

const cmpxchgRule: OpRule = (cx, op) => {
  const t = atomicTarget(cx, op, 2, false);
  if (!t) return cx.poison(op);
  const id = cx.module.id();
  const equal = semantics(cx, op.props.successOrdering, t.p.space);
  const unequal = semantics(cx, op.props.failureOrdering, t.p.space);
  cx.emit(I.atomicCompareExchange(cx.typeId(t.view.element), id, t.p.ptr, scopeId(cx, op.props.scope), equal, unequal, cx.scalar(op.operands[1]!), cx.scalar(op.operands[0]!)));
  cx.set(op.results[0]!, { kind: "scalar", id, type: t.view.element });
};

const atomicLoadRule: OpRule = (cx, op) => {
  const t = atomicTarget(cx, op, 0, false);
  if (!t) return cx.poison(op);
  const id = cx.module.id();
  cx.emit(I.atomicLoad(cx.typeId(t.view.element), id, t.p.ptr, scopeId(cx, op.props.scope), semantics(cx, op.props.ordering, t.p.space)));
  cx.set(op.results[0]!, { kind: "scalar", id, type: t.view.element });
};

const atomicStoreRule: OpRule = (cx, op) => {
  const t = atomicTarget(cx, op, 1, false);
  if (!t) return;
  cx.emit(I.atomicStore(t.p.ptr, scopeId(cx, op.props.scope), semantics(cx, op.props.ordering, t.p.space), cx.scalar(op.operands[0]!)));
};

export const MEMORY_RULES = {
  "buffer.alloca": allocaRule,
  "buffer.view": viewRule,
  "buffer.length": lengthRule,
  "buffer.assume.noalias": identityRule,
  "buffer.assume.alignment": identityRule,
  "buffer.assume.memory_space": identityRule,
  ...layoutLowering<KernelLowering, Id>((cx, n) => cx.u64(n), (cx, v) => cx.scalar(v)),
  "view.subview": subviewRule,
  "view.load": loadRule,
  "view.store": storeRule,
  "view.atomic.rmw": rmwRule,
  "view.atomic.reduce": rmwRule,
  "view.atomic.cmpxchg": cmpxchgRule,
  "view.atomic.load": atomicLoadRule,
  "view.atomic.store": atomicStoreRule,
} satisfies Partial<Record<OpName, OpRule>>;
