/**
 * The state of lowering one prepared kernel to one WGSL entry point: what each Loom value
 * became (`Lowered`: an expression, lanes, a view over a storage root…), the statement lines,
 * the module-scope declarations the kernel needs, and the TARGET diagnostics found on the way.
 *
 * Every op result becomes a `let` (WGSL values are immutable, like SSA), except integer and
 * float constants, which stay literals so address arithmetic folds, and the word index of an
 * access, which its one subscript holds inline. Values that leave a region (scf results,
 * loop-carried values) get a `var` of their own that each path assigns and readers read.
 *
 * The address domain is 32 bits (docs/wgsl.md "Index width"): `index` is `i32`, `offset` is
 * `u32`. Errors never stop lowering: an unsupported op is reported at its span and its
 * results become `invalid`, so one pass finds every problem.
 */
import type { Op, Value } from "../../../ir/core.js";
import type { PrimName, Type } from "../../../ir/types.js";
import type { PreparedKernel } from "../../../core/prepared.js";
import type { WgslFeature, WgslTargetInfo } from "../profile.js";
import type { Root } from "./storage.js";
import { KernelLoweringBase, type RegionLowering } from "../../../dialects/lowering.js";
import { roundToFormat } from "../../../dialects/scalar/semantics.js";

/** The WGSL type carrying a Loom scalar. */
export type WType = "bool" | "i32" | "u32" | "f32" | "f16";

/**
 * What a scalar's text is: `atom` one name (`let`, `var`, argument-block field) or literal;
 * `call` a call that reads its operand (`bitcast`); `group` an expression in parentheses (an
 * inline operation, or a negative literal). All but an atom may read a var, and a group is
 * worth a `let` once read twice (`settle`).
 */
export type ScalarForm = "atom" | "call" | "group";

/**
 * A scalar: an expression (a `let` name, a literal, a `var` read, or an index expression that
 * one access reads); `c` holds an integer literal's value.
 */
export interface Scalar {
  readonly kind: "scalar";
  readonly e: string;
  readonly t: WType;
  readonly c: bigint | undefined;
  readonly form: ScalarForm;
}

/** A `Scalar` (every one made here, so all share one object shape and the hot reads of `e`, `t` and `c` stay monomorphic). */
export function scalarOf(e: string, t: WType, c?: bigint, form: ScalarForm = "atom"): Scalar {
  return { kind: "scalar", e, t, c, form };
}

export type Lowered =
  | Scalar
  | { readonly kind: "vector"; readonly lanes: readonly Scalar[]; readonly t: WType }
  /** A storage root (binding or allocation) and its byte length (u32). */
  | { readonly kind: "buffer"; readonly root: Root; readonly length: Scalar }
  /** A view: element (0, …, 0) is word `base` of the root's array; element strides per dimension. */
  | { readonly kind: "view"; readonly root: Root; readonly element: WType; readonly base: Scalar; readonly strides: readonly Scalar[] }
  | { readonly kind: "layout"; readonly strides: readonly Scalar[] | undefined }
  | { readonly kind: "invalid" };

export type ViewValue = Extract<Lowered, { kind: "view" }>;
export type VectorValue = Extract<Lowered, { kind: "vector" }>;
export type Rule = (cx: KernelLowering, op: Op) => void;

export function wgslTypeOf(name: PrimName): WType | undefined {
  switch (name) {
    case "i1": return "bool";
    case "index": return "i32";
    case "offset": return "u32";
    case "i32": case "f32": case "f16": return name;
    default: return undefined;
  }
}

/**
 * `name` as a one-byte string when it is short ASCII. V8 keeps a slice of a two-byte source
 * two-byte (one non-ASCII comment makes a whole file so), and so every line built with it and
 * then the module text; WGSL names are ASCII, so one copy per name keeps the text one-byte
 * (half the bytes to join and to encode).
 */
export function oneByte(name: string): string {
  if (name.length > 256) return name;
  const codes: number[] = [];
  for (let i = 0; i < name.length; i++) {
    const c = name.charCodeAt(i);
    if (c > 0x7f) return name;
    codes.push(c);
  }
  return String.fromCharCode(...codes);
}

/** Bytes of an element in storage. */
export const BYTES: Readonly<Record<WType, number>> = { bool: 4, i32: 4, u32: 4, f32: 4, f16: 2 };

const I32_MIN = -(2n ** 31n), I32_MAX = 2n ** 31n - 1n, U32_MAX = 2n ** 32n - 1n;
/** Indentation per block depth, made once per depth (every emitted line takes one). */
const INDENTS: string[] = [""];
/**
 * `let ` at each depth and `: T = ` per type, made once: a `let` line is then four
 * concatenations (each `+` onto a long string makes a rope node, and lets are most lines).
 */
