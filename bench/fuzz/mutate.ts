/**
 * Mutations of valid `.loombc` module files, shared by the fuzz bench and the property tests.
 *
 * A raw mutation edits the file as it is, so the container's checksum and layout rules catch
 * it. A section mutation edits one section's bytes and re-seals the file with `writeContainer`
 * (fresh directory, padding and checksum), so the mutated bytes reach the module decoders:
 * byte edits, bit flips, small increments (off-by-one references), insertions, deletions,
 * splices from the same or another file, varint corruption (overlong, non-minimal, unterminated)
 * and count inflation.
 */
import { readContainer, writeContainer, type LocationMode, type Section } from "../../src/bytecode/container.js";

/** Uniform in [0, 1). */
export type Rand = () => number;

/** mulberry32: a small deterministic generator, so every case can be replayed from its seed. */
export function prng(seed: number): Rand {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const pick = (rand: Rand, n: number): number => Math.floor(rand() * n);

const BIG_VARINTS: readonly number[][] = [
  [0xff, 0xff, 0xff, 0xff, 0x0f], // 2^32 − 1
  [0xff, 0xff, 0xff, 0x7f], // 2^28 − 1
  [0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x02], // > 2^64
  [0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01], // 2^64 − 1
  [0x80, 0x00], // non-minimal zero
  [0x81, 0x80, 0x00], // non-minimal one
  [0x80], // unterminated
];

function splice(b: Uint8Array, at: number, remove: number, insert: ArrayLike<number>): Uint8Array {
  const out = new Uint8Array(b.length - remove + insert.length);
  out.set(b.subarray(0, at), 0);
  out.set(Array.from(insert), at);
  out.set(b.subarray(at + remove), at + insert.length);
  return out;
}

/** One edit of a byte string (`donor` is another string to splice from). */
export function mutateBytes(b: Uint8Array, rand: Rand, donor: Uint8Array = b): Uint8Array {
  const at = pick(rand, b.length + 1);
  const inside = Math.min(at, Math.max(0, b.length - 1));
  switch (pick(rand, 10)) {
    case 0: {
      if (b.length === 0) return Uint8Array.of(pick(rand, 256));
      const c = b.slice();
      c[inside] = pick(rand, 256);
      return c;
    }
    case 1: {
      if (b.length === 0) return b;
      const c = b.slice();
      c[inside]! ^= 1 << pick(rand, 8);
      return c;
    }
    case 2: {
      if (b.length === 0) return b;
      const c = b.slice();
      c[inside] = (c[inside]! + (rand() < 0.5 ? 1 : 255)) & 0xff;
      return c;
    }
    case 3:
      return splice(b, at, 0, Array.from({ length: 1 + pick(rand, 8) }, () => pick(rand, 256)));
    case 4:
      return splice(b, at, Math.min(b.length - at, 1 + pick(rand, 16)), []);
    case 5: {
      const from = pick(rand, donor.length + 1);
      return splice(b, at, rand() < 0.5 ? Math.min(b.length - at, pick(rand, 8)) : 0, donor.subarray(from, from + 1 + pick(rand, 32)));
    }
    case 6:
      return splice(b, at, Math.min(b.length - at, pick(rand, 2)), BIG_VARINTS[pick(rand, BIG_VARINTS.length)]!);
    case 7: {
      if (b.length === 0) return b;
      const c = b.slice();
      c[inside]! |= 0x80; // extends a varint into the next field
      return c;
    }
    case 8:
      return splice(b, at, 0, [0x80]); // makes the next varint non-minimal (or shifts the stream)
    default:
      return b.subarray(0, at); // truncate the section
  }
}

/** A mutated copy of a valid module file; `donor` is another valid file to splice from. */
export function mutateFile(valid: Uint8Array, rand: Rand, donor: Uint8Array = valid): Uint8Array {
  if (rand() < 0.15) {
    let b = valid;
    for (let n = 1 + pick(rand, 3); n > 0; n--) b = mutateBytes(b, rand, donor);
    return b;
  }
  const c = readContainer(valid);
  const d = readContainer(donor);
  const sections: Section[] = c.sections.map((s) => ({ kind: s.kind, bytes: s.bytes }));
  for (let n = 1 + pick(rand, 3); n > 0; n--) {
    const i = pick(rand, sections.length);
    const s = sections[i]!;
    if (rand() < 0.03) {
      sections.splice(i, 1); // a missing section
      if (sections.length === 0) break;
      continue;
    }
    const from = d.sections.find((x) => x.kind === s.kind)?.bytes ?? s.bytes;
    sections[i] = { kind: s.kind, bytes: mutateBytes(s.bytes, rand, from) };
  }
  const locationMode = (rand() < 0.05 ? pick(rand, 3) : c.locationMode) as LocationMode;
  return writeContainer({ locationMode, producer: c.producer, sections });
}
