/**
 * A `CacheStore` in a directory (Node only: `loomc/node`). One file per key, written to a
 * fresh temporary name (created exclusively, never through a link) and renamed, so readers
 * never see half an entry and a planted link cannot redirect a write. Reads open only
 * regular files, without following links and without blocking (a FIFO or device at an
 * entry's name is a miss), and check the size cap before reading a byte. I/O errors are misses.
 */
import { closeSync, constants, fstatSync, mkdirSync, openSync, readSync, renameSync, rmSync, writeSync } from "node:fs";
import { randomBytes } from "node:crypto";
import { join, resolve } from "node:path";
import { LoomError } from "../../core/errors.js";
import type { CacheStore } from "./cache.js";

const KEY = /^[0-9a-f]{64}$/;

/** Default cap on one entry file (bytes): anything larger is a miss and is not read. */
const DEFAULT_MAX_ENTRY_BYTES = 256 * 1024 * 1024;

/** Options of a {@link DirectoryStore}: the directory and its size bound. */
export interface DirectoryStoreOptions {
  /** Largest entry file read or written, in bytes (default 256 MiB). */
  readonly maxEntryBytes?: number;
}

export class DirectoryStore implements CacheStore {
  readonly directory: string;
  readonly maxEntryBytes: number;

  constructor(directory: string, options: DirectoryStoreOptions = {}) {
    if (typeof directory !== "string" || directory.length === 0) throw new LoomError("invalid-argument", "DirectoryStore: 'directory' must be a non-empty path");
    const max = options?.maxEntryBytes ?? DEFAULT_MAX_ENTRY_BYTES;
    if (!Number.isSafeInteger(max) || max < 1) throw new LoomError("invalid-argument", "DirectoryStore: 'maxEntryBytes' must be a positive integer");
    this.maxEntryBytes = max;
    // Resolved first: "a/sub/../c" is "a/c", and "a/sub" is never created.
    this.directory = resolve(directory);
    try {
      mkdirSync(this.directory, { recursive: true });
    } catch (e) {
      throw new LoomError("failed-precondition", `DirectoryStore: cannot create '${directory}': ${(e as Error).message}`);
    }
  }

  #path(key: string): string {
    if (typeof key !== "string" || !KEY.test(key)) throw new LoomError("invalid-argument", `DirectoryStore: '${String(key)}' is not a cache key`);
    return join(this.directory, `${key}.lmce`);
  }

  /** The bytes stored under `key`, or `undefined` for a missing or unreadable entry. */
  read(key: string): Uint8Array | undefined {
    const path = this.#path(key);
    let fd: number | undefined;
    try {
      fd = openSync(path, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK);
      const st = fstatSync(fd);
      if (!st.isFile() || st.size > this.maxEntryBytes) return undefined;
      const out = new Uint8Array(st.size);
      let at = 0;
      while (at < out.length) {
        const n = readSync(fd, out, at, out.length - at, at);
        if (n === 0) return undefined; // shrank while reading: not a whole entry
        at += n;
      }
      return out;
    } catch {
      return undefined;
    } finally {
      if (fd !== undefined) closeSync(fd);
    }
  }

  /** Writes `bytes` under `key` atomically (temporary file + rename), so readers never see a partial entry; entries over the size bound and I/O failures are silently not stored. */
  write(key: string, bytes: Uint8Array): void {
    const path = this.#path(key);
    if (!(bytes instanceof Uint8Array)) throw new LoomError("invalid-argument", "DirectoryStore.write: 'bytes' must be a Uint8Array");
    if (bytes.length > this.maxEntryBytes) return;
    const tmp = `${path}.${process.pid}.${randomBytes(8).toString("hex")}.tmp`;
    let fd: number | undefined;
    try {
      fd = openSync(tmp, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW, 0o644);
      let at = 0;
      while (at < bytes.length) at += writeSync(fd, bytes, at, bytes.length - at);
      closeSync(fd);
      fd = undefined;
      renameSync(tmp, path);
    } catch {
      if (fd !== undefined) closeSync(fd);
      rmSync(tmp, { force: true });
    }
  }

  /** Deletes the file holding `key`, if any. */
  remove(key: string): void {
    rmSync(this.#path(key), { force: true });
  }
}
