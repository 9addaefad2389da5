/**
 * Scalar rules, shared by `scalar.*`, `index.*` and the lanewise `vector.*` ops (vectors are
 * scalarized: one rule application per lane). Integers are `i32` (signed ops) with `u32`
 * reinterpretation for the unsigned ones; `index` is `i32` and `offset` is `u32`, so the
 * 64-bit index domain is represented in 32 bits (docs/wgsl.md "Index width"); the few ops
 * whose result depends on the 64-bit carrier width (bit counts) compute the 64-bit answer of
 * the sign-extended value, and rotations of it are TARGET/001.
 *
 * Float accuracy is WGSL's (docs/wgsl.md "Math accuracy"): correctly rounded + − × and
 * `sqrt`-class builtins within WGSL's ULP bounds; `erf` is a polynomial (|error| ≤ 1.5e-7).
 */
import type { Op } from "../../../ir/core.js";
import { scalarOf, type KernelLowering, type Scalar, type WType } from "./context.js";
import { combineLanes, type LaneInput } from "../../../dialects/lanewise.js";

/** The operands' lanes, the deciding and result types, and the op's dialect (`index`, `scalar`, `vector`). */
export type LaneArgs = LaneInput<KernelLowering, Scalar, WType>;
export type LaneRule = (l: LaneArgs) => Scalar;

const I = (cx: KernelLowering, x: Scalar) => (x.t === "u32" ? cx.reinterpret(x, "i32") : x);
const U = (cx: KernelLowering, x: Scalar) => (x.t === "i32" ? cx.reinterpret(x, "u32") : x);
/** A u32 expression back in the type `t`. */
const back = (cx: KernelLowering, t: WType, e: string): Scalar => cx.let(t, t === "i32" ? `bitcast<i32>(${e})` : e);

const FOLD: Readonly<Record<string, (x: bigint, y: bigint) => bigint>> = { "+": (x, y) => x + y, "-": (x, y) => x - y, "*": (x, y) => x * y };

function binary(symbol: string, boolSymbol?: string): LaneRule {
  return ({ cx, args: [a, b], to }) => {
    if (to === "bool") return cx.let("bool", `(${a!.e} ${boolSymbol ?? symbol} ${b!.e})`);
    // Two integer literals fold here: WGSL rejects a constant expression that overflows, while Loom wraps.
    const fold = FOLD[symbol];
    if (fold && a!.c !== undefined && b!.c !== undefined) return cx.int(to, fold(a!.c, b!.c));
    return cx.let(to, `(${a!.e} ${symbol} ${b!.e})`);
  };
}

/** An unsigned integer op on the u32 reinterpretation of the operands. */
/**
 * `index.div`/`rem` by a constant power of two: the dividend is non-negative (a negative one
 * is undefined behaviour, docs/language.md §4.2), so a shift or a mask; else undefined.
 */
function indexByPowerOfTwo({ cx, args: [a, b], to, dialect }: LaneArgs, kind: "div" | "rem"): Scalar | undefined {
  const d = b!.c;
  if (dialect !== "index" || to !== "i32" || d === undefined || d <= 0n || (d & (d - 1n)) !== 0n || a!.c !== undefined) return undefined;
  if (kind === "rem") return d === 1n ? cx.int(to, 0n) : cx.let(to, `(${a!.e} & ${cx.int(to, d - 1n).e})`);
  return d === 1n ? a! : cx.let(to, `(${a!.e} >> ${d.toString(2).length - 1}u)`);
}

function unsignedBinary(symbol: string, fn = false): LaneRule {
  return ({ cx, args: [a, b], to }) => {
    const x = U(cx, a!).e, y = U(cx, b!).e;
    return back(cx, to, fn ? `${symbol}(${x}, ${y})` : `(${x} ${symbol} ${y})`);
  };
}

function call(fn: string): LaneRule {
  return ({ cx, args, to }) => cx.let(to, `${fn}(${args.map((a) => a.e).join(", ")})`);
}

/** `a / b` and `a % b`, integer (signed) and float alike. */
const divide = binary("/"), remainder = binary("%");

/** Integer min/max: on i1 (true is -1 signed, 1 unsigned) an `|` or `&`. */
const minMax = (boolSymbol: string, rule: LaneRule): LaneRule => (l) => (l.to === "bool" ? l.cx.let("bool", `(${l.args[0]!.e} ${boolSymbol} ${l.args[1]!.e})`) : rule(l));

const shift = (kind: "shl" | "shrs" | "shru"): LaneRule => ({ cx, args: [a, b], to }) => {
  // A constant amount must be below 32 in WGSL; a run-time one is taken mod 32.
  const amount = b!.c !== undefined ? `${BigInt.asUintN(5, b!.c)}u` : U(cx, b!).e;
  if (kind === "shl") return cx.let(to, `(${a!.e} << ${amount})`);
  if (kind === "shrs") return to === "i32" ? cx.let(to, `(${a!.e} >> ${amount})`) : back(cx, to, `bitcast<u32>(${I(cx, a!).e} >> ${amount})`);
  return back(cx, to, `(${U(cx, a!).e} >> ${amount})`);
};

