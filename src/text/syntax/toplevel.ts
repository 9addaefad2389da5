/**
 * Syntax of the top-level symbol ops (language.md §2, §4.1, §4.8–§4.11).
 *
 * Modifier words and clauses before the `@symbol` are accepted in any order (each once) and
 * printed in grammar order. Signatures become region args (definitions: the body's args;
 * declarations: op-less signature regions), parsed in isolated scopes so `[%n]` dimensions and
 * `where` predicates see the signature's own arguments.
 */
import type { Literal, Op, Predicate, Prop, Region } from "../../ir/core.js";
import type { Type } from "../../ir/types.js";
import { D } from "../../core/diag/catalog.js";
import type { Parser } from "../parser.js";
import { Tok } from "../token.js";
import type { Writer } from "../writer.js";
import { quoteString } from "../literals.js";
import { FUNC_MODIFIER_GROUPS } from "../vocabulary.js";
import { recordAttrs, targetRecordSpec } from "../../core/target-records.js";
import type { TargetRecordSpec } from "../../core/target.js";
import { register, type OpSyntax } from "./core.js";
import { parseContractKey, renameLegacyReturns } from "./legacy.js";
import { isOp, propOf } from "../../dialects/registry.js";

// ---------------------------------------------------------------- header clauses

interface HeaderSpec {
  /** Modifier word groups (mutually exclusive inside a group), in grammar order. */
  groups: readonly (readonly string[])[];
  target?: boolean;
  exportName?: boolean;
  requires?: boolean;
  priority?: boolean;
}

/** Modifiers and clauses up to the `@symbol`, stored into `op.props`. */
function parseHeader(p: Parser, op: Op, spec: HeaderSpec): void {
  const chosen = new Map<number, string>();
  const seen = new Set<string>();
  for (;;) {
    const t = p.peek();
    if (p.kindOf(t) !== Tok.Ident) break;
    const clause = (name: string, enabled: boolean | undefined) => {
      if (p.textOf(t) !== name) return false;
      if (!enabled || seen.has(name)) p.fail(D.unknownModifier, t, ["clause", name]);
      seen.add(name);
      p.next();
      return true;
    };
    if (clause("target", spec.target)) {
      p.expect(Tok.LParen, "'('");
      op.props.target = p.parseSymbolName("a target record");
      p.expect(Tok.RParen, "')'");
    } else if (clause("export", spec.exportName)) {
      p.expect(Tok.LParen, "'('");
      op.props.exportName = p.expectText(Tok.String, "an export name string");
      p.expect(Tok.RParen, "')'");
    } else if (clause("requires", spec.requires)) {
      op.props.requires = parseRequires(p);
    } else if (clause("priority", spec.priority)) {
      p.expect(Tok.LParen, "'('");
      op.props.priority = p.parseSmallInt("a priority");
      p.expect(Tok.RParen, "')'");
    } else {
      const g = spec.groups.findIndex((grp) => grp.includes(p.textOf(t)));
      if (g < 0 || chosen.has(g)) p.fail(D.unknownModifier, t, ["modifier", p.textOf(t)]);
      chosen.set(g, p.textOf(t));
      p.next();
    }
  }
  const modifiers = [...chosen.keys()].sort((a, b) => a - b).map((g) => chosen.get(g)!);
  if (isOp(op, "kernel.def") || isOp(op, "kernel.decl")) op.props.retain = modifiers.includes("retain");
  else op.props.modifiers = modifiers;
}

/** `[#target.subgroup.size<N>, ...]` — stored as ident literals `target.subgroup.size<N>`. */
function parseRequires(p: Parser): Literal[] {
  p.expect(Tok.LBracket, "'['");
  const out: Literal[] = [];
  if (!p.at(Tok.RBracket)) {
    for (;;) {
      const h = p.expect(Tok.Hash, "a requirement attribute");
      if (p.textOf(h) !== "target.subgroup.size") p.fail(D.unknownModifier, h, ["requirement", `#${p.textOf(h)}`]);
      p.expect(Tok.Less, "'<'");
      const n = p.parseSmallInt("a subgroup size");
      p.expect(Tok.Greater, "'>'");
      out.push({ kind: "ident", value: `${p.textOf(h)}<${n}>` });
      if (!p.eat(Tok.Comma)) break;
    }
  }
  p.expect(Tok.RBracket, "']'");
  return out;
}

