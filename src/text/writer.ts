/**
 * The canonical printer's line writer (language.md §9): ops, regions, comments and blank
 * lines. Op-specific text comes from each op's `OpSyntax.print`.
 */
import type { Literal, Op, Predicate, Region, Value } from "../ir/core.js";
import { typeToString, type Type } from "../ir/types.js";
import { formatLiteral } from "./literals.js";
import { syntaxOf } from "./syntax/registry.js";
import { isOp, propOf } from "../dialects/registry.js";
import { BLANK_COMMENT_LINE } from "./layout.js";
import { LEGACY_SPELLINGS } from "./syntax/legacy.js";

const INDENT = "  ";

export class Writer {
  private readonly lines: string[] = [];
  private cur = "";
  private depth = 0;

  text(s: string): this {
    this.cur += s;
    return this;
  }

  value(v: Value): this {
    this.cur += "%" + v.name;
    return this;
  }

  values(vs: readonly Value[]): this {
    for (let i = 0; i < vs.length; i++) {
      if (i > 0) this.cur += ", ";
      this.cur += "%" + vs[i]!.name;
    }
    return this;
  }

  type(t: Type): this {
    this.cur += typeToString(t);
    return this;
  }

  types(ts: readonly Type[]): this {
    this.cur += ts.map(typeToString).join(", ");
    return this;
  }

  /** ` : T, ...` (nothing for an empty list). */
  annotation(ts: readonly Type[]): this {
    if (ts.length > 0) this.text(" : ").types(ts);
    return this;
  }

  literal(l: Literal): this {
    this.cur += formatLiteral(l);
    return this;
  }

  /** `<a|b>` from `props.flags` (glued to the op name), when present. */
  flags(op: Op): this {
    const f = propOf(op, "flags");
    if (f && f.length > 0) this.cur += `<${f.join("|")}>`;
    return this;
  }

  /** `[a, b]` of values and integers. */
  indices(list: readonly (Value | bigint)[]): this {
    this.cur += "[" + list.map(valueOrInt).join(", ") + "]";
    return this;
  }

  predicates(list: readonly Predicate[]): this {
    this.cur += "[" + list.map((p) => `${p.kind}(${p.args.map(valueOrInt).join(", ")})`).join(", ") + "]";
    return this;
  }

  /** `(%a: T, ...)` of region arguments. */
  signature(args: readonly Value[]): this {
    this.cur += "(" + args.map((a) => `%${a.name}: ${typeToString(a.type)}`).join(", ") + ")";
    return this;
  }

  /**
   * ` {`, the region's ops one level deeper, its trailing comments, then `}` at this op's
   * indent; the caller continues on the `}` line (`} else {`).
   */
  region(r: Region, options: { omitEmptyTerminator?: "scf.yield" | "kernel.launch.yield" } = {}): this {
    this.cur += " {";
    this.endLine();
    this.depth++;
    let ops = r.ops;
    const last = ops[ops.length - 1];
    // An empty terminator the parser supplies when it is left out (`scf.yield`, `kernel.launch.yield`) is left out.
    if (options.omitEmptyTerminator && last && last.name === options.omitEmptyTerminator && last.operands.length === 0 && last.comments.length === 0) {
      ops = ops.slice(0, -1);
    }
    ops.forEach((op, i) => this.op(op, i === 0));
    this.trailing(r.trailingComments, r.trailingBlank && ops.length > 0);
    this.depth--;
    this.cur = INDENT.repeat(this.depth) + "}";
    return this;
  }

  /** One op: blank line, comments, then the op text (and its regions). */
  op(op: Op, first: boolean, blank = op.blankBefore): void {
    const pad = INDENT.repeat(this.depth);
    const comments = this.endOfLine(op.comments);
    if (blank && !first) this.lines.push("");
    for (const c of comments) this.lines.push(c === BLANK_COMMENT_LINE ? "" : `${pad}//${c}`);
    this.cur = pad;
    if (isOp(op, "alias")) {
      this.cur += `#${op.props.alias} = #${op.props.target}`;
      this.endLine();
      return;
    }
    if (op.results.length > 0) this.values(op.results).text(" = ");
    this.cur += op.props.legacySpelling === true ? LEGACY_SPELLINGS.get(op.name) ?? op.name : op.name;
    const syntax = syntaxOf(op.name);
    if (syntax) syntax.print(this, op);
    else this.cur += " <unprintable op>";
    this.endLine();
  }

  trailing(all: readonly string[], blank: boolean): void {
    const comments = this.endOfLine(all);
    if (comments.length === 0) return;
    if (blank) this.lines.push("");
    this.comments(comments, INDENT.repeat(this.depth));
  }

  /** Puts an end-of-line comment ("\r", parser.ts `commentTexts`) back on the line above; returns the rest. */
  private endOfLine(comments: readonly string[]): readonly string[] {
    const first = comments[0];
    if (first === undefined || !first.startsWith("\r") || this.lines.length === 0) return comments;
    this.lines[this.lines.length - 1] += ` //${first.slice(1)}`;
    return comments.slice(1);
  }

  /** Own-line comments; "\n" marks a blank line before one. */
  private comments(comments: readonly string[], pad: string): void {
    for (const c of comments) {
      if (c === BLANK_COMMENT_LINE) this.lines.push(""); // a blank line ending the file
      else if (c.startsWith("\n")) this.lines.push("", `${pad}//${c.slice(1)}`);
      else this.lines.push(`${pad}//${c.startsWith("\r") ? c.slice(1) : c}`);
    }
  }

  endLine(): void {
    this.lines.push(this.cur.replace(/\s+$/, ""));
    this.cur = "";
  }

  /** The text so far, one final newline (empty for nothing). */
  finish(): string {
    if (this.cur) this.endLine();
    return this.lines.length > 0 ? this.lines.join("\n") + "\n" : "";
  }
}

function valueOrInt(x: Value | bigint): string {
  return typeof x === "bigint" ? x.toString() : `%${x.name}`;
}
