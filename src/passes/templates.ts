/**
 * Template provider selection (language.md §4.9). For one `template.apply<@fam>` in a kernel
 * being specialized for one profile, the candidates are the module's `template.def<@fam>`
 * providers (linking has already added the libraries' ones); a candidate survives when
 *  1. its argument and result types are exactly the apply's (dynamic dimensions bound to
 *     the apply operands),
 *  2. its `target(@T)` record is compatible with the profile,
 *  3. each `where` predicate, with the provider's arguments replaced by the apply operands,
 *     is proven at the apply site (`proveAt` below: constants, assumes, path conditions,
 *     the kernel's launch contract),
 *  4. each `requires` attribute is proven by the profile's facts (v1:
 *     `#target.subgroup.size<N>` holds when the profile's fixed subgroup size is N);
 * and the highest `priority` (absent = 0) wins. This is final compilation, so an unknown
 * predicate counts as unproven. No survivor, or two at the top → LOWERING/901 listing
 * every candidate with the reason it lost.
 */
import type { ValueMap } from "../ir/clone.js";
import { remapType } from "../ir/clone.js";
import type { Literal, Module, Op, Predicate } from "../ir/core.js";
import { typeEquals } from "../ir/types.js";
import { D, note, type DiagnosticSink } from "../core/diag/diagnostic.js";
import type { TargetProfile } from "../core/target.js";
import { targetRecordSpec } from "../core/target-records.js";
import { predicateText } from "./verify/config.js";
import { evaluatePredicate } from "./verify/config.js";
import { constantValue } from "../ir/build.js";
import type { Region, Value } from "../ir/core.js";
import { isOp, propOf } from "../dialects/registry.js";

/**
 * Whether a `target(@T)` record admits code for `profile` (true for `target.decl`, bound by
 * the embedding): a record of the profile's environment whose package says its parameter
 * covers the profile's device.
 */
export function targetRecordAdmits(record: Op | undefined, profile: TargetProfile): boolean {
  if (!record || isOp(record, "target.decl")) return true;
  const spec = targetRecordSpec(record.name);
  if (!spec || spec.environment !== profile.environment) return false;
  return spec.admits(String(record.props[spec.param.key] ?? ""), profile);
}

/** The subgroup size a `requires` attribute asks for, or undefined for an attribute v1 cannot prove. */
function requiredSubgroupSize(attr: Literal): number | undefined {
  const m = /^#?target\.subgroup\.size<(\d+)>$/.exec(String(attr.value));
  return m ? Number(m[1]) : undefined;
}

/** Why `provider` cannot serve `apply` for `profile`, or undefined when it can. */
function rejection(module: Module, apply: Op, provider: Op, profile: TargetProfile): string | undefined {
  const params = provider.regions[0]?.args ?? [];
  if (params.length !== apply.operands.length) return `takes ${params.length} argument(s), the apply passes ${apply.operands.length}`;
  const map: ValueMap = new Map();
  params.forEach((p, i) => map.set(p, apply.operands[i]!));
  for (let i = 0; i < params.length; i++) {
    if (!typeEquals(remapType(params[i]!.type, map), apply.operands[i]!.type)) return `argument ${i} type differs from the apply's`;
  }
  const results = propOf(provider, "resultTypes") ?? [];
  if (results.length !== apply.results.length || results.some((t, i) => !typeEquals(remapType(t, map), apply.results[i]!.type))) return "result types differ from the apply's";

  const target = typeof provider.props.target === "string" ? provider.props.target : undefined;
  if (target !== undefined) {
    const record = module.symbolTable().get(target);
    if (!targetRecordAdmits(record, profile)) return `target(@${target}) does not admit profile '${profile.identifier}' (${profile.environment} ${profile.target})`;
  }

  const preds = propOf(provider, "where") ?? [];
  for (const p of preds) {
    const bound: Predicate = { kind: p.kind, args: p.args.map((a) => (typeof a === "bigint" ? a : (map.get(a) ?? a))) };
    const proven = proveAt(apply, bound);
    if (proven !== true) return `where ${predicateText(p)} is ${proven === false ? "false" : "not proven"} at the apply`;
  }

  const requires = propOf(provider, "requires") ?? [];
  for (const attr of requires) {
    const size = requiredSubgroupSize(attr);
    const text = `#${String(attr.value).replace(/^#/, "")}`;
    if (size === undefined) return `requires ${text}, which v1 cannot prove`;
    if (profile.facts.subgroupSize !== size) {
      const has = profile.facts.subgroupSize === 0 ? "no fixed subgroup size" : `subgroup size ${profile.facts.subgroupSize}`;
      return `requires ${text}, profile '${profile.identifier}' has ${has}`;
    }
  }
  return undefined;
}

