import { test } from "node:test";
import assert from "node:assert/strict";
import { copyFileSync, existsSync, mkdtempSync, readdirSync, writeFileSync, readFileSync, symlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ArtifactCache, type CacheKeyInput, type CachedCompile } from "../../src/api/cache/cache.js";
import { DirectoryStore } from "../../src/api/cache/directory-store.js";
import { encodeEntry, decodeEntry } from "../../src/api/cache/entry-codec.js";
import { LoomError, Source, compileModule, emitModule } from "../../src/index.js";
import { digestText } from "../../src/api/cache/digest.js";
import { sha256 } from "@noble/hashes/sha2.js";
import { execFileSync } from "node:child_process";
import { createAmdgpuProfile } from "../../src/targets/amdgpu/index.js";
import { prepared, SEED_KERNEL } from "../api/helpers.js";

const s = prepared();
const base: CacheKeyInput = {
  source: Source.fromText("k.loom", SEED_KERNEL),
  specializations: [{ functionSymbol: "workload_grid", targetProfile: s.profile }],
  moduleName: "guide_jit_kernel",
  artifacts: { launchConfig: true },
  emit: [{ artifactFormat: "amdgpu-hsaco", identifier: "k.hsaco" }],
};

/** A real compile + emit, as a cache entry. */
function produce(input: CacheKeyInput): CachedCompile | undefined {
  const st = prepared();
  const module = st.workspace.parseModule(input.source).value!;
  const c = compileModule(st.compiler, st.workspace, st.pipeline, module, {
    moduleName: input.moduleName!,
    specializations: input.specializations.map((x) => ({ functionSymbol: x.functionSymbol, targetProfile: x.targetProfile })),
    artifacts: input.artifacts!,
    ...(input.config ? { config: input.config } : {}),
  });
  if (!c.ok) return undefined;
  const e = emitModule(st.env, st.workspace, module, input.emit![0]!);
  return { artifacts: [...c.artifacts, ...e.artifacts], diagnostics: [...c.diagnostics, ...e.diagnostics] };
}

test("keys are stable, and perturbing any input misses", () => {
  const k = ArtifactCache.keyFor(base);
  assert.equal(ArtifactCache.keyFor({ ...base, source: Source.fromText("k.loom", SEED_KERNEL) }), k, "equal content, new objects: same key");
  const gfx1100Again = createAmdgpuProfile(s.env, { identifier: s.profile.identifier, identity: { target: "gfx1100" } });
  assert.equal(ArtifactCache.keyFor({ ...base, specializations: [{ functionSymbol: "@workload_grid", targetProfile: gfx1100Again }] }), k);

  const perturbed: [string, CacheKeyInput][] = [
    ["source bytes", { ...base, source: Source.fromText("k.loom", SEED_KERNEL.replace("63", "31")) }],
    ["source name", { ...base, source: Source.fromText("other.loom", SEED_KERNEL) }],
    ["profile facts", { ...base, specializations: [{ functionSymbol: "workload_grid", targetProfile: createAmdgpuProfile(s.env, { identifier: s.profile.identifier, identity: { target: "gfx942" } }) }] }],
    ["profile options", { ...base, specializations: [{ functionSymbol: "workload_grid", targetProfile: createAmdgpuProfile(s.env, { identifier: s.profile.identifier, identity: { target: "gfx1100", wavefrontSize: 64 } }) }] }],
    ["kernel", { ...base, specializations: [{ functionSymbol: "other", targetProfile: s.profile }] }],
    ["config binding", { ...base, config: { "model.hidden": 4096n } }],
    ["config binding type", { ...base, config: { "model.hidden": 4096 } }],
    ["module name", { ...base, moduleName: "other" }],
    ["launch-config flag", { ...base, artifacts: { launchConfig: false } }],
    ["emit format", { ...base, emit: [{ artifactFormat: "spirv", identifier: "k.hsaco" }] }],
    ["emit identifier", { ...base, emit: [{ artifactFormat: "amdgpu-hsaco", identifier: "x.hsaco" }] }],
    ["emit target options", { ...base, emit: [{ artifactFormat: "amdgpu-hsaco", identifier: "k.hsaco", target: { codeObjectVersion: 6 } }] }],
    ["linked libraries", { ...base, linkIndex: { digest: "lib-a" } }],
    ["linked libraries bytes", { ...base, linkIndex: { toBytes: () => new Uint8Array([1, 2, 3]) } }],
  ];
  const cache = new ArtifactCache();
  cache.put(k, produce(base)!);
  for (const [what, input] of perturbed) {
    const pk = ArtifactCache.keyFor(input);
    assert.notEqual(pk, k, `${what} must change the key`);
    assert.equal(cache.get(pk), undefined, `${what}: miss`);
  }
  assert.ok(cache.get(k));
  assert.equal(cache.stats.hits, 1);
  assert.equal(cache.stats.misses, perturbed.length);
});

