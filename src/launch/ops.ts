/**
 * The ops a launch-config function may contain (language.md §6 "C column") and their wire
 * opcodes. Only the numbering lives here: the opcode of an op is its position in `OPCODES`
 * (append only; docs/launch-config.md lists the table). Operand count, flags, predicates and
 * type rule come from the op's evaluation signature (src/dialects/eval/signatures.ts), the
 * placement from the op table (src/dialects/table.ts): an op listed here must be allowed in a
 * launch-config region.
 */
import { EVAL_SIGNATURES, type TypeRule } from "../dialects/eval/signatures.js";
import { lookupOp } from "../dialects/table.js";

export type OpShape = "constant" | "simple" | "assume" | "select" | "if" | "for" | "yield" | "launch";

export interface OpInfo {
  readonly name: string;
  readonly opcode: number;
  readonly shape: OpShape;
  /** Operand count of `simple` ops. */
  readonly arity: number;
  /** Flag bits the op accepts. */
  readonly flags: number;
  /** Allowed comparison predicates (cmp ops only). */
  readonly predicates?: readonly string[];
  /** Type rule of `simple`/`constant` ops: an error text, or undefined when well typed. */
  readonly check: TypeRule;
}

/** Wire opcodes, in order. Append only: a reader of version 1 knows these numbers. */
const OPCODES = [
  "index.constant", "index.cast", "index.add", "index.sub", "index.mul", "index.div", "index.rem", "index.min", "index.max",
  "index.andi", "index.ori", "index.xori", "index.shli", "index.shrsi", "index.shrui", "index.rotli", "index.rotri",
  "index.madd", "index.scale", "index.ctlzi", "index.cttzi", "index.ctpopi", "index.cmp", "index.assume",
  "scalar.constant", "scalar.addi", "scalar.subi", "scalar.muli", "scalar.divsi", "scalar.divui", "scalar.remsi", "scalar.remui",
  "scalar.ceildivsi", "scalar.ceildivui", "scalar.floordivsi", "scalar.minsi", "scalar.maxsi", "scalar.minui", "scalar.maxui",
  "scalar.andi", "scalar.ori", "scalar.xori", "scalar.shrsi", "scalar.shrui", "scalar.shli", "scalar.negi", "scalar.absi",
  "scalar.addf", "scalar.subf", "scalar.mulf", "scalar.divf", "scalar.remf", "scalar.copysignf", "scalar.minimumf", "scalar.maximumf",
  "scalar.minnumf", "scalar.maxnumf", "scalar.negf", "scalar.absf", "scalar.ceilf", "scalar.floorf", "scalar.roundf", "scalar.roundevenf",
  "scalar.truncf", "scalar.fmaf", "scalar.cmpi", "scalar.cmpf", "scalar.sitofp", "scalar.uitofp", "scalar.fptosi", "scalar.fptoui",
  "scalar.extf", "scalar.fptrunc", "scalar.extsi", "scalar.extui", "scalar.trunci", "scalar.bitcast", "scalar.assume",
  "scf.select", "scf.if", "scf.for", "scf.yield", "kernel.launch.config",
] as const;

/** Ops whose encoding is structural (regions, identities, the terminator) rather than a value rule. */
const STRUCTURAL: Readonly<Record<string, OpShape>> = {
  "index.assume": "assume",
  "scalar.assume": "assume",
  "scf.select": "select",
  "scf.if": "if",
  "scf.for": "for",
  "scf.yield": "yield",
  "kernel.launch.config": "launch",
};

const untyped: TypeRule = () => undefined;

function describe(name: string, opcode: number): OpInfo {
  if (!lookupOp(name)?.placement.includes("C")) throw new Error(`launch opcode ${opcode}: '${name}' is not allowed in a launch-config region`);
  const shape = STRUCTURAL[name];
  if (shape) return { name, opcode, shape, arity: shape === "select" ? 3 : 0, flags: 0, check: untyped };
  const sig = EVAL_SIGNATURES.get(name);
  if (!sig) throw new Error(`launch opcode ${opcode}: '${name}' has no evaluation signature`);
  const { form, arity, flags, predicates, check } = sig;
  return predicates ? { name, opcode, shape: form, arity, flags, predicates, check } : { name, opcode, shape: form, arity, flags, check };
}

export const OP_LIST: readonly OpInfo[] = OPCODES.map((name, i) => Object.freeze(describe(name, i)));
export const OP_BY_NAME: ReadonlyMap<string, OpInfo> = new Map(OP_LIST.map((o) => [o.name, o]));