const LET_PREFIXES: string[] = [];
const LET_TYPES: Partial<Record<WType, string>> = {};
/** Integer literals 0 ≤ x < SMALL_INTS, by value (context.int). */
const SMALL_INTS = 1024;
const SMALL_I32: (Scalar | undefined)[] = [];
const SMALL_U32: (Scalar | undefined)[] = [];
/** `var ` at each depth and `: T;` per type, likewise (an initialized var takes LET_TYPES). */
const VAR_PREFIXES: string[] = [];
const VAR_TYPES: Partial<Record<WType, string>> = {};
/** Fresh names: `v` lets, `m` vars, `i` loop counters, `x` atomic results, `k` workgroup-scan steps. */
type NamePrefix = "v" | "m" | "i" | "x" | "k";
/** Whether `e` names a `var` that `KernelLowering.variable` made (its prefix `m`, then the number). */
export function isVariableName(e: string): boolean {
  if (e.length < 2 || e.charCodeAt(0) !== 0x6d /* m */) return false;
  for (let i = 1; i < e.length; i++) {
    const c = e.charCodeAt(i);
    if (c < 0x30 || c > 0x39) return false;
  }
  return true;
}

/** Fresh names made once per process (every kernel counts from 0, so they repeat), up to a bound. */
const FRESH_NAMES: Readonly<Record<NamePrefix, string[]>> = { v: [], m: [], i: [], x: [], k: [] };
const CACHED_NAMES = 8192;

export class KernelLowering extends KernelLoweringBase<Lowered, KernelLowering> {
  readonly lines: string[] = [];
  /** Function-scope declarations that must precede the body (private arrays). */
  readonly locals: string[] = [];
  /** Module-scope declarations of this kernel (workgroup arrays). */
  readonly globals: string[] = [];
  /** WGSL extensions (`enable …`) the kernel needs. */
  readonly enables = new Set<"f16" | "subgroups">();
  /** Helper functions (by name → text) the kernel calls. */
  readonly helpers = new Map<string, string>();
  /** Entry-point builtins the body reads (`global_invocation_id` …). */
  readonly builtins = new Set<string>();
  /** Argument-block fields the body reads: offset → member. */
  readonly uniformFields = new Map<number, { readonly name: string; readonly t: WType }>();
  readonly usedFeatures = new Set<WgslFeature>();
  readonly subgroupOperations = new Set<string>();
  private counter = 0;
  private depth = 1;
  /** The export name, the prefix of the kernel's module-scope names (one-byte: `oneByte`). */
  readonly entryName: string;
  /** Name of the argument-block uniform variable. */
  readonly argsName: string;


  constructor(
    kernel: PreparedKernel,
    readonly info: WgslTargetInfo,
    /** Storage roots by the value that creates them (buffer arguments, allocations). */
    readonly roots: ReadonlyMap<Value, Root>,
    /** The back end's region lowering (kernel.ts), which `lowerRegion` calls for the control rules. */
    regionOps: RegionLowering<KernelLowering, Lowered>,
  ) {
    super(kernel, "WGSL", regionOps);
    this.entryName = oneByte(kernel.exportName);
    this.argsName = `${this.entryName}_args`;
  }

  get target(): string {
    return `WGSL profile '${this.kernel.profile.identifier}'`;
  }

  // ---- diagnostics --------------------------------------------------------------------------


  requireFeature(at: Op | Value, feature: WgslFeature, what: string): boolean {
    if (this.info.features.includes(feature)) {
      this.usedFeatures.add(feature);
      return true;
    }
    this.unsupported(at, what, `the profile lacks the WebGPU feature '${feature}' (add it to identity.features when the adapter has it)`);
    return false;
  }

  /** Checks the types an op touches; reports the first the profile cannot carry. */
  checkTypes(op: Op): boolean {
    return this.carriesAll(op, op.operands) && this.carriesAll(op, op.results);
  }

  private carriesAll(op: Op, values: readonly Value[]): boolean {
    for (const v of values) {
      const t = v.type;
      if (t.kind !== "prim" && t.kind !== "vector" && t.kind !== "view") continue;
      const name = t.kind === "prim" ? t.name : t.element.name;
      if (name === "buffer" || name === "encoding<layout>") continue;
      // Every op asks, so the common answer comes before the message is made.
      if (name !== "f16" && wgslTypeOf(name) !== undefined) continue;
      if (!this.carries(op, name, `'${op.name}' on type '${name}'`)) return false;
    }
    return true;
  }

