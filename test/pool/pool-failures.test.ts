/**
 * Issue 12, items 3 and 11: a job that exhausts its worker's heap rejects with
 * LoomError("resource-exhausted") and the worker is replaced (the host process survives);
 * a job that cannot be cloned rejects with LoomError("invalid-argument") instead of an
 * uncaught DataCloneError and a promise that never settles.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { CompilePool } from "../../src/node.js";
import { LoomError } from "../../src/index.js";
import { SEED_KERNEL } from "../api/helpers.js";

const targets = { rdna3: { environment: "amdgpu", options: { identifier: "rdna3", identity: { target: "gfx1100" } } } };
const seed = { source: { name: "k.loom", text: SEED_KERNEL }, specializations: [{ functionSymbol: "workload_grid", target: "rdna3" }] };

/** A valid module large enough to need far more than 48 MiB of heap to parse and compile. */
function heavy(): string {
  const lines = [`kernel.def @big(%n: index) {`, `  %c1 = index.constant 1 : index`, `  kernel.launch.config workgroups(%c1, %c1, %c1) workgroup_size(%c1, %c1, %c1) : index`, `} launch(%n: index) {`, `  %x0 = index.constant 0 : index`];
  for (let i = 1; i <= 400_000; i++) lines.push(`  %x${i} = index.add %x${i - 1}, %n : index`);
  lines.push(`  kernel.return`, `}`, ``);
  return lines.join("\n");
}

test("a job that exhausts the worker heap rejects with resource-exhausted; the replaced worker keeps compiling", async () => {
  const pool = new CompilePool({ workers: 1, targets, resourceLimits: { maxOldGenerationSizeMb: 48 } });
  try {
    const big = pool.compile({ source: { name: "big.loom", text: heavy() }, specializations: [{ functionSymbol: "big", target: "rdna3" }] });
    const after = pool.compile(seed); // queued behind the job that kills the worker
    await assert.rejects(big, (e: unknown) => e instanceof LoomError && e.status === "resource-exhausted");
    assert.ok((await after).ok);
    assert.ok((await pool.compile(seed)).ok);
  } finally {
    await pool.close();
  }
});

test("a job that cannot be cloned rejects with invalid-argument and the pool goes on", async () => {
  const pool = new CompilePool({ workers: 1, targets });
  try {
    await assert.rejects(pool.compile({ ...seed, config: { f: (() => 1) as never } }), (e: unknown) => e instanceof LoomError && e.status === "invalid-argument");
    assert.ok((await pool.compile(seed)).ok);
  } finally {
    await pool.close();
  }
});

test("bad resource limits are invalid-argument", () => {
  assert.throws(() => new CompilePool({ workers: 1, targets, resourceLimits: { maxOldGenerationSizeMB: 1 } as never }), (e: unknown) => e instanceof LoomError && e.status === "invalid-argument" && /maxOldGenerationSizeMB/.test(e.message));
});
