/**
 * Content digests for cache keys: SHA-256 (via @noble/hashes, pure JS, browser-safe) over a
 * canonical byte encoding. Immutable inputs (sources, profiles, link indexes) are digested
 * once and remembered in a WeakMap, so a key costs one small hash per lookup.
 */
import { sha256 } from "@noble/hashes/sha2.js";
import { bytesToHex } from "@noble/hashes/utils.js";

const encoder = new TextEncoder();
const remembered = new WeakMap<object, string>();

export function digestBytes(bytes: Uint8Array): string {
  return bytesToHex(sha256(bytes));
}

export function digestText(text: string): string {
  return digestBytes(encoder.encode(text));
}

/**
 * Canonical text of plain data: object keys sorted, bigints and byte arrays tagged so that
 * `1n`, `1` and `"1"` never collide. Functions and symbols are not data and are rejected.
 */
export function canonicalText(value: unknown): string {
  const seen = new Set<object>();
  const walk = (v: unknown): string => {
    switch (typeof v) {
      case "bigint":
        return `n${v}`;
      case "number":
        return Object.is(v, -0) ? "-0" : String(v);
      case "string":
        return JSON.stringify(v);
      case "boolean":
        return v ? "true" : "false";
      case "undefined":
        return "u";
      case "object": {
        if (v === null) return "null";
        if (v instanceof Uint8Array) return `b${digestBytes(v)}`;
        if (seen.has(v)) throw new TypeError("canonicalText: cyclic data");
        seen.add(v);
        const out = Array.isArray(v)
          ? `[${v.map(walk).join(",")}]`
          : `{${Object.keys(v)
              .sort()
              .map((k) => `${JSON.stringify(k)}:${walk((v as Record<string, unknown>)[k])}`)
              .join(",")}}`;
        seen.delete(v);
        return out;
      }
      default:
        throw new TypeError(`canonicalText: ${typeof v} is not data`);
    }
  };
  return walk(value);
}

/** The digest of an immutable object's data, computed once per object. */
export function digestOnce(obj: object, data: () => unknown): string {
  let d = remembered.get(obj);
  if (d === undefined) {
    d = digestText(canonicalText(data()));
    remembered.set(obj, d);
  }
  return d;
}
