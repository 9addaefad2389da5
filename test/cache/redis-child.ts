/**
 * Child process of redis.test.ts's concurrent test: one of several processes sharing a Redis
 * store. It writes its share of the keys, overwrites the shared key while the others read
 * it, reads every key until all are present, and prints what it read as JSON.
 * Usage: node redis-child.js <url> <namespace> <index> <processes> <keys>.
 * Run without arguments (as `node --test` does for every file under test/) it does nothing.
 */
import { ArtifactCache, type CachedCompile } from "../../src/api/cache/cache.js";
import { RedisStore } from "../../src/api/cache/redis-store.js";
import { Source } from "../../src/api/source.js";
import { sha256 } from "@noble/hashes/sha2.js";
import { bytesToHex } from "@noble/hashes/utils.js";

/** The entry every process writes for key `name`: deterministic, so all writers agree. */
export function entryFor(name: string): CachedCompile {
  const contents = new Uint8Array(4096 + name.length * 37);
  for (let i = 0; i < contents.length; i++) contents[i] = (i * 31 + name.charCodeAt(i % name.length)) & 0xff;
  return { artifacts: [{ kind: "executable", format: "test-blob", identifier: `${name}.bin`, contents }], diagnostics: [] };
}

export function digestOf(entry: CachedCompile): string {
  return bytesToHex(sha256(new TextEncoder().encode(JSON.stringify(entry.artifacts.map((a) => [a.kind, a.format, a.identifier, bytesToHex(a.contents)])))));
}

export interface ChildReport {
  readonly index: number;
  readonly digests: Record<string, string>;
  readonly sharedReads: number;
  readonly rejections: string[];
}

async function main(url: string, namespace: string, index: number, processes: number, keys: number): Promise<void> {
  const store = await RedisStore.open({ url, namespace, ttlSeconds: 600 });
  const writer = new ArtifactCache({ asyncStore: store, integrityKey: "fleet-secret" });
  const names = Array.from({ length: keys }, (_, k) => `key-${k}`);
  const rejections: string[] = [];
  let sharedReads = 0;
  for (const [k, name] of names.entries()) if (k % processes === index) await writer.putAsync(ArtifactCache.keyFor(keyInput(name)), entryFor(name));
  const sharedKey = ArtifactCache.keyFor(keyInput("shared"));
  const digests: Record<string, string> = {};
  const deadline = Date.now() + 20_000;
  for (let round = 0; !names.every((n) => digests[n]) && Date.now() < deadline; round++) {
    await writer.putAsync(sharedKey, entryFor("shared"));
    // A fresh cache each round: every read goes to Redis.
    const reader = new ArtifactCache({ asyncStore: store, integrityKey: "fleet-secret" });
    const shared = await reader.getAsync(sharedKey);
    if (shared) sharedReads++;
    if (reader.lastRejection) rejections.push(reader.lastRejection);
    for (const name of names) {
      if (digests[name]) continue;
      const got = await reader.getAsync(ArtifactCache.keyFor(keyInput(name)));
      if (got) digests[name] = digestOf(got);
      if (reader.lastRejection) rejections.push(reader.lastRejection);
    }
    if (shared) digests.shared = digestOf(shared);
  }
  await store.close();
  const report: ChildReport = { index, digests, sharedReads, rejections };
  process.stdout.write(JSON.stringify(report));
}

/** A key input per name: a text source is all `keyFor` needs besides an (empty) specialization list. */
export function keyInput(name: string): Parameters<typeof ArtifactCache.keyFor>[0] {
  return { source: Source.fromText(`${name}.loom`, `// ${name}\n`), specializations: [] };
}

const [url, namespace, index, processes, keys] = process.argv.slice(2);
if (url && namespace && index && processes && keys) await main(url, namespace, Number(index), Number(processes), Number(keys));
