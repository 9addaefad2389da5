/**
 * `kernel.*` device ops: invocation coordinates (compute builtins, widened to 64-bit
 * `index`), barriers (`OpControlBarrier`), and subgroup/workgroup collectives
 * (`GroupNonUniform*`, full subgroups assumed — docs/abi.md). Each collective checks the
 * profile's subgroup operations before it emits anything.
 */
import type { OpName } from "../../../dialects/registry.js";
import type { Op } from "../../../ir/core.js";
import * as I from "../instructions.js";
import type { Id } from "../instructions.js";
import { BOOL, U32, U64, type ScalarType } from "../module.js";
import { BuiltIn, GroupOperation, MemorySemantics, Op as S, Scope, StorageClass } from "../spec.js";
import { combine } from "./arith-rules.js";
import { DIM_COMPONENT, type KernelLowering, type OpRule } from "./context.js";
import { countedLoop } from "./control-rules.js";
import { propOf } from "../../../dialects/registry.js";
import { unexpandedScan } from "../../../dialects/lowering.js";

function dim(op: Op): number {
  return DIM_COMPONENT[String(op.props.dim)] ?? 0;
}

function builtinRule(builtin: number): OpRule {
  return (cx, op) => cx.set(op.results[0]!, { kind: "scalar", id: cx.builtinIndex(builtin, dim(op)), type: U64 });
}

function subgroupBuiltinRule(builtin: number): OpRule {
  return (cx, op) => {
    if (!cx.requireSubgroup(op, "basic", `'${op.name}'`)) return cx.poison(op);
    cx.module.require("GroupNonUniform");
    cx.set(op.results[0]!, { kind: "scalar", id: cx.builtinIndex(builtin), type: U64 });
  };
}

const workgroupSize: OpRule = (cx, op) => {
  // LocalSize is a compile-time constant on Vulkan; a dynamic size is TARGET/902 (kernel.ts).
  const size = cx.kernel.staticWorkgroupSize;
  if (!size) return cx.poison(op);
  cx.set(op.results[0]!, { kind: "scalar", id: cx.u64(size[dim(op)]!), type: U64 });
};

const barrier: OpRule = (cx, op) => {
  const scope = op.props.scope === "subgroup" ? Scope.Subgroup : Scope.Workgroup;
  const ordering = { acq_rel: MemorySemantics.AcquireRelease, acquire: MemorySemantics.Acquire, release: MemorySemantics.Release }[String(op.props.ordering)] ?? MemorySemantics.AcquireRelease;
  const storage = op.props.memory === "global" ? MemorySemantics.UniformMemory : MemorySemantics.WorkgroupMemory;
  cx.emit(I.controlBarrier(cx.u32(scope), cx.u32(scope), cx.u32(ordering | storage)));
};

// ---- subgroup collectives -----------------------------------------------------------------

function extendedTypesOk(cx: KernelLowering, op: Op, t: ScalarType): boolean {
  if (t.kind === "bool" || t.width >= 32) return true;
  return cx.requireFeature(op, "shaderSubgroupExtendedTypes", `'${op.name}' on ${t.width}-bit values`);
}

type GroupOpcode = I.GroupArithmeticOpcode;
const INT_GROUP: Readonly<Record<string, GroupOpcode>> = {
  addi: S.GroupNonUniformIAdd, muli: S.GroupNonUniformIMul, minsi: S.GroupNonUniformSMin, maxsi: S.GroupNonUniformSMax,
  minui: S.GroupNonUniformUMin, maxui: S.GroupNonUniformUMax, andi: S.GroupNonUniformBitwiseAnd, ori: S.GroupNonUniformBitwiseOr,
  xori: S.GroupNonUniformBitwiseXor,
};
/** i1 kinds (true = 1 unsigned, −1 signed). */
const BOOL_GROUP: Readonly<Record<string, GroupOpcode>> = {
  addi: S.GroupNonUniformLogicalXor, xori: S.GroupNonUniformLogicalXor, muli: S.GroupNonUniformLogicalAnd, andi: S.GroupNonUniformLogicalAnd,
  ori: S.GroupNonUniformLogicalOr, minsi: S.GroupNonUniformLogicalOr, maxsi: S.GroupNonUniformLogicalAnd, minui: S.GroupNonUniformLogicalAnd,
  maxui: S.GroupNonUniformLogicalOr,
};
const FLOAT_GROUP: Readonly<Record<string, GroupOpcode>> = {
  addf: S.GroupNonUniformFAdd, mulf: S.GroupNonUniformFMul, minnumf: S.GroupNonUniformFMin, maxnumf: S.GroupNonUniformFMax,
  // GroupNonUniformFMin/FMax skip NaNs like fmin/fmax; minimumf/maximumf are fixed up below.
  minimumf: S.GroupNonUniformFMin, maximumf: S.GroupNonUniformFMax,
};