  /** Whether the profile carries Loom type `name` (reports at `at` when not). */
  carries(at: Op | Value, name: string, what: string): boolean {
    if (name === "f16") {
      if (!this.requireFeature(at, "shader-f16", what)) return false;
      this.enables.add("f16");
      return true;
    }
    if (wgslTypeOf(name as PrimName) !== undefined) return true;
    const why =
      name === "i64" ? "WGSL has no 64-bit integers (index and offset narrow to 32 bits, docs/wgsl.md; i64 values do not)"
      : name === "f64" ? "WGSL has no f64"
      : name === "i8" || name === "i16" ? "WGSL has no 8- or 16-bit integers; use i32"
      : name === "bf16" ? "WGSL has no bf16; use f32 or f16"
      : undefined;
    this.unsupported(at, what, why);
    return false;
  }

  // ---- values -------------------------------------------------------------------------------


  /** The scalar a value became (a placeholder for an invalid one). */
  scalar(v: Value): Scalar {
    const l = this.get(v);
    if (l.kind === "scalar") return l;
    if (l.kind === "invalid") return scalarOf("invalid", this.scalarType(v.type) ?? "i32");
    throw new Error(`WGSL lowering: '%${v.name}' is a ${l.kind}, not a scalar`);
  }


  scalarType(t: Type): WType | undefined {
    if (t.kind === "prim") return wgslTypeOf(t.name);
    if (t.kind === "vector" || t.kind === "view") return wgslTypeOf(t.element.name);
    return undefined;
  }

  /** The carrier of a value's type (callers have checked it is a scalar or vector). */
  typeOf(v: Value): WType {
    const t = this.scalarType(v.type);
    if (!t) throw new Error(`WGSL lowering: no carrier for '%${v.name}'`);
    return t;
  }

  // ---- emission -----------------------------------------------------------------------------
  fresh(prefix: NamePrefix = "v"): string {
    const n = this.counter++;
    if (n >= CACHED_NAMES) return `${prefix}${n}`;
    const names = FRESH_NAMES[prefix];
    return (names[n] ??= `${prefix}${n}`);
  }

  line(text: string): void {
    this.lines.push((INDENTS[this.depth] ??= "  ".repeat(this.depth)) + text);
  }

  /** Runs `body` one block deeper (the caller writes the braces). */
  nested(body: () => void): void {
    this.depth++;
    try {
      body();
    } finally {
      this.depth--;
    }
  }

  /** A `let` of type `t` bound to `expr`. */
  let(t: WType, expr: string): Scalar {
    const name = this.fresh();
    const depth = this.depth;
    this.lines.push((LET_PREFIXES[depth] ??= `${(INDENTS[depth] ??= "  ".repeat(depth))}let `) + name + (LET_TYPES[t] ??= `: ${t} = `) + expr + ";");
    return scalarOf(name, t);
  }

  /** A mutable `var` of type `t` (zero-initialized, or `init`). */
  variable(t: WType, init?: Scalar): Scalar {
    const name = this.fresh("m");
    const depth = this.depth;
    const prefix = (VAR_PREFIXES[depth] ??= `${(INDENTS[depth] ??= "  ".repeat(depth))}var `) + name;
    this.lines.push(init ? prefix + (LET_TYPES[t] ??= `: ${t} = `) + init.e + ";" : prefix + (VAR_TYPES[t] ??= `: ${t};`));
    return scalarOf(name, t);
  }

  assign(to: Scalar, from: Scalar): void {
    if (to.e !== from.e && to.e !== "invalid") this.line(`${to.e} = ${from.e};`);
  }

  /** The argument-block field at `offset` (declared in the kernel's uniform struct). */
  uniform(offset: number, name: string, t: WType): Scalar {
    let member = this.uniformFields.get(offset)?.name ?? `arg_${name}`;
    // Names that sanitize alike get their offset appended.
    if ([...this.uniformFields].some(([o, f]) => o !== offset && f.name === member)) member = `${member}_${offset}`;
    this.uniformFields.set(offset, { name: member, t });
    return scalarOf(`${this.argsName}.${member}`, t);
  }

  helper(name: string, text: string): string {
    this.helpers.set(name, text);
    return name;
  }

  builtin(name: string): string {
    this.builtins.add(name);
    return BUILTIN_PARAMETERS[name]!;
  }