test("a hit returns the very artifacts compiled; entries own their bytes", () => {
  const cache = new ArtifactCache();
  const key = ArtifactCache.keyFor(base);
  let compiles = 0;
  const made = cache.getOrCreate(key, () => (compiles++, produce(base)))!;
  const again = cache.getOrCreate(key, () => (compiles++, produce(base)))!;
  assert.equal(compiles, 1);
  assert.equal(again, made);
  assert.deepEqual(made.artifacts.map((a) => a.kind).sort(), ["executable", "interface", "launch-config"]);
  assert.deepEqual(made.artifacts.find((a) => a.kind === "executable")!.contents, produce(base)!.artifacts.find((a) => a.kind === "executable")!.contents);
  // A failed compile is not cached.
  const bad = { ...base, source: Source.fromText("k.loom", "kernel.def @broken(") };
  assert.equal(cache.getOrCreate(ArtifactCache.keyFor(bad), () => undefined), undefined);
});

test("LRU eviction keeps at most maxEntries", () => {
  const cache = new ArtifactCache({ maxEntries: 2 });
  const e: CachedCompile = { artifacts: [], diagnostics: [] };
  cache.put("a", e);
  cache.put("b", e);
  cache.get("a");
  cache.put("c", e);
  assert.equal(cache.size, 2);
  assert.ok(cache.get("a"));
  assert.equal(cache.get("b"), undefined);
  assert.equal(cache.stats.evictions, 1);
});

test("directory store: survives a new cache, and damaged files are misses, never wrong bytes", () => {
  const dir = mkdtempSync(join(tmpdir(), "loom-cache-"));
  const key = ArtifactCache.keyFor(base);
  const first = new ArtifactCache({ store: new DirectoryStore(dir) });
  const made = first.put(key, produce(base)!);
  const second = new ArtifactCache({ store: new DirectoryStore(dir) });
  const loaded = second.get(key)!;
  assert.equal(second.stats.storeHits, 1);
  assert.deepEqual(loaded.artifacts.map((a) => [a.kind, a.format, a.identifier, [...a.contents]]), made.artifacts.map((a) => [a.kind, a.format, a.identifier, [...a.contents]]));
  const file = join(dir, readdirSync(dir).find((f) => f.endsWith(".lmce"))!);
  const bytes = readFileSync(file);
  bytes[bytes.length - 5] = bytes[bytes.length - 5]! ^ 0x40; // flip a payload bit
  writeFileSync(file, bytes);
  const third = new ArtifactCache({ store: new DirectoryStore(dir) });
  assert.equal(third.get(key), undefined);
  assert.equal(third.stats.misses, 1);
  assert.ok(!readdirSync(dir).some((f) => f.endsWith(".lmce")), "the damaged entry was removed");
});

test("entry codec: every truncation and bit flip decodes to undefined", () => {
  const entry = produce(base)!;
  const storeKey = "ab".repeat(32);
  const bytes = encodeEntry(entry, storeKey);
  for (let n = 0; n < bytes.length; n += 7) assert.equal(decodeEntry(bytes.subarray(0, n), storeKey), undefined);
  assert.deepEqual(decodeEntry(bytes, storeKey)!.artifacts.map((a) => [a.identifier, [...a.contents]]), entry.artifacts.map((a) => [a.identifier, [...a.contents]]));
  for (let i = 0; i < bytes.length; i++) {
    const b = bytes.slice();
    b[i] = b[i]! ^ (1 << (i % 8));
    assert.equal(decodeEntry(b, storeKey), undefined, `flip at byte ${i}`);
  }
});

/** Rewrites an entry file's JSON header with `edit`, then recomputes the SHA-256 trailer as an attacker could. */
function forge(file: Uint8Array, edit: (header: Record<string, unknown>, payload: Uint8Array) => Uint8Array | void): Uint8Array {
  const h = new DataView(file.buffer, file.byteOffset).getUint32(4, true);
  const header = JSON.parse(new TextDecoder().decode(file.subarray(8, 8 + h))) as Record<string, unknown>;
  const payload = file.slice(8 + h, file.length - 32);
  const newPayload = edit(header, payload) ?? payload;
  const json = new TextEncoder().encode(JSON.stringify(header));
  const out = new Uint8Array(8 + json.length + newPayload.length + 32);
  out.set(file.subarray(0, 4), 0);
  new DataView(out.buffer).setUint32(4, json.length, true);
  out.set(json, 8);
  out.set(newPayload, 8 + json.length);
  out.set(sha256(out.subarray(0, out.length - 32)), out.length - 32);
  return out;
}

