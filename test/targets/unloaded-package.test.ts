/**
 * An embedder that loads only the core and the SPIR-V package (no registry, no AMDGPU
 * package): its Context knows `spirv.target`, and a module naming `amdgpu.target` gets a
 * diagnostic that says which record ops are known. This file must not import the AMDGPU
 * package or src/targets/registry.ts, or the record would be known. (`test.target`, the
 * reference's test record, is known too: the check harness that loomc loads registers it.)
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { Context, Source, Workspace } from "../../src/index.js";
import { createSpirvTargetEnvironment } from "../../src/targets/spirv/index.js";

test("a record op whose package is not loaded is PARSE/006 listing the known ones", () => {
  const context = Context.create({ targetEnvironments: [createSpirvTargetEnvironment()] });
  const ws = new Workspace(context);
  assert.ok(ws.parseModule(Source.fromText("s.loom", "spirv.target<vulkan1_3> @s\n")).ok);
  const r = ws.parseModule(Source.fromText("a.loom", "spirv.target<vulkan1_3> @s\n\namdgpu.target<gfx1100> @a\n"));
  assert.deepEqual(r.diagnostics.map((d) => `${d.code}@${d.location?.line}:${d.location?.column}`), ["PARSE/006@3:1"]);
  assert.equal(r.diagnostics[0]!.message, "unknown op 'amdgpu.target'");
  assert.equal(r.diagnostics[0]!.help, "no registered target package declares 'amdgpu.target' (target records known: test.target, spirv.target)");
});