function printHeader(w: Writer, op: Op): void {
  if (op.props.retain === true) w.text(" retain");
  for (const m of propOf(op, "modifiers") ?? []) w.text(" " + m);
  const target = propOf(op, "target");
  if (target !== undefined) w.text(` target(@${target})`);
  const exportName = propOf(op, "exportName");
  if (exportName !== undefined) w.text(` export(${quoteString(exportName)})`);
  const req = propOf(op, "requires");
  if (req) w.text(" requires [" + req.map((r) => `#${String(r.value)}`).join(", ") + "]");
  const priority = propOf(op, "priority");
  if (priority !== undefined) w.text(` priority(${priority})`);
  w.text(` @${op.symbol ?? ""}`);
}

function printWhere(w: Writer, preds: readonly Predicate[] | undefined): void {
  if (preds) w.text(" where ").predicates(preds);
}

function printResults(w: Writer, op: Op): void {
  const rs = propOf(op, "resultTypes");
  if (rs && rs.length > 0) w.text(" -> (").types(rs).text(")");
}

/**
 * `(args) (-> (T, ...))? (where [...])?` in a fresh isolated scope for `region`, then the body
 * `{ ... }` when `body` is set.
 */
function parseSignaturePart(p: Parser, op: Op, region: Region, options: { results?: boolean; whereKey?: string; body?: boolean }): void {
  p.withScope(region, true, () => {
    p.parseSignature(region);
    if (options.results) op.props.resultTypes = p.parseOptionalResultTypes() ?? [];
    if (options.whereKey && p.eatWord("where")) op.props[options.whereKey] = p.parsePredicates();
    if (options.body) {
      p.expect(Tok.LBrace, "'{'");
      p.parseRegionBody(region);
    }
  });
  if (options.body) p.expect(Tok.RBrace, "'}'");
}

// ---------------------------------------------------------------- kernel

const KERNEL_HEADER: HeaderSpec = { groups: [["retain"]], target: true, exportName: true };

/** `kernel.def (retain)? (target(@T))? (export("n"))? @k(...) (where [...])? { ... } launch(...) (where [...])? { ... }` */
register("kernel.def", {
  parse(p, op) {
    parseHeader(p, op, KERNEL_HEADER);
    op.props.symbol = p.parseSymbolName();
    const config = op.addRegion();
    const body = op.addRegion();
    parseSignaturePart(p, op, config, { whereKey: "workloadWhere", body: true });
    p.expectWord("launch");
    parseSignaturePart(p, op, body, { whereKey: "launchWhere", body: true });
    return [];
  },
  print(w, op) {
    const [config, body] = op.regions;
    printHeader(w, op);
    w.signature(config.args);
    printWhere(w, op.props.workloadWhere);
    w.region(config);
    w.text(" launch").signature(body.args);
    printWhere(w, op.props.launchWhere);
    w.region(body);
  },
});

/** `kernel.decl (retain)? (target(@T))? (export("n"))? @k(...) (where [...])? launch(...) (where [...])?` */
register("kernel.decl", {
  parse(p, op) {
    parseHeader(p, op, KERNEL_HEADER);
    op.props.symbol = p.parseSymbolName();
    const workload = op.addRegion();
    const launch = op.addRegion();
    parseSignaturePart(p, op, workload, { whereKey: "workloadWhere" });
    p.expectWord("launch");
    parseSignaturePart(p, op, launch, { whereKey: "launchWhere" });
    return [];
  },
  print(w, op) {
    const [workload, launch] = op.regions;
    printHeader(w, op);
    w.signature(workload.args);
    printWhere(w, op.props.workloadWhere);
    w.text(" launch").signature(launch.args);
    printWhere(w, op.props.launchWhere);
  },
});

// ---------------------------------------------------------------- func and template

