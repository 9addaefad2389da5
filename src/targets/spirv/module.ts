/**
 * A SPIR-V module under construction, in the logical layout of the spec (§2.4): one
 * instruction list per section, serialized in section order. It owns id allocation, the
 * type and constant caches (each type/constant is declared once, spec §2.8), and the
 * capabilities and extensions, which are collected from use (declaring a 64-bit integer
 * type adds `Int64`, ...). Everything is kept in insertion order, so the same lowering
 * calls always give the same bytes.
 *
 * All integer types are declared unsigned (signedness 0): Loom integers are bit patterns
 * and every instruction that cares (`OpSDiv`, `OpSLessThan`, ...) states its signedness.
 */
import { floatToBits, roundToFormat } from "../../dialects/scalar/semantics.js";
import * as I from "./instructions.js";
import type { Id, Instruction } from "./instructions.js";
import { Capability, Decoration, ExecutionMode, GENERATOR, MAGIC, VERSION_1_6, type CapabilityName } from "./spec.js";

/** A SPIR-V scalar type as the lowering sees it. */
export type ScalarType = { readonly kind: "bool" } | { readonly kind: "int" | "float"; readonly width: 8 | 16 | 32 | 64 };

export const BOOL: ScalarType = { kind: "bool" };
export const U32: ScalarType = { kind: "int", width: 32 };
export const U64: ScalarType = { kind: "int", width: 64 };

export function scalarKey(t: ScalarType): string {
  return t.kind === "bool" ? "bool" : `${t.kind}${t.width}`;
}

/** Bytes of a scalar in memory (bool has no memory representation in Vulkan). */
export function scalarBytes(t: ScalarType): number {
  if (t.kind === "bool") throw new Error("bool has no memory size");
  return t.width / 8;
}

/** Words of the constant bit pattern `v` of width `width` (low word first). */
function intWords(v: bigint, width: number): number[] {
  if (width <= 32) return [Number(v)];
  return [Number(v & 0xffffffffn), Number(v >> 32n)];
}

/** Float constant words; a NaN constant is the canonical quiet NaN, spelled out (docs/language.md "NaN payloads"). */
function floatWords(value: number, width: number): number[] {
  if (width === 16) return [Number(floatToBits(roundToFormat(value, "f16"), "f16"))];
  return intWords(floatToBits(value, width === 32 ? "f32" : "f64"), width);
}

export interface EntryPointRecord {
  readonly fn: Id;
  readonly name: string;
  readonly iface: readonly Id[];
  readonly localSize: readonly [number, number, number];
  /** Float widths whose signed zeros, infinities and NaNs the kernel preserves (SignedZeroInfNanPreserve). */
  readonly preserveFloatWidths?: readonly number[];
}

/** `scalarSlot` offsets per width (bool 0, int 1–4, float 5–8). */
const WIDTH_SLOT: Readonly<Record<8 | 16 | 32 | 64, number>> = { 8: 0, 16: 1, 32: 2, 64: 3 };
/** The capability a scalar type of each slot requires. */
const SLOT_CAPABILITY: readonly (CapabilityName | undefined)[] = [undefined, "Int8", "Int16", undefined, "Int64", undefined, "Float16", undefined, "Float64"];

export class SpirvModule {
  private bound = 1;
  private readonly capabilities = new Set<number>();
  private readonly extensions = new Set<string>();
  private readonly imports: Instruction[] = [];
  private glslSet: Id | undefined;
  private readonly entries: EntryPointRecord[] = [];
  private readonly debug: Instruction[] = [];
  /** OpString/OpSource for `lineInfo` (they precede the names in the debug section). */
  private readonly sources: Instruction[] = [];
  private readonly files = new Map<string, Id>();
  /** Emit OpLine before each lowered op (`loom compile -g`, the `debugInfo` emit option). */
  lineInfo = false;
  private readonly annotations: Instruction[] = [];
  /** Types, constants and global variables, each after everything it refers to. */
  private readonly globals: Instruction[] = [];
  private readonly functions: Instruction[] = [];
  private readonly types = new Map<string, Id>();
  private readonly constants = new Map<string, Id>();
  /** Scalar type ids by `scalarSlot` (the hottest type lookups, no string key). */
  private readonly scalarIds: (Id | undefined)[] = [];
  /** Pointer type ids by pointee id, then storage class. */
  private readonly pointerIds = new Map<number, Map<number, Id>>();
  /** Integer constant ids by type id, then value (bit pattern). */
  private readonly intConstants = new Map<Id, Map<bigint, Id>>();

  constructor(private readonly addressing: number, private readonly memory: number) {
    this.require("Shader");
  }

  id(): Id {
    return this.bound++;
  }

  /** Capabilities required since the last `startKernel` (one module holds several kernels). */
  private kernelCapabilities = new Set<number>();