const rotate = (left: boolean): LaneRule => ({ cx, op, args: [a, b], to, dialect }) => {
  if (dialect === "index") {
    cx.unsupported(op, `'${op.name}' (a rotation of the 64-bit index carrier)`, "the WGSL target carries index values in 32 bits; rotate an i32 instead");
    return scalarOf("invalid", to);
  }
  const x = U(cx, a!).e;
  const s = cx.let("u32", `(${U(cx, b!).e} & 31u)`).e;
  const [l, r] = left ? ["<<", ">>"] : [">>", "<<"];
  return back(cx, to, `((${x} ${l} ${s}) | (${x} ${r} ((32u - ${s}) & 31u)))`);
};

/** Bit counts: on `index` the answer for the 64-bit sign extension of the 32-bit value. */
const bitCount = (fn: string, wide: (cx: KernelLowering, x: string, n: Scalar) => string): LaneRule => ({ cx, args: [a], to, dialect }) => {
  const n = cx.let("i32", `${fn}(${I(cx, a!).e})`);
  return dialect === "index" ? cx.let(to, wide(cx, I(cx, a!).e, n)) : n;
};
const ctlzi = bitCount("countLeadingZeros", (_cx, x, n) => `select(${n.e} + 32i, 0i, ${x} < 0i)`);
const cttzi = bitCount("countTrailingZeros", (_cx, x, n) => `select(${n.e}, 64i, ${x} == 0i)`);
const ctpopi = bitCount("countOneBits", (_cx, x, n) => `select(${n.e}, ${n.e} + 32i, ${x} < 0i)`);

/** Also `negf` (a float is neither u32 nor bool). */
const negi: LaneRule = ({ cx, args: [a], to }) => (to === "u32" ? cx.let(to, `(0u - ${a!.e})`) : to === "bool" ? a! : cx.let(to, `(-${a!.e})`));

/** Signed division rounded toward +∞ or −∞ from the truncating quotient. */
const roundedDivision = (kind: "ceilsi" | "floorsi" | "ceilui"): LaneRule => ({ cx, args: [a, b], to }) => {
  if (kind === "ceilui") {
    const x = U(cx, a!).e, y = U(cx, b!).e;
    const q = cx.let("u32", `(${x} / ${y})`);
    return back(cx, to, `(${q.e} + select(0u, 1u, (${x} % ${y}) != 0u))`);
  }
  const x = I(cx, a!).e, y = I(cx, b!).e;
  const q = cx.let("i32", `(${x} / ${y})`);
  const r = cx.let("i32", `(${x} % ${y})`);
  const same = `((${x} < 0i) == (${y} < 0i))`;
  return kind === "ceilsi" ? cx.let(to, `select(${q.e}, ${q.e} + 1i, ${r.e} != 0i && ${same})`) : cx.let(to, `select(${q.e}, ${q.e} - 1i, ${r.e} != 0i && !${same})`);
};

const madd: LaneRule = ({ cx, args: [a, b, c] }) => cx.add(cx.mul(a!, b!), c!);

/** `index.scale`: index × offset → offset (u32). */
const scale: LaneRule = ({ cx, args: [a, b] }) => cx.mul(U(cx, a!), U(cx, b!));

const INT_PREDICATE: Readonly<Record<string, [string, boolean]>> = {
  eq: ["==", false], ne: ["!=", false], slt: ["<", false], sle: ["<=", false], sgt: [">", false], sge: [">=", false],
  ult: ["<", true], ule: ["<=", true], ugt: [">", true], uge: [">=", true],
};

const cmpi: LaneRule = ({ cx, op, args: [a, b] }) => {
  const p = INT_PREDICATE[String(op.props.predicate)];
  if (!p) throw new Error(`WGSL lowering: unknown integer predicate '${String(op.props.predicate)}'`);
  const [symbol, unsigned] = p;
  if (a!.t === "bool") {
    // i1 compares as an integer 0/1 (true > false unsigned; signed, true is -1).
    const as = (x: Scalar) => (unsigned ? `select(0u, 1u, ${x.e})` : `select(0i, -1i, ${x.e})`);
    return cx.let("bool", `(${as(a!)} ${symbol} ${as(b!)})`);
  }
  const conv = unsigned ? U : I;
  return cx.let("bool", `(${conv(cx, a!).e} ${symbol} ${conv(cx, b!).e})`);
};

// ---- floats -------------------------------------------------------------------------------

const isNan = (x: string) => `(${x} != ${x})`;