function priorityOf(provider: Op): number {
  const p = provider.props.priority;
  return typeof p === "number" ? p : typeof p === "bigint" ? Number(p) : 0;
}

/**
 * The provider that `apply` inlines for `profile`, or undefined after reporting
 * LOWERING/901 into `sink`.
 */
export function selectProvider(module: Module, apply: Op, profile: TargetProfile, sink: DiagnosticSink): Op | undefined {
  const family = String(apply.props.family ?? "?");
  const providers = module.ops.filter((op) => isOp(op, "template.def") && op.props.family === family);
  const fits: Op[] = [];
  const reasons: string[] = [];
  for (const p of providers) {
    const why = rejection(module, apply, p, profile);
    if (why === undefined) fits.push(p);
    else reasons.push(`@${p.symbol}: ${why}`);
  }
  const best = Math.max(...fits.map(priorityOf));
  const top = fits.filter((p) => priorityOf(p) === best);
  if (top.length === 1) return top[0];
  const related = providers.map((p) => note(`candidate '@${p.symbol}' (priority ${priorityOf(p)})`, p.span));
  if (top.length === 0) {
    const list = providers.length === 0 ? "the family has no providers (link a library that defines some?)" : `candidates: ${reasons.join("; ")}`;
    sink.report(D.noProvider, apply.span, [family, `no provider fits profile '${profile.identifier}'; ${list}`], { related });
  } else {
    sink.report(D.noProvider, apply.span, [family, `providers ${top.map((p) => `@${p.symbol}`).join(", ")} tie at priority ${best} for profile '${profile.identifier}'`], {
      help: "give one provider a higher priority(N), or narrow its where/requires",
      related,
    });
  }
  return undefined;
}

// ---------------------------------------------------------------------------------------
// Proving a predicate at an op (language.md §5 "Derived facts", the feasible part):
// constants decide it outright; otherwise it must follow from a fact that holds there —
// an `assume` on an argument, a dominating `scf.if` condition (`index.cmp`/`scalar.cmpi`,
// signed or eq/ne, through `scalar.andi` in the then-branch), or the kernel's
// `launch(...) where [...]`. A fact proves a predicate when it is the same relation, or
// when both bound the same value by constants and the fact's interval lies inside.

type Arg = Value | bigint;
interface Fact {
  readonly kind: string;
  readonly args: readonly Arg[];
}

function constantOf(v: Value): bigint | number | boolean | undefined {
  const owner = v.owner as Op | Region;
  return "results" in owner ? constantValue(owner) : undefined;
}

function asInt(a: Arg): bigint | undefined {
  if (typeof a === "bigint") return a;
  const c = constantOf(a);
  return typeof c === "bigint" ? c : typeof c === "boolean" ? (c ? 1n : 0n) : undefined;
}

const SIGNED: Readonly<Record<string, string>> = { eq: "eq", ne: "ne", slt: "lt", sle: "le", sgt: "gt", sge: "ge" };
const NEGATED: Readonly<Record<string, string>> = { eq: "ne", ne: "eq", lt: "ge", le: "gt", gt: "le", ge: "lt" };

/** Facts a branch condition gives inside the branch (`holds` false: the else branch). */
function conditionFacts(cond: Value, holds: boolean, out: Fact[]): void {
  const op = cond.owner as Op | Region;
  if (!("results" in op)) return;
  if ((isOp(op, "index.cmp") || isOp(op, "scalar.cmpi")) && op.operands.length === 2) {
    const kind = SIGNED[String(op.props.predicate)];
    if (kind) out.push({ kind: holds ? kind : NEGATED[kind]!, args: op.operands });
  } else if (isOp(op, "scalar.andi") && holds) {
    for (const v of op.operands) conditionFacts(v, true, out);
  }
}

