/** Syntax of structured control flow and the value-forwarding terminators (language.md §4.4, §4.8, §4.9). */
import { Op, type Region, type Value } from "../../ir/core.js";
import { T, type Type } from "../../ir/types.js";
import { lookupOp } from "../../dialects/table.js";
import { D } from "../../core/diag/catalog.js";
import type { Parser } from "../parser.js";
import { Tok, type TokenIndex } from "../token.js";
import type { Writer } from "../writer.js";
import { SCHEDULES } from "../vocabulary.js";
import { annotationOf, parseAnnotation, register } from "./core.js";
import { isOp } from "../../dialects/registry.js";
import { NONE } from "../../core/none.js";



/** `op (%v, ... : T, ...)?` — scf.yield, scf.condition, func.return, template.return. */
const forwardForm = {
  parse(p: Parser, op: Op): Type[] {
    // Operands must start on the op's own line: `scf.yield` then `%x = ...` on the next line
    // is an empty terminator followed by another op (ops end at the end of their line).
    if (p.at(Tok.Value) && p.lineOf(p.peek()) === p.lineOf(p.prev())) {
      op.operands = p.parseValueList();
      parseAnnotation(p, op);
    }
    return [];
  },
  print(w: Writer, op: Op): void {
    if (op.operands.length === 0) return;
    w.text(" ").values(op.operands);
    w.annotation(annotationOf(op, () => op.operands.map((v) => v.type)));
  },
};
register("scf.yield scf.condition func.return template.return", forwardForm);

/** Re-creates the empty `scf.yield` an `scf.if`/`scf.for` region may omit (§4.4). */
function ensureYield(p: Parser, region: Region): void {
  const last = region.ops[region.ops.length - 1];
  if (last && isOp(last, "scf.yield") && last.operands.length === 0 && last.comments.length === 0) {
    // The printer omits it: record the layout facts the re-parse will see.
    last.blankBefore = false;
    if (region.ops.length === 1) region.trailingBlank = false;
    return;
  }
  if (last && lookupOp(last.name)?.terminator) return;
  const y = new Op("scf.yield", p.span(p.prev()));
  y.parent = region;
  region.ops.push(y);
}

/** `(%a = %init : T, ...)`: region-argument names, initial values, types (types use the outer scope). */
function parseCarried(p: Parser): { names: TokenIndex[]; inits: Value[]; types: Type[] } {
  const names: TokenIndex[] = [];
  const inits: Value[] = [];
  const types: Type[] = [];
  p.expect(Tok.LParen, "'('");
  if (!p.at(Tok.RParen)) {
    // Each binding has its type (`%a = %x : T, %b = %y : U`), or a group shares one list
    // (`%a = %x, %b = %y : T, U`, as the reference accepts; printed per binding).
    for (;;) {
      names.push(p.expect(Tok.Value, "an SSA name"));
      p.expect(Tok.Equal, "'='");
      inits.push(p.parseValueUse());
      if (p.at(Tok.Comma) && p.kindOf(p.peek(1)) === Tok.Value && p.kindOf(p.peek(2)) === Tok.Equal) {
        p.eat(Tok.Comma);
        continue;
      }
      p.expect(Tok.Colon, "':'");
      types.push(p.parseType());
      while (types.length < names.length) {
        p.expect(Tok.Comma, "','");
        types.push(p.parseType());
      }
      if (!p.eat(Tok.Comma)) break;
    }
  }
  p.expect(Tok.RParen, "')'");
  return { names, inits, types };
}

function printCarried(w: Writer, args: readonly Value[], inits: readonly Value[]): void {
  w.text("(");
  args.forEach((a, i) => {
    if (i > 0) w.text(", ");
    w.value(a).text(" = ").value(inits[i]!).text(" : ").type(a.type);
  });
  w.text(")");
}

function printResultTypes(w: Writer, op: Op): void {
  if (op.results.length > 0) w.text(" -> (").types(op.results.map((r) => r.type)).text(")");
}

/** `(%r, ... =)? scf.if %c (-> (T, ...))? { ... } (else { ... })?` */
register("scf.if", {
  parse(p, op) {
    op.operands = [p.parseValueUse()];
    const types = p.parseOptionalResultTypes() ?? NONE;
    const then = op.addRegion();
    p.parseRegion(then, false);
    ensureYield(p, then);
    if (p.eatWord("else")) {
      const otherwise = op.addRegion();
      p.parseRegion(otherwise, false);
      ensureYield(p, otherwise);
    }
    return types;
  },
  print(w, op) {
    w.text(" ").value(op.operands[0]);
    printResultTypes(w, op);
    w.region(op.regions[0], { omitEmptyTerminator: "scf.yield" });
    if (op.regions[1]) w.text(" else").region(op.regions[1], { omitEmptyTerminator: "scf.yield" });
  },
});

