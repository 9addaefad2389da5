/**
 * Binds what one compile invocation decides: `config.get` values (api.md §4 `config`, or the
 * module's `config.def`) and target queries (`target.subgroup.size`) become constants.
 * Values bound through the API are checked against their key's `config.decl` first.
 */
import { makeConstant } from "../ir/build.js";
import type { Literal, Module, Op, Region } from "../ir/core.js";
import type { ValueMap } from "../ir/clone.js";
import { replaceUsesInRegion } from "../ir/rewrite.js";
import { isFloat, isInt, type PrimType, type Type } from "../ir/types.js";
import { D, type DiagnosticSink } from "../core/diag/diagnostic.js";
import type { TargetProfile } from "../core/target.js";
import { checkConfigValue, type SymbolTable } from "./verify/index.js";
import { isOp, propOf } from "../dialects/registry.js";

export type ConfigValue = bigint | number | boolean;

/** Config values for this invocation: explicit bindings first, then `config.def` in the module. */
export function configBindings(module: Module, explicit: ReadonlyMap<string, ConfigValue>): Map<string, ConfigValue> {
  const out = new Map<string, ConfigValue>();
  for (const op of module.ops) {
    if (!isOp(op, "config.def")) continue;
    const lit = propOf(op, "value");
    if (lit && (lit.kind === "int" || lit.kind === "float" || lit.kind === "bool")) out.set(op.symbol!, lit.value);
  }
  for (const [k, v] of explicit) out.set(k, v);
  return out;
}

const I64_MIN = -(1n << 63n);
const I64_MAX = (1n << 63n) - 1n;

/** Why `value` cannot be a constant of `type`, or undefined when it can. */
function unfit(value: ConfigValue, type: Type): string | undefined {
  if (type.kind !== "prim") return `the key's type ${type.kind} cannot be bound`;
  const name = type.name;
  if (name === "i1") return typeof value === "boolean" ? undefined : `an i1 key takes a boolean, got ${typeof value}`;
  if (isFloat(type)) return typeof value === "number" ? undefined : `a ${name} key takes a number, got ${typeof value}`;
  if (!isInt(type) && name !== "index" && name !== "offset") return `a ${name} key cannot be bound`;
  if (typeof value !== "bigint") return `a ${name} key takes a bigint, got ${typeof value}`;
  const bits = name === "index" || name === "offset" ? 64n : BigInt(name.slice(1));
  const [lo, hi] = name === "index" ? [I64_MIN, I64_MAX] : name === "offset" ? [0n, I64_MAX] : [-(1n << (bits - 1n)), (1n << bits) - 1n];
  return value < lo || value > hi ? `${value} does not fit ${name} [${lo}, ${hi}]` : undefined;
}

/**
 * Checks the invocation's bindings (api.md §4 `config`) against the keys the module
 * declares or defines: the value's kind and range (TYPE/005, STRUCTURE/014) and the
 * `config.decl` predicates (STRUCTURE/904). Diagnostics sit at the key's declaration.
 * Bindings for keys the module does not know are ignored: one bag can serve many modules.
 */
export function checkConfigBindings(symbols: SymbolTable, explicit: ReadonlyMap<string, ConfigValue>, sink: DiagnosticSink): void {
  if (explicit.size === 0) return;
  const help = "the value was bound through compileModule's 'config' option";
  for (const [key, value] of explicit) {
    const decl = symbols.configDecl(key) ?? symbols.configDef(key);
    const type = decl ? propOf(decl, "type") : undefined;
    if (!decl || !type) continue;
    const why = unfit(value, type);
    if (why !== undefined) {
      sink.report(typeof value === "bigint" && isBigintType(type) ? D.valueOutOfRange : D.literalKind, decl.span, [`config '@${key}': ${why}`], { help });
      continue;
    }
    if (!isOp(decl, "config.decl")) continue;
    for (const d of checkConfigValue(decl, value, decl.span)) sink.add({ ...d, help });
  }
}

function isBigintType(t: Type): boolean {
  return t.kind === "prim" && t.name !== "i1" && !isFloat(t);
}

/** Replaces queries in `region` (recursively). Returns false when something could not be bound. */
export function bindQueries(region: Region, profile: TargetProfile, config: ReadonlyMap<string, ConfigValue>, sink: DiagnosticSink): boolean {
  let ok = true;
  const map: ValueMap = new Map();
  const visit = (r: Region) => {
    // A new op list, not a splice per query: binding stays linear in the region's size.
    const out: Op[] = [];
    for (const op of r.ops) {
      for (const inner of op.regions) visit(inner);
      const replacement = queryReplacement(op, profile, config, sink);
      if (replacement === null) ok = false;
      if (!replacement) {
        out.push(op);
        continue;
      }
      replacement.parent = r;
      out.push(replacement);
      map.set(op.results[0]!, replacement.results[0]!);
    }
    r.ops = out;
  };
  visit(region);
  replaceUsesInRegion(region, map);
  return ok;
}

/** The constant op replacing a query, undefined when `op` is no query, null after an error. */
function queryReplacement(op: Op, profile: TargetProfile, config: ReadonlyMap<string, ConfigValue>, sink: DiagnosticSink): Op | undefined | null {
  const result = op.results[0];
  if (isOp(op, "target.subgroup.size")) {
    if (profile.facts.subgroupSize === 0) {
      sink.report(D.unresolvedTargetQuery, op.span, [`target.subgroup.size (profile '${profile.identifier}' has no fixed subgroup size)`]);
      return null;
    }
    return makeConstant(result!.type as PrimType, BigInt(profile.facts.subgroupSize), result!.name, op.span);
  }
  if (isOp(op, "config.get")) {
    const key = op.symbol!;
    const value = config.get(key);
    if (value === undefined) {
      sink.report(D.configUnbound, op.span, [key]);
      return null;
    }
    return makeConstant(result!.type as PrimType, value, result!.name, op.span);
  }
  return undefined;
}
