/**
 * Artifact cache hit cost: computing the key for a repeated compile request (new Source
 * object each time, as a JIT that re-reads text would have) plus the memory lookup. Anchor:
 * a bare Map lookup with a precomputed string key, in the same run.
 */
import { performance } from "node:perf_hooks";
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { ArtifactCache, type CacheKeyInput } from "../src/api/cache/cache.js";
import { Source } from "../src/index.js";
import { createAmdgpuProfile, createAmdgpuTargetEnvironment } from "../src/targets/amdgpu/index.js";

function medianNs(fn: () => unknown, calls: number, batches = 9): number {
  const per: number[] = [];
  for (let b = 0; b < batches; b++) {
    const t0 = performance.now();
    for (let i = 0; i < calls; i++) fn();
    per.push(((performance.now() - t0) * 1e6) / calls);
  }
  per.sort((a, b) => a - b);
  return Math.round(per[Math.floor(per.length / 2)]! * 10) / 10;
}

export async function benchCache(): Promise<Record<string, unknown>> {
  const text = readFileSync(fileURLToPath(new URL("../../examples/integration/jit-kernel/kernel.loom", import.meta.url)), "utf8");
  const env = createAmdgpuTargetEnvironment();
  const profile = createAmdgpuProfile(env, { identifier: "bench", identity: { target: "gfx1100" } });
  const source = Source.fromText("kernel.loom", text);
  const input: CacheKeyInput = {
    source,
    specializations: [{ functionSymbol: "workload_grid", targetProfile: profile }],
    moduleName: "guide_jit_kernel",
    artifacts: { launchConfig: true },
    emit: [{ artifactFormat: "amdgpu-hsaco", identifier: "guide_jit_kernel.hsaco" }],
  };
  const cache = new ArtifactCache();
  const key = ArtifactCache.keyFor(input);
  cache.put(key, { artifacts: [{ kind: "executable", format: "amdgpu-hsaco", identifier: "x", contents: new Uint8Array(2976) }], diagnostics: [] });
  const map = new Map([[key, 1]]);
  const sameSourceHit = medianNs(() => cache.get(ArtifactCache.keyFor(input)), 20000);
  const freshSourceHit = medianNs(() => cache.get(ArtifactCache.keyFor({ ...input, source: Source.fromText("kernel.loom", text) })), 5000);
  const anchor = medianNs(() => map.get(key), 1000000);
  return {
    name: "cache.memory_hit",
    unit: "ns",
    key_and_hit_same_source_ns: sameSourceHit,
    key_and_hit_new_source_object_ns: freshSourceHit,
    goal_ns: 10000,
    anchor: { name: "Map.get with a precomputed key", ns: anchor },
    ratio_same_source_to_anchor: Math.round((sameSourceHit / anchor) * 10) / 10,
  };
}
