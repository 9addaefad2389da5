/**
 * An `AsyncCacheStore` in Redis (Node only: `loomc/node`), for a fleet of machines sharing
 * compiled kernels (docs/cache.md "Sharing a cache across machines"). The `redis` package
 * is an optional peer dependency, imported only when a store is opened.
 *
 * One Redis string per entry under `<namespace><sha-256 hex>`, written with a TTL. A write
 * is a single SET, so readers see a whole entry or none. Reads run STRLEN and GET in one Lua
 * script: an entry over `maxEntryBytes` is a miss and never crosses the wire. Entries are
 * validated by `ArtifactCache` (key binding, schema, trailer) like any other store's; here,
 * connection and command errors are misses, so Redis going away never fails a compile.
 */
import { LoomError } from "../../core/errors.js";
import { LOOMC_VERSION } from "../../core/version.js";
import type { AsyncCacheStore } from "./cache.js";

const KEY = /^[0-9a-f]{64}$/;
const DEFAULT_MAX_ENTRY_BYTES = 256 * 1024 * 1024;
const DEFAULT_TTL_SECONDS = 7 * 24 * 3600;
/** Returns the value, or its length when that exceeds ARGV[1] (so nothing large is sent). */
const CAPPED_GET = "local n = redis.call('STRLEN', KEYS[1]) if n > tonumber(ARGV[1]) then return n end return redis.call('GET', KEYS[1])";

/** The commands this store uses, on a node-redis client mapping blob strings to Buffers. */
interface BinaryClient {
  eval(script: string, options: { keys: string[]; arguments: string[] }): Promise<unknown>;
  set(key: string, value: Uint8Array, options: { expiration: { type: "EX"; value: number } }): Promise<unknown>;
  del(key: string): Promise<unknown>;
  withTypeMapping(mapping: Record<number, unknown>): BinaryClient;
}

/** What `RedisStore.open` needs of a client the caller made: a node-redis client, connected. */
export interface RedisClientLike {
  /** node-redis's `withTypeMapping`: the store asks for binary (Buffer) replies through it. */
  withTypeMapping(mapping: never): unknown;
}

/** How `RedisStore.open` reaches the server, and the namespace, TTL and size cap of its entries. */
export interface RedisStoreOptions {
  /** A connected node-redis client (the caller owns it: `close()` leaves it open). */
  readonly client?: RedisClientLike;
  /** Or a server URL (`redis://host:port/db`); the store then owns its connection. */
  readonly url?: string;
  /** Prefix of every Redis key; default `loom:<LOOMC_VERSION>:`, so compiler versions never share entries. */
  readonly namespace?: string;
  /** Expiry of each entry written, in seconds (default 7 days). */
  readonly ttlSeconds?: number;
  /** Largest entry read or written, in bytes (default 256 MiB). */
  readonly maxEntryBytes?: number;
  /** Connection timeout for `url` (default 2000 ms); a server that does not answer is `LoomError("failed-precondition")`. */
  readonly connectTimeoutMs?: number;
}

function positive(value: number | undefined, fallback: number, name: string): number {
  const v = value ?? fallback;
  if (!Number.isSafeInteger(v) || v < 1) throw new LoomError("invalid-argument", `RedisStore: '${name}' must be a positive integer`);
  return v;
}

export class RedisStore implements AsyncCacheStore {
  readonly namespace: string;
  readonly ttlSeconds: number;
  readonly maxEntryBytes: number;
  /** Why the last read or write was turned into a miss (an oversized entry, a Redis error). */
  lastRejection: string | undefined;
  readonly #client: BinaryClient;
  readonly #close: (() => Promise<void>) | undefined;

  private constructor(client: BinaryClient, close: (() => Promise<void>) | undefined, options: RedisStoreOptions) {
    this.#client = client;
    this.#close = close;
    this.namespace = options.namespace ?? `loom:${LOOMC_VERSION}:`;
    this.ttlSeconds = positive(options.ttlSeconds, DEFAULT_TTL_SECONDS, "ttlSeconds");
    this.maxEntryBytes = positive(options.maxEntryBytes, DEFAULT_MAX_ENTRY_BYTES, "maxEntryBytes");
  }

