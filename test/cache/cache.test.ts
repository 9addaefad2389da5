import { test } from "node:test";
import assert from "node:assert/strict";
import { mkdtempSync, readdirSync, writeFileSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ArtifactCache, type CacheKeyInput, type CachedCompile } from "../../src/api/cache/cache.js";
import { DirectoryStore } from "../../src/api/cache/directory-store.js";
import { encodeEntry, decodeEntry } from "../../src/api/cache/entry-codec.js";
import { Source, compileModule, emitModule } from "../../src/index.js";
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
  const bytes = encodeEntry(entry);
  for (let n = 0; n < bytes.length; n += 7) assert.equal(decodeEntry(bytes.subarray(0, n)), undefined);
  assert.deepEqual(decodeEntry(bytes)!.artifacts.map((a) => [a.identifier, [...a.contents]]), entry.artifacts.map((a) => [a.identifier, [...a.contents]]));
  for (let i = 0; i < bytes.length; i++) {
    const b = bytes.slice();
    b[i] = b[i]! ^ (1 << (i % 8));
    assert.equal(decodeEntry(b), undefined, `flip at byte ${i}`);
  }
});
