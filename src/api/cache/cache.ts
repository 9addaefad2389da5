/**
 * The artifact cache: compiled kernel versions, content-addressed by everything that can
 * change an artifact — source bytes, linked library digests, profile facts, config
 * bindings, compile and emit options, and the compiler version. Entries live in memory
 * (LRU) and optionally in a `CacheStore` (e.g. a directory, `loomc/node`) or an
 * `AsyncCacheStore` (e.g. Redis, `loomc/node`, through `getAsync` / `putAsync`).
 *
 * A key is an opaque canonical string of all inputs: source text verbatim (bytes sources
 * and other immutable inputs by their SHA-256, computed once per object). Memory lookups
 * need no hashing at all; the store sees the SHA-256 of the key.
 */
import type { Diagnostic } from "../../core/diag/diagnostic.js";
import type { Artifact } from "../../core/artifact.js";
import type { Source } from "../source.js";
import { LoomError } from "../../core/errors.js";
import type { TargetProfile } from "../../core/target.js";
import { LOOMC_VERSION } from "../../core/version.js";
import { canonicalText, digestOnce, digestText } from "./digest.js";
import { checkEntry, encodeEntry } from "./entry-codec.js";

/** Everything a cached compile depends on. Mirrors compileModule + emitModule options. */
export interface CacheKeyInput {
  readonly source: Source;
  readonly specializations: readonly { readonly functionSymbol: string; readonly targetProfile: TargetProfile }[];
  readonly moduleName?: string;
  readonly config?: Readonly<Record<string, bigint | number | boolean>>;
  readonly artifacts?: { readonly launchConfig?: boolean };
  /** Linked libraries: anything with stable bytes (a LinkIndex's `toBytes()`) or a digest. */
  readonly linkIndex?:
    | {
        /** Stable bytes identifying the link index. */
        toBytes(): Uint8Array;
      }
    | { readonly digest: string };
  /** Emission requests whose artifacts are cached together with the compile's. */
  readonly emit?: readonly {
    readonly artifactFormat: string;
    readonly identifier?: string;
    readonly primary?: boolean;
    readonly target?: Readonly<Record<string, unknown>>;
  }[];
}

/** A cached compile: the compile `Result` and the emit `Result`s it was stored with. */
export interface CachedCompile {
  readonly artifacts: readonly Artifact[];
  /** Warnings and notes of the successful compile (failed compiles are not cached). */
  readonly diagnostics: readonly Diagnostic[];
}

/** Persistent backing for the cache, addressed by SHA-256 hex; calls are synchronous and may fail silently. */
export interface CacheStore {
  /** The bytes stored under `key`, or `undefined` when there are none (a miss, never an error). */
  read(key: string): Uint8Array | undefined;
  /** Stores `bytes` under `key`, replacing any earlier entry. */
  write(key: string, bytes: Uint8Array): void;
  /** Deletes the entry under `key`, if any (optional; used to evict corrupt entries). */
  remove?(key: string): void;
}

/**
 * A store whose I/O is asynchronous (e.g. Redis, `loomc/node`), used by `getAsync` /
 * `putAsync`. Same contract as `CacheStore`: SHA-256 hex keys, failures are misses.
 */
export interface AsyncCacheStore {
  /** The entry bytes stored under `key`, or undefined (a miss; store errors are misses too). */
  get(key: string): Promise<Uint8Array | undefined>;
  /** Stores `bytes` under `key`, replacing any entry; a failed write is not an error. */
  put(key: string, bytes: Uint8Array): Promise<void>;
  /** Deletes the entry under `key` (the cache drops entries that fail validation). */
  remove?(key: string): Promise<void>;
}

/** Options of an {@link ArtifactCache}: its backing store and in-memory limits. */
export interface ArtifactCacheOptions {
  /** Entries kept in memory (least recently used evicted first); default 256. */
  readonly maxEntries?: number;
  readonly store?: CacheStore;
  /** Backing for `getAsync` / `putAsync` (the sync `get` / `put` do not consult it). */
  readonly asyncStore?: AsyncCacheStore;
  /**
   * A secret for stores on shared storage: entries are then authenticated with
   * HMAC-SHA-256 under it, so only processes holding the key can write an entry this cache
   * accepts (without it, the SHA-256 trailer detects damage, not tampering; docs/cache.md).
   */
  readonly integrityKey?: Uint8Array | string;
}

/** Counters of an {@link ArtifactCache} since creation or the last `clear()`. */
export interface CacheStats {
  hits: number;
  misses: number;
  storeHits: number;
  evictions: number;
}

function sourcePart(s: Source): string {
  const text = s.kind === "text" ? s.text : undefined;
  return text !== undefined ? `${JSON.stringify(s.name)}:t${JSON.stringify(text)}` : `${JSON.stringify(s.name)}:b${digestOnce(s, () => s.bytes)}`;
}