const copysignf: LaneRule = ({ cx, args: [a, b], to }) => {
  if (to === "f32") return cx.let(to, `bitcast<f32>((bitcast<u32>(${a!.e}) & 0x7fffffffu) | (bitcast<u32>(${b!.e}) & 0x80000000u))`);
  // f16 → f32 is exact, so the packed f16 bits of b carry its sign (NaNs included).
  const negative = cx.let("bool", `(pack2x16float(vec2<f32>(f32(${b!.e}), 0.0)) & 0x8000u) != 0u`).e;
  return cx.let(to, `select(abs(${a!.e}), -abs(${a!.e}), ${negative})`);
};

/** NaN-propagating min/max (`a + b` is the NaN when either operand is one). */
const minimumMaximum = (fn: "min" | "max"): LaneRule => ({ cx, args: [a, b], to }) =>
  cx.let(to, `select(${fn}(${a!.e}, ${b!.e}), ${a!.e} + ${b!.e}, ${isNan(a!.e)} || ${isNan(b!.e)})`);

/** NaN-ignoring min/max (IEEE minNum/maxNum). */
const minMaxNum = (fn: "min" | "max"): LaneRule => ({ cx, args: [a, b], to }) =>
  cx.let(to, `select(select(${fn}(${a!.e}, ${b!.e}), ${a!.e}, ${isNan(b!.e)}), ${b!.e}, ${isNan(a!.e)})`);


/** Widened to f32 for f16 (helpers are written once, for f32). */
function viaF32(cx: KernelLowering, to: WType, fn: string, args: readonly Scalar[]): Scalar {
  if (to === "f32") return cx.let(to, `${fn}(${args.map((a) => a.e).join(", ")})`);
  return cx.let(to, `f16(${fn}(${args.map((a) => `f32(${a.e})`).join(", ")}))`);
}

const ERF = `// erf(x), Abramowitz & Stegun 7.1.26: |error| <= 1.5e-7.
fn loom_erf(x: f32) -> f32 {
  let a = abs(x);
  let t = 1.0 / (1.0 + 0.3275911 * a);
  let p = t * (0.254829592 + t * (-0.284496736 + t * (1.421413741 + t * (-1.453152027 + t * 1.061405429))));
  return sign(x) * (1.0 - p * exp(-a * a));
}`;

const ROUND = `// Rounds half away from zero (WGSL's round() rounds half to even).
fn loom_round(x: f32) -> f32 {
  let t = trunc(x);
  return select(t, t + sign(x), abs(x - t) >= 0.5);
}`;

const erff: LaneRule = ({ cx, args, to }) => viaF32(cx, to, cx.helper("loom_erf", ERF), args);
const roundf: LaneRule = ({ cx, args, to }) => viaF32(cx, to, cx.helper("loom_round", ROUND), args);

const FLOAT_PREDICATE: Readonly<Record<string, [string, "ordered" | "unordered"]>> = {
  oeq: ["==", "ordered"], ogt: [">", "ordered"], oge: [">=", "ordered"], olt: ["<", "ordered"], ole: ["<=", "ordered"], one: ["!=", "ordered"],
  ueq: ["==", "unordered"], ugt: [">", "unordered"], uge: [">=", "unordered"], ult: ["<", "unordered"], ule: ["<=", "unordered"], une: ["!=", "unordered"],
};

const cmpf: LaneRule = ({ cx, op, args: [a, b] }) => {
  const predicate = String(op.props.predicate);
  const nan = `(${isNan(a!.e)} || ${isNan(b!.e)})`;
  if (predicate === "ord") return cx.let("bool", `!${nan}`);
  if (predicate === "uno") return cx.let("bool", nan);
  const p = FLOAT_PREDICATE[predicate];
  if (!p) throw new Error(`WGSL lowering: unknown float predicate '${predicate}'`);
  const [symbol, kind] = p;
  const compare = `(${a!.e} ${symbol} ${b!.e})`;
  return cx.let("bool", kind === "ordered" ? `(!${nan} && ${compare})` : `(${nan} || ${compare})`);
};

// ---- conversions --------------------------------------------------------------------------

const intToFloat = (signed: boolean): LaneRule => ({ cx, args: [a], to }) => {
  if (a!.t === "bool") return cx.let(to, `select(${to}(0), ${to}(${signed ? -1 : 1}), ${a!.e})`);
  return cx.let(to, `${to}(${(signed ? I : U)(cx, a!).e})`);
};

const floatToInt = (signed: boolean): LaneRule => ({ cx, args: [a], to }) => {
  if (to === "bool") return cx.let(to, `(${a!.e} != ${a!.t}(0))`);
  return signed ? cx.let(to, to === "i32" ? `i32(${a!.e})` : `bitcast<u32>(i32(${a!.e}))`) : back(cx, to, `u32(${a!.e})`);
};

