/**
 * A small deterministic SPIR-V disassembler for the instructions loom emits (spec.ts), so
 * golden files and debugging need no SPIRV-Tools. Each instruction prints the way
 * `spirv-dis --raw-id --no-header --no-indent` prints it (test/cases checks that against
 * spirv-dis when it is installed); the header is ours and names version, generator and bound.
 *
 * The operand grammar below covers exactly the opcodes of `Op`: tsc rejects an opcode added
 * to spec.ts without a grammar row, and an opcode outside the table is an error, never a guess.
 */
import {
  AddressingModel, BuiltIn, Capability, Decoration, ExecutionMode, ExecutionModel, FunctionControl, Glsl, GroupOperation,
  LoopControl, MAGIC, MemoryAccess, MemoryModel, Op, SelectionControl, StorageClass,
} from "./spec.js";

/**
 * Operand kinds: `T` result type, `R` result id, `id`, `lit` (one literal word), `str` (a
 * literal string), `value` (a constant's value words, typed by the result type), an enum
 * name, or `kind*` for "the rest, each of this kind". `MemoryAccess?` is an optional mask.
 */
type EnumName =
  | "AddressingModel" | "MemoryModel" | "ExecutionModel" | "ExecutionMode" | "Capability" | "StorageClass" | "Decoration"
  | "FunctionControl" | "SelectionControl" | "LoopControl" | "GroupOperation" | "Glsl";
type Kind = "T" | "R" | "id" | "lit" | "str" | "value" | "id*" | "lit*" | "MemoryAccess?" | EnumName;

const TR_IDS: readonly Kind[] = ["T", "R", "id*"];

