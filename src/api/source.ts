/** `Source`: immutable, shareable program input — `.loom` text or `.loombc` bytes (api.md §3). */
import { LoomError } from "../core/errors.js";

const LOOM_MAGIC = [0x4c, 0x4f, 0x4f, 0x4d]; // "LOOM"

/** Whether a Source copied its input bytes (`copied`) or references the caller's buffer (`borrowed`, which must then stay unchanged). */
export type SourceOwnership = "copied" | "borrowed";

/** Loom source text with a display name used in diagnostics; create with `fromText`, `fromBytes` or `fromPath`. */
export class Source {
  /** `text` for `.loom`, `bytecode` for `.loombc` (detected by the magic, never by the name). */
  readonly kind: "text" | "bytecode";
  #text: string | undefined;
  #bytes: Uint8Array | undefined;

  private constructor(
    readonly name: string,
    init: { text?: string; bytes?: Uint8Array },
  ) {
    this.#text = init.text;
    this.#bytes = init.bytes;
    this.kind = init.bytes !== undefined && isBytecode(init.bytes) ? "bytecode" : "text";
    Object.freeze(this);
  }

  /** A Source holding `text` under the display `name`; throws `LoomError("invalid-argument")` for a non-string text or empty name. */
  static fromText(name: string, text: string): Source {
    checkName(name);
    if (typeof text !== "string") throw new LoomError("invalid-argument", "Source.fromText: 'text' must be a string");
    return new Source(name, { text });
  }

  /**
   * Text or bytecode bytes. `copied` (default) snapshots the bytes; `borrowed` keeps the
   * caller's array, which must then stay unchanged while the Source is in use.
   */
  static fromBytes(name: string, bytes: Uint8Array, options?: { ownership?: SourceOwnership }): Source {
    checkName(name);
    if (!(bytes instanceof Uint8Array)) throw new LoomError("invalid-argument", "Source.fromBytes: 'bytes' must be a Uint8Array");
    const ownership = options?.ownership ?? "copied";
    if (ownership !== "copied" && ownership !== "borrowed") {
      throw new LoomError("invalid-argument", `Source.fromBytes: 'ownership' must be "copied" or "borrowed", got ${JSON.stringify(ownership)}`);
    }
    return new Source(name, { bytes: ownership === "copied" ? bytes.slice() : bytes });
  }

  /** Node convenience: reads a file. The name given to diagnostics is the path as passed. */
  static async fromPath(path: string): Promise<Source> {
    checkName(path);
    // A computed specifier keeps browser bundlers from resolving this Node-only module.
    const fsModule = "node:fs/promises";
    const { readFile } = (await import(fsModule)) as typeof import("node:fs/promises");
    let bytes: Uint8Array;
    try {
      bytes = await readFile(path);
    } catch (e) {
      const code = (e as NodeJS.ErrnoException).code;
      throw new LoomError(code === "ENOENT" ? "not-found" : "invalid-argument", `Source.fromPath: cannot read '${path}': ${(e as Error).message}`);
    }
    return new Source(path, { bytes: new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength) });
  }

  /** The raw bytes (UTF-8 encoding of text sources). */
  get bytes(): Uint8Array {
    if (this.#bytes === undefined) return new TextEncoder().encode(this.#text ?? "");
    return this.#bytes;
  }

  /**
   * The text of a text source, or undefined when the bytes are not valid UTF-8
   * (the parser then reports PARSE/019 at the first bad byte).
   */
  get text(): string | undefined {
    if (this.kind !== "text") return undefined;
    if (this.#text !== undefined) return this.#text;
    try {
      return new TextDecoder("utf-8", { fatal: true, ignoreBOM: true }).decode(this.#bytes);
    } catch {
      return undefined;
    }
  }
}

function checkName(name: unknown): void {
  if (typeof name !== "string" || name.length === 0) throw new LoomError("invalid-argument", "Source: 'name' must be a non-empty string");
}

export function isBytecode(bytes: Uint8Array): boolean {
  return bytes.length >= 4 && LOOM_MAGIC.every((b, i) => bytes[i] === b);
}

/** Line:column (1-based, code points) of the first invalid UTF-8 byte. */
export function firstInvalidUtf8(bytes: Uint8Array): { line: number; column: number } {
  let line = 1, column = 1, i = 0;
  while (i < bytes.length) {
    const b = bytes[i]!;
    let n = b < 0x80 ? 1 : b >= 0xc2 && b < 0xe0 ? 2 : b >= 0xe0 && b < 0xf0 ? 3 : b >= 0xf0 && b < 0xf5 ? 4 : 0;
    if (n === 0 || i + n > bytes.length) return { line, column };
    for (let k = 1; k < n; k++) if ((bytes[i + k]! & 0xc0) !== 0x80) return { line, column };
    try {
      new TextDecoder("utf-8", { fatal: true }).decode(bytes.subarray(i, i + n));
    } catch {
      return { line, column };
    }
    if (b === 0x0a) {
      line++;
      column = 1;
    } else column++;
    i += n;
  }
  return { line, column };
}
