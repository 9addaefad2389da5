/**
 * Literal kinds and ranges (§4.2 `index.constant`, §4.3 `scalar.constant`, §4.7
 * `vector.constant`, §4.10 `config.def`) and attribute values with a fixed domain:
 *  - integer types take integer literals (`i1` also `true`/`false`), float types take float
 *    literals (`inf`/`nan` included), anything else → TYPE/005;
 *  - `i1` takes 0, 1, true, false (any other integer is TYPE/005, as the reference);
 *  - `iN` literals in `[−2^(N−1), 2^N−1]`, `offset` in `[0, 2^63−1]`,
 *    `index` in i64 → STRUCTURE/014;
 *  - alignments (powers of two), cluster sizes, barrier/atomic orderings and target
 *    record attributes (the checks each target package declares) → STRUCTURE/014.
 */
import { Op, isLiteral, type Literal, type Value } from "../../ir/core.js";
import { isOp } from "../../dialects/registry.js";
import { bitWidth, isFloat, isInt, typeToString, type Type } from "../../ir/types.js";
import { D } from "../../core/diag/catalog.js";
import { targetRecordSpec } from "../../core/target-records.js";
import type { TargetRecordSpec } from "../../core/target.js";
import type { VerifyContext } from "./context.js";

const I64_MIN = -(1n << 63n);
const I64_MAX = (1n << 63n) - 1n;

function describe(lit: Literal): string {
  switch (lit.kind) {
    case "int":
      return `integer literal ${lit.value}`;
    case "float":
      return `float literal ${lit.value}`;
    case "bool":
      return `boolean literal ${lit.value}`;
    case "string":
      return "string literal";
    case "ident":
      return `identifier '${lit.value}'`;
  }
}

/** Whether an identifier literal spells a float (`inf`, `nan`, as the parser may keep them). */
function isFloatIdent(lit: Literal): boolean {
  return lit.kind === "ident" && (lit.value === "inf" || lit.value === "nan" || lit.value === "-inf" || lit.value === "-nan");
}

/**
 * Checks a literal against the type it initialises. `type` must be `index`, `offset` or a
 * scalar type; other types are the caller's TYPE/003/004 business.
 */
export function checkLiteral(ctx: VerifyContext, op: Op, lit: unknown, type: Type): void {
  if (!isLiteral(lit)) return;
  const t = typeToString(type);
  if (type.kind === "prim" && (type.name === "index" || type.name === "offset")) {
    if (lit.kind !== "int") return void ctx.report(D.literalKind, op.span, [`${describe(lit)} for type ${t}`]);
    const lo = type.name === "offset" ? 0n : I64_MIN;
    if (lit.value < lo || lit.value > I64_MAX) ctx.report(D.valueOutOfRange, op.span, [`${lit.value} is not a valid ${t} (range [${lo}, ${I64_MAX}])`]);
    return;
  }
  if (isInt(type)) {
    if (lit.kind === "bool") {
      if (type.name !== "i1") ctx.report(D.literalKind, op.span, [`${describe(lit)} for type ${t} (true/false are i1 only)`]);
      return;
    }
    if (lit.kind !== "int") return void ctx.report(D.literalKind, op.span, [`${describe(lit)} for type ${t}`]);
    // An i1 literal is a boolean: any integer but 0 and 1 is the wrong kind of value (TYPE/005,
    // as the reference reports it), not a range problem.
    if (type.name === "i1" && lit.value !== 0n && lit.value !== 1n) return void ctx.report(D.literalKind, op.span, [`integer literal ${lit.value} for type i1 (a boolean value is 0, 1, true or false)`]);
    const w = BigInt(bitWidth(type));
    const lo = type.name === "i1" ? 0n : -(1n << (w - 1n));
    const hi = type.name === "i1" ? 1n : (1n << w) - 1n;
    if (lit.value < lo || lit.value > hi) ctx.report(D.valueOutOfRange, op.span, [`${lit.value} does not fit ${t} (range [${lo}, ${hi}])`]);
    return;
  }
  if (isFloat(type)) {
    if (lit.kind !== "float" && !isFloatIdent(lit)) {
      ctx.report(D.literalKind, op.span, [`${describe(lit)} for type ${t}`], { help: lit.kind === "int" ? `write ${lit.value}.0` : undefined });
    }
  }
}