interface GroupReduce {
  readonly operation: number;
  readonly cluster?: Id;
}

function groupReduce(cx: KernelLowering, opcode: GroupOpcode, t: ScalarType, value: Id, g: GroupReduce): Id {
  const id = cx.module.id();
  cx.emit(I.groupArithmetic(opcode, cx.typeId(t), id, cx.u32(Scope.Subgroup), g.operation, value, g.cluster));
  return id;
}

/** Whether any lane in the group has `flag` set (an OR reduction over u32 0/1). */
function anyLane(cx: KernelLowering, flag: Id, g: GroupReduce): Id {
  const n = groupReduce(cx, S.GroupNonUniformBitwiseOr, U32, cx.select(U32, flag, cx.u32(1), cx.u32(0)), g);
  return cx.binary(S.INotEqual, BOOL, n, cx.u32(0));
}

/** IEEE minimum/maximum over the group: NaN if any lane is NaN; zeros ordered −0 < +0. */
function exactMinMax(cx: KernelLowering, isMin: boolean, t: ScalarType, v: Id, g: GroupReduce): Id {
  const m = cx.module;
  const zeroFixed = zeroOrdered(cx, isMin, t, v, groupReduce(cx, isMin ? S.GroupNonUniformFMin : S.GroupNonUniformFMax, t, v, g), g);
  return cx.select(t, anyLane(cx, cx.unary(S.IsNan, BOOL, v), g), m.constFloat(t, NaN), zeroFixed);
}

/** A group min/max `r` with zeros ordered −0 < +0 (the group ops may return either zero). */
function zeroOrdered(cx: KernelLowering, isMin: boolean, t: ScalarType, v: Id, r: Id, g: GroupReduce): Id {
  const m = cx.module;
  const zero = m.constFloat(t, 0);
  const isZero = cx.binary(S.FOrdEqual, BOOL, v, zero);
  // 1/±0 = ±inf tells the zero's sign without integer bitcasts.
  const recip = cx.binary(S.FDiv, t, m.constFloat(t, 1), v);
  const signedZero = cx.binary(S.LogicalAnd, BOOL, isZero, cx.binary(isMin ? S.FOrdLessThan : S.FOrdGreaterThan, BOOL, recip, zero));
  const anySigned = anyLane(cx, signedZero, g);
  const wanted = isMin ? cx.select(t, anySigned, m.constFloat(t, -0), zero) : cx.select(t, anySigned, zero, m.constFloat(t, -0));
  return cx.select(t, cx.binary(S.FOrdEqual, BOOL, r, zero), wanted, r);
}

/**
 * fmin/fmax over the group: NaN lanes are skipped, and the result is NaN only when every lane
 * is NaN (GroupNonUniformFMin/FMax start from ±inf, so an all-NaN group would give ±inf).
 */
function numMinMax(cx: KernelLowering, isMin: boolean, t: ScalarType, v: Id, g: GroupReduce): Id {
  const r = zeroOrdered(cx, isMin, t, v, groupReduce(cx, isMin ? S.GroupNonUniformFMin : S.GroupNonUniformFMax, t, v, g), g);
  const anyNumber = anyLane(cx, cx.unary(S.LogicalNot, BOOL, cx.unary(S.IsNan, BOOL, v)), g);
  return cx.select(t, anyNumber, r, cx.module.constFloat(t, NaN));
}

