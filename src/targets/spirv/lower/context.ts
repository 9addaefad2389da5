/**
 * The state of lowering one prepared kernel into one SPIR-V function: what each Loom value
 * became (`Lowered`), the function being built, the entry point's interface, and the
 * TARGET diagnostics found on the way. Rules (the `*-rules.ts` files) read operands through
 * `get`/`scalar`, emit through the small helpers here, and record results with `set`.
 *
 * Errors never stop lowering: an unsupported op is reported at its span and its results
 * become `invalid`, so one pass finds every problem. A module with diagnostics is never
 * serialized, so ids handed out for invalid values need no definition.
 */
import type { Op, Value } from "../../../ir/core.js";
import type { PrimName, Type } from "../../../ir/types.js";
import type { LoweredLayout } from "../../../ir/strides.js";
import type { ArgSlot, PreparedKernel } from "../../../core/prepared.js";
import type { FunctionBuilder } from "../function.js";
import * as I from "../instructions.js";
import type { BinaryOpcode, Id, Instruction, UnaryOpcode } from "../instructions.js";
import { BOOL, U32, U64, type ScalarType, type SpirvModule } from "../module.js";
import type { BooleanFeature, SpirvTargetInfo, SubgroupOperation } from "../profile.js";
import { BuiltIn, Decoration, Op as SpvOp, StorageClass } from "../spec.js";
import { KernelLoweringBase, type RegionLowering } from "../../../dialects/lowering.js";

/** Where a buffer's bytes live. */
export type BufferRoot =
  | { readonly kind: "argument"; readonly slot: ArgSlot; /** k-th buffer argument = binding k */ readonly binding: number }
  | { readonly kind: "scratch"; readonly op: Op; readonly space: "workgroup" | "private"; readonly bytes: number };

/** What a Loom value became. Views are compile-time descriptors over a root. */
export type Lowered =
  | { readonly kind: "scalar"; readonly id: Id; readonly type: ScalarType }
  | { readonly kind: "vector"; readonly lanes: readonly Id[]; readonly type: ScalarType }
  | { readonly kind: "buffer"; readonly root: BufferRoot }
  | {
      readonly kind: "view";
      readonly root: BufferRoot;
      /** Byte offset of element (0, …, 0) in the root, u64. */
      readonly base: Id;
      /** Element strides per dimension, u64. */
      readonly strides: readonly Id[];
      readonly element: ScalarType;
    }
  | LoweredLayout<Id>
  | { readonly kind: "invalid" };

/** Module-wide declarations shared by every kernel of one artifact. */
export class SharedGlobals {
  private readonly builtins = new Map<number, Id>();
  constructor(readonly module: SpirvModule) {}

  /** The `Input` variable of a builtin (uvec3 or u32), declared once per module. */
  builtin(builtin: number, vector: boolean): Id {
    let v = this.builtins.get(builtin);
    if (v === undefined) {
      const m = this.module;
      const type = vector ? m.typeVector(U32, 3) : m.scalar(U32);
      v = m.globalVariable(m.typePointer(StorageClass.Input, type), StorageClass.Input);
      m.decorate(v, Decoration.BuiltIn, builtin);
      this.builtins.set(builtin, v);
    }
    return v;
  }
}

const TYPE_FEATURES: Partial<Record<PrimName, { feature: BooleanFeature; what: string }>> = {
  index: { feature: "shaderInt64", what: "64-bit 'index' values" },
  offset: { feature: "shaderInt64", what: "64-bit 'offset' values" },
  i64: { feature: "shaderInt64", what: "type 'i64'" },
  f64: { feature: "shaderFloat64", what: "type 'f64'" },
  f16: { feature: "shaderFloat16", what: "type 'f16'" },
  i8: { feature: "shaderInt8", what: "type 'i8'" },
  i16: { feature: "shaderInt16", what: "type 'i16'" },
};

/** The SPIR-V scalar carrying a Loom primitive, or undefined (bf16, buffer, layout). */
export function scalarTypeOf(name: PrimName): ScalarType | undefined {
  switch (name) {
    case "i1": return BOOL;
    case "i8": return { kind: "int", width: 8 };
    case "i16": return { kind: "int", width: 16 };
    case "i32": return U32;
    case "i64": case "index": case "offset": return U64;
    case "f16": return { kind: "float", width: 16 };
    case "f32": return { kind: "float", width: 32 };
    case "f64": return { kind: "float", width: 64 };
    default: return undefined;
  }
}