  /** An integer literal of type `t` (i32 wraps to 32 bits; out of range of the address domain is the caller's check). */
  int(t: WType, value: bigint | number): Scalar {
    // Small non-negative literals (most index arithmetic) are made once per process: a Scalar is immutable.
    const small = Number(value);
    if (t !== "bool" && small >= 0 && small < SMALL_INTS && Number.isInteger(small)) {
      const cache = t === "u32" ? SMALL_U32 : SMALL_I32;
      return (cache[small] ??= scalarOf(t === "u32" ? `${small}u` : `${small}i`, t === "u32" ? t : "i32", BigInt(small)));
    }
    const v = BigInt(value);
    if (t === "bool") return scalarOf(v !== 0n ? "true" : "false", t);
    if (t === "u32") {
      const c = BigInt.asUintN(32, v);
      return scalarOf(`${c}u`, t, c);
    }
    const c = BigInt.asIntN(32, v);
    if (c === I32_MIN) return scalarOf("i32(-2147483648)", "i32", c);
    return scalarOf(c < 0n ? `(${c}i)` : `${c}i`, "i32", c);
  }

  /** Whether `value` fits the 32-bit carrier of `t` (index: i32; offset: u32). */
  static fits(t: WType, value: bigint): boolean {
    return t === "u32" ? value >= 0n && value <= U32_MAX : value >= I32_MIN && value <= I32_MAX;
  }

  i32(value: bigint | number): Scalar {
    return this.int("i32", value);
  }

  /** A float literal (non-finite values are made at run time: WGSL constants cannot be inf or NaN). */
  float(t: WType, value: number): Scalar {
    const rounded = t === "f16" ? roundToFormat(value, "f16") : Math.fround(value);
    if (!Number.isFinite(rounded)) {
      const bits = t === "f16" ? (Number.isNaN(rounded) ? 0x7e00 : rounded > 0 ? 0x7c00 : 0xfc00) : Number.isNaN(rounded) ? 0x7fc00000 : rounded > 0 ? 0x7f800000 : 0xff800000;
      const word = this.let("u32", `${bits}u`);
      return this.let(t, t === "f16" ? `f16(unpack2x16float(${word.e}).x)` : `bitcast<f32>(${word.e})`);
    }
    const text = Object.is(rounded, -0) ? "-0.0" : String(rounded);
    const literal = `${text.includes(".") || text.includes("e") ? text : `${text}.0`}${t === "f16" ? "h" : "f"}`;
    return rounded < 0 || Object.is(rounded, -0) ? scalarOf(`(${literal})`, t, undefined, "group") : scalarOf(literal, t);
  }

  bool(value: boolean): Scalar {
    return scalarOf(value ? "true" : "false", "bool");
  }

  // ---- 32-bit address arithmetic, folding constants ------------------------------------------
  add(a: Scalar, b: Scalar): Scalar {
    return this.settle(this.inline(a, "+", b));
  }

  mul(a: Scalar, b: Scalar): Scalar {
    return this.settle(this.inline(a, "*", b));
  }

  /** An `i32` or `u32` value as the other (same bits). */
  reinterpret(x: Scalar, to: "i32" | "u32"): Scalar {
    if (x.t === to) return x;
    if (x.c !== undefined) return this.int(to, x.c);
    return scalarOf(`bitcast<${to}>(${x.e})`, to, undefined, "call");
  }

  /**
   * `a + b` or `a * b` as an inline expression (constants folded), for an index that exactly
   * one access reads: its terms go into the subscript instead of `let`s.
   */
  inline(a: Scalar, symbol: "+" | "*", b: Scalar): Scalar {
    const sum = symbol === "+";
    const unit = sum ? 0n : 1n;
    if (a.c === unit) return b;
    if (b.c === unit) return a;
    if (a.c !== undefined && b.c !== undefined) return this.int(a.t, sum ? a.c + b.c : a.c * b.c);
    if (!sum && (a.c === 0n || b.c === 0n)) return this.int(a.t, 0);
    return scalarOf(`(${a.e} ${symbol} ${b.e})`, a.t, undefined, "group");
  }

  /** `x` as a `let` when it is an inline expression (a name, a literal or a call stays as it is). */
  settle(x: Scalar): Scalar {
    return x.c !== undefined || x.form !== "group" ? x : this.let(x.t, x.e);
  }
}

/** Entry-point parameter of each builtin the body may read. */
const BUILTIN_PARAMETERS: Readonly<Record<string, string>> = {
  local_invocation_id: "local_id",
  workgroup_id: "group_id",
  num_workgroups: "group_count",
  global_invocation_id: "global_id",
  local_invocation_index: "local_index",
  subgroup_invocation_id: "lane_id",
  subgroup_size: "lane_count",
};

export const BUILTIN_TYPES: Readonly<Record<string, string>> = {
  local_invocation_id: "vec3<u32>",
  workgroup_id: "vec3<u32>",
  num_workgroups: "vec3<u32>",
  global_invocation_id: "vec3<u32>",
  local_invocation_index: "u32",
  subgroup_invocation_id: "u32",
  subgroup_size: "u32",
};

export function builtinParameter(name: string): string {
  return BUILTIN_PARAMETERS[name]!;
}

