/**
 * One constructor per SPIR-V instruction the backend emits, under the spec's instruction
 * classes (naga's `back/spv/instructions.rs` shape). An `Instruction` is plain data: the
 * opcode and its operand words (result type and result id included, in spec order); the
 * word count is added when the module is serialized (`encodeInstruction`).
 */
import { Op } from "./spec.js";

export type Id = number;
export type Word = number;

export interface Instruction {
  readonly opcode: number;
  readonly operands: readonly Word[];
}

function inst(opcode: number, operands: readonly Word[]): Instruction {
  return { opcode, operands };
}

const UTF8 = new TextEncoder();

/** A literal string: UTF-8, NUL-terminated, zero-padded to whole little-endian words. */
export function stringWords(text: string): Word[] {
  const n = text.length;
  let ascii = true;
  for (let i = 0; i < n; i++) if (text.charCodeAt(i) > 0x7f) ascii = false;
  // Names are ASCII almost always: their code units are their bytes, no encoder needed.
  const bytes: ArrayLike<number> = ascii ? { length: n } : UTF8.encode(text);
  const length = bytes.length;
  const words: Word[] = new Array<Word>((length >> 2) + 1).fill(0);
  for (let i = 0; i < length; i++) words[i >> 2]! |= (ascii ? text.charCodeAt(i) : bytes[i]!) << ((i & 3) * 8);
  for (let i = 0; i < words.length; i++) words[i] = words[i]! >>> 0;
  return words;
}

export function encodeInstruction(i: Instruction, out: Word[]): void {
  const count = i.operands.length + 1;
  if (count > 0xffff) throw new Error(`SPIR-V instruction ${i.opcode} has ${count} words (limit 65535)`);
  out.push(((count << 16) | i.opcode) >>> 0);
  for (const w of i.operands) out.push(w >>> 0);
}

/** Words `i` takes in the binary (its word-count/opcode word included); throws past SPIR-V's limit. */
export function instructionWords(i: Instruction): number {
  const count = i.operands.length + 1;
  if (count > 0xffff) throw new Error(`SPIR-V instruction ${i.opcode} has ${count} words (limit 65535)`);
  return count;
}

/** Writes `i` (sized by `instructionWords` first) at `at` of `out`, returning the index after it. */
export function writeInstruction(i: Instruction, out: Uint32Array, at: number): number {
  const operands = i.operands;
  out[at++] = ((operands.length + 1) << 16) | i.opcode;
  for (let k = 0; k < operands.length; k++) out[at++] = operands[k]!;
  return at;
}

// ---- Debug --------------------------------------------------------------------------------
export const string = (result: Id, text: string) => inst(Op.String, [result, ...stringWords(text)]);
/** `OpSource Unknown 0 %file` (loom is not a source language SPIR-V names). */
export const source = (file: Id) => inst(Op.Source, [0, 0, file]);
export const line = (file: Id, lineNumber: number, column: number) => inst(Op.Line, [file, lineNumber, column]);
export const name = (target: Id, text: string) => inst(Op.Name, [target, ...stringWords(text)]);
export const memberName = (struct: Id, member: number, text: string) => inst(Op.MemberName, [struct, member, ...stringWords(text)]);

// ---- Annotation ---------------------------------------------------------------------------
export const decorate = (target: Id, decoration: number, ...literals: Word[]) => inst(Op.Decorate, [target, decoration, ...literals]);
export const memberDecorate = (struct: Id, member: number, decoration: number, ...literals: Word[]) =>
  inst(Op.MemberDecorate, [struct, member, decoration, ...literals]);

// ---- Extension ----------------------------------------------------------------------------
export const extension = (text: string) => inst(Op.Extension, stringWords(text));
export const extInstImport = (id: Id, text: string) => inst(Op.ExtInstImport, [id, ...stringWords(text)]);
export const extInst = (type: Id, id: Id, set: Id, instruction: number, operands: readonly Id[]) =>
  inst(Op.ExtInst, [type, id, set, instruction, ...operands]);

// ---- Mode-Setting -------------------------------------------------------------------------
export const memoryModel = (addressing: number, memory: number) => inst(Op.MemoryModel, [addressing, memory]);
export const entryPoint = (model: number, fn: Id, text: string, iface: readonly Id[]) => inst(Op.EntryPoint, [model, fn, ...stringWords(text), ...iface]);
export const executionMode = (fn: Id, mode: number, ...literals: Word[]) => inst(Op.ExecutionMode, [fn, mode, ...literals]);
export const capability = (cap: number) => inst(Op.Capability, [cap]);