  /** Opens a store on `client` or `url` (exactly one). Loads the `redis` package on first use. */
  static async open(options: RedisStoreOptions): Promise<RedisStore> {
    if (!options || typeof options !== "object") throw new LoomError("invalid-argument", "RedisStore.open: options are required");
    if ((options.client === undefined) === (options.url === undefined)) throw new LoomError("invalid-argument", "RedisStore.open: give exactly one of 'client' and 'url'");
    if (options.namespace !== undefined && (typeof options.namespace !== "string" || options.namespace.length === 0)) {
      throw new LoomError("invalid-argument", "RedisStore.open: 'namespace' must be a non-empty string");
    }
    positive(options.ttlSeconds, DEFAULT_TTL_SECONDS, "ttlSeconds");
    positive(options.maxEntryBytes, DEFAULT_MAX_ENTRY_BYTES, "maxEntryBytes");
    const timeout = positive(options.connectTimeoutMs, 2000, "connectTimeoutMs");
    let redis: typeof import("redis");
    try {
      redis = await import("redis");
    } catch {
      throw new LoomError("failed-precondition", "RedisStore: the optional peer dependency 'redis' is not installed (npm install redis)");
    }
    const binary = { [redis.RESP_TYPES.BLOB_STRING]: Buffer };
    if (options.client !== undefined) {
      if (typeof (options.client as { withTypeMapping?: unknown }).withTypeMapping !== "function") {
        throw new LoomError("invalid-argument", "RedisStore.open: 'client' must be a node-redis client");
      }
      return new RedisStore((options.client as unknown as BinaryClient).withTypeMapping(binary), undefined, options);
    }
    if (typeof options.url !== "string") throw new LoomError("invalid-argument", "RedisStore.open: 'url' must be a string");
    // Commands fail at once while disconnected (a miss) instead of queueing without bound.
    const client = redis.createClient({ url: options.url, disableOfflineQueue: true, socket: { connectTimeout: timeout, reconnectStrategy: (retries: number) => Math.min(100 * 2 ** retries, 5000) } });
    let lastError: Error | undefined;
    client.on("error", (e: Error) => void (lastError = e)); // reported through lastRejection, never thrown
    try {
      await withTimeout(client.connect(), timeout);
    } catch (e) {
      await client.destroy();
      throw new LoomError("failed-precondition", `RedisStore: cannot connect to ${options.url}: ${(lastError ?? (e as Error)).message}`);
    }
    const store: RedisStore = new RedisStore(client.withTypeMapping(binary) as unknown as BinaryClient, async () => void (await client.quit()), options);
    return store;
  }

  #key(key: string): string {
    if (typeof key !== "string" || !KEY.test(key)) throw new LoomError("invalid-argument", `RedisStore: '${String(key)}' is not a cache key`);
    return this.namespace + key;
  }

  /** The entry under `key`, or undefined: a miss, an oversized value or a Redis error (see `lastRejection`). */
  async get(key: string): Promise<Uint8Array | undefined> {
    const k = this.#key(key);
    try {
      const reply = await this.#client.eval(CAPPED_GET, { keys: [k], arguments: [String(this.maxEntryBytes)] });
      if (typeof reply === "number") {
        this.lastRejection = `entry of ${reply} bytes exceeds maxEntryBytes ${this.maxEntryBytes}`;
        return undefined;
      }
      return reply instanceof Uint8Array ? new Uint8Array(reply.buffer, reply.byteOffset, reply.byteLength) : undefined;
    } catch (e) {
      this.lastRejection = `redis: ${(e as Error).message}`;
      return undefined;
    }
  }

  /** Writes `bytes` under `key` with the store's TTL (one `SET … EX`); oversized entries are not written. */
  async put(key: string, bytes: Uint8Array): Promise<void> {
    const k = this.#key(key);
    if (!(bytes instanceof Uint8Array)) throw new LoomError("invalid-argument", "RedisStore.put: 'bytes' must be a Uint8Array");
    if (bytes.length > this.maxEntryBytes) {
      this.lastRejection = `entry of ${bytes.length} bytes exceeds maxEntryBytes ${this.maxEntryBytes}; not written`;
      return;
    }
    try {
      await this.#client.set(k, Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength), { expiration: { type: "EX", value: this.ttlSeconds } });
    } catch (e) {
      this.lastRejection = `redis: ${(e as Error).message}`;
    }
  }

  /** Deletes the entry under `key`. */
  async remove(key: string): Promise<void> {
    const k = this.#key(key);
    try {
      await this.#client.del(k);
    } catch (e) {
      this.lastRejection = `redis: ${(e as Error).message}`;
    }
  }

  /** Closes the connection the store opened from a URL (a caller's client stays open). */
  async close(): Promise<void> {
    await this.#close?.();
  }
}

function withTimeout<T>(p: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const expiry = new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms)));
  return Promise.race([p, expiry]).finally(() => clearTimeout(timer));
}