function profileDigest(p: TargetProfile): string {
  // Profiles are deeply frozen: their whole data (facts and target-specific info) is the key.
  return digestOnce(p, () => p);
}

function linkDigest(l: CacheKeyInput["linkIndex"]): string {
  if (!l) return "";
  if ("digest" in l && typeof l.digest === "string") return l.digest;
  return digestOnce(l, () => (l as { toBytes(): Uint8Array }).toBytes());
}

/** Content-addressed cache of compile and emit results: the same inputs give the same key, so a hit returns the artifacts byte-identical to a fresh compile. */
export class ArtifactCache {
  readonly #entries = new Map<string, CachedCompile>();
  readonly #maxEntries: number;
  readonly #store: CacheStore | undefined;
  readonly #asyncStore: AsyncCacheStore | undefined;
  readonly #integrityKey: Uint8Array | undefined;
  #lastRejection: string | undefined;
  readonly stats: CacheStats = { hits: 0, misses: 0, storeHits: 0, evictions: 0 };

  constructor(options: ArtifactCacheOptions = {}) {
    const max = options.maxEntries ?? 256;
    if (!Number.isInteger(max) || max < 1) throw new LoomError("invalid-argument", "ArtifactCache: 'maxEntries' must be a positive integer");
    this.#maxEntries = max;
    const store = options.store;
    if (store !== undefined && (typeof store !== "object" || store === null || typeof store.read !== "function" || typeof store.write !== "function")) {
      throw new LoomError("invalid-argument", "ArtifactCache: 'store' must have read(key) and write(key, bytes)");
    }
    this.#store = store;
    const asyncStore = options.asyncStore;
    if (asyncStore !== undefined && (typeof asyncStore !== "object" || asyncStore === null || typeof asyncStore.get !== "function" || typeof asyncStore.put !== "function")) {
      throw new LoomError("invalid-argument", "ArtifactCache: 'asyncStore' must have get(key) and put(key, bytes)");
    }
    this.#asyncStore = asyncStore;
    const secret = options.integrityKey;
    if (secret !== undefined && !(secret instanceof Uint8Array && secret.length > 0) && !(typeof secret === "string" && secret.length > 0)) {
      throw new LoomError("invalid-argument", "ArtifactCache: 'integrityKey' must be a non-empty Uint8Array or string");
    }
    this.#integrityKey = typeof secret === "string" ? new TextEncoder().encode(secret) : secret?.slice();
  }

  /** The content address of one compile + emit. */
  static keyFor(input: CacheKeyInput): string {
    if (!input || typeof input !== "object" || !input.source) throw new LoomError("invalid-argument", "ArtifactCache.keyFor: 'source' is required");
    if (!Array.isArray(input.specializations)) throw new LoomError("invalid-argument", "ArtifactCache.keyFor: 'specializations' must be an array");
    input.specializations.forEach((x, i) => {
      if (!x || typeof x.functionSymbol !== "string") throw new LoomError("invalid-argument", `ArtifactCache.keyFor: specializations[${i}].functionSymbol must be a string`);
      if (!x.targetProfile || typeof x.targetProfile !== "object") throw new LoomError("invalid-argument", `ArtifactCache.keyFor: specializations[${i}].targetProfile must be a TargetProfile`);
    });
    if (input.moduleName !== undefined && typeof input.moduleName !== "string") throw new LoomError("invalid-argument", "ArtifactCache.keyFor: 'moduleName' must be a string");
    if (input.config !== undefined && (typeof input.config !== "object" || input.config === null)) throw new LoomError("invalid-argument", "ArtifactCache.keyFor: 'config' must be an object");
    if (input.emit !== undefined && !Array.isArray(input.emit)) throw new LoomError("invalid-argument", "ArtifactCache.keyFor: 'emit' must be an array");
    // Fields are joined with NUL, which no JSON or hex text contains: the key is unambiguous.
    const specs = input.specializations.map((x) => `${JSON.stringify(x.functionSymbol.replace(/^@/, ""))}=${profileDigest(x.targetProfile)}`).join(",");
    return [
      LOOMC_VERSION,
      sourcePart(input.source),
      linkDigest(input.linkIndex),
      specs,
      JSON.stringify(input.moduleName ?? ""),
      input.config ? canonicalText(input.config) : "{}",
      input.artifacts?.launchConfig ? "lc" : "",
      input.emit ? canonicalText(input.emit) : "[]",
    ].join("\0");
  }

  get size(): number {
    return this.#entries.size;
  }

  /** Why the last entry read from a store was refused (undefined until one is). */
  get lastRejection(): string | undefined {
    return this.#lastRejection;
  }

