/**
 * The check harness as a host program (language.md §11, docs/harness.md "loom check"): a
 * verified module's `check.case` bodies, run one parameter sample at a time. Values are
 * materialized here (tensors as little-endian bytes), launches are handed to a `CheckHost`
 * (a device; src/harness/check.ts), and expectations are compared here, so every device is
 * judged by the same code. Host functions called from a case (`func.call`) run through the
 * ops' own value semantics (the registry's `evaluate`), the same the folder and the
 * interpreter use.
 */
import type { Literal, Op, Region, Value } from "../ir/core.js";
import { bitWidth, isFloat, isInt, typeToString, type PrimType, type Type } from "../ir/types.js";
import { LoomError } from "../core/errors.js";
import { isOp, opInfo, propOf, type OpIn, type OpOf } from "../dialects/registry.js";
import type { EvalValue, Lane } from "../dialects/decl.js";
import type { ProviderAttr } from "../dialects/ops/check.js";
import { bitsToFloat, floatToBits, roundToFormat, type FloatName } from "../dialects/scalar/semantics.js";
import { bindExactOp, type ExactValue } from "../dialects/eval/exact.js";
import { FLAG_BITS, type LType } from "../dialects/eval/types.js";
import { Undefined } from "../dialects/index/semantics.js";
import { Module } from "./module.js";
import "./check-dialect.js";

/** A value of a case: a tensor (bytes the host may write) or a scalar. */
export type HostValue =
  | { readonly kind: "tensor"; readonly type: string; readonly element: string; readonly shape: readonly number[]; readonly bytes: Uint8Array }
  | { readonly kind: "scalar"; readonly type: string; readonly value: bigint | number };

/** One `kernel.launch` (workload values) or `kernel.dispatch` (workgroup counts) of a sample. */
export interface CheckLaunchRequest {
  readonly op: "kernel.launch" | "kernel.dispatch";
  readonly kernel: string;
  readonly line: number;
  /** `kernel.launch`: the workload values, one per workload argument. */
  readonly workload: readonly (bigint | number)[];
  /** `kernel.dispatch`: the workgroup counts (missing dimensions are 1). */
  readonly workgroupCount?: readonly [number, number, number];
  /** One per device argument; tensors' `bytes` receive what the kernel wrote. */
  readonly args: readonly HostValue[];
}

/** Runs launches for a case: a device (or the interpreter) behind `loom check`. */
export interface CheckHost {
  /** Runs the launch and waits; writes buffer results back into the tensors' bytes. */
  launch(request: CheckLaunchRequest): void;
  /** The bytes of a fixture (`check.file.read.npy`), `path` as written in the file; absent where no files can be read. */
  readFile?(path: string): Uint8Array;
  /** Writes evidence (`check.file.write.npy`); absent where no files can be written. */
  writeFile?(path: string, bytes: Uint8Array): void;
}

/** One parameter of a case: its key, type and the values it samples. */
export interface CheckParameter {
  /** The `name("…")`, or the result's `%name` when it has none. */
  readonly name: string;
  readonly type: string;
  readonly values: readonly (bigint | number)[];
}

/** A `check.case` as the plan sees it: name, visibility, line and its parameters. */
export interface CheckCaseInfo {
  readonly symbol: string;
  readonly public: boolean;
  readonly line: number;
  readonly parameters: readonly CheckParameter[];
  /** The Cartesian product's size (before any limit). */
  readonly sampleCount: number;
}

/** A `check.benchmark` record: the case it names and the parameters it fixes. */
export interface CheckBenchmarkInfo {
  /** The benchmark's own symbol, when it has one. */
  readonly symbol?: string;
  readonly case: string;
  readonly line: number;
  /** Parameters the record fixes, by name. */
  readonly assignments: Readonly<Record<string, bigint | number>>;
}

/** A sample: one value per parameter, by name. */
export type CheckSample = Readonly<Record<string, bigint | number>>;

/** The outcome of one `check.expect.*` op in one sample. */
export interface ExpectationOutcome {
  readonly op: string;
  readonly line: number;
  readonly column: number;
  readonly passed: boolean;
  /** Elements compared and how many differ. */
  readonly count: number;
  readonly mismatches: number;
  /** The first differing element: its flat and per-dimension index, and both values as text. */
  readonly first?: { readonly index: number; readonly coordinates: readonly number[]; readonly actual: string; readonly expected: string };
  /** Up to 8 elements of each side from the start of the first mismatch's row (or the start), as text. */
  readonly actualPreview?: readonly string[];
  readonly expectedPreview?: readonly string[];
  /** For a shape expectation, or a failure without elements. */
  readonly message?: string;
}

/** The outcome of one sample of a case: its status and every expectation it reached. */
export interface SampleOutcome {
  readonly case: string;
  readonly sample: CheckSample;
  /** `unsupported`: the sample needs something loom check does not provide (the reason says what). */
  readonly status: "pass" | "fail" | "unsupported";
  readonly reason?: string;
  readonly launches: number;
  readonly expectations: readonly ExpectationOutcome[];
}

