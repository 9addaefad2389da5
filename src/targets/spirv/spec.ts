/**
 * Numbers from the SPIR-V 1.6 specification (Unified, §3 "Binary Form") and the
 * GLSL.std.450 extended instruction set that the SPIR-V backend uses. Only what loom emits
 * is listed; every value is checked against `spirv-as` by test/spirv/encoding.test.ts.
 */

export const MAGIC = 0x07230203;
/** SPIR-V 1.6 (Vulkan 1.3). */
export const VERSION_1_6 = 0x00010600;
/** Generator word: tool id 0 ("unregistered"), version 1. */
export const GENERATOR = 0x00000001;

/** Opcodes, grouped by the spec's instruction classes (§3.52). */
export enum Op {
  // Miscellaneous
  Nop = 0,
  Undef = 1,
  // Debug
  Source = 3,
  String = 7,
  Line = 8,
  Name = 5,
  MemberName = 6,
  // Extension
  Extension = 10,
  ExtInstImport = 11,
  ExtInst = 12,
  // Mode-Setting
  MemoryModel = 14,
  EntryPoint = 15,
  ExecutionMode = 16,
  Capability = 17,
  // Type-Declaration
  TypeVoid = 19,
  TypeBool = 20,
  TypeInt = 21,
  TypeFloat = 22,
  TypeVector = 23,
  TypeArray = 28,
  TypeRuntimeArray = 29,
  TypeStruct = 30,
  TypePointer = 32,
  TypeFunction = 33,
  // Constant-Creation
  ConstantTrue = 41,
  ConstantFalse = 42,
  Constant = 43,
  ConstantComposite = 44,
  // Function
  Function = 54,
  FunctionEnd = 56,
  // Memory
  Variable = 59,
  Load = 61,
  Store = 62,
  AccessChain = 65,
  // Annotation
  Decorate = 71,
  MemberDecorate = 72,
  // Composite
  CompositeConstruct = 80,
  CompositeExtract = 81,
  // Conversion
  ConvertFToU = 109,
  ConvertFToS = 110,
  ConvertSToF = 111,
  ConvertUToF = 112,
  UConvert = 113,
  SConvert = 114,
  FConvert = 115,
  ConvertUToPtr = 120,
  Bitcast = 124,
  // Arithmetic
  SNegate = 126,
  FNegate = 127,
  IAdd = 128,
  FAdd = 129,
  ISub = 130,
  FSub = 131,
  IMul = 132,
  FMul = 133,
  UDiv = 134,
  SDiv = 135,
  FDiv = 136,
  UMod = 137,
  SRem = 138,
  FRem = 140,
  // Relational and Logical
  IsNan = 156,
  LogicalEqual = 164,
  LogicalNotEqual = 165,
  LogicalOr = 166,
  LogicalAnd = 167,
  LogicalNot = 168,
  Select = 169,
  IEqual = 170,
  INotEqual = 171,
  UGreaterThan = 172,
  SGreaterThan = 173,
  UGreaterThanEqual = 174,
  SGreaterThanEqual = 175,
  ULessThan = 176,
  SLessThan = 177,
  ULessThanEqual = 178,
  SLessThanEqual = 179,
  FOrdEqual = 180,
  FUnordEqual = 181,
  FOrdNotEqual = 182,
  FUnordNotEqual = 183,
  FOrdLessThan = 184,
  FUnordLessThan = 185,
  FOrdGreaterThan = 186,
  FUnordGreaterThan = 187,
  FOrdLessThanEqual = 188,
  FUnordLessThanEqual = 189,
  FOrdGreaterThanEqual = 190,
  FUnordGreaterThanEqual = 191,
  // Bit
  ShiftRightLogical = 194,
  ShiftRightArithmetic = 195,
  ShiftLeftLogical = 196,
  BitwiseOr = 197,
  BitwiseXor = 198,
  BitwiseAnd = 199,
  Not = 200,
  BitCount = 205,
  // Barrier
  ControlBarrier = 224,
  // Atomic
  AtomicLoad = 227,
  AtomicStore = 228,
  AtomicExchange = 229,
  AtomicCompareExchange = 230,
  AtomicIAdd = 234,
  AtomicISub = 235,
  AtomicSMin = 236,
  AtomicUMin = 237,
  AtomicSMax = 238,
  AtomicUMax = 239,
  AtomicAnd = 240,
  AtomicOr = 241,
  AtomicXor = 242,
  AtomicFAddEXT = 6035,
  // Control-Flow
  Phi = 245,
  LoopMerge = 246,
  SelectionMerge = 247,
  Label = 248,
  Branch = 249,
  BranchConditional = 250,
  Return = 253,
  // Non-Uniform
  GroupNonUniformBroadcast = 337,
  GroupNonUniformShuffle = 345,
  GroupNonUniformIAdd = 349,
  GroupNonUniformFAdd = 350,
  GroupNonUniformIMul = 351,
  GroupNonUniformFMul = 352,
  GroupNonUniformSMin = 353,
  GroupNonUniformUMin = 354,
  GroupNonUniformFMin = 355,
  GroupNonUniformSMax = 356,
  GroupNonUniformUMax = 357,
  GroupNonUniformFMax = 358,
  GroupNonUniformBitwiseAnd = 359,
  GroupNonUniformBitwiseOr = 360,
  GroupNonUniformBitwiseXor = 361,
  GroupNonUniformLogicalAnd = 362,
  GroupNonUniformLogicalOr = 363,
  GroupNonUniformLogicalXor = 364,
}

