/**
 * The `.loombc` container: header, section directory, sections (docs/bytecode.md).
 *
 *   0:4   magic "LOOM" (4C 4F 4F 4D)
 *   4:1   format version (FORMAT_VERSION; readers accept only it)
 *   5:1   location mode: 0 source locations, 1 none, 2 full (reserved)
 *   6:2   section count (u16, ≤ MAX_SECTIONS)
 *   8:4   CRC-32 of the whole file with these four bytes read as zero
 *   12:4  reserved, 0
 *   16:   producer, UTF-8, NUL-terminated; zero padding to a multiple of 8
 *   then  section directory: per section 24 bytes
 *           kind u16, flags u16 (0), reserved u32 (0), offset u64, length u64
 *   then  the sections in directory order, each starting at the next multiple of 8
 *         after the previous one (zero padding), the file ending likewise.
 *
 * The layout is canonical: one set of sections has exactly one encoding, so a reader can
 * insist on it (sorted, non-overlapping, gap-free, zero padding) and decode→encode is the
 * identity. The checksum catches every single-bit flip and short truncation before any
 * section decoder runs; the structural checks still hold on their own.
 */
import { LoomError } from "../core/errors.js";
import { ByteReader, ByteWriter } from "./bytes.js";
import { crc32 } from "./crc32.js";
import { sectionKindName } from "./sections.js";

export const MAGIC = Uint8Array.of(0x4c, 0x4f, 0x4f, 0x4d);
export const FORMAT_VERSION = 1;
export const MAX_SECTIONS = 64;
export const MAX_PRODUCER_BYTES = 255;
const HEADER_FIXED = 16;
const DIRECTORY_ENTRY = 24;
const CHECKSUM_AT = 8;

export type LocationMode = 0 | 1 | 2;

export interface Section {
  readonly kind: number;
  readonly bytes: Uint8Array;
  /** File offset of the first byte (set by the reader, for messages). */
  readonly offset?: number;
}

export interface Container {
  readonly formatVersion: number;
  readonly locationMode: LocationMode;
  readonly producer: string;
  /** In file order. */
  readonly sections: readonly Section[];
}

/** True when the bytes start with the `.loombc` magic (text vs. bytecode detection). */
export function hasLoomMagic(bytes: Uint8Array): boolean {
  return bytes.length >= 4 && MAGIC.every((b, i) => bytes[i] === b);
}

const align8 = (n: number): number => (n + 7) & ~7;

/** The last producer string's UTF-8 (every compile writes the same one). */
let lastProducer: { readonly text: string; readonly bytes: Uint8Array } | undefined;
function producerBytes(text: string): Uint8Array {
  if (lastProducer?.text !== text) lastProducer = { text, bytes: new TextEncoder().encode(text) };
  return lastProducer.bytes;
}

export function writeContainer(c: { readonly locationMode: LocationMode; readonly producer: string; readonly sections: readonly Section[] }): Uint8Array {
  const producer = producerBytes(c.producer);
  if (producer.length > MAX_PRODUCER_BYTES || producer.includes(0)) throw new LoomError("invalid-argument", `producer string must be at most ${MAX_PRODUCER_BYTES} bytes without NUL`);
  if (c.sections.length > MAX_SECTIONS) throw new LoomError("invalid-argument", `at most ${MAX_SECTIONS} sections, got ${c.sections.length}`);
  c.sections.forEach((s, i) => {
    const repeated = c.sections.some((t, j) => j < i && t.kind === s.kind);
    if (!Number.isInteger(s.kind) || s.kind < 0 || s.kind > 0xffff || repeated) throw new LoomError("invalid-argument", `bad or repeated section kind ${s.kind}`);
  });
  const w = new ByteWriter();
  w.bytes(MAGIC).u8(FORMAT_VERSION).u8(c.locationMode).u16(c.sections.length).u32(0).u32(0).bytes(producer).u8(0).padTo(8);
  let offset = w.length + DIRECTORY_ENTRY * c.sections.length;
  for (const s of c.sections) {
    w.u16(s.kind).u16(0).u32(0).u64(offset).u64(s.bytes.length);
    offset = align8(offset + s.bytes.length);
  }
  for (const s of c.sections) w.bytes(s.bytes).padTo(8);
  const out = w.finish();
  const sum = crc32(out, CHECKSUM_AT);
  out[CHECKSUM_AT] = sum & 0xff;
  out[CHECKSUM_AT + 1] = (sum >>> 8) & 0xff;
  out[CHECKSUM_AT + 2] = (sum >>> 16) & 0xff;
  out[CHECKSUM_AT + 3] = sum >>> 24;
  return out;
}

