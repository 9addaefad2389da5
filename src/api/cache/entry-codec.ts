/**
 * On-disk form of one cache entry:
 *
 *   bytes 0–3  "LMCE"   4–7  u32 LE header length H   8..8+H  JSON header (UTF-8)   payloads
 *   last 32 bytes: SHA-256 of everything before them, or HMAC-SHA-256 under the cache's
 *   `integrityKey` when it has one
 *
 * The header records the entry's store key (the SHA-256 of the full cache key), the
 * artifacts (kind, format, identifier, byte length) and the diagnostics. Decoding checks
 * the trailer, that the entry belongs to the key it was read for (a file copied to another
 * key's name is a miss), and the header against its schema (artifact kinds, diagnostic
 * fields); anything that does not check out decodes to undefined, which the cache treats as
 * a miss: a damaged or planted file never yields a silently wrong artifact.
 *
 * Threat model: the SHA-256 trailer detects damage, not tampering — anyone who can write
 * the store can recompute it. A store on shared storage should use an `integrityKey`
 * (known only to the processes that trust each other): then only holders of the key can
 * make an entry that decodes.
 */
import type { Artifact } from "../../core/artifact.js";
import type { Diagnostic } from "../../core/diag/diagnostic.js";
import type { CachedCompile } from "./cache.js";
import { sha256 } from "@noble/hashes/sha2.js";
import { hmac } from "@noble/hashes/hmac.js";

const MAGIC = [0x4c, 0x4d, 0x43, 0x45]; // "LMCE"
const KINDS = new Set(["executable", "interface", "launch-config", "text", "report", "module"]);
const SEVERITIES = new Set(["error", "warning", "note", "remark"]);
const CODE = /^[A-Z]+\/\d{3}$/;

interface Header {
  key: string;
  artifacts: { kind: Artifact["kind"]; format: string; identifier: string; length: number }[];
  diagnostics: CachedCompile["diagnostics"];
}

function trailer(body: Uint8Array, integrityKey: Uint8Array | undefined): Uint8Array {
  return integrityKey ? hmac(sha256, integrityKey, body) : sha256(body);
}

export function encodeEntry(entry: CachedCompile, storeKey: string, integrityKey?: Uint8Array): Uint8Array {
  const total = entry.artifacts.reduce((n, a) => n + a.contents.byteLength, 0);
  const payload = new Uint8Array(total);
  let at = 0;
  for (const a of entry.artifacts) {
    payload.set(a.contents, at);
    at += a.contents.byteLength;
  }
  const header: Header = {
    key: storeKey,
    artifacts: entry.artifacts.map((a) => ({ kind: a.kind, format: a.format, identifier: a.identifier, length: a.contents.byteLength })),
    diagnostics: entry.diagnostics,
  };
  const json = new TextEncoder().encode(JSON.stringify(header));
  const body = 8 + json.length + payload.length;
  const out = new Uint8Array(body + 32);
  out.set(MAGIC, 0);
  new DataView(out.buffer).setUint32(4, json.length, true);
  out.set(json, 8);
  out.set(payload, 8 + json.length);
  out.set(trailer(out.subarray(0, body), integrityKey), body);
  return out;
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);
const isCount = (v: unknown) => Number.isSafeInteger(v) && (v as number) >= 0;

/** A diagnostic as `Diagnostic` defines it (related notes have an empty code and nest once). */
function isDiagnostic(d: unknown, nested = false): boolean {
  if (!isObject(d)) return false;
  if (typeof d.code !== "string" || !(CODE.test(d.code) || (nested && d.code === "")) || typeof d.message !== "string" || !SEVERITIES.has(d.severity as string)) return false;
  if (d.help !== undefined && typeof d.help !== "string") return false;
  if (d.location !== undefined) {
    const l = d.location;
    if (!isObject(l) || typeof l.source !== "string" || !isCount(l.line) || !isCount(l.column)) return false;
    if ((l.endLine !== undefined && !isCount(l.endLine)) || (l.endColumn !== undefined && !isCount(l.endColumn))) return false;
  }
  if (d.related !== undefined && (nested || !Array.isArray(d.related) || !d.related.every((r) => isDiagnostic(r, true)))) return false;
  return true;
}

export function decodeEntry(file: Uint8Array, storeKey: string, integrityKey?: Uint8Array): CachedCompile | undefined {
  const checked = checkEntry(file, storeKey, integrityKey);
  return typeof checked === "string" ? undefined : checked;
}

/** `decodeEntry`, but a refused entry yields the reason (a sentence) instead of undefined. */
export function checkEntry(file: Uint8Array, storeKey: string, integrityKey?: Uint8Array): CachedCompile | string {
  try {
    if (file.length < 40 || !MAGIC.every((b, i) => file[i] === b)) return "not an LMCE entry";
    const body = file.subarray(0, file.length - 32);
    const expected = trailer(body, integrityKey);
    if (!expected.every((b, i) => file[body.length + i] === b)) return integrityKey ? "HMAC trailer mismatch (damaged, or not written under this integrityKey)" : "SHA-256 trailer mismatch (damaged)";
    const h = new DataView(body.buffer, body.byteOffset, body.byteLength).getUint32(4, true);
    if (8 + h > body.length) return "header length past the end";
    const header = JSON.parse(new TextDecoder("utf-8", { fatal: true }).decode(body.subarray(8, 8 + h))) as unknown;
    if (!isObject(header) || !Array.isArray(header.artifacts) || !Array.isArray(header.diagnostics)) return "header does not match the schema";
    if (header.key !== storeKey) return "entry belongs to another key";
    if (!header.diagnostics.every((d) => isDiagnostic(d))) return "a diagnostic does not match the schema";
    const payload = body.subarray(8 + h);
    let at = 0;
    const artifacts: Artifact[] = [];
    for (const a of header.artifacts as unknown[]) {
      if (!isObject(a) || !KINDS.has(a.kind as string) || typeof a.format !== "string" || typeof a.identifier !== "string" || !isCount(a.length)) return "an artifact record does not match the schema";
      const length = a.length as number;
      if (at + length > payload.length) return "artifact lengths exceed the payload";
      artifacts.push(Object.freeze({ kind: a.kind as Artifact["kind"], format: a.format, identifier: a.identifier, contents: payload.slice(at, at + length) }));
      at += length;
    }
    if (at !== payload.length) return "artifact lengths do not add up to the payload";
    return Object.freeze({ artifacts: Object.freeze(artifacts), diagnostics: Object.freeze(header.diagnostics as Diagnostic[]) });
  } catch {
    return "header is not valid UTF-8 JSON";
  }
}