const FUNC_HEADER: HeaderSpec = { groups: FUNC_MODIFIER_GROUPS, target: true };
const TEMPLATE_DECL_HEADER: HeaderSpec = { groups: [["public"], ["retain"], ["host", "device"], ["pure"], ["hot", "cold"]], target: true, requires: true };
const TEMPLATE_DEF_HEADER: HeaderSpec = { ...TEMPLATE_DECL_HEADER, priority: true };

function callableSyntax(header: HeaderSpec, body: boolean, family: boolean) {
  return {
    parse(p: Parser, op: Op): Type[] {
      if (family) {
        p.expect(Tok.Less, "'<'");
        op.props.family = p.parseSymbolName("the template family");
        p.expect(Tok.Greater, "'>'");
      }
      parseHeader(p, op, header);
      op.props.symbol = p.parseSymbolName();
      const region = op.addRegion();
      // A function may be a host program (tensor arguments, kernel launches), as in the reference; a template is device code.
      const host = !family && op.name.startsWith("func.");
      if (host) p.hostValueDepth++;
      try {
        parseSignaturePart(p, op, region, { results: true, whereKey: "where", body });
      } finally {
        if (host) p.hostValueDepth--;
      }
      return [];
    },
    print(w: Writer, op: Op): void {
      if (family) w.text(op.props.legacySpelling === true ? `<${op.props.family}>` : `<@${op.props.family}>`);
      printHeader(w, op);
      const region = op.regions[0]!;
      w.signature(region.args);
      printResults(w, op);
      printWhere(w, propOf(op, "where"));
      if (body) w.region(region);
    },
  };
}

register("func.def", callableSyntax(FUNC_HEADER, true, false));
register("func.decl", callableSyntax(FUNC_HEADER, false, false));
register("template.decl", callableSyntax(TEMPLATE_DECL_HEADER, false, false));
register("template.def", callableSyntax(TEMPLATE_DEF_HEADER, true, true));

/**
 * Legacy `func.template<key> (modifiers)? (target(@T))? (priority(N))? (requires [...])? @impl(...)
 * (-> (...))? (where [...])? { ... func.return ... }`, built as a `template.def` (legacy.ts).
 * `inline`/`noinline` are read and dropped: every provider is inlined at its application.
 */
const LEGACY_TEMPLATE_HEADER: HeaderSpec = { ...TEMPLATE_DEF_HEADER, groups: [...TEMPLATE_DEF_HEADER.groups, ["inline", "noinline"]] };
const templateDefSyntax = callableSyntax(TEMPLATE_DEF_HEADER, true, true);
register("func.template", {
  parse(p: Parser, op: Op): Type[] {
    parseContractKey(p, op);
    parseHeader(p, op, LEGACY_TEMPLATE_HEADER);
    op.props.modifiers = (propOf(op, "modifiers") ?? []).filter((m) => m !== "inline" && m !== "noinline");
    op.props.symbol = p.parseSymbolName();
    const region = op.addRegion();
    parseSignaturePart(p, op, region, { results: true, whereKey: "where", body: true });
    renameLegacyReturns(region);
    return [];
  },
  print: templateDefSyntax.print,
});

// ---------------------------------------------------------------- config

/** `config.decl @key : T` or `config.decl @key : %value: T (where [...])?` */
register("config.decl", {
  parse(p, op) {
    op.props.symbol = p.parseSymbolName("a config key");
    p.expect(Tok.Colon, "':'");
    if (p.at(Tok.Value)) {
      const region = op.addRegion();
      p.withScope(region, true, () => {
        const name = p.next();
        p.expect(Tok.Colon, "':'");
        const type = p.parseType();
        op.props.type = type;
        p.defineArg(region, name, type);
        if (p.eatWord("where")) op.props.where = p.parsePredicates();
      });
    } else {
      op.props.type = p.parseType();
    }
    return [];
  },
  print(w, op) {
    w.text(` @${op.props.symbol} : `);
    const region = op.regions[0];
    if (region && region.args[0]) w.text(`%${region.args[0].name}: `);
    w.type(op.props.type);
    printWhere(w, op.props.where);
  },
});