/** Parses and validates a container; every problem is `LoomError("data-loss")`. */
export function readContainer(bytes: Uint8Array): Container {
  if (!(bytes instanceof Uint8Array)) throw new LoomError("invalid-argument", "bytecode must be a Uint8Array");
  const r = new ByteReader(bytes, "header");
  if (!hasLoomMagic(bytes)) r.fail("missing 'LOOM' magic (not Loom bytecode)");
  r.bytesOf(4, "magic");
  const formatVersion = r.u8("format version");
  if (formatVersion !== FORMAT_VERSION) r.fail(`unsupported format version ${formatVersion} (this reader accepts only ${FORMAT_VERSION})`);
  const locationMode = r.u8("location mode");
  if (locationMode > 2) r.fail(`location mode ${locationMode} is not 0, 1 or 2`);
  const count = r.u16("section count");
  if (count > MAX_SECTIONS) r.fail(`section count ${count} exceeds ${MAX_SECTIONS}`);
  const checksum = r.u32("checksum");
  if (r.u32("reserved word") !== 0) r.fail("reserved header word is not zero");
  if (bytes.length % 8 !== 0) r.fail(`file length ${bytes.length} is not a multiple of 8 (truncated?)`);
  if (crc32(bytes, CHECKSUM_AT) !== checksum) r.fail("checksum mismatch (corrupted or truncated file)");

  const nul = bytes.indexOf(0, HEADER_FIXED);
  if (nul < 0 || nul - HEADER_FIXED > MAX_PRODUCER_BYTES) r.fail("producer string is not NUL-terminated within 255 bytes");
  const producerBytes = r.bytesOf(nul - HEADER_FIXED, "producer string");
  let producer: string;
  try {
    producer = new TextDecoder("utf-8", { fatal: true }).decode(producerBytes);
  } catch {
    return r.fail("producer string is not valid UTF-8");
  }
  r.u8("producer terminator");
  expectZeroPadding(r, align8(r.position), "header padding");

  const entries: { kind: number; offset: number; length: number }[] = [];
  for (let i = 0; i < count; i++) {
    const kind = r.u16("section kind");
    if (r.u16("section flags") !== 0) r.fail(`section ${i} (${sectionKindName(kind)}) has non-zero flags`);
    if (r.u32("section reserved word") !== 0) r.fail(`section ${i} (${sectionKindName(kind)}) has a non-zero reserved word`);
    const offset = r.u64("section offset"), length = r.u64("section length");
    if (offset > BigInt(bytes.length) || length > BigInt(bytes.length) - offset) r.fail(`section ${i} (${sectionKindName(kind)}) lies outside the file`);
    if (entries.some((e) => e.kind === kind)) r.fail(`section kind ${sectionKindName(kind)} appears twice`);
    entries.push({ kind, offset: Number(offset), length: Number(length) });
  }
  let cursor = r.position;
  const sections: Section[] = [];
  for (const [i, e] of entries.entries()) {
    if (e.offset !== cursor) r.fail(`section ${i} (${sectionKindName(e.kind)}) starts at ${e.offset}, expected ${cursor} (sections must be sorted, gap-free and 8-aligned)`);
    sections.push({ kind: e.kind, bytes: bytes.subarray(e.offset, e.offset + e.length), offset: e.offset });
    const end = e.offset + e.length;
    const pad = new ByteReader(bytes.subarray(end, Math.min(align8(end), bytes.length)), `padding after section ${i}`, end);
    expectZeroPadding(pad, align8(end) - end, "section padding");
    cursor = align8(end);
  }
  if (cursor !== bytes.length) new ByteReader(bytes, "file end", 0).fail(`${bytes.length - cursor} byte(s) after the last section`);
  return { formatVersion, locationMode: locationMode as LocationMode, producer, sections };
}

function expectZeroPadding(r: ByteReader, upTo: number, what: string): void {
  while (r.position < upTo) if (r.u8(what) !== 0) r.fail(`${what} is not zero`);
}

/** The bytes of the section of that kind, if present. */
export function findSection(c: Container, kind: number): Section | undefined {
  return c.sections.find((s) => s.kind === kind);
}