function isPow2(n: unknown): boolean {
  const v = typeof n === "number" ? BigInt(Number.isInteger(n) ? n : 0) : typeof n === "bigint" ? n : 0n;
  return v > 0n && (v & (v - 1n)) === 0n;
}

const LOAD_ORDERINGS = ["relaxed", "acquire", "seq_cst"];
const STORE_ORDERINGS = ["relaxed", "release", "seq_cst"];

/**
 * The memory space a buffer value is already known to be in: from its `buffer.alloca`, an
 * earlier `buffer.assume.memory_space`, through the buffer identity assumes; undefined when
 * nothing says (a kernel argument, a function argument).
 */
function knownSpace(v: Value | undefined, depth = 0): string | undefined {
  const def = v?.owner;
  if (!v || !def || !(def instanceof Op) || depth > 64) return undefined;
  if (isOp(def, "buffer.alloca")) return def.props.invalidSpace === undefined ? def.props.deferredSpace ?? def.props.space : undefined;
  if (isOp(def, "buffer.assume.memory_space")) return def.props.invalidSpace === undefined ? def.props.space : undefined;
  if (isOp(def, "buffer.assume.noalias") || isOp(def, "buffer.assume.alignment")) return knownSpace(def.operands[def.results.indexOf(v)], depth + 1);
  return undefined;
}

/** Ops whose attributes `checkAttributes` checks (besides target records and the flags every op may carry). */
const ATTRIBUTE_OPS: ReadonlySet<string> = new Set([
  "buffer.alloca", "buffer.assume.memory_space", "scf.for", "buffer.assume.alignment", "kernel.subgroup.reduce", "kernel.workgroup.reduce",
  "kernel.barrier", "view.atomic.load", "view.atomic.store", "view.atomic.cmpxchg", "view.atomic.reduce",
]);

/** Whether `checkAttributes` checks ops of this name even without the flags every op may carry. */
export function hasAttributeChecks(name: string): boolean {
  return ATTRIBUTE_OPS.has(name) || targetRecordSpec(name) !== undefined;
}

