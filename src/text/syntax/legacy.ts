/**
 * Legacy spellings the reference Loom still reads (language.md "Compatibility"):
 * `func.template<key> … @impl(…) { … func.return … }` is a `template.def<@key>` and
 * `func.apply<key>(…)` a `template.apply<@key>(…)`. The parser builds the canonical ops, so
 * verification, linking and compilation see only one form and `loom fmt` prints the canonical
 * spelling. A module that uses a family without declaring it gets the `template.decl` the
 * reference does not need (its providers are matched by key alone).
 */
import type { Module, Op, Region } from "../../ir/core.js";
import { Op as IrOp } from "../../ir/core.js";
import type { Type } from "../../ir/types.js";
import type { Parser } from "../parser.js";
import { Tok } from "../token.js";
import { isOp, propOf } from "../../dialects/registry.js";

/** Legacy op name → the canonical op the parser builds for it. */
const LEGACY_OP_NAMES: ReadonlyMap<string, string> = new Map([
  ["func.template", "template.def"],
  ["func.apply", "template.apply"],
]);

/** Canonical op name → the legacy spelling it prints as when built from one (`legacySpelling`). */
export const LEGACY_SPELLINGS: ReadonlyMap<string, string> = new Map([
  ["template.def", "func.template"],
  ["template.apply", "func.apply"],
  ["template.return", "func.return"],
]);

/** The canonical op name for a legacy spelling, or undefined when `name` is not one. */
export function canonicalOpName(name: string): string | undefined {
  // Called for every parsed op: only `func.*` names can be legacy.
  return name.startsWith("func.") ? LEGACY_OP_NAMES.get(name) : undefined;
}

/**
 * `<key>` of a legacy op: a bare (possibly dotted) contract key such as `tile.contract`; the
 * canonical `@key` is accepted too. Stored as the family symbol.
 */
export function parseContractKey(p: Parser, op: Op): void {
  p.expect(Tok.Less, "'<'");
  const t = p.peek();
  if (p.kindOf(t) === Tok.Ident || p.kindOf(t) === Tok.OpName || p.kindOf(t) === Tok.Symbol) {
    p.next();
    op.props.family = p.textOf(t);
  } else {
    p.unexpected(t, "a contract key (e.g. 'tile.contract')");
  }
  p.expect(Tok.Greater, "'>'");
  p.legacyOps.add(op);
  // Printed back in the spelling written, as the reference's printer does (LEGACY_SPELLINGS).
  op.props.legacySpelling = true;
}

/** A legacy provider body ends in `func.return`; the canonical one in `template.return`. */
export function renameLegacyReturns(region: Region): void {
  for (const op of region.ops) {
    if (op.name !== "func.return") continue;
    op.name = "template.return";
    op.props.legacySpelling = true;
  }
}

/**
 * Adds, before the first legacy use, a `template.decl` for every family that legacy ops of
 * `module` use and no `template.decl` of `module` declares. Its signature is the first
 * provider's (or, with no provider here, the first `func.apply`'s annotation); the verifier
 * then checks every other provider and application against it, as for canonical text.
 */
export function declareLegacyFamilies(module: Module, legacyOps: ReadonlySet<Op>): void {
  // Most modules use no legacy spelling: nothing to walk.
  if (legacyOps.size === 0) return;
  const declared = new Set<string>();
  for (const op of module.ops) if (isOp(op, "template.decl") && op.symbol) declared.add(op.symbol);
  const firstUse = new Map<string, { index: number; source: Op }>();
  module.ops.forEach((top, index) => {
    visit(top, (op) => {
      if (!legacyOps.has(op)) return;
      if (op.name !== "template.def" && op.name !== "template.apply") return;
      const family = propOf(op, "family");
      if (typeof family !== "string" || declared.has(family)) return;
      const seen = firstUse.get(family);
      // A provider's signature is preferred to an application's annotation.
      if (!seen) firstUse.set(family, { index, source: op });
      else if (seen.source.name === "template.apply" && op.name === "template.def") firstUse.set(family, { index: seen.index, source: op });
    });
  });
  const inserts = [...firstUse.entries()].sort((a, b) => b[1].index - a[1].index);
  for (const [family, { index, source }] of inserts) module.ops.splice(index, 0, familyDecl(family, source));
}

function familyDecl(family: string, source: Op): Op {
  const decl = new IrOp("template.decl", source.span);
  decl.props.symbol = family;
  // The family's contract words (public, host|device, pure, hot|cold); `retain` stays per provider.
  decl.props.modifiers = (propOf(source, "modifiers") ?? []).filter((m) => m !== "retain");
  const region = decl.addRegion();
  if (isOp(source, "template.def")) {
    const body = source.regions[0];
    for (const a of body.args) region.addArg(a.name, a.type, a.span);
    decl.props.resultTypes = [...(propOf(source, "resultTypes") ?? [])];
  } else {
    const argTypes = source.operands.map((v) => v.type);
    argTypes.forEach((t: Type, i) => region.addArg(`arg${i}`, t));
    decl.props.resultTypes = source.results.map((r) => r.type);
  }
  decl.blankBefore = true;
  // Not in the source: `loom fmt` leaves it out, so a legacy file prints as written.
  decl.props.implicit = true;
  return decl;
}

function visit(op: Op, fn: (op: Op) => void): void {
  fn(op);
  for (const r of op.regions) for (const o of r.ops) visit(o, fn);
}
