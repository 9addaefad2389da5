/**
 * Problems found while decoding a module file. Byte-level problems arrive as the container's
 * `LoomError("data-loss")`; the module decoder adds the two kinds that deserve their own codes
 * (a bad reference, an exceeded limit). The reader turns either into one BYTECODE diagnostic.
 */
import { D, type CatalogEntry } from "../../core/diag/catalog.js";
import type { ByteReader } from "../bytes.js";

export class BytecodeFault extends Error {
  constructor(
    readonly entry: CatalogEntry,
    message: string,
  ) {
    super(message);
  }
}

function at(r: ByteReader, message: string): string {
  return `${r.where} at byte ${r.base + r.position}: ${message}`;
}

export function badReference(r: ByteReader, message: string): never {
  throw new BytecodeFault(D.bytecodeBadReference, at(r, message));
}

export function limitExceeded(r: ByteReader, message: string): never {
  throw new BytecodeFault(D.bytecodeLimit, at(r, message));
}

/** A count about to drive a loop whose every iteration consumes at least `minBytes` bytes. */
export function count(r: ByteReader, what: string, minBytes = 1): number {
  return r.varuint(what, Math.floor(r.remaining / minBytes));
}