const GRAMMAR: Readonly<Record<keyof typeof Op, readonly Kind[]>> = {
  Nop: [],
  Undef: ["T", "R"],
  Source: ["lit", "lit", "id"],
  String: ["R", "str"],
  Line: ["id", "lit", "lit"],
  Name: ["id", "str"],
  MemberName: ["id", "lit", "str"],
  Extension: ["str"],
  ExtInstImport: ["R", "str"],
  ExtInst: ["T", "R", "id", "Glsl", "id*"],
  MemoryModel: ["AddressingModel", "MemoryModel"],
  EntryPoint: ["ExecutionModel", "id", "str", "id*"],
  ExecutionMode: ["id", "ExecutionMode", "lit*"],
  Capability: ["Capability"],
  TypeVoid: ["R"],
  TypeBool: ["R"],
  TypeInt: ["R", "lit", "lit"],
  TypeFloat: ["R", "lit"],
  TypeVector: ["R", "id", "lit"],
  TypeArray: ["R", "id", "id"],
  TypeRuntimeArray: ["R", "id"],
  TypeStruct: ["R", "id*"],
  TypePointer: ["R", "StorageClass", "id"],
  TypeFunction: ["R", "id", "id*"],
  ConstantTrue: ["T", "R"],
  ConstantFalse: ["T", "R"],
  Constant: ["T", "R", "value"],
  ConstantComposite: TR_IDS,
  Function: ["T", "R", "FunctionControl", "id"],
  FunctionEnd: [],
  Variable: ["T", "R", "StorageClass", "id*"],
  Load: ["T", "R", "id", "MemoryAccess?"],
  Store: ["id", "id", "MemoryAccess?"],
  AccessChain: TR_IDS,
  Decorate: ["id", "Decoration"],
  MemberDecorate: ["id", "lit", "Decoration"],
  CompositeConstruct: TR_IDS,
  CompositeExtract: ["T", "R", "id", "lit*"],
  ConvertFToU: TR_IDS, ConvertFToS: TR_IDS, ConvertSToF: TR_IDS, ConvertUToF: TR_IDS,
  UConvert: TR_IDS, SConvert: TR_IDS, FConvert: TR_IDS, ConvertUToPtr: TR_IDS, Bitcast: TR_IDS,
  SNegate: TR_IDS, FNegate: TR_IDS, IAdd: TR_IDS, FAdd: TR_IDS, ISub: TR_IDS, FSub: TR_IDS, IMul: TR_IDS, FMul: TR_IDS,
  UDiv: TR_IDS, SDiv: TR_IDS, FDiv: TR_IDS, UMod: TR_IDS, SRem: TR_IDS, FRem: TR_IDS,
  IsNan: TR_IDS, LogicalEqual: TR_IDS, LogicalNotEqual: TR_IDS, LogicalOr: TR_IDS, LogicalAnd: TR_IDS, LogicalNot: TR_IDS,
  Select: TR_IDS, IEqual: TR_IDS, INotEqual: TR_IDS, UGreaterThan: TR_IDS, SGreaterThan: TR_IDS, UGreaterThanEqual: TR_IDS,
  SGreaterThanEqual: TR_IDS, ULessThan: TR_IDS, SLessThan: TR_IDS, ULessThanEqual: TR_IDS, SLessThanEqual: TR_IDS,
  FOrdEqual: TR_IDS, FUnordEqual: TR_IDS, FOrdNotEqual: TR_IDS, FUnordNotEqual: TR_IDS, FOrdLessThan: TR_IDS,
  FUnordLessThan: TR_IDS, FOrdGreaterThan: TR_IDS, FUnordGreaterThan: TR_IDS, FOrdLessThanEqual: TR_IDS,
  FUnordLessThanEqual: TR_IDS, FOrdGreaterThanEqual: TR_IDS, FUnordGreaterThanEqual: TR_IDS,
  ShiftRightLogical: TR_IDS, ShiftRightArithmetic: TR_IDS, ShiftLeftLogical: TR_IDS, BitwiseOr: TR_IDS, BitwiseXor: TR_IDS,
  BitwiseAnd: TR_IDS, Not: TR_IDS, BitCount: TR_IDS,
  ControlBarrier: ["id", "id", "id"],
  AtomicLoad: TR_IDS,
  AtomicStore: ["id*"],
  AtomicExchange: TR_IDS, AtomicCompareExchange: TR_IDS, AtomicIAdd: TR_IDS, AtomicISub: TR_IDS, AtomicSMin: TR_IDS,
  AtomicUMin: TR_IDS, AtomicSMax: TR_IDS, AtomicUMax: TR_IDS, AtomicAnd: TR_IDS, AtomicOr: TR_IDS, AtomicXor: TR_IDS,
  AtomicFAddEXT: TR_IDS,
  Phi: TR_IDS,
  LoopMerge: ["id", "id", "LoopControl"],
  SelectionMerge: ["id", "SelectionControl"],
  Label: ["R"],
  Branch: ["id"],
  BranchConditional: ["id", "id", "id", "lit*"],
  Return: [],
  GroupNonUniformBroadcast: TR_IDS,
  GroupNonUniformShuffle: TR_IDS,
  GroupNonUniformIAdd: ["T", "R", "id", "GroupOperation", "id*"],
  GroupNonUniformFAdd: ["T", "R", "id", "GroupOperation", "id*"],
  GroupNonUniformIMul: ["T", "R", "id", "GroupOperation", "id*"],
  GroupNonUniformFMul: ["T", "R", "id", "GroupOperation", "id*"],
  GroupNonUniformSMin: ["T", "R", "id", "GroupOperation", "id*"],
  GroupNonUniformUMin: ["T", "R", "id", "GroupOperation", "id*"],
  GroupNonUniformFMin: ["T", "R", "id", "GroupOperation", "id*"],
  GroupNonUniformSMax: ["T", "R", "id", "GroupOperation", "id*"],
  GroupNonUniformUMax: ["T", "R", "id", "GroupOperation", "id*"],
  GroupNonUniformFMax: ["T", "R", "id", "GroupOperation", "id*"],
  GroupNonUniformBitwiseAnd: ["T", "R", "id", "GroupOperation", "id*"],
  GroupNonUniformBitwiseOr: ["T", "R", "id", "GroupOperation", "id*"],
  GroupNonUniformBitwiseXor: ["T", "R", "id", "GroupOperation", "id*"],
  GroupNonUniformLogicalAnd: ["T", "R", "id", "GroupOperation", "id*"],
  GroupNonUniformLogicalOr: ["T", "R", "id", "GroupOperation", "id*"],
  GroupNonUniformLogicalXor: ["T", "R", "id", "GroupOperation", "id*"],
};

/** Name and value of each member of a numeric enum or table (a TS enum also maps values back to names: those are skipped). */
function members(table: object): [string, number][] {
  return Object.entries(table).filter((e): e is [string, number] => typeof e[1] === "number");
}

const BY_OPCODE: ReadonlyMap<number, { readonly name: string; readonly kinds: readonly Kind[] }> = new Map(
  members(Op).map(([name, code]) => [code, { name: `Op${name}`, kinds: GRAMMAR[name as keyof typeof Op] }]),
);

function reverse(table: object): ReadonlyMap<number, string> {
  return new Map(members(table).map(([k, v]) => [v, k]));
}