/** A sample that cannot run here: an oracle provider, a fixture file, an op without host semantics. */
export class CheckUnsupported extends Error {}

const MAX_TENSOR_BYTES = 1 << 30;

function elementBytes(t: PrimType): number {
  return t.name === "i1" ? 1 : bitWidth(t) / 8;
}

function literalLane(l: Literal, t: Type, what: string): Lane {
  if (isFloat(t)) {
    const x = l.kind === "float" ? l.value : l.kind === "int" ? Number(l.value) : NaN;
    return roundToFormat(x, t.name as FloatName);
  }
  const v = l.kind === "int" ? l.value : l.kind === "bool" ? (l.value ? 1n : 0n) : undefined;
  if (v === undefined) throw new LoomError("invalid-argument", `${what}: not an integer literal`);
  if (t.kind === "prim" && (t.name === "index" || t.name === "offset")) return v;
  return BigInt.asUintN(bitWidth(t), v);
}

/** Signed text of an integer lane, or the float's shortest text. */
function laneText(v: Lane, t: PrimType): string {
  if (typeof v === "number") return Object.is(v, -0) ? "-0" : String(v);
  if (t.name === "i1") return v ? "1" : "0";
  if (isInt(t)) return BigInt.asIntN(bitWidth(t), v).toString();
  return v.toString();
}

function readLane(bytes: Uint8Array, i: number, t: PrimType): Lane {
  const dv = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const at = i * elementBytes(t);
  switch (t.name) {
    case "i1": return BigInt(dv.getUint8(at) & 1);
    case "i8": return BigInt(dv.getUint8(at));
    case "i16": return BigInt(dv.getUint16(at, true));
    case "i32": return BigInt(dv.getUint32(at, true));
    case "i64": case "index": case "offset": return dv.getBigUint64(at, true);
    case "f16": case "bf16": return bitsToFloat(BigInt(dv.getUint16(at, true)), t.name);
    case "f32": return dv.getFloat32(at, true);
    case "f64": return dv.getFloat64(at, true);
    default: throw new LoomError("internal", `no tensor elements of type ${t.name}`);
  }
}

function writeLane(bytes: Uint8Array, i: number, t: PrimType, v: Lane): void {
  const dv = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const at = i * elementBytes(t);
  const int = (w: number) => BigInt.asUintN(w, typeof v === "bigint" ? v : BigInt(Math.trunc(v)));
  switch (t.name) {
    case "i1": dv.setUint8(at, Number(int(1))); return;
    case "i8": dv.setUint8(at, Number(int(8))); return;
    case "i16": dv.setUint16(at, Number(int(16)), true); return;
    case "i32": dv.setUint32(at, Number(int(32)), true); return;
    case "i64": case "index": case "offset": dv.setBigUint64(at, int(64), true); return;
    case "f16": case "bf16": dv.setUint16(at, Number(floatToBits(Number(v), t.name)), true); return;
    case "f32": dv.setFloat32(at, Number(v), true); return;
    case "f64": dv.setFloat64(at, Number(v), true); return;
    default: throw new LoomError("internal", `no tensor elements of type ${t.name}`);
  }
}

/** splitmix64: the deterministic stream of `check.generate.random.uniform` (ours; docs/harness.md). */
function splitmix(seed: bigint): () => bigint {
  let s = BigInt.asUintN(64, seed);
  return () => {
    s = BigInt.asUintN(64, s + 0x9e3779b97f4a7c15n);
    let z = s;
    z = BigInt.asUintN(64, (z ^ (z >> 30n)) * 0xbf58476d1ce4e5b9n);
    z = BigInt.asUintN(64, (z ^ (z >> 27n)) * 0x94d049bb133111ebn);
    return z ^ (z >> 31n);
  };
}

/** NumPy `descr` codes of each element type (little-endian or byte-order free); bf16 has none. */
const NPY_DESCR: Readonly<Record<string, readonly string[]>> = {
  i1: ["|b1"], i8: ["|i1", "|u1", "<i1", "<u1"], i16: ["<i2", "<u2"], i32: ["<i4", "<u4"], i64: ["<i8", "<u8"],
  f16: ["<f2"], f32: ["<f4"], f64: ["<f8"],
};

/** The header and payload of a version 1–3 `.npy` file (what `check.file.read.npy` reads). */
function parseNpy(bytes: Uint8Array, what: string): { descr: string; fortran: boolean; shape: number[]; data: Uint8Array } {
  const magic = [0x93, 0x4e, 0x55, 0x4d, 0x50, 0x59];
  if (bytes.byteLength < 10 || magic.some((b, i) => bytes[i] !== b)) throw new LoomError("invalid-argument", `${what}: not a NumPy .npy file`);
  const major = bytes[6]!;
  const dv = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const headerLength = major === 1 ? dv.getUint16(8, true) : dv.getUint32(8, true);
  const start = major === 1 ? 10 : 12;
  if (start + headerLength > bytes.byteLength) throw new LoomError("invalid-argument", `${what}: truncated .npy header`);
  const header = new TextDecoder().decode(bytes.subarray(start, start + headerLength));
  const descr = /'descr'\s*:\s*'([^']*)'/.exec(header)?.[1];
  const fortran = /'fortran_order'\s*:\s*True/.test(header);
  const shapeText = /'shape'\s*:\s*\(([^)]*)\)/.exec(header)?.[1];
  if (descr === undefined || shapeText === undefined) throw new LoomError("invalid-argument", `${what}: the .npy header has no descr or shape`);
  const shape = shapeText.split(",").map((x) => x.trim()).filter((x) => x !== "").map(Number);
  if (shape.some((d) => !Number.isSafeInteger(d) || d < 0)) throw new LoomError("invalid-argument", `${what}: bad .npy shape (${shapeText})`);
  return { descr, fortran, shape, data: bytes.subarray(start + headerLength) };
}

