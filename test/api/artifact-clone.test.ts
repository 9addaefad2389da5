/**
 * Artifacts survive a structured clone with their bytes: `structuredClone(artifact)` and an
 * artifact posted to a Worker carry `contents`, also for the lazy ones (the launch-config
 * companion, the kernel-interface record) whose bytes had not been read yet.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { Worker } from "node:worker_threads";
import { LaunchConfigProgram, compileModule, emitModule, parseExecutableInterface, type Artifact } from "../../src/index.js";
import { SEED_KERNEL, prepared } from "./helpers.js";

/** A fresh compile and emit of the seed kernel: every artifact, none of them read yet. */
function artifacts(): Artifact[] {
  const { env, profile, compiler, pipeline, workspace, parse } = prepared();
  const module = parse(SEED_KERNEL).value!;
  const compiled = compileModule(compiler, workspace, pipeline, module, { specializations: [{ functionSymbol: "workload_grid", targetProfile: profile }], artifacts: { launchConfig: true } });
  assert.ok(compiled.ok, compiled.formatDiagnostics());
  const emitted = emitModule(env, workspace, module, { artifactFormat: "amdgpu-hsaco", identifier: "k.hsaco" });
  assert.ok(emitted.ok, emitted.formatDiagnostics());
  return [...compiled.artifacts, ...emitted.artifacts];
}

function plain(a: Artifact): Artifact {
  return { kind: a.kind, format: a.format, identifier: a.identifier, contents: a.contents };
}

test("structuredClone of an unread artifact carries its bytes", () => {
  const list = artifacts();
  assert.deepEqual(list.map((a) => a.kind).sort(), ["executable", "interface", "launch-config"]);
  const clones = list.map((a) => structuredClone(a));
  // The originals are read only now: the clone made the lazy bytes, and they stay the same.
  assert.deepEqual(clones, list.map(plain));
  for (const c of clones) assert.ok(c.contents instanceof Uint8Array && c.contents.byteLength > 0, c.identifier);
  // The cloned bytes are what they claim to be.
  const byKind = new Map(clones.map((c) => [c.kind, c]));
  const record = parseExecutableInterface(byKind.get("interface")!.contents);
  assert.equal(record.kernels[0]?.symbol, "workload_grid");
  assert.ok(LaunchConfigProgram.load(byKind.get("launch-config")!).lookupFunction("workload_grid"));
});

test("a read artifact clones to the same bytes as an unread one", () => {
  const unread = artifacts().map((a) => structuredClone(a));
  const read = artifacts();
  for (const a of read) void a.contents;
  const clones = read.map((a) => structuredClone(a));
  assert.deepEqual(clones, read.map(plain));
  assert.deepEqual(clones, unread);
});

test("an artifact posted to a Worker arrives with its bytes", async () => {
  const list = artifacts();
  const worker = new Worker("require('node:worker_threads').parentPort.once('message', (m) => require('node:worker_threads').parentPort.postMessage(m));", { eval: true });
  try {
    const echoed = await new Promise<unknown>((resolve, reject) => {
      worker.once("message", resolve);
      worker.once("error", reject);
      worker.postMessage(list);
    });
    assert.deepEqual(echoed, list.map(plain));
  } finally {
    await worker.terminate();
  }
});
