/**
 * LinkIndex bytes (docs/linking.md): a `.loombc` container (docs/bytecode.md) with one
 * section of our own kind, `link-libraries`:
 *
 *   varuint library count, then per library in index order:
 *     string name (varuint length + UTF-8), varuint text length, the library's `.loom` text (UTF-8).
 *
 * The index itself (symbol lookup) is rebuilt from the texts when read, so the bytes hold
 * one source of truth. Module bytecode (`.loombc` module sections) can replace the texts
 * once it exists; the section kind then changes, never its meaning.
 */
import { LoomError } from "../../core/errors.js";
import { ByteReader, ByteWriter } from "../../bytecode/bytes.js";
import { findSection, readContainer, writeContainer } from "../../bytecode/container.js";
import { registerSectionKind } from "../../bytecode/sections.js";

export const LINK_LIBRARIES_SECTION = registerSectionKind(0x110, "link-libraries");
const PRODUCER = "loomc link-index";
const MAX_NAME_BYTES = 4096;

export interface StoredLibrary {
  readonly name: string;
  readonly text: string;
}

export function writeLinkIndexBytes(libraries: readonly StoredLibrary[]): Uint8Array {
  const w = new ByteWriter().varuint(libraries.length);
  const utf8 = new TextEncoder();
  for (const lib of libraries) {
    const text = utf8.encode(lib.text);
    w.string(lib.name).varuint(text.length).bytes(text);
  }
  return writeContainer({ locationMode: 0, producer: PRODUCER, sections: [{ kind: LINK_LIBRARIES_SECTION, bytes: w.finish() }] });
}

/** Decodes the libraries; malformed bytes are `LoomError("data-loss")`. */
export function readLinkIndexBytes(bytes: Uint8Array): StoredLibrary[] {
  const container = readContainer(bytes);
  const section = findSection(container, LINK_LIBRARIES_SECTION);
  if (!section) throw new LoomError("data-loss", "malformed link index: the .loombc container has no 'link-libraries' section");
  const r = new ByteReader(section.bytes, "link-libraries section", section.offset ?? 0);
  // Each library takes at least two bytes, which bounds the count before allocating.
  const count = r.varuint("library count", Math.floor(section.bytes.length / 2));
  const out: StoredLibrary[] = [];
  const names = new Set<string>();
  for (let i = 0; i < count; i++) {
    const name = r.string("library name", MAX_NAME_BYTES);
    if (name.length === 0 || names.has(name)) r.fail(`library name ${JSON.stringify(name)} is empty or repeated`);
    names.add(name);
    const length = r.varuint("library text length", r.remaining);
    const raw = r.bytesOf(length, "library text");
    let text: string;
    try {
      text = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true }).decode(raw);
    } catch {
      return r.fail(`library '${name}' text is not valid UTF-8`);
    }
    out.push({ name, text });
  }
  r.expectEnd();
  return out;
}
