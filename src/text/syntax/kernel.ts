/** Syntax of the `kernel` body ops (language.md §4.1). */
import type { Op } from "../../ir/core.js";
import { T } from "../../ir/types.js";
import { D } from "../../core/diag/catalog.js";
import type { Parser } from "../parser.js";
import { Tok } from "../token.js";
import { BARRIER_MEMORY_SPELLINGS, BARRIER_ORDERING_SPELLINGS, BARRIER_SCOPE_SPELLINGS, COMBINING, SHUFFLE_MODES } from "../vocabulary.js";
import { annotationOf, checkOperandCount, dimForm, nullaryForm, parseAnnotation, parseResultAnnotation, parseSingleAnnotation, register } from "./core.js";
import { quoteString } from "../literals.js";

register("kernel.workitem.id kernel.workgroup.id kernel.workgroup.size kernel.workgroup.count kernel.workitem.dispatch.id", dimForm());
register("kernel.subgroup.id kernel.subgroup.size kernel.subgroup.lane.id kernel.subgroup.count", nullaryForm);

register("kernel.return", {
  parse() {
    return [];
  },
  print() {},
});

/** `clause(%a, %b, %c)` with exactly three values. */
function parseTriple(p: Parser, op: Op, clause: string): void {
  p.expectWord(clause);
  p.expect(Tok.LParen, "'('");
  const vs = p.parseValueList();
  p.expect(Tok.RParen, "')'");
  checkOperandCount(p, op, 3, vs.length);
  op.operands = op.operands.length === 0 ? vs : op.operands.concat(vs);
}

/** `kernel.launch.config workgroups(...) workgroup_size(...) (cluster_size(...))? : index` */
register("kernel.launch.config", {
  parse(p, op) {
    parseTriple(p, op, "workgroups");
    parseTriple(p, op, "workgroup_size");
    op.props.cluster = p.atWord("cluster_size");
    if (op.props.cluster) parseTriple(p, op, "cluster_size");
    parseSingleAnnotation(p, op);
    return [];
  },
  print(w, op) {
    const o = op.operands;
    w.text(" workgroups(").values(o.slice(0, 3)).text(") workgroup_size(").values(o.slice(3, 6)).text(")");
    if (op.props.cluster) w.text(" cluster_size(").values(o.slice(6, 9)).text(")");
    w.annotation(annotationOf(op, () => [T.index]));
  },
});

/**
 * `kernel.barrier<workgroup|global> scope(s) ordering(o)`; the reference's
 * `kernel.barrier<m> {ordering = o, scope = s}` is accepted and printed back in the form written
 * (`dictForm`), as the reference's roundtrip tests expect.
 */
register("kernel.barrier", {
  parse(p, op) {
    op.props.memory = p.parseAngleEnum("barrier memory", BARRIER_MEMORY_SPELLINGS);
    if (p.at(Tok.LBrace)) {
      op.props.dictForm = true;
      const attrs = p.parseAttrDict(["ordering", "scope"]);
      for (const a of attrs) {
        const allowed = a.key === "scope" ? BARRIER_SCOPE_SPELLINGS : BARRIER_ORDERING_SPELLINGS;
        if (a.value.kind !== "ident" || !(allowed as readonly string[]).includes(a.value.value)) {
          p.fail(D.unknownEnum, a.valueTok, [a.key, p.textOf(a.valueTok), allowed.join(", ")]);
        }
        op.props[a.key] = a.value.value;
      }
    } else {
      while (p.atWord("scope") || p.atWord("ordering")) {
        const kw = p.next();
        if (op.props[p.textOf(kw)] !== undefined) p.fail(D.duplicateAttribute, kw, [p.textOf(kw)]);
        p.expect(Tok.LParen, "'('");
        op.props[p.textOf(kw)] = p.parseEnum(p.textOf(kw), p.textOf(kw) === "scope" ? BARRIER_SCOPE_SPELLINGS : BARRIER_ORDERING_SPELLINGS);
        p.expect(Tok.RParen, "')'");
      }
    }
    if (op.props.scope === undefined) p.unexpected(p.peek(), "'scope(...)'");
    if (op.props.ordering === undefined) p.unexpected(p.peek(), "'ordering(...)'");
    return [];
  },
  print(w, op) {
    if (op.props.dictForm === true) w.text(`<${op.props.memory}> {ordering = ${op.props.ordering}, scope = ${op.props.scope}}`);
    else w.text(`<${op.props.memory}> scope(${op.props.scope}) ordering(${op.props.ordering})`);
  },
});

