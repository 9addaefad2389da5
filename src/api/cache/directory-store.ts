/**
 * A `CacheStore` in a directory (Node only: `loomc/node`). One file per key, written to a
 * temporary name and renamed, so readers never see half an entry; I/O errors are misses.
 */
import { mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { LoomError } from "../../core/errors.js";
import type { CacheStore } from "./cache.js";

const KEY = /^[0-9a-f]{64}$/;

export class DirectoryStore implements CacheStore {
  constructor(readonly directory: string) {
    if (typeof directory !== "string" || directory.length === 0) throw new LoomError("invalid-argument", "DirectoryStore: 'directory' must be a non-empty path");
    try {
      mkdirSync(directory, { recursive: true });
    } catch (e) {
      throw new LoomError("failed-precondition", `DirectoryStore: cannot create '${directory}': ${(e as Error).message}`);
    }
  }

  #path(key: string): string {
    if (!KEY.test(key)) throw new LoomError("invalid-argument", `DirectoryStore: '${key}' is not a cache key`);
    return join(this.directory, `${key}.lmce`);
  }

  read(key: string): Uint8Array | undefined {
    try {
      return readFileSync(this.#path(key));
    } catch (e) {
      if (e instanceof LoomError) throw e;
      return undefined;
    }
  }

  write(key: string, bytes: Uint8Array): void {
    const path = this.#path(key);
    const tmp = `${path}.${process.pid}.tmp`;
    try {
      writeFileSync(tmp, bytes);
      renameSync(tmp, path);
    } catch {
      rmSync(tmp, { force: true });
    }
  }

  remove(key: string): void {
    rmSync(this.#path(key), { force: true });
  }
}