const subgroupReduce: OpRule = (cx, op) => {
  const kind = String(op.props.kind);
  const t = cx.scalarType(op.results[0]!.type);
  const clusterSize = propOf(op, "clusterSize");
  if (!cx.requireSubgroup(op, "arithmetic", `'${op.name}'`) || !extendedTypesOk(cx, op, t)) return cx.poison(op);
  if (clusterSize !== undefined && !cx.requireSubgroup(op, "clustered", `'${op.name}' with a cluster size`)) return cx.poison(op);
  cx.module.require("GroupNonUniform");
  cx.module.require("GroupNonUniformArithmetic");
  if (clusterSize !== undefined) cx.module.require("GroupNonUniformClustered");
  const g: GroupReduce = clusterSize === undefined ? { operation: GroupOperation.Reduce } : { operation: GroupOperation.ClusteredReduce, cluster: cx.u32(clusterSize) };
  const v = cx.scalar(op.operands[0]!);
  const table = t.kind === "bool" ? BOOL_GROUP : t.kind === "int" ? INT_GROUP : FLOAT_GROUP;
  const opcode = table[kind];
  if (opcode === undefined) throw new Error(`SPIR-V lowering: no subgroup reduction '${kind}' for ${t.kind}`);
  const id =
    kind === "minimumf" || kind === "maximumf" ? exactMinMax(cx, kind === "minimumf", t, v, g)
    : kind === "minnumf" || kind === "maxnumf" ? numMinMax(cx, kind === "minnumf", t, v, g)
    : groupReduce(cx, opcode, t, v, g);
  cx.set(op.results[0]!, { kind: "scalar", id, type: t });
};

const subgroupShuffle: OpRule = (cx, op) => {
  const t = cx.scalarType(op.operands[0]!.type);
  if (!cx.requireSubgroup(op, "shuffle", `'${op.name}'`) || !extendedTypesOk(cx, op, t)) return cx.poison(op);
  cx.module.require("GroupNonUniform");
  cx.module.require("GroupNonUniformShuffle");
  const [v, off, width] = op.operands.map((x) => cx.scalar(x)) as [Id, Id, Id];
  const lane = cx.builtinU32(BuiltIn.SubgroupLocalInvocationId);
  // Segments of `width` lanes: base = lane & ~(width − 1); the source must stay in the segment.
  const base = cx.binary(S.BitwiseAnd, U32, lane, cx.unary(S.Not, U32, cx.binary(S.ISub, U32, width, cx.u32(1))));
  const mode = String(op.props.mode);
  const src =
    mode === "xor" ? cx.binary(S.BitwiseXor, U32, lane, off)
    : mode === "up" ? cx.binary(S.ISub, U32, lane, off)
    : mode === "down" ? cx.binary(S.IAdd, U32, lane, off)
    : cx.binary(S.IAdd, U32, base, off);
  const valid = cx.binary(S.ULessThan, BOOL, cx.binary(S.ISub, U32, src, base), width);
  const shuffled = cx.module.id();
  cx.emit(I.groupShuffle(cx.typeId(t), shuffled, cx.u32(Scope.Subgroup), v, cx.select(U32, valid, src, lane)));
  cx.set(op.results[0]!, { kind: "scalar", id: cx.select(t, valid, shuffled, v), type: t });
  cx.set(op.results[1]!, { kind: "scalar", id: valid, type: BOOL });
};

const subgroupBroadcast: OpRule = (cx, op) => {
  const t = cx.scalarType(op.operands[0]!.type);
  if (!cx.requireSubgroup(op, "ballot", `'${op.name}'`) || !extendedTypesOk(cx, op, t)) return cx.poison(op);
  cx.module.require("GroupNonUniform");
  cx.module.require("GroupNonUniformBallot");
  const id = cx.module.id();
  // Since SPIR-V 1.5 the lane id only needs to be dynamically uniform, as language.md requires.
  cx.emit(I.groupBroadcast(cx.typeId(t), id, cx.u32(Scope.Subgroup), cx.scalar(op.operands[0]!), cx.scalar(op.operands[1]!)));
  cx.set(op.results[0]!, { kind: "scalar", id, type: t });
};

// ---- workgroup reduction ------------------------------------------------------------------