const ENUMS: Readonly<Record<Exclude<EnumName, "Decoration" | "ExecutionMode">, ReadonlyMap<number, string>>> = {
  AddressingModel: reverse(AddressingModel),
  MemoryModel: reverse(MemoryModel),
  ExecutionModel: reverse(ExecutionModel),
  Capability: reverse(Capability),
  StorageClass: reverse(StorageClass),
  FunctionControl: reverse(FunctionControl),
  SelectionControl: reverse(SelectionControl),
  LoopControl: reverse(LoopControl),
  GroupOperation: reverse(GroupOperation),
  Glsl: reverse(Glsl),
};
const DECORATIONS = reverse(Decoration);
const BUILTINS = reverse(BuiltIn);
const EXECUTION_MODES = reverse(ExecutionMode);
const MEMORY_ACCESS = reverse(MemoryAccess);

/** A scalar type declared in the module, for printing constants. */
type ScalarDecl = { readonly kind: "int"; readonly width: number; readonly signed: boolean } | { readonly kind: "float"; readonly width: number };

class Cursor {
  at = 0;
  constructor(readonly words: readonly number[], readonly where: string) {}
  get done(): boolean {
    return this.at >= this.words.length;
  }
  next(what: string): number {
    const w = this.words[this.at++];
    if (w === undefined) throw new Error(`${this.where}: missing ${what}`);
    return w;
  }
}

function decodeString(c: Cursor): string {
  const bytes: number[] = [];
  for (;;) {
    const w = c.next("string word");
    for (let s = 0; s < 32; s += 8) {
      const b = (w >>> s) & 0xff;
      if (b === 0) return JSON.stringify(new TextDecoder().decode(new Uint8Array(bytes)));
      bytes.push(b);
    }
  }
}

/** C's `%.{precision}g`, which is how SPIRV-Tools prints float constants. */
function formatG(x: number, precision: number): string {
  if (x === 0) return Object.is(x, -0) ? "-0" : "0";
  const [mantissa = "", expText = "0"] = x.toExponential(precision - 1).split("e");
  const exp = Number(expText);
  const trim = (s: string) => (s.includes(".") ? s.replace(/0+$/, "").replace(/\.$/, "") : s);
  if (exp < -4 || exp >= precision) return `${trim(mantissa)}e${exp < 0 ? "-" : "+"}${String(Math.abs(exp)).padStart(2, "0")}`;
  return trim(x.toFixed(Math.max(0, precision - 1 - exp)));
}

/** Hex float (`0x1.8p+1`), how SPIRV-Tools prints half constants and non-finite floats. */
function hexFloat(bits: bigint, width: 16 | 32 | 64): string {
  const [expBits, fracBits] = width === 16 ? [5, 10] : width === 32 ? [8, 23] : [11, 52];
  const sign = (bits >> BigInt(width - 1)) & 1n ? "-" : "";
  const bias = (1 << (expBits - 1)) - 1;
  const e = Number((bits >> BigInt(fracBits)) & ((1n << BigInt(expBits)) - 1n));
  let frac = bits & ((1n << BigInt(fracBits)) - 1n);
  if (e === 0 && frac === 0n) return `${sign}0x0p+0`;
  let exponent = e - bias;
  if (e === 0) {
    // Subnormal: normalise so the leading 1 is implicit, as SPIRV-Tools does.
    exponent = 1 - bias;
    while ((frac & (1n << BigInt(fracBits))) === 0n) {
      frac <<= 1n;
      exponent--;
    }
    frac &= (1n << BigInt(fracBits)) - 1n;
  }
  const digits = Math.ceil(fracBits / 4);
  let hex = (frac << BigInt(digits * 4 - fracBits)).toString(16).padStart(digits, "0").replace(/0+$/, "");
  hex = hex ? `.${hex}` : "";
  return `${sign}0x1${hex}p${exponent < 0 ? "-" : "+"}${Math.abs(exponent)}`;
}

function constantText(type: ScalarDecl | undefined, c: Cursor): string {
  const words: number[] = [];
  while (!c.done) words.push(c.next("constant word"));
  let bits = 0n;
  words.forEach((w, i) => (bits |= BigInt(w >>> 0) << BigInt(32 * i)));
  if (!type) return words.join(" ");
  if (type.kind === "int") {
    const width = BigInt(type.width);
    if (type.signed && (bits >> (width - 1n)) & 1n) bits -= 1n << width;
    return bits.toString();
  }
  if (type.width === 16) return hexFloat(bits, 16);
  const view = new DataView(new ArrayBuffer(8));
  if (type.width === 32) view.setUint32(0, Number(bits));
  else view.setBigUint64(0, bits);
  const value = type.width === 32 ? view.getFloat32(0) : view.getFloat64(0);
  if (!Number.isFinite(value)) return hexFloat(bits, type.width === 32 ? 32 : 64);
  return formatG(value, type.width === 32 ? 9 : 17);
}

function enumText(table: ReadonlyMap<number, string>, value: number, what: string): string {
  const name = table.get(value);
  if (name === undefined) throw new Error(`unknown ${what} ${value}`);
  return name;
}

