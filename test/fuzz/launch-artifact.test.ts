/** A small seeded run of the launch-config artifact fuzzer (bench/fuzz/launch-artifact.ts). */
import { test } from "node:test";
import assert from "node:assert/strict";
import { fuzzLaunchArtifacts, launchSeeds } from "../../bench/fuzz/launch-artifact.js";
import { fromRoot } from "../util/paths.js";

test("mutated launch-config artifacts load and invoke or fail with a LoomError, never otherwise", () => {
  const seeds = launchSeeds(fromRoot());
  assert.ok(seeds.length >= 10, `only ${seeds.length} seed artifacts`);
  const r = fuzzLaunchArtifacts(seeds, 1500, 12);
  assert.deepEqual(r.crashes, []);
  assert.equal(r.hangs, 0);
  assert.ok(r.loaded > 0 && (r.byStatus["data-loss"] ?? 0) > 0, JSON.stringify(r));
});
