/**
 * Binds what one compile invocation decides: `config.get` values (api.md §4 `config`, or the
 * module's `config.def`) and target queries (`target.subgroup.size`) become constants.
 */
import { makeConstant, replaceOp } from "../ir/build.js";
import type { Literal, Module, Op, Region } from "../ir/core.js";
import type { ValueMap } from "../ir/clone.js";
import { replaceUsesInRegion } from "../ir/rewrite.js";
import type { PrimType } from "../ir/types.js";
import { D, type DiagnosticSink } from "../diag/diagnostic.js";
import type { TargetProfile } from "../targets/target.js";

export type ConfigValue = bigint | number | boolean;

/** Config values for this invocation: explicit bindings first, then `config.def` in the module. */
export function configBindings(module: Module, explicit: ReadonlyMap<string, ConfigValue>): Map<string, ConfigValue> {
  const out = new Map<string, ConfigValue>();
  for (const op of module.ops) {
    if (op.name !== "config.def") continue;
    const lit = op.props.value as Literal | undefined;
    if (lit && (lit.kind === "int" || lit.kind === "float" || lit.kind === "bool")) out.set(op.symbol!, lit.value);
  }
  for (const [k, v] of explicit) out.set(k, v);
  return out;
}

/** Replaces queries in `region` (recursively). Returns false when something could not be bound. */
export function bindQueries(region: Region, profile: TargetProfile, config: ReadonlyMap<string, ConfigValue>, sink: DiagnosticSink): boolean {
  let ok = true;
  const map: ValueMap = new Map();
  const visit = (r: Region) => {
    for (const op of [...r.ops]) {
      for (const inner of op.regions) visit(inner);
      const replacement = queryReplacement(op, profile, config, sink);
      if (replacement === null) ok = false;
      else if (replacement) {
        replaceOp(r, op, replacement);
        map.set(op.results[0]!, replacement.results[0]!);
      }
    }
  };
  visit(region);
  replaceUsesInRegion(region, map);
  return ok;
}

/** The constant op replacing a query, undefined when `op` is no query, null after an error. */
function queryReplacement(op: Op, profile: TargetProfile, config: ReadonlyMap<string, ConfigValue>, sink: DiagnosticSink): Op | undefined | null {
  const result = op.results[0];
  if (op.name === "target.subgroup.size") {
    if (profile.facts.subgroupSize === 0) {
      sink.report(D.unresolvedTargetQuery, op.span, [`target.subgroup.size (profile '${profile.identifier}' has no fixed subgroup size)`]);
      return null;
    }
    return makeConstant(result!.type as PrimType, BigInt(profile.facts.subgroupSize), result!.name, op.span);
  }
  if (op.name === "config.get") {
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