  require(cap: CapabilityName): void {
    this.capabilities.add(Capability[cap]);
    this.kernelCapabilities.add(Capability[cap]);
  }

  /** Starts counting the capabilities the next kernel's lowering requires. */
  startKernel(): void {
    this.kernelCapabilities = new Set();
  }

  /** True when the kernel being lowered required `cap` (since `startKernel`). */
  kernelRequires(cap: CapabilityName): boolean {
    return this.kernelCapabilities.has(Capability[cap]);
  }

  requireExtension(name: string): void {
    this.extensions.add(name);
  }

  /** The declared capabilities, by name. */
  capabilityNames(): CapabilityName[] {
    const names: CapabilityName[] = [];
    for (const name in Capability) if (this.capabilities.has(Capability[name as CapabilityName])) names.push(name as CapabilityName);
    return names;
  }

  /** The `GLSL.std.450` import, declared on first use. */
  glsl(): Id {
    if (this.glslSet === undefined) {
      this.glslSet = this.id();
      this.imports.push(I.extInstImport(this.glslSet, "GLSL.std.450"));
    }
    return this.glslSet;
  }

  /** The OpString id of a source file, declaring it (with its OpSource) on first use. */
  sourceFile(path: string): Id {
    let id = this.files.get(path);
    if (id === undefined) {
      id = this.id();
      this.files.set(path, id);
      this.sources.push(I.string(id, path), I.source(id));
    }
    return id;
  }

  name(target: Id, text: string): void {
    this.debug.push(I.name(target, text));
  }
  memberName(struct: Id, member: number, text: string): void {
    this.debug.push(I.memberName(struct, member, text));
  }
  decorate(target: Id, decoration: number, ...literals: number[]): void {
    this.annotations.push(I.decorate(target, decoration, ...literals));
  }
  memberDecorate(struct: Id, member: number, decoration: number, ...literals: number[]): void {
    this.annotations.push(I.memberDecorate(struct, member, decoration, ...literals));
  }

  // ---- types ------------------------------------------------------------------------------
  private cachedType(key: string, make: (id: Id) => Instruction): Id {
    let id = this.types.get(key);
    if (id === undefined) {
      id = this.id();
      this.globals.push(make(id));
      this.types.set(key, id);
    }
    return id;
  }

  typeVoid(): Id {
    return this.cachedType("void", (id) => I.typeVoid(id));
  }

  scalar(t: ScalarType): Id {
    const slot = t.kind === "bool" ? 0 : (t.kind === "int" ? 1 : 5) + WIDTH_SLOT[t.width];
    // Every use requires the width's capability: each kernel of the module counts its own.
    const capability = SLOT_CAPABILITY[slot];
    if (capability !== undefined) this.require(capability);
    let id = this.scalarIds[slot];
    if (id === undefined) {
      id = this.id();
      this.globals.push(t.kind === "bool" ? I.typeBool(id) : t.kind === "int" ? I.typeInt(id, t.width, 0) : I.typeFloat(id, t.width));
      this.scalarIds[slot] = id;
    }
    return id;
  }

  typeVector(component: ScalarType, count: number): Id {
    const c = this.scalar(component);
    return this.cachedType(`vec${count}:${c}`, (id) => I.typeVector(id, c, count));
  }

  typePointer(storage: number, pointee: Id): Id {
    let byStorage = this.pointerIds.get(pointee);
    if (byStorage === undefined) this.pointerIds.set(pointee, (byStorage = new Map()));
    let id = byStorage.get(storage);
    if (id === undefined) {
      id = this.id();
      this.globals.push(I.typePointer(id, storage, pointee));
      byStorage.set(storage, id);
    }
    return id;
  }

  /** A fixed array without explicit layout (Workgroup / Function storage). */
  typeArray(element: Id, length: number): Id {
    const len = this.constInt(U32, BigInt(length));
    return this.cachedType(`arr:${element}:${len}`, (id) => I.typeArray(id, element, len));
  }

  /** A runtime array with `ArrayStride` (StorageBuffer blocks). */
  typeRuntimeArray(element: Id, stride: number): Id {
    return this.cachedType(`rta:${element}:${stride}`, (id) => {
      this.decorate(id, Decoration.ArrayStride, stride);
      return I.typeRuntimeArray(id, element);
    });
  }

  /** A `Block` struct with members at explicit byte offsets; cached by its shape. */
  typeBlock(members: readonly { readonly type: Id; readonly offset: number }[]): Id {
    let key = "block:";
    for (const m of members) key += `${m.type}@${m.offset},`;
    return this.cachedType(key, (id) => {
      this.decorate(id, Decoration.Block);
      members.forEach((m, i) => this.memberDecorate(id, i, Decoration.Offset, m.offset));
      return I.typeStruct(id, members.map((m) => m.type));
    });
  }