// ---- Type-Declaration ---------------------------------------------------------------------
export const typeVoid = (id: Id) => inst(Op.TypeVoid, [id]);
export const typeBool = (id: Id) => inst(Op.TypeBool, [id]);
export const typeInt = (id: Id, width: number, signedness: 0 | 1) => inst(Op.TypeInt, [id, width, signedness]);
export const typeFloat = (id: Id, width: number) => inst(Op.TypeFloat, [id, width]);
export const typeVector = (id: Id, component: Id, count: number) => inst(Op.TypeVector, [id, component, count]);
export const typeArray = (id: Id, element: Id, length: Id) => inst(Op.TypeArray, [id, element, length]);
export const typeRuntimeArray = (id: Id, element: Id) => inst(Op.TypeRuntimeArray, [id, element]);
export const typeStruct = (id: Id, members: readonly Id[]) => inst(Op.TypeStruct, [id, ...members]);
export const typePointer = (id: Id, storage: number, pointee: Id) => inst(Op.TypePointer, [id, storage, pointee]);
export const typeFunction = (id: Id, result: Id, params: readonly Id[]) => inst(Op.TypeFunction, [id, result, ...params]);

// ---- Constant-Creation --------------------------------------------------------------------
export const constantTrue = (type: Id, id: Id) => inst(Op.ConstantTrue, [type, id]);
export const constantFalse = (type: Id, id: Id) => inst(Op.ConstantFalse, [type, id]);
/** `value` words are low-order first (64-bit constants take two words). */
export const constant = (type: Id, id: Id, value: readonly Word[]) => inst(Op.Constant, [type, id, ...value]);

// ---- Memory -------------------------------------------------------------------------------
export const variable = (pointerType: Id, id: Id, storage: number) => inst(Op.Variable, [pointerType, id, storage]);
/** `access` = memory-operand mask and its literals (e.g. Aligned, alignment). */
export const load = (type: Id, id: Id, pointer: Id, access: readonly Word[] = []) => inst(Op.Load, [type, id, pointer, ...access]);
export const store = (pointer: Id, value: Id, access: readonly Word[] = []) => inst(Op.Store, [pointer, value, ...access]);
export const accessChain = (type: Id, id: Id, base: Id, indices: readonly Id[]) => inst(Op.AccessChain, [type, id, base, ...indices]);

// ---- Function -----------------------------------------------------------------------------
export const functionBegin = (result: Id, id: Id, control: number, fnType: Id) => inst(Op.Function, [result, id, control, fnType]);
export const functionEnd = () => inst(Op.FunctionEnd, []);

// ---- Composite ----------------------------------------------------------------------------
export const compositeExtract = (type: Id, id: Id, composite: Id, indices: readonly number[]) => inst(Op.CompositeExtract, [type, id, composite, ...indices]);
export const compositeConstruct = (type: Id, id: Id, parts: readonly Id[]) => inst(Op.CompositeConstruct, [type, id, ...parts]);

// ---- Conversion, Arithmetic, Bit, Relational and Logical ------------------------------------
/** The one-operand value instructions of these classes (conversions, negations, OpNot, ...). */
export type UnaryOpcode =
  | typeof Op.ConvertFToU | typeof Op.ConvertFToS | typeof Op.ConvertSToF | typeof Op.ConvertUToF
  | typeof Op.UConvert | typeof Op.SConvert | typeof Op.FConvert | typeof Op.ConvertUToPtr | typeof Op.Bitcast
  | typeof Op.SNegate | typeof Op.FNegate | typeof Op.Not | typeof Op.BitCount | typeof Op.IsNan | typeof Op.LogicalNot;
export const unary = (opcode: UnaryOpcode, type: Id, id: Id, a: Id) => inst(opcode, [type, id, a]);

/** The two-operand value instructions of these classes (arithmetic, shifts, compares, ...). */
export type BinaryOpcode =
  | typeof Op.IAdd | typeof Op.FAdd | typeof Op.ISub | typeof Op.FSub | typeof Op.IMul | typeof Op.FMul
  | typeof Op.UDiv | typeof Op.SDiv | typeof Op.FDiv | typeof Op.UMod | typeof Op.SRem | typeof Op.FRem
  | typeof Op.LogicalEqual | typeof Op.LogicalNotEqual | typeof Op.LogicalOr | typeof Op.LogicalAnd
  | typeof Op.IEqual | typeof Op.INotEqual | typeof Op.UGreaterThan | typeof Op.SGreaterThan
  | typeof Op.UGreaterThanEqual | typeof Op.SGreaterThanEqual | typeof Op.ULessThan | typeof Op.SLessThan
  | typeof Op.ULessThanEqual | typeof Op.SLessThanEqual
  | typeof Op.FOrdEqual | typeof Op.FUnordEqual | typeof Op.FOrdNotEqual | typeof Op.FUnordNotEqual
  | typeof Op.FOrdLessThan | typeof Op.FUnordLessThan | typeof Op.FOrdGreaterThan | typeof Op.FUnordGreaterThan
  | typeof Op.FOrdLessThanEqual | typeof Op.FUnordLessThanEqual | typeof Op.FOrdGreaterThanEqual | typeof Op.FUnordGreaterThanEqual
  | typeof Op.ShiftRightLogical | typeof Op.ShiftRightArithmetic | typeof Op.ShiftLeftLogical
  | typeof Op.BitwiseOr | typeof Op.BitwiseXor | typeof Op.BitwiseAnd;
