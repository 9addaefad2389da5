/**
 * RedisStore against a real redis-server (127.0.0.1:6379, or LOOM_TEST_REDIS_URL; `.ci/run`
 * starts one). Without a server answering, each test skips with the reason; under
 * REQUIRE_ALL_TOOLS=1 it fails. Every test uses its own key namespace and deletes it after.
 */
import { test, type TestContext } from "node:test";
import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { randomBytes } from "node:crypto";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { createClient, RESP_TYPES } from "redis";
import { ArtifactCache } from "../../src/api/cache/cache.js";
import { digestText } from "../../src/api/cache/digest.js";
import { RedisStore, type RedisStoreOptions } from "../../src/api/cache/redis-store.js";
import { LoomError } from "../../src/index.js";
import { LOOMC_VERSION } from "../../src/core/version.js";
import { skipOrFail } from "../util/tools.js";
import { digestOf, entryFor, keyInput, type ChildReport } from "./redis-child.js";

const URL_ = process.env.LOOM_TEST_REDIS_URL ?? "redis://127.0.0.1:6379";
const CHILD = fileURLToPath(new URL("./redis-child.js", import.meta.url));

type Raw = ReturnType<typeof rawClient>;
function rawClient() {
  return createClient({ url: URL_, socket: { reconnectStrategy: false, connectTimeout: 2000 } }).withTypeMapping({ [RESP_TYPES.BLOB_STRING]: Buffer });
}

/** A store in a fresh namespace plus a raw client on the same server, or undefined (skipped). */
async function setup(t: TestContext, options: Omit<RedisStoreOptions, "url" | "client"> = {}) {
  const namespace = `loom-test:${randomBytes(6).toString("hex")}:`;
  let store: RedisStore;
  try {
    store = await RedisStore.open({ url: URL_, namespace, ttlSeconds: 600, ...options });
  } catch (e) {
    skipOrFail(t, `no Redis server answers at ${URL_} (${(e as Error).message}; start redis-server or set LOOM_TEST_REDIS_URL)`);
    return undefined;
  }
  const raw = rawClient();
  raw.on("error", () => undefined);
  await raw.connect();
  t.after(async () => {
    for (const k of await raw.keys(`${store.namespace}*`)) await raw.del(k);
    await raw.quit();
    await store.close();
  });
  return { store, raw, namespace: store.namespace };
}

const keyA = ArtifactCache.keyFor(keyInput("a"));
const keyB = ArtifactCache.keyFor(keyInput("b"));
const redisKey = (ns: string, key: string) => ns + digestText(key);

test("redis: round trip through a second cache, with the artifacts' exact bytes", async (t) => {
  const s = await setup(t);
  if (!s) return;
  const entry = entryFor("a");
  await new ArtifactCache({ asyncStore: s.store }).putAsync(keyA, entry);
  assert.equal(await s.raw.ttl(redisKey(s.namespace, keyA)) > 0, true);
  const reader = new ArtifactCache({ asyncStore: s.store });
  const got = await reader.getAsync(keyA);
  assert.ok(got, "hit from Redis");
  assert.equal(digestOf(got), digestOf(entry));
  assert.deepEqual([...got.artifacts[0]!.contents], [...entry.artifacts[0]!.contents]);
  assert.deepEqual(reader.stats, { hits: 0, misses: 0, storeHits: 1, evictions: 0 });
  assert.equal(await reader.getAsync(keyB), undefined);
  assert.equal(reader.stats.misses, 1);
  assert.equal(await reader.getAsync(keyA), got, "second read from memory");
  assert.equal(reader.stats.hits, 1);
});

test("redis: an entry copied to another key is a miss with a reason, and is dropped", async (t) => {
  const s = await setup(t);
  if (!s) return;
  await new ArtifactCache({ asyncStore: s.store }).putAsync(keyB, entryFor("b"));
  const bValue = await s.raw.get(redisKey(s.namespace, keyB));
  assert.ok(bValue);
  await s.raw.set(redisKey(s.namespace, keyA), bValue);
  const reader = new ArtifactCache({ asyncStore: s.store });
  assert.equal(await reader.getAsync(keyA), undefined);
  assert.match(reader.lastRejection ?? "", /another key/);
  assert.equal(reader.stats.misses, 1);
  await new Promise((r) => setTimeout(r, 50)); // the drop is fire-and-forget
  assert.equal(await s.raw.exists(redisKey(s.namespace, keyA)), 0, "foreign entry removed");
  assert.ok(await reader.getAsync(keyB), "B itself still hits");
});

test("redis: corrupted entries and entries under another integrityKey are misses with a reason", async (t) => {
  const s = await setup(t);
  if (!s) return;
  await new ArtifactCache({ asyncStore: s.store }).putAsync(keyA, entryFor("a"));
  const k = redisKey(s.namespace, keyA);
  const good = (await s.raw.get(k))!;
  for (const at of [0, 9, good.length >> 1, good.length - 1]) {
    const bad = Buffer.from(good);
    bad[at]! ^= 0x40;
    await s.raw.set(k, bad);
    const reader: ArtifactCache = new ArtifactCache({ asyncStore: s.store });
    assert.equal(await reader.getAsync(keyA), undefined, `flip at ${at}`);
    assert.match(reader.lastRejection ?? "", /LMCE|trailer/, `flip at ${at}`);
  }
  await s.raw.set(k, good.subarray(0, good.length - 5));
  const torn = new ArtifactCache({ asyncStore: s.store });
  assert.equal(await torn.getAsync(keyA), undefined);
  assert.match(torn.lastRejection ?? "", /trailer/);

  await new ArtifactCache({ asyncStore: s.store, integrityKey: "secret-1" }).putAsync(keyA, entryFor("a"));
  const other = new ArtifactCache({ asyncStore: s.store, integrityKey: "secret-2" });
  assert.equal(await other.getAsync(keyA), undefined);
  assert.match(other.lastRejection ?? "", /HMAC/);
  await new Promise((r) => setTimeout(r, 50));
  assert.equal(await s.raw.exists(redisKey(s.namespace, keyA)), 0, "a refused entry is dropped (as in every store)");
});