export class KernelLowering extends KernelLoweringBase<Lowered, KernelLowering> {
  /** Global variables the entry point references (its interface, SPIR-V ≥ 1.4). */
  readonly iface = new Set<Id>();
  /** Per-kernel declarations keyed by the rule that owns them (buffer variables, scratch, ...). */
  readonly memo = new Map<string, Id>();
  /** Each binding's StorageBuffer variable per element type (memory-rules.ts `bufferVariable`). */
  readonly bufferVariables = new Map<number, Id>();
  /** The element type each scratch allocation is viewed with (one typed array each). */
  readonly scratchElements = new Map<Op, string>();
  /** The push-constant block: its variable and, per member byte offset, member index and type. */
  push: { readonly variable: Id; readonly members: ReadonlyMap<number, { readonly index: number; readonly type: ScalarType }> } | undefined;
  /** Ids of integer constants made through `int`, for trivial folding. */
  private readonly constantOf = new Map<Id, bigint>();
  /** Profile features and subgroup operations the kernel relied on (its kernel-interface record). */
  readonly usedFeatures = new Set<BooleanFeature>();
  readonly usedSubgroupOperations = new Set<SubgroupOperation>();

  constructor(
    readonly module: SpirvModule,
    readonly shared: SharedGlobals,
    kernel: PreparedKernel,
    readonly info: SpirvTargetInfo,
    readonly fn: FunctionBuilder,
    /** The back end's region lowering (kernel.ts), which `lowerRegion` calls for the control rules. */
    regionOps: RegionLowering<KernelLowering, Lowered>,
  ) {
    super(kernel, "SPIR-V", regionOps);
  }

  get target(): string {
    return `SPIR-V profile '${this.kernel.profile.identifier}' (${this.info.environment})`;
  }

  // ---- diagnostics --------------------------------------------------------------------------
  /** Reports TARGET/001 at `at` (once per op or value). */


  hasFeature(feature: BooleanFeature): boolean {
    return this.info.features[feature];
  }

  /** True when the profile has `feature`; else reports `what` at `at`. */
  requireFeature(at: Op | Value, feature: BooleanFeature, what: string): boolean {
    if (this.hasFeature(feature)) {
      this.usedFeatures.add(feature);
      return true;
    }
    this.unsupported(at, what, `the profile lacks the Vulkan feature '${feature}' (set identity.features.${feature} when the device has it)`);
    return false;
  }

  requireSubgroup(at: Op, operation: SubgroupOperation, what: string): boolean {
    if (this.info.features.subgroupOperations.includes(operation)) {
      this.usedSubgroupOperations.add(operation);
      return true;
    }
    this.unsupported(at, what, `the profile's subgroupOperations lack '${operation}'`);
    return false;
  }

  /** Checks that every primitive type an op touches is available; reports the first that is not. */
  checkTypes(op: Op): boolean {
    // Operands, then results; loops, not a concatenated array: this runs for every op.
    for (const v of op.operands) if (!this.checkType(op, v.type)) return false;
    for (const v of op.results) if (!this.checkType(op, v.type)) return false;
    return true;
  }

  private checkType(op: Op, t: Type): boolean {
    const name = t.kind === "prim" ? t.name : t.element.name;
    if (name === "bf16") {
      this.unsupported(op, `'${op.name}' on type 'bf16'`, "Vulkan 1.3 SPIR-V has no bfloat16 type");
      return false;
    }
    const need = TYPE_FEATURES[name];
    if (!need) return true;
    // The message is built only when the feature is missing (this runs for every typed value).
    if (this.hasFeature(need.feature)) {
      this.usedFeatures.add(need.feature);
      return true;
    }
    return this.requireFeature(op, need.feature, `'${op.name}' with ${need.what}`);
  }

  // ---- values -------------------------------------------------------------------------------


  /** The scalar id of a value (a fresh, never-defined id for an invalid one). */
  scalar(v: Value): Id {
    const l = this.get(v);
    if (l.kind === "scalar") return l.id;
    if (l.kind === "invalid") return this.module.id();
    throw new Error(`SPIR-V lowering: '%${v.name}' is a ${l.kind}, not a scalar`);
  }

  /** With line info on (`loom compile -g`), an OpLine naming the op's source position. */
  beforeRule(op: Op): void {
    if (this.module.lineInfo && op.span) this.fn.emit(I.line(this.module.sourceFile(op.span.source), op.span.line, op.span.column));
  }

  /** Marks every result of `op` invalid (after an error). */