/** `%r = kernel.subgroup.reduce<kind> %v ({cluster_size = N})? : T` */
register("kernel.subgroup.reduce", {
  parse(p, op) {
    op.props.kind = p.parseAngleEnum("combining kind", COMBINING);
    op.operands = [p.parseValueUse()];
    if (p.at(Tok.LBrace)) {
      const [a] = p.parseAttrDict(["cluster_size"]);
      if (a) {
        if (a.value.kind !== "int" || a.value.value < 0n || a.value.value > 0xffffffffn) p.unexpected(a.valueTok, "a cluster size");
        op.props.clusterSize = Number(a.value.value);
      }
    }
    return parseResultAnnotation(p, op);
  },
  print(w, op) {
    w.text(`<${op.props.kind}> `).value(op.operands[0]);
    if (op.props.clusterSize !== undefined) w.text(` {cluster_size = ${op.props.clusterSize}}`);
    w.annotation(annotationOf(op, () => [op.operands[0].type]));
  },
});

/** `%r = kernel.workgroup.reduce<kind> %v : T` */
register("kernel.workgroup.reduce", {
  parse(p, op) {
    op.props.kind = p.parseAngleEnum("combining kind", COMBINING);
    op.operands = [p.parseValueUse()];
    return parseResultAnnotation(p, op);
  },
  print(w, op) {
    w.text(`<${op.props.kind}> `).value(op.operands[0]);
    w.annotation(annotationOf(op, () => [op.operands[0].type]));
  },
});

/** `%r = kernel.workgroup.scan<kind> %v ({direction = forward|reverse, mode = inclusive|exclusive})? : T` */
register("kernel.workgroup.scan", {
  parse(p, op) {
    op.props.kind = p.parseAngleEnum("combining kind", COMBINING);
    op.operands = [p.parseValueUse()];
    op.props.direction = "forward";
    op.props.mode = "inclusive";
    if (p.at(Tok.LBrace)) {
      for (const a of p.parseAttrDict(["direction", "mode"])) {
        const word = a.value.kind === "ident" ? a.value.value : "";
        const allowed = a.key === "direction" ? ["forward", "reverse"] : ["inclusive", "exclusive"];
        if (!allowed.includes(word)) p.fail(D.unknownEnum, a.valueTok, [a.key, word || p.textOf(a.valueTok), allowed.join(", ")]);
        if (a.key === "direction") op.props.direction = word as "forward" | "reverse";
        else op.props.mode = word as "inclusive" | "exclusive";
      }
    }
    return parseResultAnnotation(p, op);
  },
  print(w, op) {
    w.text(`<${op.props.kind}> `).value(op.operands[0]).text(` {direction = ${op.props.direction}, mode = ${op.props.mode}}`);
    w.annotation(annotationOf(op, () => [op.operands[0].type]));
  },
});

/** `%r, %valid = kernel.subgroup.shuffle<mode> %v, %off, %width : T, i32, i32` */
register("kernel.subgroup.shuffle", {
  parse(p, op) {
    op.props.mode = p.parseAngleEnum("shuffle mode", SHUFFLE_MODES);
    op.operands = p.parseValueList();
    checkOperandCount(p, op, 3, op.operands.length);
    const types = parseAnnotation(p, op);
    return [types[0]!, T.i1];
  },
  print(w, op) {
    w.text(`<${op.props.mode}> `).values(op.operands);
    w.annotation(annotationOf(op, () => op.operands.map((v) => v.type)));
  },
});

/** `%r = kernel.subgroup.broadcast %v from %lane : T, i32` */
register("kernel.subgroup.broadcast", {
  parse(p, op) {
    const v = p.parseValueUse();
    p.expectWord("from");
    op.operands = [v, p.parseValueUse()];
    const types = parseAnnotation(p, op);
    return [types[0]!];
  },
  print(w, op) {
    w.text(" ").value(op.operands[0]).text(" from ").value(op.operands[1]);
    w.annotation(annotationOf(op, () => op.operands.map((v) => v.type)));
  },
});

/** `kernel.assert %ok ("message")? : i1` */
register("kernel.assert", {
  parse(p, op) {
    op.operands = [p.parseValueUse()];
    if (p.at(Tok.String)) op.props.message = p.textOf(p.next());
    parseSingleAnnotation(p, op);
    return [];
  },
  print(w, op) {
    w.text(" ").value(op.operands[0]);
    if (op.props.message !== undefined) w.text(" " + quoteString(op.props.message));
    w.annotation(annotationOf(op, () => [op.operands[0].type]));
  },
});
