/**
 * Structural equality of two modules, spans aside: op names and order, SSA names, types,
 * props, comments and blank-line flags, and the use→definition graph
 * (values correspond by position of definition, and every use must name the corresponding
 * value). Key order of props and records is not compared. Returns the first difference, or undefined when the modules are the same IR.
 *
 * The reader uses it to insist that a decoded module is exactly what the text parser builds
 * from its printed text (./canonical.ts).
 */
import { Value, type Module, type Op, type Prop, type Region } from "../../ir/core.js";
import type { Type } from "../../ir/types.js";

class Mismatch extends Error {}

function fail(where: string, what: string): never {
  throw new Mismatch(`${where}: ${what}`);
}

function isSpan(s: unknown): boolean {
  if (typeof s !== "object" || s === null) return false;
  const o = s as Record<string, unknown>;
  return typeof o.source === "string" && ["line", "column", "endLine", "endColumn"].every((k) => Number.isSafeInteger(o[k]) && (o[k] as number) >= 1);
}

class Comparer {
  readonly #map = new Map<Value, Value>();

  module(a: Module, b: Module): void {
    this.#trailing("module", a.trailingComments, a.trailingBlank, b.trailingComments, b.trailingBlank);
    this.#ops("module", a.ops, b.ops);
  }

  #trailing(where: string, ac: readonly string[], ab: boolean, bc: readonly string[], bb: boolean): void {
    this.#strings(`${where} trailing comments`, ac, bc);
    if (ab !== bb) fail(where, "trailing blank-line flag differs");
  }

  #strings(where: string, a: readonly string[], b: readonly string[]): void {
    if (a.length !== b.length || a.some((s, i) => s !== b[i])) fail(where, `${JSON.stringify(a)} vs ${JSON.stringify(b)}`);
  }

  #ops(where: string, a: readonly Op[], b: readonly Op[]): void {
    if (a.length !== b.length) fail(where, `${a.length} ops vs ${b.length}`);
    a.forEach((op, i) => this.#op(`${where} > op ${i} (${op.name})`, op, b[i]!));
  }

  #define(where: string, a: Value, b: Value): void {
    if (a.name !== b.name) fail(where, `value %${a.name} is %${b.name} in the text`);
    if (this.#map.has(a)) fail(where, `value %${a.name} is defined twice`);
    this.#map.set(a, b);
  }

  #use(where: string, a: Value, b: unknown): void {
    if (!(b instanceof Value) || this.#map.get(a) !== b) fail(where, `use of %${a.name} resolves to a different value in the text`);
  }

  #op(where: string, a: Op, b: Op): void {
    if (a.name !== b.name) fail(where, `op '${a.name}' reads back as '${b.name}'`);
    if (a.blankBefore !== b.blankBefore) fail(where, "blank-line flag differs");
    this.#strings(`${where} comments`, a.comments, b.comments);
    if (a.regions.length !== b.regions.length) fail(where, `${a.regions.length} regions vs ${b.regions.length}`);
    a.regions.forEach((r, k) => {
      const rb = b.regions[k]!;
      if (r.args.length !== rb.args.length) fail(where, `region ${k} has ${r.args.length} arguments vs ${rb.args.length}`);
      r.args.forEach((v, i) => this.#define(`${where} region ${k} argument ${i}`, v, rb.args[i]!));
    });
    a.regions.forEach((r, k) => r.args.forEach((v, i) => this.#type(`${where} region ${k} argument %${v.name}`, v.type, b.regions[k]!.args[i]!.type)));
    if (a.operands.length !== b.operands.length) fail(where, `${a.operands.length} operands vs ${b.operands.length}`);
    a.operands.forEach((v, i) => this.#use(`${where} operand ${i}`, v, b.operands[i]));
    const keys = this.#keys(`${where} props`, a.props, b.props);
    for (const k of keys) this.#prop(`${where} prop '${k}'`, a.props[k], b.props[k]);
    if (a.results.length !== b.results.length) fail(where, `${a.results.length} results vs ${b.results.length}`);
    a.results.forEach((v, i) => {
      this.#type(`${where} result %${v.name}`, v.type, b.results[i]!.type);
      this.#define(`${where} result ${i}`, v, b.results[i]!);
    });
    a.regions.forEach((r, k) => this.#region(`${where} region ${k}`, r, b.regions[k]!));
  }

  #region(where: string, a: Region, b: Region): void {
    this.#trailing(where, a.trailingComments, a.trailingBlank, b.trailingComments, b.trailingBlank);
    this.#ops(where, a.ops, b.ops);
  }

  /** The keys of `a`, which must be those of `b` in some order (legacy spellings set props in
   *  another order than canonical text; no consumer depends on the order). */
  #keys(where: string, a: object, b: object): string[] {
    const ka = Object.keys(a), kb = Object.keys(b);
    this.#strings(`${where} keys`, [...ka].sort(), [...kb].sort());
    return ka;
  }

  #type(where: string, a: Type, b: Type): void {
    this.#prop(where, a as unknown as Prop, b as unknown as Prop);
  }

  #prop(where: string, a: Prop, b: Prop): void {
    if (a instanceof Value) return this.#use(where, a, b);
    if (b instanceof Value) fail(where, "a value in the text where the file has none");
    if (typeof a !== typeof b) fail(where, `${typeof a} vs ${typeof b}`);
    if (typeof a !== "object" || a === null || b === null) {
      if (!Object.is(a, b)) fail(where, `${String(a)} vs ${String(b)}`);
      return;
    }
    if (Array.isArray(a) !== Array.isArray(b)) fail(where, "array vs non-array");
    if (Array.isArray(a)) {
      const bb = b as readonly Prop[];
      if (a.length !== bb.length) fail(where, `${a.length} items vs ${bb.length}`);
      a.forEach((x, i) => this.#prop(`${where}[${i}]`, x, bb[i]));
      return;
    }
    const ao = a as { readonly [key: string]: Prop }, bo = b as { readonly [key: string]: Prop };
    const keys = this.#keys(where, ao, bo);
    for (const k of keys) {
      // Spans differ by construction (the text is a different file); a span must still be one.
      if (k === "span") {
        if (ao[k] !== undefined && !isSpan(ao[k])) fail(where, "span is not a source range");
      } else this.#prop(`${where}.${k}`, ao[k], bo[k]);
    }
  }
}

export function compareModules(a: Module, b: Module): string | undefined {
  try {
    new Comparer().module(a, b);
    return undefined;
  } catch (e) {
    if (e instanceof Mismatch) return e.message;
    throw e;
  }
}