  typeFunction(result: Id, params: readonly Id[]): Id {
    return this.cachedType(`fn:${result}:${params.join(",")}`, (id) => I.typeFunction(id, result, params));
  }

  // ---- constants --------------------------------------------------------------------------
  private cachedConstant(key: string, make: (id: Id) => Instruction): Id {
    let id = this.constants.get(key);
    if (id === undefined) {
      id = this.id();
      this.globals.push(make(id));
      this.constants.set(key, id);
    }
    return id;
  }

  constBool(value: boolean): Id {
    const type = this.scalar(BOOL);
    return this.cachedConstant(`bool:${value}`, (id) => (value ? I.constantTrue(type, id) : I.constantFalse(type, id)));
  }

  constInt(t: ScalarType, value: bigint): Id {
    if (t.kind !== "int") throw new Error("constInt of a non-integer type");
    const type = this.scalar(t);
    const bits = BigInt.asUintN(t.width, value);
    let byValue = this.intConstants.get(type);
    if (byValue === undefined) this.intConstants.set(type, (byValue = new Map()));
    let id = byValue.get(bits);
    if (id === undefined) {
      id = this.id();
      this.globals.push(I.constant(type, id, intWords(bits, t.width)));
      byValue.set(bits, id);
    }
    return id;
  }

  constFloat(t: ScalarType, value: number): Id {
    if (t.kind !== "float") throw new Error("constFloat of a non-float type");
    const type = this.scalar(t);
    const words = floatWords(value, t.width);
    return this.cachedConstant(`${type}:${words.join(",")}`, (id) => I.constant(type, id, words));
  }

  /** Any scalar constant from a number/bigint/boolean. */
  constScalar(t: ScalarType, value: bigint | number | boolean): Id {
    if (t.kind === "bool") return this.constBool(typeof value === "boolean" ? value : BigInt(value as number | bigint) !== 0n);
    if (t.kind === "int") return this.constInt(t, typeof value === "bigint" ? value : BigInt(typeof value === "boolean" ? Number(value) : Math.trunc(value)));
    return this.constFloat(t, Number(value));
  }

  u32(value: number): Id {
    return this.constInt(U32, BigInt(value));
  }

  // ---- globals and functions --------------------------------------------------------------
  globalVariable(pointerType: Id, storage: number): Id {
    const id = this.id();
    this.globals.push(I.variable(pointerType, id, storage));
    return id;
  }

  addFunction(body: readonly Instruction[]): void {
    for (const inst of body) this.functions.push(inst); // no spread: bodies can be huge
  }

  addEntryPoint(record: EntryPointRecord): void {
    this.entries.push(record);
  }

  /**
   * The module's instructions in section order and its length in words, fixed from here on;
   * throws when an instruction exceeds SPIR-V's 65535 words. `write` turns it into words.
   */
  seal(executionModel: number, localSizeMode: number): SealedModule {
    const sections: (readonly Instruction[])[] = [
      [...this.capabilities].map((c) => I.capability(c)),
      [...this.extensions].map((e) => I.extension(e)),
      this.imports,
      [I.memoryModel(this.addressing, this.memory)],
      this.entries.map((e) => I.entryPoint(executionModel, e.fn, e.name, e.iface)),
      this.entries.map((e) => I.executionMode(e.fn, localSizeMode, ...e.localSize)),
      this.entries.flatMap((e) => (e.preserveFloatWidths ?? []).map((w) => I.executionMode(e.fn, ExecutionMode.SignedZeroInfNanPreserve, w))),
      this.sources,
      this.debug,
      this.annotations,
      this.globals,
      this.functions,
    ];
    let length = 5;
    for (const list of sections) for (let i = 0; i < list.length; i++) length += I.instructionWords(list[i]!);
    return { sections, length, bound: this.bound };
  }

  /** The finished module as words (header first). */
  finish(executionModel: number, localSizeMode: number): Uint32Array {
    return writeModule(this.seal(executionModel, localSizeMode));
  }
}

/** A module's instructions in section order (see `SpirvModule.seal`). */
export interface SealedModule {
  readonly sections: readonly (readonly Instruction[])[];
  /** Words, header included. */
  readonly length: number;
  readonly bound: number;
}

/** The words of a sealed module: sized first, then written in place. */
export function writeModule(m: SealedModule): Uint32Array {
  const words = new Uint32Array(m.length);
  words[0] = MAGIC;
  words[1] = VERSION_1_6;
  words[2] = GENERATOR;
  words[3] = m.bound;
  let at = 5;
  for (const list of m.sections) for (let i = 0; i < list.length; i++) at = I.writeInstruction(list[i]!, words, at);
  return words;
}