export const Capability = {
  Shader: 1,
  Float16: 9,
  Float64: 10,
  Int64: 11,
  Int64Atomics: 12,
  Int16: 22,
  Int8: 39,
  GroupNonUniform: 61,
  GroupNonUniformVote: 62,
  GroupNonUniformArithmetic: 63,
  GroupNonUniformBallot: 64,
  GroupNonUniformShuffle: 65,
  GroupNonUniformShuffleRelative: 66,
  GroupNonUniformClustered: 67,
  GroupNonUniformQuad: 68,
  StorageBuffer16BitAccess: 4433,
  StoragePushConstant16: 4435,
  StorageBuffer8BitAccess: 4448,
  StoragePushConstant8: 4450,
  PhysicalStorageBufferAddresses: 5347,
  AtomicFloat32AddEXT: 6033,
  /** Float controls (core in SPIR-V 1.4): the SignedZeroInfNanPreserve execution mode. */
  SignedZeroInfNanPreserve: 4466,
} as const;
export type CapabilityName = keyof typeof Capability;

export enum AddressingModel { Logical = 0, PhysicalStorageBuffer64 = 5348 }
export enum MemoryModel { GLSL450 = 1 }
export enum ExecutionModel { GLCompute = 5 }
export enum ExecutionMode { LocalSize = 17, SignedZeroInfNanPreserve = 4461 }

export enum StorageClass {
  Input = 1,
  Workgroup = 4,
  Function = 7,
  PushConstant = 9,
  StorageBuffer = 12,
  PhysicalStorageBuffer = 5349,
}

export enum Decoration {
  Block = 2,
  ArrayStride = 6,
  BuiltIn = 11,
  Binding = 33,
  DescriptorSet = 34,
  Offset = 35,
}

export enum BuiltIn {
  NumWorkgroups = 24,
  WorkgroupId = 26,
  LocalInvocationId = 27,
  GlobalInvocationId = 28,
  LocalInvocationIndex = 29,
  SubgroupSize = 36,
  NumSubgroups = 38,
  SubgroupId = 40,
  SubgroupLocalInvocationId = 41,
}

export enum Scope { Device = 1, Workgroup = 2, Subgroup = 3, Invocation = 4 }

export enum MemorySemantics {
  None = 0,
  Acquire = 0x2,
  Release = 0x4,
  AcquireRelease = 0x8,
  SequentiallyConsistent = 0x10,
  UniformMemory = 0x40,
  WorkgroupMemory = 0x100,
}

export enum GroupOperation { Reduce = 0, ClusteredReduce = 3 }
export enum MemoryAccess { Aligned = 0x2 }
export enum SelectionControl { None = 0 }
export enum LoopControl { None = 0, Unroll = 1 }
export enum FunctionControl { None = 0 }

/** GLSL.std.450 extended instruction numbers. */
export enum Glsl {
  RoundEven = 2,
  Trunc = 3,
  FAbs = 4,
  FSign = 6,
  Floor = 8,
  Ceil = 9,
  Sin = 13,
  Cos = 14,
  Tanh = 21,
  Pow = 26,
  Exp = 27,
  Log = 28,
  Exp2 = 29,
  Log2 = 30,
  Sqrt = 31,
  InverseSqrt = 32,
  Fma = 50,
  FindILsb = 73,
  FindUMsb = 75,
  NMin = 79,
  NMax = 80,
}