/**
 * Every invocation writes its value to a Workgroup scratch array (one slot per invocation),
 * then folds all slots in flat-id order, so every invocation gets the same result and float
 * association is fixed. A barrier before and after keeps the scratch reusable.
 */
const workgroupReduce: OpRule = (cx, op) => {
  const size = cx.kernel.staticWorkgroupSize;
  if (!size) return cx.poison(op);
  const kind = String(op.props.kind);
  const t = cx.scalarType(op.results[0]!.type);
  const m = cx.module;
  // Booleans have no memory representation: store them as u32 0/1.
  const slot: ScalarType = t.kind === "bool" ? U32 : t;
  const flat = size[0] * size[1] * size[2];
  const ptrType = m.typePointer(StorageClass.Workgroup, m.typeArray(m.scalar(slot), flat));
  const scratch = m.globalVariable(ptrType, StorageClass.Workgroup);
  m.name(scratch, `${op.results[0]!.name}_scratch`);
  cx.iface.add(scratch);
  // Its bytes are counted in workgroupStorageBytes by passes/storage.ts (collectiveScratch).
  const elementPtr = m.typePointer(StorageClass.Workgroup, m.scalar(slot));
  const at = (index: Id): Id => {
    const p = m.id();
    cx.emit(I.accessChain(elementPtr, p, scratch, [index]));
    return p;
  };
  const v = cx.scalar(op.operands[0]!);
  const stored = t.kind === "bool" ? cx.select(U32, v, cx.u32(1), cx.u32(0)) : v;
  // LocalInvocationIndex = x + sx·(y + sy·z), the flat id of language.md.
  cx.emit(I.store(at(cx.builtinU32(BuiltIn.LocalInvocationIndex)), stored));
  const sync = () => cx.emit(I.controlBarrier(cx.u32(Scope.Workgroup), cx.u32(Scope.Workgroup), cx.u32(MemorySemantics.AcquireRelease | MemorySemantics.WorkgroupMemory)));
  sync();
  const loadSlot = (i: Id): Id => {
    const id = m.id();
    cx.emit(I.load(m.scalar(slot), id, at(i)));
    return t.kind === "bool" ? cx.binary(S.INotEqual, BOOL, id, cx.u32(0)) : id;
  };
  const first = loadSlot(cx.u64(0));
  const [acc] = countedLoop(cx, cx.u64(flat - 1), [{ id: first, type: t }], (i, [current]) => [combine(cx, op, kind, t, current!, loadSlot(cx.add64(i, cx.u64(1))))]);
  sync();
  cx.set(op.results[0]!, { kind: "scalar", id: acc!, type: t });
};

const assertRule: OpRule = (cx, op) => {
  cx.unsupported(op, "'kernel.assert'", "Vulkan compute shaders cannot trap; check the condition on the host or write a flag to a buffer");
};

export const KERNEL_RULES = {
  "kernel.workitem.id": builtinRule(BuiltIn.LocalInvocationId),
  "kernel.workgroup.id": builtinRule(BuiltIn.WorkgroupId),
  "kernel.workgroup.count": builtinRule(BuiltIn.NumWorkgroups),
  "kernel.workitem.dispatch.id": builtinRule(BuiltIn.GlobalInvocationId),
  "kernel.workgroup.size": workgroupSize,
  "kernel.subgroup.id": subgroupBuiltinRule(BuiltIn.SubgroupId),
  "kernel.subgroup.size": subgroupBuiltinRule(BuiltIn.SubgroupSize),
  "kernel.subgroup.lane.id": subgroupBuiltinRule(BuiltIn.SubgroupLocalInvocationId),
  "kernel.subgroup.count": subgroupBuiltinRule(BuiltIn.NumSubgroups),
  "kernel.barrier": barrier,
  "kernel.subgroup.reduce": subgroupReduce,
  "kernel.subgroup.shuffle": subgroupShuffle,
  "kernel.subgroup.broadcast": subgroupBroadcast,
  "kernel.workgroup.reduce": workgroupReduce,
  "kernel.workgroup.scan": unexpandedScan,
  "kernel.assert": assertRule,
} satisfies Partial<Record<OpName, OpRule>>;