const floatCast: LaneRule = ({ cx, args: [a], to }) => cx.let(to, `${to}(${a!.e})`);

/** Integer width changes among the carried types: only i1 ↔ i32 remain. */
const extend = (signed: boolean): LaneRule => ({ cx, args: [a], to }) => {
  if (a!.t !== "bool") return a!;
  return cx.let(to, `select(${to}(0), ${signed && to === "i32" ? "-1i" : `${to}(1)`}, ${a!.e})`);
};

/**
 * A constant operand goes through a `let` first: `bitcast<f32>(literal)` is a const-expression,
 * which Tint evaluates and rejects when the bits are a NaN or an infinity; at run time the
 * device keeps the pattern.
 */
const bitcast: LaneRule = ({ cx, args: [a], to }) => {
  if (a!.t === to) return a!;
  const source = a!.c !== undefined ? cx.let(a!.t, a!.e) : a!;
  return cx.let(to, `bitcast<${to}>(${source.e})`);
};

/**
 * `index.cast` (language.md §4.2): sign-extend into index, zero-extend into offset, truncate
 * out — all 32 bits here; also `trunci` (its operand is never i1, so the first case is the cast's alone).
 */
const indexCast: LaneRule = ({ cx, args: [a], to }) => {
  if (a!.t === "bool") return cx.let(to, `select(${to}(0), ${to}(1), ${a!.e})`);
  if (to === "bool") return cx.let("bool", `((${a!.e} & ${a!.t}(1)) != ${a!.t}(0))`);
  return a!.t === to ? a! : cx.reinterpret(a!, to as "i32" | "u32");
};

const selectLane: LaneRule = ({ cx, args: [c, a, b] }) => select(cx, c!, a!, b!);

export function select(cx: KernelLowering, c: Scalar, a: Scalar, b: Scalar): Scalar {
  if (a.e === b.e) return a;
  return cx.let(a.t, `select(${b.e}, ${a.e}, ${c.e})`);
}

/** Lane rules by op suffix (`scalar.addi`, `vector.addi` → "addi"). */
export const LANE_RULES: Readonly<Record<string, LaneRule>> = {
  addi: binary("+", "!="),
  subi: binary("-", "!="),
  muli: binary("*", "&"),
  divsi: (l) => indexByPowerOfTwo(l, "div") ?? divide(l),
  divui: unsignedBinary("/"),
  remsi: (l) => indexByPowerOfTwo(l, "rem") ?? remainder(l),
  remui: unsignedBinary("%"),
  ceildivsi: roundedDivision("ceilsi"),
  ceildivui: roundedDivision("ceilui"),
  floordivsi: roundedDivision("floorsi"),
  negi,
  absi: call("abs"),
  minsi: minMax("|", call("min")),
  maxsi: minMax("&", call("max")),
  minui: minMax("&", unsignedBinary("min", true)),
  maxui: minMax("|", unsignedBinary("max", true)),
  andi: binary("&"),
  ori: binary("|"),
  xori: binary("^", "!="),
  shli: shift("shl"),
  shrsi: shift("shrs"),
  shrui: shift("shru"),
  rotli: rotate(true),
  rotri: rotate(false),
  ctlzi,
  cttzi,
  ctpopi,
  madd,
  scale,
  cmpi,
  addf: binary("+"),
  subf: binary("-"),
  mulf: binary("*"),
  divf: divide,
  remf: remainder,
  negf: negi,
  absf: call("abs"),
  copysignf,
  fmaf: call("fma"),
  minimumf: minimumMaximum("min"),
  maximumf: minimumMaximum("max"),
  minnumf: minMaxNum("min"),
  maxnumf: minMaxNum("max"),
  expf: call("exp"),
  exp2f: call("exp2"),
  logf: call("log"),
  log2f: call("log2"),
  sqrtf: call("sqrt"),
  rsqrtf: call("inverseSqrt"),
  sinf: call("sin"),
  cosf: call("cos"),
  tanhf: call("tanh"),
  erff,
  powf: call("pow"),
  ceilf: call("ceil"),
  floorf: call("floor"),
  roundf,
  roundevenf: call("round"),
  truncf: call("trunc"),
  cmpf,
  sitofp: intToFloat(true),
  uitofp: intToFloat(false),
  fptosi: floatToInt(true),
  fptoui: floatToInt(false),
  extf: floatCast,
  fptrunc: floatCast,
  extsi: extend(true),
  extui: extend(false),
  trunci: indexCast,
  bitcast,
  cast: indexCast,
  select: selectLane,
};

/** Combines two scalars with a combining kind (reductions). */
export function combine(cx: KernelLowering, op: Op, kind: string, t: WType, a: Scalar, x: Scalar): Scalar {
  return combineLanes(LANE_RULES, cx, op, kind, t, a, x);
}