/** A version 1.0 `.npy` file of a tensor (or a 0-d array of a scalar), little-endian, C order. */
function writeNpy(element: string, shape: readonly number[], data: Uint8Array): Uint8Array {
  const descr = NPY_DESCR[element]?.[0] ?? "<u2";
  let header = `{'descr': '${descr}', 'fortran_order': False, 'shape': (${shape.join(", ")}${shape.length === 1 ? "," : ""}), }`;
  // The header (with its 10-byte prefix and the newline) is padded to a multiple of 64 bytes.
  header += " ".repeat((64 - ((10 + header.length + 1) % 64)) % 64) + "\n";
  const out = new Uint8Array(10 + header.length + data.byteLength);
  out.set([0x93, 0x4e, 0x55, 0x4d, 0x50, 0x59, 1, 0]);
  new DataView(out.buffer).setUint16(8, header.length, true);
  out.set(new TextEncoder().encode(header), 10);
  out.set(data, 10 + header.length);
  return out;
}

function attrsText(op: Op): string {
  const attrs = isOp(op, "check.requires") || isOp(op, "check.skip_if") || isOp(op, "check.expect") || isOp(op, "check.expect.event") ? op.props.attrs : undefined;
  const one = (a: ProviderAttr): string => `${a.key} = ${a.value.kind === "dict" ? `{${a.value.entries.map(one).join(", ")}}` : a.value.kind === "string" ? JSON.stringify(a.value.value) : String(a.value.value)}`;
  return attrs && attrs.length > 0 ? ` {${attrs.map(one).join(", ")}}` : "";
}

type Env = Map<Value, HostValue | EvalValue>;

type LaunchOp = OpOf<"kernel.launch"> | OpOf<"kernel.dispatch"> | OpOf<"func.call">;

/** Hands one launch of the running sample to its host (and counts it). */
type Launcher = (op: LaunchOp, env: Env) => void;

/** The parameter domain of a `check.param.*` op. */
function domainOf(op: ParamOp): (bigint | number)[] {
  const t = op.results[0].type;
  {
    if (isOp(op, "check.param.seed")) {
      const base = op.props.base, count = Number(op.props.count);
      return Array.from({ length: Math.max(0, Math.min(count, 1 << 16)) }, (_, i) => base + BigInt(i));
    }
    if (isOp(op, "check.param.choice")) return [...op.props.values];
    if (isOp(op, "check.param.range")) {
      const lo = literalLane(op.props.lower, t, "bounds"), hi = literalLane(op.props.upper, t, "bounds");
      const stepLit = op.props.step;
      const out: (bigint | number)[] = [];
      if (op.props.policy === "po2") {
        if (typeof lo === "number" || typeof hi === "number") throw new CheckUnsupported("a po2 range over floats");
        for (let x = 1n; x <= hi && out.length < 1 << 16; x *= 2n) if (x >= lo) out.push(x);
        return out;
      }
      const step = stepLit ? literalLane(stepLit, t, "step") : typeof lo === "number" ? 1 : 1n;
      if (typeof lo === "number" || typeof hi === "number" || typeof step === "number") {
        const s = Number(step);
        if (!(s > 0)) return [Number(lo)];
        for (let x = Number(lo); x <= Number(hi) + 1e-12 && out.length < 1 << 16; x += s) out.push(x);
        return out;
      }
      if (step <= 0n) return [lo];
      for (let x = lo; x <= hi && out.length < 1 << 16; x += step) out.push(x);
      return out;
    }
    return [];
  }
}

function paramKey(op: Op): string {
  return typeof op.props.paramName === "string" ? op.props.paramName : `%${op.results[0]?.name ?? "?"}`;
}

type ParamOp = OpIn<"check.param.seed" | "check.param.choice" | "check.param.range">;

function isParam(op: Op): op is ParamOp {
  return op.name === "check.param.seed" || op.name === "check.param.choice" || op.name === "check.param.range";
}

/** The check program of a verified module: its cases and benchmarks, run one sample at a time. */
export class CheckProgram {
  readonly #cases = new Map<string, OpOf<"check.case">>();
  readonly #benchmarks: OpOf<"check.benchmark">[] = [];
  readonly #functions = new Map<string, OpOf<"func.def">>();
  readonly #kernels = new Map<string, Op>();