/**
 * `(%r, ... =)? scf.for %iv = [%lo to %hi step %st]((%acc = %init : T, ...))? (-> (T, ...))?
 *  (unroll(%f) | unroll)? (schedule(s))? { ... }`
 */
register("scf.for", {
  parse(p, op) {
    const ivTok = p.expect(Tok.Value, "the induction variable");
    p.expect(Tok.Equal, "'='");
    p.expect(Tok.LBracket, "'['");
    const lo = p.parseValueUse();
    p.expectWord("to");
    const hi = p.parseValueUse();
    p.expectWord("step");
    const step = p.parseValueUse();
    p.expect(Tok.RBracket, "']'");
    const carried = p.at(Tok.LParen) ? parseCarried(p) : { names: [], inits: [], types: [] };
    const types = p.parseOptionalResultTypes() ?? NONE;
    for (;;) {
      const kw = p.peek();
      if (p.atWord("unroll") && op.props.unroll === undefined) {
        p.next();
        if (p.eat(Tok.LParen)) {
          op.props.unroll = p.parseValueUse();
          p.expect(Tok.RParen, "')'");
        } else {
          op.props.unroll = "full";
        }
      } else if (p.atWord("schedule") && op.props.schedule === undefined) {
        p.next();
        p.expect(Tok.LParen, "'('");
        op.props.schedule = p.parseEnum("schedule", SCHEDULES);
        p.expect(Tok.RParen, "')'");
      } else if (p.atWord("unroll")) {
        // A second unroll policy: the reference reports the conflict on the loop (STRUCTURE/014), not as a parse error.
        p.next();
        if (p.eat(Tok.LParen)) {
          p.parseValueUse();
          p.expect(Tok.RParen, "')'");
        }
        // The verifier reports the conflict (STRUCTURE/014) on the loop, as the reference does; the first policy stays.
        op.props.unrollConflict = true;
      } else if (p.kindOf(kw) === Tok.Ident && p.textOf(kw) !== "schedule") {
        p.fail(D.unknownModifier, kw, ["clause", p.textOf(kw)]);
      } else {
        break;
      }
    }
    op.operands = [lo, hi, step, ...carried.inits];
    const body = op.addRegion();
    p.parseRegion(body, false, () => {
      p.defineArg(body, ivTok, lo.type.kind === "prim" && lo.type.name === "offset" ? T.offset : T.index);
      carried.names.forEach((n, i) => p.defineArg(body, n, carried.types[i]!));
    });
    ensureYield(p, body);
    return types;
  },
  print(w, op) {
    const [lo, hi, step, ...inits] = op.operands;
    const body = op.regions[0];
    const [iv, ...accs] = body.args;
    w.text(" ").value(iv!).text(" = [").value(lo).text(" to ").value(hi).text(" step ").value(step).text("]");
    if (accs.length > 0) printCarried(w, accs, inits);
    printResultTypes(w, op);
    const unroll = op.props.unroll;
    if (unroll === "full") w.text(" unroll");
    else if (unroll !== undefined) w.text(" unroll(").value(unroll).text(")");
    if (op.props.schedule !== undefined) w.text(` schedule(${op.props.schedule})`);
    w.region(body, { omitEmptyTerminator: "scf.yield" });
  },
});

/** `(%r, ... =)? scf.while((%b = %init : T, ...))? (-> (T, ...))? { ... } do((%x: T, ...))? { ... }` */
register("scf.while", {
  parse(p, op) {
    const carried = p.at(Tok.LParen) ? parseCarried(p) : { names: [], inits: [], types: [] };
    op.operands = carried.inits;
    const types = p.parseOptionalResultTypes() ?? NONE;
    const before = op.addRegion();
    p.parseRegion(before, false, () => carried.names.forEach((n, i) => p.defineArg(before, n, carried.types[i]!)));
    p.expectWord("do");
    const doNames: TokenIndex[] = [];
    const doTypes: Type[] = [];
    op.props.hasDoArgs = p.at(Tok.LParen);
    if (p.eat(Tok.LParen)) {
      if (!p.at(Tok.RParen)) {
        for (;;) {
          doNames.push(p.expect(Tok.Value, "an argument name"));
          p.expect(Tok.Colon, "':'");
          doTypes.push(p.parseType());
          if (!p.eat(Tok.Comma)) break;
        }
      }
      p.expect(Tok.RParen, "')'");
    }
    const after = op.addRegion();
    p.parseRegion(after, false, () => doNames.forEach((n, i) => p.defineArg(after, n, doTypes[i]!)));
    return types;
  },
  print(w, op) {
    const [before, after] = op.regions;
    if (op.operands.length > 0) printCarried(w, before.args, op.operands);
    printResultTypes(w, op);
    w.region(before);
    w.text(" do");
    if (op.props.hasDoArgs || after.args.length > 0) w.signature(after.args);
    w.region(after);
  },
});
