/** createAmdgpuTargetEnvironment / createAmdgpuProfile: facts, freezing and argument errors. */
import { test } from "node:test";
import assert from "node:assert/strict";
import { LoomError } from "../../src/core/errors.js";
import { amdgpuInfoOf, AMDGPU_PROCESSORS, createAmdgpuProfile, createAmdgpuTargetEnvironment, knownProcessorNames } from "../../src/targets/amdgpu/index.js";
import { elfFlags } from "../../src/targets/amdgpu/target-id.js";

const env = createAmdgpuTargetEnvironment();
const make = (identity: Record<string, unknown>, identifier: unknown = "p") =>
  createAmdgpuProfile(env, { identifier, identity } as unknown as Parameters<typeof createAmdgpuProfile>[1]);

function invalid(fn: () => unknown, ...mentions: string[]): void {
  assert.throws(fn, (e: unknown) => {
    assert.ok(e instanceof LoomError, String(e));
    assert.equal(e.status, "invalid-argument");
    for (const m of mentions) assert.ok(e.message.includes(m), `'${e.message}' should mention '${m}'`);
    return true;
  });
}

test("the environment names itself and its format, and is frozen", () => {
  assert.equal(env.name, "amdgpu");
  assert.deepEqual(env.formats, ["amdgpu-hsaco"]);
  assert.ok(Object.isFrozen(env) && Object.isFrozen(env.formats));
});

test("every processor the brief lists is known", () => {
  for (const name of ["gfx90a", "gfx942", "gfx1100", "gfx1101", "gfx1151", "gfx11-generic", "gfx1200", "gfx12-generic"]) {
    assert.ok(AMDGPU_PROCESSORS.has(name), name);
  }
});

test("a gfx1100 profile has RDNA3 facts and is deeply frozen", () => {
  const p = make({ target: "gfx1100" });
  assert.equal(p.environment, "amdgpu");
  assert.equal(p.target, "gfx1100");
  assert.deepEqual(p.facts, {
    subgroupSize: 32,
    maxWorkgroupSize: [1024, 1024, 1024],
    maxFlatWorkgroupSize: 1024,
    maxWorkgroupCount: [0xffffffff, 0xffffffff, 0xffffffff],
    maxWorkgroupStorageBytes: 65536,
    maxArgumentBlockBytes: 4096,
  });
  const info = amdgpuInfoOf(p)!;
  assert.equal(info.processor.family, "gfx11");
  assert.equal(info.codeObjectVersion, 5);
  assert.equal(info.targetId, "gfx1100");
  assert.deepEqual(info.features, { xnack: "unsupported", sramecc: "unsupported" });
  assert.ok(Object.isFrozen(p) && Object.isFrozen(p.facts) && Object.isFrozen(p.facts.maxWorkgroupSize));
  assert.ok(Object.isFrozen(info) && Object.isFrozen(info.processor) && Object.isFrozen(info.processor.vgprFile));
  assert.throws(() => {
    (p.facts.maxWorkgroupSize as unknown as number[])[0] = 1;
  }, TypeError);
});

test("wave size: gfx9 is wave64 only; gfx10+ default 32, 64 on request", () => {
  assert.equal(make({ target: "gfx942" }).facts.subgroupSize, 64);
  assert.equal(make({ target: "gfx1151", wavefrontSize: 64 }).facts.subgroupSize, 64);
  invalid(() => make({ target: "gfx942", wavefrontSize: 32 }), "wavefrontSize", "gfx942");
  invalid(() => make({ target: "gfx1100", wavefrontSize: 16 }), "wavefrontSize");
});

test("generic processors use code object v6 and set the generic version in e_flags", () => {
  const info = amdgpuInfoOf(make({ target: "gfx11-generic" }))!;
  assert.equal(info.codeObjectVersion, 6);
  assert.equal(elfFlags(info.processor, info.features), 0x01000054);
});

test("xnack and sramecc: target ID spelling and e_flags bits", () => {
  const any = amdgpuInfoOf(make({ target: "gfx90a" }))!;
  assert.equal(any.targetId, "gfx90a");
  assert.equal(elfFlags(any.processor, any.features), 0x53f);
  const explicit = amdgpuInfoOf(make({ target: "gfx90a", sramecc: true, xnack: false }))!;
  assert.equal(explicit.targetId, "gfx90a:sramecc+:xnack-");
  assert.equal(elfFlags(explicit.processor, explicit.features), 0xe3f);
  const fromId = amdgpuInfoOf(make({ target: "gfx942:xnack+" }))!;
  assert.equal(fromId.targetId, "gfx942:xnack+");
  assert.equal(make({ target: "gfx942:xnack+", xnack: true }).target, "gfx942");
});

test("unknown targets list the known names", () => {
  invalid(() => make({ target: "gfx908" }), "gfx908", ...knownProcessorNames());
});

test("bad option types and values name the option", () => {
  invalid(() => make({ target: 1100 }), "options.identity.target");
  invalid(() => make({ target: "gfx1100" }, ""), "options.identifier");
  invalid(() => make({ target: "gfx1100" }, 7), "options.identifier");
  invalid(() => make({ target: "gfx90a", xnack: "on" }), "options.identity.xnack");
  invalid(() => make({ target: "gfx1100", xnack: true }), "options.identity.xnack", "gfx1100");
  invalid(() => make({ target: "gfx1100", sramecc: false }), "options.identity.sramecc");
  invalid(() => make({ target: "gfx1100", wave: 32 }), "options.identity.wave");
  invalid(() => make({ target: "gfx90a:xnack" }), "options.identity.target", "xnack");
  invalid(() => make({ target: "gfx90a:xnack+:xnack-" }), "given twice");
  invalid(() => make({ target: "gfx90a:xnack+", xnack: false }), "options.identity.xnack");
  invalid(() => createAmdgpuProfile(env, null as never), "options");
  invalid(() => createAmdgpuProfile(env, { identifier: "p", identity: "gfx1100" } as never), "options.identity");
  invalid(() => createAmdgpuProfile({ ...env } as never, { identifier: "p", identity: { target: "gfx1100" } }), "env");
});

test("amdgpuInfoOf rejects profiles it did not make", () => {
  const p = make({ target: "gfx1100" });
  assert.equal(amdgpuInfoOf({ ...p, environment: "spirv" }), undefined);
  assert.equal(amdgpuInfoOf({ ...p, amdgpu: { ...amdgpuInfoOf(p)!, processor: { ...amdgpuInfoOf(p)!.processor } } } as never), undefined);
});
