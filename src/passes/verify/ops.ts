/**
 * What the verifier needs to know about each v1 op, as data (language.md §4 tables):
 * placement letters (C launch-config region, D kernel device body, F func/template body),
 * whether the op has effects (reads/writes memory or communicates across invocations),
 * whether it is a region terminator, and whether it belongs at top level.
 *
 * The dialect table (`src/dialects/table.ts`) carries the same facts for the parser; this
 * file keeps the verifier self-contained and is checked against the spec by the unit tests.
 */

export interface OpFacts {
  /** Placement letters from the C/D/F columns; empty for top-level ops. */
  readonly placement: string;
  /** Has memory effects or cross-invocation communication (not allowed in `pure` bodies). */
  readonly effects: boolean;
  readonly terminator: boolean;
  readonly topLevel: boolean;
  /** A barrier or collective: must be reached under control uniform at `scope` (STRUCTURE/038). */
  readonly collective?: "subgroup" | "workgroup";
}

const table = new Map<string, OpFacts>();

function define(names: string, placement: string, extra: Partial<OpFacts> = {}): void {
  for (const name of names.trim().split(/\s+/)) {
    table.set(name, { placement, effects: false, terminator: false, topLevel: false, ...extra });
  }
}

// §2 top level.
define("kernel.def kernel.decl func.def func.decl template.decl template.def config.decl config.def amdgpu.target spirv.target target.decl module.import alias", "", { topLevel: true });

// §4.1 kernel.
define("kernel.launch.config", "C", { terminator: true });
define("kernel.return", "D", { terminator: true });
define("kernel.workitem.id kernel.workgroup.id kernel.workgroup.size kernel.workgroup.count kernel.workitem.dispatch.id", "D");
define("kernel.subgroup.id kernel.subgroup.size kernel.subgroup.lane.id kernel.subgroup.count", "D");
define("kernel.barrier", "DF", { effects: true, collective: "workgroup" /* refined by the op's scope */ });
define("kernel.subgroup.reduce kernel.subgroup.shuffle kernel.subgroup.broadcast", "D", { effects: true, collective: "subgroup" });
define("kernel.workgroup.reduce", "D", { effects: true, collective: "workgroup" });
define("kernel.assert", "D", { effects: true });

// §4.2 index.
define(
  "index.constant index.cast index.add index.sub index.mul index.div index.rem index.min index.max index.madd index.scale " +
    "index.andi index.ori index.xori index.shli index.shrsi index.shrui index.rotli index.rotri index.ctlzi index.cttzi index.ctpopi " +
    "index.cmp index.assume",
  "CDF",
);

// §4.3 scalar: everything but the math functions is allowed in launch-config regions.
export const SCALAR_MATH = "expf exp2f logf log2f sqrtf rsqrtf sinf cosf tanhf erff powf".split(" ");
export const SCALAR_INT_BINARY = "addi subi muli divsi divui remsi remui ceildivsi ceildivui floordivsi minsi maxsi minui maxui andi ori xori shli shrsi shrui".split(" ");
export const SCALAR_INT_UNARY = ["negi", "absi"];
export const SCALAR_FLOAT_BINARY = "addf subf mulf divf remf copysignf minimumf maximumf minnumf maxnumf".split(" ");
export const SCALAR_FLOAT_UNARY = "negf absf ceilf floorf roundf roundevenf truncf".split(" ");
export const CONVERSIONS = "sitofp uitofp fptosi fptoui extf fptrunc extsi extui trunci bitcast".split(" ");
define(
  [...SCALAR_INT_BINARY, ...SCALAR_INT_UNARY, ...SCALAR_FLOAT_BINARY, ...SCALAR_FLOAT_UNARY, ...CONVERSIONS, "constant", "fmaf", "cmpi", "cmpf", "assume"]
    .map((n) => `scalar.${n}`)
    .join(" "),
  "CDF",
);
define(SCALAR_MATH.map((n) => `scalar.${n}`).join(" "), "DF");

// §4.4 scf.
define("scf.if scf.for scf.select", "CDF");
define("scf.yield", "CDF", { terminator: true });
define("scf.while", "DF");
define("scf.condition", "DF", { terminator: true });

// §4.5 buffer and layouts, §4.6 view.
define("buffer.view buffer.assume.noalias buffer.assume.alignment buffer.assume.memory_space buffer.length encoding.layout.dense encoding.layout.strided", "DF");
define("buffer.alloca", "DF", { effects: true });
define("view.subview", "DF");
define("view.load view.store view.atomic.rmw view.atomic.reduce view.atomic.cmpxchg view.atomic.load view.atomic.store", "DF", { effects: true });

// §4.7 vector.
export const VECTOR_FLOAT_BINARY = "addf subf mulf divf minimumf maximumf minnumf maxnumf".split(" ");
export const VECTOR_INT_BINARY = "addi subi muli divsi divui remsi remui minsi maxsi minui maxui andi ori xori shrsi shrui shli".split(" ");
export const VECTOR_FLOAT_UNARY = "negf absf expf exp2f logf log2f sqrtf rsqrtf sinf cosf tanhf erff ceilf floorf roundf roundevenf truncf".split(" ");
export const VECTOR_INT_UNARY = ["negi", "absi"];
define(
  [...VECTOR_FLOAT_BINARY, ...VECTOR_INT_BINARY, ...VECTOR_FLOAT_UNARY, ...VECTOR_INT_UNARY, ...CONVERSIONS, "constant", "splat", "from_elements", "extract", "insert", "fmaf", "cmpi", "cmpf", "select", "reduce"]
    .map((n) => `vector.${n}`)
    .join(" "),
  "DF",
);
define("vector.load vector.store", "DF", { effects: true });

// §4.8–§4.11: calls are also allowed in C when `pure` (STRUCTURE/052 otherwise).
define("func.call template.apply template.call", "DF");
define("func.return template.return", "F", { terminator: true });
define("config.get target.subgroup.size", "CDF");

export function opFacts(name: string): OpFacts | undefined {
  return table.get(name);
}

/** All op names the verifier knows (for tests). */
export function knownOps(): readonly string[] {
  return [...table.keys()];
}

/** Ops whose region-kind placement follows the "call" rule (C only when `pure`). */
export function isCallOp(name: string): boolean {
  return name === "func.call" || name === "template.apply" || name === "template.call";
}
