/**
 * Which plain objects in `props` are literals, predicates or types: the writer gives those
 * their own tags, and the reader rejects a generic record of one of these shapes (it has only
 * one encoding).
 */
import { Value, type Literal, type Predicate } from "../../ir/core.js";
import type { Type } from "../../ir/types.js";

const LITERAL_KINDS: Record<string, string> = { int: "bigint", float: "number", bool: "boolean", string: "string", ident: "string" };

export function isPlainRecord(p: object): boolean {
  const proto = Object.getPrototypeOf(p);
  return proto === Object.prototype || proto === null;
}

function hasKeys(p: object, keys: readonly string[]): boolean {
  const own = Object.keys(p);
  return own.length === keys.length && own.every((k, i) => k === keys[i]);
}

export function asLiteral(p: object): Literal | undefined {
  const o = p as { kind?: unknown; value?: unknown };
  return hasKeys(p, ["kind", "value"]) && typeof o.kind === "string" && LITERAL_KINDS[o.kind] === typeof o.value ? (p as Literal) : undefined;
}

export function asPredicate(p: object): Predicate | undefined {
  const o = p as { kind?: unknown; args?: unknown; span?: unknown };
  if (!hasKeys(p, ["kind", "args", "span"]) || typeof o.kind !== "string" || !Array.isArray(o.args)) return undefined;
  if (!o.args.every((a) => typeof a === "bigint" || a instanceof Value)) return undefined;
  return o.span === undefined || (typeof o.span === "object" && o.span !== null) ? (p as Predicate) : undefined;
}

export function asType(p: object): Type | undefined {
  const kind = (p as { kind?: unknown }).kind;
  if (kind === "prim") return hasKeys(p, ["kind", "name"]) ? (p as Type) : undefined;
  if (kind === "vector") return hasKeys(p, ["kind", "shape", "element"]) ? (p as Type) : undefined;
  if (kind === "view") return hasKeys(p, ["kind", "dims", "element"]) || hasKeys(p, ["kind", "dims", "element", "layout"]) ? (p as Type) : undefined;
  return undefined;
}