  /** The scalar carrier of a value's type (its element type for a vector). */
  typeOf(v: Value): ScalarType {
    return this.scalarType(v.type);
  }

  /** The scalar carrier of a primitive type (callers have run `checkTypes`). */
  scalarType(t: Type): ScalarType {
    const name = t.kind === "prim" ? t.name : t.element.name;
    const s = scalarTypeOf(name);
    if (!s) throw new Error(`SPIR-V lowering: no scalar carrier for '${name}'`);
    return s;
  }

  typeId(t: ScalarType): Id {
    return this.module.scalar(t);
  }

  // ---- emission helpers ---------------------------------------------------------------------
  emit(i: Instruction): void {
    this.fn.emit(i);
  }

  unary(opcode: UnaryOpcode, type: ScalarType, a: Id): Id {
    const id = this.module.id();
    this.emit(I.unary(opcode, this.typeId(type), id, a));
    return id;
  }

  binary(opcode: BinaryOpcode, type: ScalarType, a: Id, b: Id): Id {
    const id = this.module.id();
    this.emit(I.binary(opcode, this.typeId(type), id, a, b));
    return id;
  }

  select(type: ScalarType, c: Id, a: Id, b: Id): Id {
    const id = this.module.id();
    this.emit(I.select(this.typeId(type), id, c, a, b));
    return id;
  }

  /** A GLSL.std.450 instruction. */
  glsl(inst: number, type: ScalarType, ...args: Id[]): Id {
    const id = this.module.id();
    this.emit(I.extInst(this.typeId(type), id, this.module.glsl(), inst, args));
    return id;
  }

  int(t: ScalarType, value: bigint): Id {
    const id = this.module.constInt(t, value);
    if (t.kind === "int") this.constantOf.set(id, BigInt.asUintN(t.width, value));
    return id;
  }
  u64(value: bigint | number): Id {
    return this.int(U64, BigInt(value));
  }
  u32(value: number): Id {
    return this.int(U32, BigInt(value));
  }
  constValue(id: Id): bigint | undefined {
    return this.constantOf.get(id);
  }

  /** u64 a + b, folding zero. */
  add64(a: Id, b: Id): Id {
    if (this.constValue(a) === 0n) return b;
    if (this.constValue(b) === 0n) return a;
    const x = this.constValue(a), y = this.constValue(b);
    if (x !== undefined && y !== undefined) return this.u64(x + y);
    return this.binary(SpvOp.IAdd, U64, a, b);
  }

  /** u64 a · b, folding one and zero. */
  mul64(a: Id, b: Id): Id {
    const x = this.constValue(a), y = this.constValue(b);
    if (x === 1n) return b;
    if (y === 1n) return a;
    if (x !== undefined && y !== undefined) return this.u64(x * y);
    return this.binary(SpvOp.IMul, U64, a, b);
  }

  /** Loads the push-constant member at byte `offset` of the argument block (see kernel.ts). */
  loadPush(offset: number): Id {
    const member = this.push?.members.get(offset);
    if (!this.push || !member) throw new Error(`SPIR-V lowering: no push-constant member at byte ${offset}`);
    const m = this.module;
    const type = m.scalar(member.type);
    const ptr = m.id();
    this.emit(I.accessChain(m.typePointer(StorageClass.PushConstant, type), ptr, this.push.variable, [this.u32(member.index)]));
    const value = m.id();
    this.emit(I.load(type, value, ptr));
    return value;
  }

  /** The u32 value of a builtin (component `d` of a uvec3 builtin). */
  builtinU32(builtin: number, component?: number): Id {
    const vector = component !== undefined;
    const variable = this.shared.builtin(builtin, vector);
    this.iface.add(variable);
    const m = this.module;
    const loaded = m.id();
    this.emit(I.load(vector ? m.typeVector(U32, 3) : m.scalar(U32), loaded, variable));
    if (!vector) return loaded;
    const c = m.id();
    this.emit(I.compositeExtract(m.scalar(U32), c, loaded, [component]));
    return c;
  }

  /** A builtin widened to a u64 `index`. */
  builtinIndex(builtin: number, component?: number): Id {
    return this.unary(SpvOp.UConvert, U64, this.builtinU32(builtin, component));
  }
}

/** Lowers one op: reads operands with `get`, records results with `set`. */
export type OpRule = (cx: KernelLowering, op: Op) => void;

export const DIM_COMPONENT: Readonly<Record<string, number>> = { x: 0, y: 1, z: 2 };