/** Attribute values with a fixed domain (STRUCTURE/014). */
export function checkAttributes(ctx: VerifyContext, op: Op): void {
  const p = op.props;
  // Most ops have no such attribute: nothing to check, and no reporting closure to make.
  if (p.missingAttributes === undefined && p.invalidSpace === undefined && !ATTRIBUTE_OPS.has(op.name) && !targetRecordSpec(op.name)) return;
  const out = (what: string) => ctx.report(D.valueOutOfRange, op.span, [what]);
  const missing = p.missingAttributes;
  if (Array.isArray(missing)) {
    for (const k of missing) ctx.report(D.literalKind, op.span, [`'${op.name}' needs the attribute '${String(k)}' ({${missing.map((m) => `${String(m)} = …`).join(", ")}})`]);
  }
  if (typeof p.invalidSpace === "string") {
    const allowed = op.name === "buffer.alloca" ? "global, workgroup, private, host or generic" : "global, workgroup or private (a concrete memory space)";
    out(`memory_space '${p.invalidSpace}' is not one ${op.name} takes (${allowed})`);
  }
  if (isOp(op, "buffer.assume.memory_space") && op.props.invalidSpace === undefined) {
    const known = knownSpace(op.operands[0]);
    if (known !== undefined && known !== op.props.space) out(`memory_space ${op.props.space} contradicts the existing memory-space fact ${known}`);
  }
  switch (op.name) {
    case "buffer.alloca": {
      const a = p.align;
      if (a !== undefined && (!isPow2(a) || Number(a) > 256)) out(`align(${String(a)}) must be a power of two in [1, 256]`);
      break;
    }
    case "scf.for":
      if (p.unrollConflict === true) out("unroll: either bare unroll or unroll factor, not both");
      // An unroll schedule orders the copies an unroll makes; without an unroll it means nothing.
      if (p.schedule !== undefined && p.unroll === undefined) out(`schedule(${String(p.schedule)}) must be paired with bare unroll or unroll factor`);
      break;
    case "buffer.assume.alignment":
      if (p.minimumAlignment !== undefined && !isPow2(p.minimumAlignment)) out(`minimum_alignment = ${String(p.minimumAlignment)} must be a power of two`);
      break;
    case "kernel.subgroup.reduce":
    case "kernel.workgroup.reduce":
      if (p.clusterSize !== undefined && (!isPow2(p.clusterSize) || Number(p.clusterSize) > 128)) out(`cluster_size = ${String(p.clusterSize)} must be a power of two no larger than the subgroup size`);
      break;
    case "kernel.barrier": {
      // The reference's barrier contract: workgroup memory at subgroup or workgroup scope with
      // acq_rel; global memory at workgroup scope with acquire, release or acq_rel.
      const memory = String(p.memory), scope = String(p.scope), ordering = String(p.ordering);
      if (memory === "workgroup") {
        if (scope !== "subgroup" && scope !== "workgroup") out(`scope(${scope}): kernel.barrier<workgroup> needs subgroup or workgroup scope for workgroup memory`);
        if (p.ordering !== undefined && ordering !== "acq_rel") out(`ordering(${ordering}): kernel.barrier<workgroup> requires acq_rel ordering for workgroup memory`);
      } else if (memory === "global") {
        if (scope !== "workgroup") out(`scope(${scope}): kernel.barrier<global> needs workgroup scope for global memory`);
        if (!["acquire", "release", "acq_rel"].includes(ordering)) out(`ordering(${ordering}): kernel.barrier<global> needs acquire, release, or acq_rel ordering for global memory`);
      } else {
        out(`memory_space <${memory}>: a barrier orders workgroup or global memory space`);
      }
      break;
    }
    case "view.atomic.load":
      if (typeof p.ordering === "string" && !LOAD_ORDERINGS.includes(p.ordering)) out(`atomic load ordering must be one of ${LOAD_ORDERINGS.join(", ")}, got ${p.ordering}`);
      break;
    case "view.atomic.store":
      if (typeof p.ordering === "string" && !STORE_ORDERINGS.includes(p.ordering)) out(`atomic store ordering must be one of ${STORE_ORDERINGS.join(", ")}, got ${p.ordering}`);
      break;
    case "view.atomic.cmpxchg": {
      const failure = String(p.failureOrdering), success = String(p.successOrdering);
      if (failure === "release" || failure === "acq_rel") out(`failure_ordering ${failure}: cmpxchg takes a relaxed, acquire, or seq_cst failure ordering`);
      // The failure ordering is no stronger than the success ordering (as in the reference and LLVM).
      else if ((failure === "acquire" && !["acquire", "acq_rel", "seq_cst"].includes(success)) || (failure === "seq_cst" && success !== "seq_cst")) {
        out(`failure_ordering ${failure} with success_ordering ${success}: the failure ordering is no stronger than the success ordering`);
      }
      break;
    }
    case "view.atomic.reduce":
      // An exchange returns the old value; a reduce has no result, so xchg is an rmw only.
      if (p.kind === "xchgi" || p.kind === "xchgf") out(`view.atomic.reduce<${String(p.kind)}>: a reduce takes a non-exchange atomic reduce kind (use view.atomic.rmw)`);
      break;
    default: {
      const record = targetRecordSpec(op.name);
      if (record) checkTargetAttrs(op, record, out);
    }
  }
}

/** Integer attribute values of a target record, by the checks its package declares. */
function checkTargetAttrs(op: Op, record: TargetRecordSpec, out: (what: string) => void): void {
  const attrs = op.props.attrs;
  for (const a of Array.isArray(attrs) ? attrs : []) {
    const { key, value } = (a ?? {}) as { key?: unknown; value?: unknown };
    const check = record.attributes.find((x) => x.key === key)?.check;
    // The parser admits only integers for checked keys (PARSE/003 otherwise).
    if (!check || !isLiteral(value) || value.kind !== "int") continue;
    const why = check(value.value);
    if (why !== undefined) out(`${String(key)} ${why}`);
  }
}