  /** The cached compile, from memory or the store; undefined on a miss. */
  get(key: string): CachedCompile | undefined {
    const hit = this.#memoryHit(key, "get");
    if (hit) return hit;
    const storeKey = this.#store ? digestText(key) : "";
    const bytes = this.#store?.read(storeKey);
    return this.#fromStore(key, storeKey, bytes, () => this.#store?.remove?.(storeKey));
  }

  /** `get` through the `asyncStore` (memory first); undefined on a miss. */
  async getAsync(key: string): Promise<CachedCompile | undefined> {
    const hit = this.#memoryHit(key, "getAsync");
    if (hit) return hit;
    const storeKey = this.#asyncStore ? digestText(key) : "";
    const bytes = await this.#asyncStore?.get(storeKey);
    return this.#fromStore(key, storeKey, bytes, () => void this.#asyncStore?.remove?.(storeKey).catch(() => undefined));
  }

  /** Stores a successful compile's artifacts (bytes are copied: the entry owns them). */
  put(key: string, value: CachedCompile): CachedCompile {
    const entry = this.#admit(key, value, "put");
    if (this.#store) {
      const storeKey = digestText(key);
      this.#store.write(storeKey, encodeEntry(entry, storeKey, this.#integrityKey));
    }
    return entry;
  }

  /** `put`, writing through the `asyncStore`; resolves once the store has the entry (or failed). */
  async putAsync(key: string, value: CachedCompile): Promise<CachedCompile> {
    const entry = this.#admit(key, value, "putAsync");
    if (this.#asyncStore) {
      const storeKey = digestText(key);
      await this.#asyncStore.put(storeKey, encodeEntry(entry, storeKey, this.#integrityKey));
    }
    return entry;
  }

  #memoryHit(key: string, method: string): CachedCompile | undefined {
    if (typeof key !== "string") throw new LoomError("invalid-argument", `ArtifactCache.${method}: 'key' must be a string (from keyFor)`);
    const hit = this.#entries.get(key);
    if (!hit) return undefined;
    // Refresh recency: Map iteration order is insertion order.
    this.#entries.delete(key);
    this.#entries.set(key, hit);
    this.stats.hits++;
    return hit;
  }

  /** Decodes and validates bytes a store returned; a refused entry is dropped and counts a miss. */
  #fromStore(key: string, storeKey: string, bytes: Uint8Array | undefined, drop: () => void): CachedCompile | undefined {
    if (bytes) {
      const checked = checkEntry(bytes, storeKey, this.#integrityKey);
      if (typeof checked !== "string") {
        this.stats.storeHits++;
        this.#remember(key, checked);
        return checked;
      }
      this.#lastRejection = checked;
      drop(); // corrupt or foreign
    }
    this.stats.misses++;
    return undefined;
  }

  /** Validates a value for `put` / `putAsync` and keeps a frozen copy in memory. */
  #admit(key: string, value: CachedCompile, method: string): CachedCompile {
    if (typeof key !== "string") throw new LoomError("invalid-argument", `ArtifactCache.${method}: 'key' must be a string (from keyFor)`);
    if (!value || !Array.isArray(value.artifacts) || !Array.isArray(value.diagnostics)) {
      throw new LoomError("invalid-argument", `ArtifactCache.${method}: the value must be { artifacts: Artifact[], diagnostics: Diagnostic[] }`);
    }
    value.artifacts.forEach((a, i) => {
      if (!a || typeof a.kind !== "string" || typeof a.format !== "string" || typeof a.identifier !== "string" || !(a.contents instanceof Uint8Array)) {
        throw new LoomError("invalid-argument", `ArtifactCache.${method}: artifacts[${i}] must be an Artifact with Uint8Array contents`);
      }
    });
    const entry: CachedCompile = Object.freeze({
      artifacts: Object.freeze(value.artifacts.map((a) => Object.freeze({ ...a, contents: a.contents.slice() }))),
      diagnostics: Object.freeze([...value.diagnostics]),
    });
    this.#remember(key, entry);
    return entry;
  }

  /** `get`, or run `produce` and `put` its result when it is not undefined (a failed compile). */
  getOrCreate(key: string, produce: () => CachedCompile | undefined): CachedCompile | undefined {
    const hit = this.get(key);
    if (hit) return hit;
    const made = produce();
    return made ? this.put(key, made) : undefined;
  }

  /** Drops every in-memory entry; the backing store is left as is. */
  clear(): void {
    this.#entries.clear();
  }

  #remember(key: string, entry: CachedCompile): void {
    this.#entries.set(key, entry);
    while (this.#entries.size > this.#maxEntries) {
      this.#entries.delete(this.#entries.keys().next().value!);
      this.stats.evictions++;
    }
  }
}
