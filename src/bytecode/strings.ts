/**
 * The `strings` section: every string of a file stored once, referenced by index.
 *
 *   varuint count, then per string: varuint byte length, UTF-8 bytes.
 *   Index 0 is always "" (meaning "no name"); strings are unique.
 */
import { ByteReader, ByteWriter } from "./bytes.js";

export const MAX_STRINGS = 1 << 20;
export const MAX_STRING_BYTES = 1 << 16;

/** Interns strings in first-use order, so the table is deterministic for a given writer. */
export class StringTableBuilder {
  readonly #index = new Map<string, number>([["", 0]]);
  readonly #list: string[] = [""];

  intern(s: string): number {
    let i = this.#index.get(s);
    if (i === undefined) {
      i = this.#list.length;
      this.#list.push(s);
      this.#index.set(s, i);
    }
    return i;
  }

  encode(): Uint8Array {
    return this.write().finish();
  }
  /** The table in a writer of its own (the caller finishes or releases it). */
  write(): ByteWriter {
    const w = new ByteWriter().varuint(this.#list.length);
    for (const s of this.#list) w.string(s);
    return w;
  }
}

export function decodeStringTable(bytes: Uint8Array, base: number): readonly string[] {
  const r = new ByteReader(bytes, "strings section", base);
  // Each string takes at least one byte, which bounds the count before anything is allocated.
  const count = r.varuint("string count", Math.min(MAX_STRINGS, bytes.length));
  const list: string[] = [];
  const seen = new Set<string>();
  for (let i = 0; i < count; i++) {
    const s = r.string(`string ${i}`, MAX_STRING_BYTES);
    if (i === 0 && s !== "") r.fail("string 0 must be empty");
    if (seen.has(s)) r.fail(`string ${i} repeats an earlier string`);
    seen.add(s);
    list.push(s);
  }
  if (count === 0) r.fail("string table must contain the empty string");
  r.expectEnd();
  return list;
}
