/**
 * Turns fast-path terms (src/dialects/eval/fast.ts) into generated source: an arrow with an
 * expression body is spliced in place, its parameters bound as block constants to the
 * operand registers and its constants as literals, so the generated function computes the
 * op inline. Constants that are not literals (helper functions, tables, flag objects) and
 * any function that is not an expression arrow are reached through the environment array
 * `K` instead: slower, never wrong.
 */
import type { FastConstant, FastTerm, TermFn } from "../dialects/eval/fast.js";

interface Arrow {
  readonly params: readonly string[];
  readonly body: string;
}

const IDENT = /^[A-Za-z_$][\w$]*$/;
const ARROW = /^\s*(?:\(([^()]*)\)|([A-Za-z_$][\w$]*))\s*=>\s*([\s\S]+)$/;
/** Names the bindings' initializers use (registers, the environment): a parameter with one would shadow them. */
const RESERVED = /^(?:r\d+|q\d+|K|arg|undefined)$/;

const arrows = new WeakMap<TermFn, Arrow | null>();

/** The parameters and expression body of `fn`, or null when it cannot be spliced. */
export function spliceableArrow(fn: TermFn): Arrow | null {
  let a = arrows.get(fn);
  if (a === undefined) {
    a = parseArrow(fn.toString());
    arrows.set(fn, a);
  }
  return a;
}

function parseArrow(src: string): Arrow | null {
  const m = ARROW.exec(src);
  if (!m) return null;
  const params = (m[1] ?? m[2] ?? "").split(",").map((p) => p.trim()).filter((p) => p !== "");
  const body = m[3]!.trim();
  if (body.startsWith("{") || params.some((p) => !IDENT.test(p) || RESERVED.test(p))) return null;
  return { params, body };
}

/** A JS literal that reads back as exactly `x`. */
export function numberLiteral(x: number): string {
  if (Object.is(x, -0)) return "-0";
  return x < 0 ? `(${x})` : String(x);
}

export class TermSplicer {
  /** The environment array the generated code reads as `K`. */
  readonly env: unknown[] = [];
  readonly #slots = new Map<unknown, number>();

  /** A reference to `value` through `K`. */
  #ref(value: unknown): string {
    let i = this.#slots.get(value);
    if (i === undefined) {
      i = this.env.push(value) - 1;
      this.#slots.set(value, i);
    }
    return `K[${i}]`;
  }

  #constant(c: FastConstant): string {
    if (typeof c === "number") return numberLiteral(c);
    if (typeof c === "string") return JSON.stringify(c);
    if (typeof c === "boolean") return String(c);
    return this.#ref(c);
  }

  /**
   * `t` applied to the argument expressions (register names), then its constants: a block
   * binding its parameters plus the expression, or a call through `K`.
   */
  apply(t: FastTerm, args: readonly string[]): { bind: string; expr: string } {
    const all = [...args, ...t.constants.map((c) => this.#constant(c))];
    const arrow = spliceableArrow(t.fn);
    if (!arrow) return { bind: "", expr: `${this.#ref(t.fn)}(${all.join(", ")})` };
    const bound = arrow.params.map((p, i) => `${p} = ${all[i] ?? "undefined"}`);
    return { bind: bound.length ? `const ${bound.join(", ")}; ` : "", expr: `(${arrow.body})` };
  }

  /** `{ d = t(args); }` */
  assign(d: string, t: FastTerm, args: readonly string[]): string {
    const { bind, expr } = this.apply(t, args);
    return bind ? `{ ${bind}${d} = ${expr}; }` : `${d} = ${expr};`;
  }

  /** `{ if (!t(args)) bail }` */
  unless(t: FastTerm, args: readonly string[], bail: string): string {
    const { bind, expr } = this.apply(t, args);
    return bind ? `{ ${bind}if (!${expr}) ${bail} }` : `if (!${expr}) ${bail}`;
  }

  /** `{ if (t(args)) bail }` */
  guard(t: FastTerm, args: readonly string[], bail: string): string {
    const { bind, expr } = this.apply(t, args);
    return bind ? `{ ${bind}if ${expr} ${bail} }` : `if ${expr} ${bail}`;
  }
}