function maskText(table: ReadonlyMap<number, string>, mask: number, what: string): string {
  if (mask === 0) return "None";
  const parts: string[] = [];
  let known = 0;
  for (const [bit, name] of table) {
    if (bit === 0 || (mask & bit) !== bit) continue;
    parts.push(name);
    known |= bit;
  }
  if (known !== mask) throw new Error(`unknown ${what} bits 0x${(mask & ~known).toString(16)}`);
  return parts.join("|");
}

/** One instruction's text; `types` learns the scalar types the module declares. */
function instructionText(opcode: number, c: Cursor, types: Map<number, ScalarDecl>): string {
  const info = BY_OPCODE.get(opcode);
  if (!info) throw new Error(`${c.where}: opcode ${opcode} is not one loom emits`);
  let result: number | undefined;
  let resultType: number | undefined;
  const parts: string[] = [];
  for (const kind of info.kinds) {
    switch (kind) {
      case "T":
        resultType = c.next("result type");
        parts.push(`%${resultType}`);
        break;
      case "R":
        result = c.next("result id");
        break;
      case "id":
        parts.push(`%${c.next("id")}`);
        break;
      case "lit":
        parts.push(String(c.next("literal")));
        break;
      case "str":
        parts.push(decodeString(c));
        break;
      case "value":
        parts.push(constantText(resultType === undefined ? undefined : types.get(resultType), c));
        break;
      case "id*":
        while (!c.done) parts.push(`%${c.next("id")}`);
        break;
      case "lit*":
        while (!c.done) parts.push(String(c.next("literal")));
        break;
      case "MemoryAccess?":
        if (c.done) break;
        {
          const mask = c.next("memory access");
          parts.push(maskText(MEMORY_ACCESS, mask, "memory access"));
          if (mask & MemoryAccess.Aligned) parts.push(String(c.next("alignment")));
        }
        break;
      case "Decoration": {
        const decoration = c.next("decoration");
        parts.push(enumText(DECORATIONS, decoration, "decoration"));
        if (decoration === Decoration.BuiltIn) parts.push(enumText(BUILTINS, c.next("builtin"), "builtin"));
        while (!c.done) parts.push(String(c.next("decoration literal")));
        break;
      }
      case "ExecutionMode":
        parts.push(enumText(EXECUTION_MODES, c.next("execution mode"), "execution mode"));
        break;
      case "LoopControl":
      case "SelectionControl":
      case "FunctionControl":
        parts.push(maskText(ENUMS[kind], c.next(kind), kind));
        break;
      default:
        parts.push(enumText(ENUMS[kind], c.next(kind), kind));
    }
  }
  if (!c.done) throw new Error(`${c.where}: ${info.name} has ${c.words.length - c.at} words more than its grammar`);
  if (opcode === Op.TypeInt && result !== undefined) {
    const [width = 0, signedness = 0] = c.words.slice(1);
    types.set(result, { kind: "int", width, signed: signedness === 1 });
  }
  if (opcode === Op.TypeFloat && result !== undefined) types.set(result, { kind: "float", width: c.words[1] ?? 0 });
  const text = [info.name, ...parts].join(" ");
  return result === undefined ? text : `%${result} = ${text}`;
}

/** The module as text: a `;` header, then one instruction per line. Throws on malformed input. */
export function disassembleSpirv(bytes: Uint8Array): string {
  if (bytes.length % 4 !== 0 || bytes.length < 20) throw new Error(`SPIR-V module of ${bytes.length} bytes is not 5+ whole words`);
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const words = Array.from({ length: bytes.length / 4 }, (_, i) => view.getUint32(i * 4, true));
  const [magic, version = 0, generator = 0, bound = 0, schema = 0] = words;
  if (magic !== MAGIC) throw new Error(`bad SPIR-V magic 0x${(magic ?? 0).toString(16)}`);
  const lines = [
    `; SPIR-V ${(version >> 16) & 0xff}.${(version >> 8) & 0xff}`,
    `; Generator: 0x${generator.toString(16).padStart(8, "0")}`,
    `; Bound: ${bound}`,
    `; Schema: ${schema}`,
  ];
  const types = new Map<number, ScalarDecl>();
  for (let at = 5; at < words.length; ) {
    const first = words[at] ?? 0;
    const count = first >>> 16;
    if (count === 0 || at + count > words.length) throw new Error(`word ${at}: instruction word count ${count} runs past the end`);
    const c = new Cursor(words.slice(at + 1, at + count), `word ${at}`);
    lines.push(instructionText(first & 0xffff, c, types));
    at += count;
  }
  return lines.join("\n") + "\n";
}