/** Every fact that holds at `site`, for the values `mentioned`. */
function factsAt(site: Op, mentioned: readonly Arg[]): Fact[] {
  const out: Fact[] = [];
  for (const a of mentioned) {
    if (typeof a === "bigint") continue;
    const owner = a.owner as Op | Region;
    if (!("results" in owner) || (!isOp(owner, "index.assume") && !isOp(owner, "scalar.assume"))) continue;
    const i = owner.results.indexOf(a);
    const operand = owner.operands[i];
    for (const p of propOf(owner, "predicates") ?? []) {
      // The author's promise is about the operand; it holds for the result.
      out.push({ kind: p.kind, args: p.args.map((x) => (x === operand ? a : x)) });
    }
  }
  let region = site.parent;
  while (region?.parent) {
    const holder = region.parent;
    if (isOp(holder, "scf.if") && holder.operands[0]) conditionFacts(holder.operands[0], holder.regions[0] === region, out);
    if (isOp(holder, "kernel.def") && holder.regions[1] === region) out.push(...(propOf(holder, "launchWhere") ?? []));
    region = holder.parent;
  }
  return out;
}

/** `[lo, hi]` bounds a relation puts on `x` when the other side is a constant. */
function bounds(f: Fact, x: Value): { lo?: bigint; hi?: bigint } | undefined {
  const [a, b, c] = f.args;
  if (f.kind === "range" && a === x) {
    const lo = b === undefined ? undefined : asInt(b), hi = c === undefined ? undefined : asInt(c);
    return lo !== undefined && hi !== undefined ? { lo, hi } : undefined;
  }
  if (a === undefined || b === undefined) return undefined;
  const flip: Readonly<Record<string, string>> = { lt: "gt", le: "ge", gt: "lt", ge: "le", eq: "eq", min: "le", max: "ge" };
  let kind = f.kind, k: bigint | undefined;
  if (a === x) k = asInt(b);
  else if (b === x && f.kind !== "min" && f.kind !== "max") {
    k = asInt(a);
    kind = flip[kind] ?? "";
  }
  if (k === undefined) return undefined;
  switch (kind) {
    case "eq": return { lo: k, hi: k };
    case "ge": case "min": return { lo: k };
    case "gt": return { lo: k + 1n };
    case "le": case "max": return { hi: k };
    case "lt": return { hi: k - 1n };
    default: return undefined;
  }
}

function sameArgs(a: readonly Arg[], b: readonly Arg[]): boolean {
  return a.length === b.length && a.every((x, i) => x === b[i] || (asInt(x) !== undefined && asInt(x) === asInt(b[i]!)));
}

function implies(fact: Fact, p: Fact, facts: readonly Fact[]): boolean {
  if (fact.kind === p.kind && sameArgs(fact.args, p.args)) return true;
  const mirror: Readonly<Record<string, string>> = { lt: "gt", gt: "lt", le: "ge", ge: "le", eq: "eq", ne: "ne" };
  if (mirror[p.kind] === fact.kind && p.args.length === 2 && sameArgs(fact.args, [p.args[1]!, p.args[0]!])) return true;
  if (p.kind === "mul" && fact.kind === "mul" && fact.args[0] === p.args[0]) {
    const n = asInt(fact.args[1] ?? 0n), m = asInt(p.args[1] ?? 0n);
    return n !== undefined && m !== undefined && m > 0n && n % m === 0n;
  }
  // An interval: intersect every fact's bounds on the value and compare.
  const x = p.args.find((a): a is Value => typeof a !== "bigint" && asInt(a) === undefined);
  if (!x) return false;
  const need = bounds(p, x);
  if (!need) return false;
  let lo: bigint | undefined, hi: bigint | undefined;
  for (const f of facts) {
    const b = bounds(f, x);
    if (b?.lo !== undefined && (lo === undefined || b.lo > lo)) lo = b.lo;
    if (b?.hi !== undefined && (hi === undefined || b.hi < hi)) hi = b.hi;
  }
  return (need.lo === undefined || (lo !== undefined && lo >= need.lo)) && (need.hi === undefined || (hi !== undefined && hi <= need.hi));
}

/** true: proven at `site`; false: provably false; undefined: not known. */
export function proveAt(site: Op, p: Predicate): boolean | undefined {
  const decided = evaluatePredicate(p, constantOf);
  if (decided !== undefined) return decided;
  const facts = factsAt(site, p.args);
  return facts.some((f) => implies(f, p, facts)) ? true : undefined;
}