/** `config.def @key = <literal> : T` */
register("config.def", {
  parse(p, op) {
    op.props.symbol = p.parseSymbolName("a config key");
    p.expect(Tok.Equal, "'='");
    op.props.value = p.parseConstantLiteral();
    p.expect(Tok.Colon, "':'");
    op.props.type = p.parseType();
    return [];
  },
  print(w, op) {
    w.text(` @${op.props.symbol} = `).literal(op.props.value).text(" : ").type(op.props.type);
  },
});

// ---------------------------------------------------------------- targets and imports

/**
 * `<env>.target<param> @t {key = value, ...}`, as the record's package declares it
 * (core/target.ts `TargetRecordSpec`): the parameter is one of the spec's values, each key
 * one of its attributes (integers, or identifiers from the attribute's list). Attributes are
 * kept and printed in the spec's order.
 */
function targetRecordSyntax(spec: TargetRecordSpec): OpSyntax {
  const keys = spec.attributes.map((a) => a.key);
  const rank = new Map(keys.map((k, i) => [k, i]));
  const sortAttrs = <A extends { key: string }>(attrs: readonly A[]): A[] => [...attrs].sort((a, b) => (rank.get(a.key) ?? -1) - (rank.get(b.key) ?? -1));
  return {
    parse(p: Parser, op: Op): Type[] {
      op.props[spec.param.key] = p.parseAngleEnum(spec.param.what, spec.param.values);
      op.props.symbol = p.parseSymbolName();
      const attrs: { key: string; value: Literal }[] = [];
      if (p.at(Tok.LBrace)) {
        for (const a of p.parseAttrDict(keys)) {
          const allowed = spec.attributes[rank.get(a.key) ?? -1]?.values;
          if (allowed) {
            if (a.value.kind !== "ident" || !allowed.includes(a.value.value)) p.fail(D.unknownEnum, a.valueTok, [a.key, p.textOf(a.valueTok) || "value", allowed.join(", ")]);
          } else if (a.value.kind !== "int") {
            p.unexpected(a.valueTok, "an integer");
          }
          attrs.push({ key: a.key, value: a.value });
        }
      }
      // Stored in canonical order, so the IR is the same as that of the printed text (the
      // bytecode writer and reader insist on that).
      op.props.attrs = sortAttrs(attrs);
      return [];
    },
    print(w: Writer, op: Op): void {
      w.text(`<${String(op.props[spec.param.key])}> @${op.symbol ?? ""}`);
      const attrs = sortAttrs(recordAttrs(op.props.attrs));
      if (attrs.length === 0) return;
      w.text(" {");
      attrs.forEach((a, i) => {
        if (i > 0) w.text(", ");
        w.text(`${a.key} = `).literal(a.value);
      });
      w.text("}");
    },
  };
}

const recordSyntaxes = new WeakMap<TargetRecordSpec, OpSyntax>();

/** The syntax of a registered target-record op, or undefined when `name` is not one. */
export function targetRecordSyntaxOf(name: string): OpSyntax | undefined {
  const spec = targetRecordSpec(name);
  if (!spec) return undefined;
  let syntax = recordSyntaxes.get(spec);
  if (!syntax) {
    syntax = targetRecordSyntax(spec);
    recordSyntaxes.set(spec, syntax);
  }
  return syntax;
}

/** `target.decl @t` */
register("target.decl", {
  parse(p, op) {
    op.props.symbol = p.parseSymbolName();
    return [];
  },
  print(w, op) {
    w.text(` @${op.props.symbol}`);
  },
});

/** `module.import "provider-key" [@sym, ...]` */
register("module.import", {
  parse(p, op) {
    op.props.key = p.expectText(Tok.String, "a provider key string");
    p.expect(Tok.LBracket, "'['");
    const symbols: string[] = [];
    if (!p.at(Tok.RBracket)) {
      symbols.push(p.parseSymbolName());
      while (p.eat(Tok.Comma)) symbols.push(p.parseSymbolName());
    }
    p.expect(Tok.RBracket, "']'");
    op.props.symbols = symbols;
    return [];
  },
  print(w, op) {
    w.text(` ${quoteString(op.props.key)} [` + (op.props.symbols).map((s) => "@" + s).join(", ") + "]");
  },
});