test("redis: oversized entries are neither written nor read", async (t) => {
  const s = await setup(t, { maxEntryBytes: 2048 });
  if (!s) return;
  const cache = new ArtifactCache({ asyncStore: s.store });
  await cache.putAsync(keyA, entryFor("a")); // > 4096 bytes encoded
  assert.equal(await s.raw.exists(redisKey(s.namespace, keyA)), 0);
  assert.match(s.store.lastRejection ?? "", /exceeds maxEntryBytes 2048; not written/);
  await s.raw.set(redisKey(s.namespace, keyA), Buffer.alloc(100_000, 7));
  const reader = new ArtifactCache({ asyncStore: s.store });
  assert.equal(await reader.getAsync(keyA), undefined);
  assert.match(s.store.lastRejection ?? "", /entry of 100000 bytes exceeds maxEntryBytes 2048/);
  assert.equal(reader.stats.misses, 1);
});

test("redis: entries carry the configured TTL", async (t) => {
  const s = await setup(t, { ttlSeconds: 321 });
  if (!s) return;
  await new ArtifactCache({ asyncStore: s.store }).putAsync(keyA, entryFor("a"));
  const ttl = await s.raw.ttl(redisKey(s.namespace, keyA));
  assert.ok(ttl > 300 && ttl <= 321, `TTL ${ttl}`);
});

test("redis: namespaces isolate; the default one names the compiler version", async (t) => {
  const s = await setup(t);
  if (!s) return;
  await new ArtifactCache({ asyncStore: s.store }).putAsync(keyA, entryFor("a"));
  const otherStore = await RedisStore.open({ url: URL_, namespace: `${s.namespace}other:` });
  t.after(() => otherStore.close());
  const other = new ArtifactCache({ asyncStore: otherStore });
  assert.equal(await other.getAsync(keyA), undefined);
  assert.equal(other.lastRejection, undefined, "a plain miss, nothing refused");
  const defaults = await RedisStore.open({ url: URL_ });
  t.after(() => defaults.close());
  assert.equal(defaults.namespace, `loom:${LOOMC_VERSION}:`);
  assert.equal(defaults.ttlSeconds, 7 * 24 * 3600);
});

test("redis: misuse is LoomError(invalid-argument); a dead server is failed-precondition", async (t) => {
  const s = await setup(t);
  if (!s) return;
  await assert.rejects(RedisStore.open({} as RedisStoreOptions), (e: unknown) => e instanceof LoomError && e.status === "invalid-argument");
  await assert.rejects(RedisStore.open({ url: URL_, ttlSeconds: 0 }), (e: unknown) => e instanceof LoomError && e.status === "invalid-argument");
  await assert.rejects(s.store.get("../etc"), (e: unknown) => e instanceof LoomError && e.status === "invalid-argument");
  await assert.rejects(RedisStore.open({ url: "redis://127.0.0.1:1", connectTimeoutMs: 500 }), (e: unknown) => e instanceof LoomError && e.status === "failed-precondition");
  assert.throws(() => new ArtifactCache({ asyncStore: {} as never }), (e: unknown) => e instanceof LoomError && e.status === "invalid-argument");
  // A caller's own client works too (and stays open after close()).
  const own = createClient({ url: URL_ });
  await own.connect();
  const viaClient = await RedisStore.open({ client: own, namespace: s.namespace });
  await new ArtifactCache({ asyncStore: viaClient }).putAsync(keyB, entryFor("b"));
  assert.equal(digestOf((await new ArtifactCache({ asyncStore: s.store }).getAsync(keyB))!), digestOf(entryFor("b")));
  await viaClient.close();
  assert.equal(await own.ping(), "PONG");
  await own.quit();
});

test("redis: 4 processes writing and reading concurrently all agree", async (t) => {
  const s = await setup(t);
  if (!s) return;
  const processes = 4;
  const keys = 16;
  const run = promisify(execFile);
  const outputs = await Promise.all(
    Array.from({ length: processes }, (_, i) => run(process.execPath, [CHILD, URL_, s.namespace, String(i), String(processes), String(keys)], { timeout: 60_000 })),
  );
  const reports = outputs.map((o) => JSON.parse(o.stdout) as ChildReport);
  const expected: Record<string, string> = { shared: digestOf(entryFor("shared")) };
  for (let k = 0; k < keys; k++) expected[`key-${k}`] = digestOf(entryFor(`key-${k}`));
  for (const r of reports) {
    assert.deepEqual(r.rejections, [], `process ${r.index}: no entry refused (no torn or foreign reads)`);
    assert.deepEqual(r.digests, expected, `process ${r.index} read every key with the bytes written`);
    assert.ok(r.sharedReads > 0);
  }
});