  private constructor(readonly module: Module) {
    for (const op of module.ir.ops) {
      if (isOp(op, "check.case")) this.#cases.set(op.props.symbol, op);
      else if (isOp(op, "check.benchmark")) this.#benchmarks.push(op);
      else if (isOp(op, "func.def")) this.#functions.set(op.props.symbol, op);
      else if (isOp(op, "kernel.def") || isOp(op, "kernel.decl") || isOp(op, "kernel.entry.decl")) this.#kernels.set(op.props.symbol, op);
    }
  }

  /** The program of `module`, which must have parsed and verified without errors. */
  static fromModule(module: Module): CheckProgram {
    if (!(module instanceof Module)) throw new LoomError("invalid-argument", "CheckProgram.fromModule: 'module' must be a Module");
    if (!module.verified) throw new LoomError("failed-precondition", "CheckProgram.fromModule: the module did not verify; check its diagnostics first");
    return new CheckProgram(module);
  }

  /** The module's cases, in source order. */
  cases(): CheckCaseInfo[] {
    return [...this.#cases.values()].map((op) => {
      const parameters = (op.regions[0]?.ops ?? []).filter(isParam).map((p) => ({ name: paramKey(p), type: typeToString(p.results[0].type), values: domainOf(p) }));
      return {
        symbol: op.props.symbol,
        public: op.props.modifiers.includes("public"),
        line: op.span?.line ?? 0,
        parameters,
        sampleCount: parameters.reduce((n, p) => n * p.values.length, 1),
      };
    });
  }

  /** The module's benchmark records, in source order. */
  benchmarks(): CheckBenchmarkInfo[] {
    return this.#benchmarks.map((op) => {
      const assignments: Record<string, bigint | number> = {};
      for (const a of op.props.assignments) {
        assignments[a.key] = a.value.kind === "int" ? a.value.value : a.value.kind === "float" ? a.value.value : 0n;
      }
      return { ...(op.props.symbol !== undefined ? { symbol: op.props.symbol } : {}), case: op.props.case, line: op.span?.line ?? 0, assignments };
    });
  }

  /**
   * The samples of a case in plan order (the Cartesian product of its parameters in source
   * order, the last varying fastest), with `fixed` parameters held at their values; at most `limit`.
   */
  samples(caseSymbol: string, fixed: CheckSample = {}, limit = 256): CheckSample[] {
    const info = this.cases().find((c) => c.symbol === caseSymbol);
    if (!info) throw new LoomError("not-found", `no check.case @${caseSymbol}`);
    let out: Record<string, bigint | number>[] = [{}];
    for (const p of info.parameters) {
      const values = Object.hasOwn(fixed, p.name) ? [fixed[p.name]!] : p.values;
      const next: Record<string, bigint | number>[] = [];
      for (const s of out) {
        for (const v of values) {
          if (next.length >= limit) break;
          next.push({ ...s, [p.name]: v });
        }
      }
      out = next;
    }
    return out.slice(0, limit);
  }

  /** Runs one sample of a case: materializes its values, launches through `host`, and compares. */
  runSample(caseSymbol: string, sample: CheckSample, host: CheckHost): SampleOutcome {
    const c = this.#cases.get(caseSymbol);
    if (!c) throw new LoomError("not-found", `no check.case @${caseSymbol}`);
    const env: Env = new Map();
    const expectations: ExpectationOutcome[] = [];
    const evidence: { path: string; onFailure: boolean; bytes: Uint8Array }[] = [];
    let launches = 0;
    const launch: Launcher = (l, e) => {
      host.launch(this.#launchRequest(l, e));
      launches++;
    };
    try {
      for (const op of c.regions[0]?.ops ?? []) {
        if (isOp(op, "check.return")) break;
        if (isParam(op)) {
          const key = paramKey(op);
          const v = sample[key] ?? domainOf(op)[0];
          if (v === undefined) throw new CheckUnsupported(`parameter ${key} has no values`);
          env.set(op.results[0], this.#scalarLane(v, op.results[0].type));
          continue;
        }
        if (isOp(op, "kernel.launch") || isOp(op, "kernel.dispatch") || (isOp(op, "func.call") && this.#kernels.has(op.props.symbol))) {
          launch(op, env);
          continue;
        }
        if (isOp(op, "kernel.launch.serial") || isOp(op, "kernel.launch.concurrent")) {
          this.#schedule(op.regions[0], env, launch);
          continue;
        }
        if (isOp(op, "check.requires")) {
          // loom check knows no provider capabilities: an unmet (unknown) requirement is a structured skip, never a pass.
          throw new CheckUnsupported(`requirement ${op.props.provider}${attrsText(op)} cannot be established by loom check`);
        }
        if (isOp(op, "check.skip_if")) {
          throw new CheckUnsupported(`skip predicate ${op.props.provider}${attrsText(op)}${op.props.reason !== undefined ? ` ("${op.props.reason}")` : ""} cannot be evaluated by loom check`);
        }
        if (isOp(op, "check.expect")) throw new CheckUnsupported(`validator '${op.props.provider}' is not available in loom check`);
        if (isOp(op, "check.expect.event")) throw new CheckUnsupported(`runtime events of provider '${op.props.provider}'${attrsText(op)} are not observed by loom check`);
        if (isOp(op, "check.file.write.npy")) {
          const v = env.get(op.operands[0]);
          if (!host.writeFile) throw new CheckUnsupported("check.file.write.npy: this host writes no files");
          evidence.push({ path: op.props.path, onFailure: op.props.mode === "on_failure", bytes: this.#npyOf(v, op.operands[0].type) });
          continue;
        }
        if (isOp(op, "check.file.read.npy")) {
          env.set(op.results[0], this.#readNpy(op, env, host));
          continue;
        }
        if (op.name.startsWith("check.expect")) {
          expectations.push(this.#expect(op, env));
          continue;
        }
        const results = this.#value(op, env, launch);
        op.results.forEach((r, i) => env.set(r, results[i]!));
      }
    } catch (e) {
      if (e instanceof CheckUnsupported) return { case: caseSymbol, sample, status: "unsupported", reason: e.message, launches, expectations };
      throw e;
    }
    const passed = expectations.every((x) => x.passed);
    for (const e of evidence) if (!e.onFailure || !passed) host.writeFile!(e.path, e.bytes);
    return { case: caseSymbol, sample, status: passed ? "pass" : "fail", launches, expectations };
  }

  /** `check.file.read.npy`: the fixture's bytes as a tensor of the result type (same element type and shape). */
  #readNpy(op: OpOf<"check.file.read.npy">, env: Env, host: CheckHost): HostValue {
    const t = op.results[0].type;
    const what = `check.file.read.npy "${op.props.path}"`;
    if (!host.readFile) throw new CheckUnsupported(`${what}: this host reads no files`);
    const npy = parseNpy(host.readFile(op.props.path), what);
    const element = (t.kind === "tensor" ? t.element : t) as PrimType;
    const shape = t.kind === "tensor" ? this.#shape(t, env) : [];
    if (!(NPY_DESCR[element.name] ?? []).includes(npy.descr)) throw new LoomError("invalid-argument", `${what}: dtype '${npy.descr}' does not hold ${element.name} elements`);
    if (npy.fortran && shape.length > 1) throw new LoomError("invalid-argument", `${what}: Fortran-order arrays are not read`);
    if (npy.shape.length !== shape.length || npy.shape.some((d, i) => d !== shape[i])) {
      throw new LoomError("invalid-argument", `${what}: shape (${npy.shape.join(", ")}) is not the ${typeToString(t)} shape (${shape.join(", ")})`);
    }
    const length = shape.reduce((a, b) => a * b, 1) * elementBytes(element);
    if (npy.data.byteLength < length) throw new LoomError("invalid-argument", `${what}: ${npy.data.byteLength} payload bytes, ${length} needed`);
    const bytes = npy.data.slice(0, length);
    if (t.kind !== "tensor") return { kind: "scalar", type: typeToString(t), value: readLane(bytes, 0, element) };
    return { kind: "tensor", type: typeToString(t), element: element.name, shape, bytes };
  }

  /** The `.npy` bytes of a case value (`check.file.write.npy`). */
  #npyOf(v: HostValue | EvalValue | undefined, t: Type): Uint8Array {
    const element = (t.kind === "tensor" ? t.element : t) as PrimType;
    if (v !== undefined && typeof v === "object" && !Array.isArray(v) && (v as HostValue).kind === "tensor") {
      const h = v as HostValue & { kind: "tensor" };
      return writeNpy(element.name, h.shape, h.bytes);
    }
    if (typeof v === "bigint" || typeof v === "number") {
      const bytes = new Uint8Array(elementBytes(element));
      writeLane(bytes, 0, element, v);
      return writeNpy(element.name, [], bytes);
    }
    throw new CheckUnsupported("check.file.write.npy of a value with no host bytes");
  }

  #scalarLane(v: bigint | number, t: Type): Lane {
    if (isFloat(t)) return roundToFormat(Number(v), t.name as FloatName);
    const b = typeof v === "bigint" ? v : BigInt(Math.trunc(v));
    return t.kind === "prim" && (t.name === "index" || t.name === "offset") ? b : BigInt.asUintN(bitWidth(t), b);
  }

  #shape(t: Type & { kind: "tensor" }, env: Env): number[] {
    return t.dims.map((d) => {
      if (d.kind === "static") return d.size;
      const v = env.get(d.value);
      if (typeof v !== "bigint") throw new CheckUnsupported(`dimension %${d.value.name} has no index value here`);
      if (v < 0n || v > 0x7fffffffn) throw new LoomError("out-of-range", `dimension %${d.value.name} = ${v} is out of range`);
      return Number(v);
    });
  }

  #tensor(t: Type & { kind: "tensor" }, env: Env, fill: (i: number, count: number) => Lane): HostValue {
    const shape = this.#shape(t, env);
    const count = shape.reduce((a, b) => a * b, 1);
    const bytes = count * elementBytes(t.element);
    if (bytes > MAX_TENSOR_BYTES) throw new LoomError("resource-exhausted", `a ${typeToString(t)} of ${bytes} bytes exceeds loom check's limit of ${MAX_TENSOR_BYTES}`);
    const out = new Uint8Array(bytes);
    for (let i = 0; i < count; i++) writeLane(out, i, t.element, fill(i, count));
    return { kind: "tensor", type: typeToString(t), element: t.element.name, shape, bytes: out };
  }

  /** A value source or host-evaluable op: its result values. */
  #value(op: Op, env: Env, launch: Launcher): (HostValue | EvalValue)[] {
    const t = op.results[0]?.type;
    const make = (lane: (i: number, count: number) => Lane): HostValue | EvalValue => (t!.kind === "tensor" ? this.#tensor(t as Type & { kind: "tensor" }, env, lane) : lane(0, 1));
    {
      if (isOp(op, "check.literal") || isOp(op, "check.generate.fill")) {
        const v = literalLane(op.props.value, t!.kind === "tensor" ? t!.element : t!, op.name);
        return [make(() => v)];
      }
      if (isOp(op, "check.generate.iota")) {
        const el = t!.kind === "tensor" ? t!.element : (t as PrimType);
        const period = op.props.period;
        const off = op.props.offset, step = op.props.step;
        return [
          make((i) => {
            const k = period === undefined ? i : i % Number(period);
            if (isFloat(el)) return roundToFormat(Number(off.kind === "float" ? off.value : off.kind === "int" ? off.value : 0) + Number(step.kind === "float" ? step.value : step.kind === "int" ? step.value : 0) * k, el.name as FloatName);
            const o = off.kind === "int" ? off.value : 0n, s = step.kind === "int" ? step.value : 0n;
            return BigInt.asUintN(bitWidth(el), o + s * BigInt(k));
          }),
        ];
      }
      if (isOp(op, "check.generate.random.uniform")) {
        const el = t!.kind === "tensor" ? t!.element : (t as PrimType);
        const seed = env.get(op.operands[0]);
        const next = splitmix(typeof seed === "bigint" ? seed : 0n);
        const lo = literalLane(op.props.lower, el, "range"), hi = literalLane(op.props.upper, el, "range");
        return [
          make(() => {
            const r = next();
            if (isFloat(el)) return roundToFormat(Number(lo) + (Number(hi) - Number(lo)) * (Number(r >> 11n) / 2 ** 53), el.name as FloatName);
            const w = bitWidth(el);
            const l = BigInt.asIntN(w, lo as bigint), h = BigInt.asIntN(w, hi as bigint);
            const span = h - l + 1n;
            return BigInt.asUintN(w, span > 0n ? l + (r % span) : l);
          }),
        ];
      }
      if (isOp(op, "check.tensor.view")) {
        const base = env.get(op.operands[0]) as HostValue | undefined;
        if (!base || typeof base !== "object" || !("kind" in base) || base.kind !== "tensor" || t!.kind !== "tensor") throw new CheckUnsupported("check.tensor.view of a value that is not a tensor");
        const shape = this.#shape(t as Type & { kind: "tensor" }, env);
        const length = shape.reduce((a, b) => a * b, 1) * elementBytes(t!.element);
        const offset = Number(op.props.offset);
        if (offset + length > base.bytes.byteLength) throw new LoomError("out-of-range", `check.tensor.view: bytes [${offset}, ${offset + length}) lie outside a ${base.bytes.byteLength}-byte tensor`);
        return [{ kind: "tensor", type: typeToString(t!), element: t!.element.name, shape, bytes: base.bytes.subarray(offset, offset + length) }];
      }
      if (isOp(op, "check.oracle.call")) throw new CheckUnsupported(`oracle provider '${op.props.provider}' is not available in loom check`);
      if (isOp(op, "func.call")) return this.#call(op, env, 0, launch);
      return [this.#evaluate(op, env)];
    }
  }

  #evaluate(op: Op, env: Env): EvalValue {
    const info = opInfo(op.name);
    const t = op.results[0]?.type;
    const constant = info?.syntax.form === "constant" ? propOf(op, "value") : undefined;
    if (constant !== undefined && typeof constant === "object" && "kind" in constant && t) return literalLane(constant, t, op.name);
    const args = op.operands.map((v) => {
      const x = env.get(v);
      if (x === undefined || (typeof x === "object" && !Array.isArray(x))) throw new CheckUnsupported(`'${op.name}' on %${v.name}, which is not a scalar`);
      return x as EvalValue;
    });
    if (op.name === "scf.select" && t) return args[args[0] ? 1 : 2]!;
    if (!info || !t) throw new CheckUnsupported(`'${op.name}' has no host semantics in loom check`);
    let r: EvalValue | Undefined;
    if (info.evaluate) r = info.evaluate(args, { operands: op.operands.map((v) => v.type), result: t });
    else {
      // Scalar and index arithmetic: the exact semantics the folder and the launch-config evaluator share.
      const prims = [t, ...op.operands.map((v) => v.type)];
      if (prims.some((x) => x.kind !== "prim") || args.some((a) => Array.isArray(a))) throw new CheckUnsupported(`'${op.name}' has no host semantics in loom check`);
      let flags = 0;
      for (const f of propOf(op, "flags") ?? []) flags |= f === "fast" ? 0x1fc : (FLAG_BITS[f] ?? 0);
      try {
        const fn = bindExactOp(op.name, (t as PrimType).name as LType, op.operands.map((v) => (v.type as PrimType).name as LType), flags, propOf(op, "predicate"));
        r = fn(...(args as ExactValue[]));
      } catch {
        throw new CheckUnsupported(`'${op.name}' has no host semantics in loom check`);
      }
    }
    if (r instanceof Undefined) throw new LoomError("out-of-range", `'${op.name}' at line ${op.span?.line ?? 0}: undefined behaviour on the host`);
    return r as EvalValue;
  }

  /**
   * A `func.call` on the host: the callee's body through the ops' value semantics; its kernel
   * launches (a launch program) go to the sample's host, tensors passed by reference.
   */
  #call(op: OpOf<"func.call">, env: Env, depth: number, launch: Launcher): EvalValue[] {
    if (depth > 64) throw new CheckUnsupported("host calls nest deeper than 64");
    const callee = this.#functions.get(op.props.symbol);
    if (!callee) throw new CheckUnsupported(`@${op.props.symbol} has no definition in this file`);
    const body = callee.regions[0];
    const local: Env = new Map();
    body.args.forEach((a, i) => local.set(a, env.get(op.operands[i]!)!));
    return this.#runRegion(body, local, depth, "func.return", launch);
  }

  #runRegion(region: Region, env: Env, depth: number, terminator: string, launch: Launcher): EvalValue[] {
    for (const inner of region.ops) {
      if (inner.name === terminator || inner.name === "scf.yield") return inner.operands.map((v) => env.get(v) as EvalValue);
      let results: EvalValue[];
      if (isOp(inner, "kernel.launch") || isOp(inner, "kernel.dispatch") || (isOp(inner, "func.call") && this.#kernels.has(inner.props.symbol))) {
        launch(inner, env);
        continue;
      }
      if (isOp(inner, "kernel.launch.serial") || isOp(inner, "kernel.launch.concurrent")) {
        this.#schedule(inner.regions[0], env, launch);
        continue;
      }
      if (isOp(inner, "func.call")) results = this.#call(inner, env, depth + 1, launch);
      else if (isOp(inner, "scf.if")) {
        const cond = env.get(inner.operands[0]);
        const branch = cond ? inner.regions[0] : inner.regions[1];
        results = branch ? this.#runRegion(branch, env, depth, "scf.yield", launch) : [];
      } else results = [this.#evaluate(inner, env)];
      inner.results.forEach((r, i) => env.set(r, results[i]!));
    }
    return [];
  }

  /**
   * A launch schedule's launches, in the order written: the order `serial` requires, and one of
   * the orders `concurrent` allows (its launches may run in any order, so a result that depends
   * on the order is the program's race, not loom's).
   */
  #schedule(region: Region, env: Env, launch: Launcher): void {
    for (const op of region.ops) {
      if (isOp(op, "kernel.launch.yield")) return;
      if (isOp(op, "kernel.launch") || isOp(op, "kernel.dispatch")) launch(op, env);
      else if (isOp(op, "kernel.launch.serial") || isOp(op, "kernel.launch.concurrent")) this.#schedule(op.regions[0], env, launch);
      else throw new CheckUnsupported(`'${op.name}' in a launch schedule`);
    }
  }

  #launchRequest(op: LaunchOp, env: Env): CheckLaunchRequest {
    const target = this.#kernels.get(op.props.symbol);
    if (isOp(target, "kernel.entry.decl")) throw new CheckUnsupported(`@${target.props.symbol} is an entry the embedding provides (kernel.entry.decl); loom check has no implementation for it`);
    if (isOp(target, "kernel.decl")) throw new CheckUnsupported(`@${target.props.symbol} is declared here and defined in another module: link it first (loom link)`);
    const n = isOp(op, "func.call") ? 0 : op.props.bracketCount;
    const sizeCount = isOp(op, "func.call") ? 0 : (op.props.sizeCount ?? 0);
    if (sizeCount > 0) throw new CheckUnsupported(`line ${op.span?.line ?? 0}: a dispatch with an explicit workgroup_size has no implementation in loom check (the kernel's launch configuration states its size)`);
    const host = (v: Value): HostValue => {
      const x = env.get(v);
      if (x !== undefined && typeof x === "object" && !Array.isArray(x)) return x as HostValue;
      if (typeof x === "bigint" || typeof x === "number") {
        const signed = typeof x === "bigint" && isInt(v.type) ? BigInt.asIntN(bitWidth(v.type), x) : x;
        return { kind: "scalar", type: typeToString(v.type), value: signed };
      }
      throw new CheckUnsupported(`%${v.name} has no host value`);
    };
    const bracket = op.operands.slice(0, n).map((v) => {
      const x = env.get(v);
      if (typeof x !== "bigint" && typeof x !== "number") throw new CheckUnsupported(`%${v.name} is not a scalar`);
      return x;
    });
    const args = op.operands.slice(n).map(host);
    const common = { kernel: op.props.symbol, line: op.span?.line ?? 0, args };
    if (op.name === "kernel.dispatch") {
      const counts = [0, 1, 2].map((i) => Number(bracket[i] ?? 1n)) as [number, number, number];
      return { op: "kernel.dispatch", ...common, workload: [], workgroupCount: counts };
    }
    return { op: "kernel.launch", ...common, workload: bracket };
  }

  #expect(op: Op, env: Env): ExpectationOutcome {
    const where = { op: op.name, line: op.span?.line ?? 0, column: op.span?.column ?? 0 };
    const get = (v: Value | undefined): HostValue | EvalValue => {
      const x = v ? env.get(v) : undefined;
      if (x === undefined) throw new CheckUnsupported(`expectation on %${v?.name ?? "?"}, which has no value`);
      return x;
    };
    const actual = get(op.operands[0]);
    if (op.name === "check.expect.shape") {
      const shape = (isOp(op, "check.expect.shape") ? op.props.shape : []).map((s) => Number(typeof s === "bigint" ? s : (env.get(s) as bigint)));
      const got = typeof actual === "object" && !Array.isArray(actual) ? (actual as HostValue & { kind: "tensor" }).shape ?? [] : [];
      const passed = got.length === shape.length && got.every((d, i) => d === shape[i]);
      return { ...where, passed, count: 1, mismatches: passed ? 0 : 1, ...(passed ? {} : { message: `shape is [${got.join(", ")}], expected [${shape.join(", ")}]` }) };
    }
    const expected = get(op.operands[1]);
    const type = op.operands[0]!.type;
    const el = (type.kind === "tensor" ? type.element : type) as PrimType;
    const lanes = (x: HostValue | EvalValue): { count: number; at: (i: number) => Lane; raw?: Uint8Array; shape: readonly number[] } => {
      if (typeof x === "object" && !Array.isArray(x)) {
        const h = x as HostValue;
        if (h.kind === "tensor") return { count: h.bytes.byteLength / elementBytes(el), at: (i) => readLane(h.bytes, i, el), raw: h.bytes, shape: h.shape };
        return { count: 1, at: () => (h.value as Lane), shape: [] };
      }
      if (Array.isArray(x)) return { count: x.length, at: (i) => x[i]!, shape: [x.length] };
      return { count: 1, at: () => x as Lane, shape: [] };
    };
    const a = lanes(actual), e = lanes(expected);
    const count = Math.min(a.count, e.count);
    let same: (x: Lane, y: Lane, i: number) => boolean;
    if (op.name === "check.expect.bitwise") {
      const w = elementBytes(el);
      same = (x, y, i) => (a.raw && e.raw ? a.raw.subarray(i * w, (i + 1) * w).every((b, k) => b === e.raw![i * w + k]) : isFloat(el) ? floatToBits(Number(x), el.name as FloatName) === floatToBits(Number(y), el.name as FloatName) : x === y);
    } else if (isOp(op, "check.expect.close")) {
      const num = (l: Literal) => (l.kind === "float" ? l.value : l.kind === "int" ? Number(l.value) : NaN);
      const atol = num(op.props.atol), rtol = num(op.props.rtol), nanSame = op.props.nan === "same";
      same = (x, y) => {
        const p = Number(x), q = Number(y);
        if (Number.isNaN(p) || Number.isNaN(q)) return nanSame && Number.isNaN(p) && Number.isNaN(q);
        if (p === q) return true;
        return Math.abs(p - q) <= atol + rtol * Math.abs(q);
      };
    } else {
      same = (x, y) => x === y;
    }
    let mismatches = a.count === e.count ? 0 : Math.abs(a.count - e.count);
    let first: number | undefined;
    for (let i = 0; i < count; i++) {
      if (!same(a.at(i), e.at(i), i)) {
        mismatches++;
        first ??= i;
      }
    }
    const passed = mismatches === 0;
    if (passed) return { ...where, passed, count, mismatches };
    const at = first ?? count;
    const coordinates: number[] = [];
    let rest = at;
    for (let d = a.shape.length - 1; d >= 0; d--) {
      const extent = a.shape[d]!;
      coordinates.unshift(extent > 0 ? rest % extent : 0);
      rest = extent > 0 ? Math.floor(rest / extent) : 0;
    }
    const start = Math.max(0, at - (at % 8));
    const preview = (s: typeof a) => Array.from({ length: Math.max(0, Math.min(8, s.count - start)) }, (_, k) => laneText(s.at(start + k), el));
    return {
      ...where,
      passed,
      count,
      mismatches,
      ...(first !== undefined ? { first: { index: at, coordinates, actual: laneText(a.at(at), el), expected: laneText(e.at(at), el) } } : { message: `${a.count} elements, expected ${e.count}` }),
      actualPreview: preview(a),
      expectedPreview: preview(e),
    };
  }
}
