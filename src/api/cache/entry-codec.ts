/**
 * On-disk form of one cache entry:
 *
 *   bytes 0–3  "LMCE"   4–7  u32 LE header length H   8..8+H  JSON header (UTF-8)   payloads
 *   last 32 bytes: SHA-256 of everything before them
 *
 * The header lists the artifacts (kind, format, identifier, byte length) and the
 * diagnostics. Anything that does not check out decodes to undefined
 * (the cache treats it as a miss): a damaged file never yields a silently wrong artifact.
 */
import type { Artifact } from "../../core/artifact.js";
import type { CachedCompile } from "./cache.js";
import { sha256 } from "@noble/hashes/sha2.js";

const MAGIC = [0x4c, 0x4d, 0x43, 0x45]; // "LMCE"
const KINDS = new Set(["executable", "interface", "launch-config", "text", "report", "module"]);

interface Header {
  artifacts: { kind: Artifact["kind"]; format: string; identifier: string; length: number }[];
  diagnostics: CachedCompile["diagnostics"];
}

export function encodeEntry(entry: CachedCompile): Uint8Array {
  const total = entry.artifacts.reduce((n, a) => n + a.contents.byteLength, 0);
  const payload = new Uint8Array(total);
  let at = 0;
  for (const a of entry.artifacts) {
    payload.set(a.contents, at);
    at += a.contents.byteLength;
  }
  const header: Header = {
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
  out.set(sha256(out.subarray(0, body)), body);
  return out;
}

export function decodeEntry(file: Uint8Array): CachedCompile | undefined {
  try {
    if (file.length < 40 || !MAGIC.every((b, i) => file[i] === b)) return undefined;
    const body = file.subarray(0, file.length - 32);
    const expected = sha256(body);
    if (!expected.every((b, i) => file[body.length + i] === b)) return undefined;
    const h = new DataView(body.buffer, body.byteOffset, body.byteLength).getUint32(4, true);
    if (8 + h > body.length) return undefined;
    const header = JSON.parse(new TextDecoder("utf-8", { fatal: true }).decode(body.subarray(8, 8 + h))) as Header;
    if (!header || !Array.isArray(header.artifacts) || !Array.isArray(header.diagnostics)) return undefined;
    const payload = body.subarray(8 + h);
    const total = header.artifacts.reduce((n, a) => n + (Number.isSafeInteger(a?.length) && a.length >= 0 ? a.length : NaN), 0);
    if (total !== payload.length) return undefined;
    let at = 0;
    const artifacts: Artifact[] = [];
    for (const a of header.artifacts) {
      if (!KINDS.has(a.kind) || typeof a.format !== "string" || typeof a.identifier !== "string") return undefined;
      artifacts.push(Object.freeze({ kind: a.kind, format: a.format, identifier: a.identifier, contents: payload.slice(at, at + a.length) }));
      at += a.length;
    }
    return Object.freeze({ artifacts: Object.freeze(artifacts), diagnostics: Object.freeze(header.diagnostics) });
  } catch {
    return undefined; // malformed JSON or UTF-8
  }
}