export const binary = (opcode: BinaryOpcode, type: Id, id: Id, a: Id, b: Id) => inst(opcode, [type, id, a, b]);

export const select = (type: Id, id: Id, condition: Id, a: Id, b: Id) => inst(Op.Select, [type, id, condition, a, b]);

// ---- Barrier ------------------------------------------------------------------------------
export const controlBarrier = (execution: Id, memory: Id, semantics: Id) => inst(Op.ControlBarrier, [execution, memory, semantics]);

// ---- Atomic -------------------------------------------------------------------------------
export const atomicLoad = (type: Id, id: Id, pointer: Id, scope: Id, semantics: Id) => inst(Op.AtomicLoad, [type, id, pointer, scope, semantics]);
export const atomicStore = (pointer: Id, scope: Id, semantics: Id, value: Id) => inst(Op.AtomicStore, [pointer, scope, semantics, value]);
export type AtomicRmwOpcode =
  | typeof Op.AtomicExchange | typeof Op.AtomicIAdd | typeof Op.AtomicISub | typeof Op.AtomicSMin | typeof Op.AtomicUMin
  | typeof Op.AtomicSMax | typeof Op.AtomicUMax | typeof Op.AtomicAnd | typeof Op.AtomicOr | typeof Op.AtomicXor | typeof Op.AtomicFAddEXT;
export const atomicRmw = (opcode: AtomicRmwOpcode, type: Id, id: Id, pointer: Id, scope: Id, semantics: Id, value: Id) =>
  inst(opcode, [type, id, pointer, scope, semantics, value]);
export const atomicCompareExchange = (type: Id, id: Id, pointer: Id, scope: Id, equal: Id, unequal: Id, value: Id, comparator: Id) =>
  inst(Op.AtomicCompareExchange, [type, id, pointer, scope, equal, unequal, value, comparator]);

// ---- Control-Flow -------------------------------------------------------------------------
export const phi = (type: Id, id: Id, incoming: readonly (readonly [value: Id, block: Id])[]) => {
  const operands: Word[] = [type, id];
  for (const [value, block] of incoming) operands.push(value, block);
  return inst(Op.Phi, operands);
};
export const loopMerge = (merge: Id, cont: Id, control: number) => inst(Op.LoopMerge, [merge, cont, control]);
export const selectionMerge = (merge: Id, control: number) => inst(Op.SelectionMerge, [merge, control]);
export const label = (id: Id) => inst(Op.Label, [id]);
export const branch = (target: Id) => inst(Op.Branch, [target]);
export const branchConditional = (condition: Id, whenTrue: Id, whenFalse: Id) => inst(Op.BranchConditional, [condition, whenTrue, whenFalse]);
export const returnVoid = () => inst(Op.Return, []);

// ---- Non-Uniform --------------------------------------------------------------------------
export type GroupArithmeticOpcode =
  | typeof Op.GroupNonUniformIAdd | typeof Op.GroupNonUniformFAdd | typeof Op.GroupNonUniformIMul | typeof Op.GroupNonUniformFMul
  | typeof Op.GroupNonUniformSMin | typeof Op.GroupNonUniformUMin | typeof Op.GroupNonUniformFMin
  | typeof Op.GroupNonUniformSMax | typeof Op.GroupNonUniformUMax | typeof Op.GroupNonUniformFMax
  | typeof Op.GroupNonUniformBitwiseAnd | typeof Op.GroupNonUniformBitwiseOr | typeof Op.GroupNonUniformBitwiseXor
  | typeof Op.GroupNonUniformLogicalAnd | typeof Op.GroupNonUniformLogicalOr | typeof Op.GroupNonUniformLogicalXor;
/** `clusterSize` (an id) only with the ClusteredReduce group operation. */
export const groupArithmetic = (opcode: GroupArithmeticOpcode, type: Id, id: Id, scope: Id, operation: number, value: Id, clusterSize?: Id) =>
  inst(opcode, [type, id, scope, operation, value, ...(clusterSize === undefined ? [] : [clusterSize])]);
export const groupBroadcast = (type: Id, id: Id, scope: Id, value: Id, lane: Id) => inst(Op.GroupNonUniformBroadcast, [type, id, scope, value, lane]);
export const groupShuffle = (type: Id, id: Id, scope: Id, value: Id, lane: Id) => inst(Op.GroupNonUniformShuffle, [type, id, scope, value, lane]);