test("issue 12 item 10a: an entry copied to another key's name is a miss, not the other key's artifacts", () => {
  const dir = mkdtempSync(join(tmpdir(), "loom-cache-"));
  const a = ArtifactCache.keyFor(base);
  const b = ArtifactCache.keyFor({ ...base, moduleName: "other" });
  new ArtifactCache({ store: new DirectoryStore(dir) }).put(b, produce({ ...base, moduleName: "other" })!);
  copyFileSync(join(dir, `${digestText(b)}.lmce`), join(dir, `${digestText(a)}.lmce`));
  const cache = new ArtifactCache({ store: new DirectoryStore(dir) });
  assert.equal(cache.get(a), undefined);
  assert.ok(cache.get(b));
});

test("issue 12 item 10b: forged entries (recomputed trailer) with changed bytes or junk diagnostics are misses under an integrityKey; junk is a miss always", () => {
  const dir = mkdtempSync(join(tmpdir(), "loom-cache-"));
  const key = ArtifactCache.keyFor(base);
  const file = join(dir, `${digestText(key)}.lmce`);
  new ArtifactCache({ store: new DirectoryStore(dir) }).put(key, produce(base)!);
  const good = readFileSync(file);
  writeFileSync(file, forge(good, (h) => void (h.diagnostics = [{ code: "<script>", message: 42 }, "not-an-object", null])));
  assert.equal(new ArtifactCache({ store: new DirectoryStore(dir) }).get(key), undefined, "junk diagnostics fail the schema");

  const secret = "shared-fleet-secret";
  new ArtifactCache({ store: new DirectoryStore(dir), integrityKey: secret }).put(key, produce(base)!);
  const signed = readFileSync(file);
  assert.ok(new ArtifactCache({ store: new DirectoryStore(dir), integrityKey: secret }).get(key), "the key holder reads its entry");
  assert.equal(new ArtifactCache({ store: new DirectoryStore(dir), integrityKey: "other" }).get(key), undefined, "another key does not accept it");
  new ArtifactCache({ store: new DirectoryStore(dir), integrityKey: secret }).put(key, produce(base)!);
  writeFileSync(file, forge(signed, (_h, payload) => void (payload[0] = payload[0]! ^ 1)));
  assert.equal(new ArtifactCache({ store: new DirectoryStore(dir), integrityKey: secret }).get(key), undefined, "changed executable bytes with a recomputed SHA-256 are refused");
});

test("issue 12 item 10c/d/e: only regular files are read, under a size cap; temp files are never written through a link; paths are normalized", () => {
  const dir = mkdtempSync(join(tmpdir(), "loom-cache-"));
  const store = new DirectoryStore(dir, { maxEntryBytes: 1 << 20 });
  const k1 = "11".repeat(32), k2 = "22".repeat(32), k3 = "33".repeat(32);
  symlinkSync("/dev/zero", join(dir, `${k1}.lmce`));
  assert.equal(store.read(k1), undefined, "a link to /dev/zero is not followed");
  writeFileSync(join(dir, `${k2}.lmce`), new Uint8Array((1 << 20) + 1));
  assert.equal(store.read(k2), undefined, "an entry over the cap is not read");
  const fifo = join(dir, `${k3}.lmce`);
  execFileSync("mkfifo", [fifo]); // coreutils: a FIFO at an entry's name must not block the read
  assert.equal(store.read(k3), undefined);
  // A link planted where an older writer put its temp file redirects nothing.
  const outside = join(mkdtempSync(join(tmpdir(), "loom-outside-")), "victim");
  writeFileSync(outside, "keep");
  symlinkSync(outside, join(dir, `${"44".repeat(32)}.lmce.${process.pid}.tmp`));
  store.write("44".repeat(32), new Uint8Array([1, 2, 3]));
  assert.equal(readFileSync(outside, "utf8"), "keep");
  assert.deepEqual([...store.read("44".repeat(32))!], [1, 2, 3]);

  const root = mkdtempSync(join(tmpdir(), "loom-paths-"));
  new DirectoryStore(join(root, "a", "sub", "..", "c"));
  assert.ok(existsSync(join(root, "a", "c")));
  assert.ok(!existsSync(join(root, "a", "sub")), "a/sub is not created");
});

test("issue 12 item 10f: keyFor, put and get refuse bad input with LoomError", () => {
  const bad = (fn: () => unknown) => assert.throws(fn, (e: unknown) => e instanceof LoomError && e.status === "invalid-argument");
  bad(() => ArtifactCache.keyFor({ ...base, specializations: [{ functionSymbol: 5 as never, targetProfile: s.profile }] }));
  bad(() => ArtifactCache.keyFor({ ...base, specializations: [null as never] }));
  bad(() => ArtifactCache.keyFor({ ...base, moduleName: 7 as never }));
  const cache = new ArtifactCache();
  bad(() => cache.put(ArtifactCache.keyFor(base), { artifacts: [{ kind: "executable", format: "x", identifier: "y", contents: "no" as never }], diagnostics: [] }));
  bad(() => cache.put(ArtifactCache.keyFor(base), null as never));
  bad(() => cache.get(5 as never));
});
