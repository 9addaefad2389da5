/**
 * The HSACO oracle steps of verification.md on our emitted code objects, for several
 * processors and kernel sets, and proof that each check fails on a corrupted copy.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { T } from "../../src/ir/types.js";
import type { AmdgpuIdentity } from "../../src/targets/amdgpu/index.js";
import { fromRoot } from "../util/paths.js";
import { emitHsaco, profile, SAXPY, SEED, type KernelSpec } from "./fixtures.js";
import { checkDescriptors, checkDisassembly, checkDynSymbols, checkHeader, checkMetadata, checkRoundTrip, type ArgIntent, type CodeObjectIntent, type KernelIntent } from "./hsaco-checks.js";
import { readElf, section, symbols } from "./elf-reader.js";
import { requireLlvm, withFile } from "./llvm.js";
import { parseYaml } from "./yaml.js";

const TOOLS = ["llvm-readelf-19", "llvm-readobj-19", "llvm-objdump-19", "llvm-mc-19", "llvm-objcopy-19"];

interface Target {
  readonly processor: string;
  readonly identity?: Partial<AmdgpuIdentity>;
  readonly targetId: string;
  readonly flagWords: readonly string[];
  readonly abiVersion: 3 | 4;
  /** `.sgpr_count` of an empty kernel: the SGPRs gfx9 reserves (xnack mask 4, flat scratch 6). */
  readonly reservedSgprs: number;
  readonly wave: number;
}

const TARGETS: Target[] = [
  { processor: "gfx1100", targetId: "gfx1100", flagWords: ["gfx1100"], abiVersion: 3, reservedSgprs: 0, wave: 32 },
  { processor: "gfx942", targetId: "gfx942", flagWords: ["gfx942", "xnack", "sramecc"], abiVersion: 3, reservedSgprs: 6, wave: 64 },
  { processor: "gfx11-generic", targetId: "gfx11-generic", flagWords: ["gfx11-generic", "generic_v1"], abiVersion: 4, reservedSgprs: 0, wave: 32 },
  { processor: "gfx90a", identity: { sramecc: true, xnack: false }, targetId: "gfx90a:sramecc+:xnack-", flagWords: ["gfx90a", "xnack-", "sramecc+"], abiVersion: 3, reservedSgprs: 0, wave: 64 },
  { processor: "gfx90a", identity: { xnack: true }, targetId: "gfx90a:xnack+", flagWords: ["gfx90a", "xnack+", "sramecc"], abiVersion: 3, reservedSgprs: 4, wave: 64 },
  { processor: "gfx1101", identity: { wavefrontSize: 64 }, targetId: "gfx1101", flagWords: ["gfx1101"], abiVersion: 3, reservedSgprs: 0, wave: 64 },
  { processor: "gfx1151", targetId: "gfx1151", flagWords: ["gfx1151"], abiVersion: 3, reservedSgprs: 0, wave: 32 },
  { processor: "gfx1200", targetId: "gfx1200", flagWords: ["gfx1200"], abiVersion: 3, reservedSgprs: 0, wave: 32 },
  { processor: "gfx12-generic", targetId: "gfx12-generic", flagWords: ["gfx12-generic", "generic_v1"], abiVersion: 4, reservedSgprs: 0, wave: 32 },
];

const TILED: KernelSpec = { name: "tiled", args: [["m", T.i32], ["out", T.buffer]], workgroupStorageBytes: 4096, staticWorkgroupSize: [16, 16, 1] };

const KERNEL_SETS: readonly (readonly KernelSpec[])[] = [[SEED], [SAXPY], [SEED, SAXPY], [TILED, SEED]];

/** The intent stated from the language spec (§7 ABI), independently of the emitter. */
function intentFor(t: Target, specs: readonly KernelSpec[]): CodeObjectIntent {
  const kernels = specs.map((k): KernelIntent => {
    const args: ArgIntent[] = [];
    let end = 0;
    let align = 4;
    for (const [name, type] of k.args ?? []) {
      const [size, a] = type === T.buffer || type === T.index || type === T.f64 ? [type === T.buffer ? 16 : 8, 8] : [4, 4];
      align = Math.max(align, a);
      const offset = Math.ceil(end / a) * a;
      if (type === T.buffer) {
        args.push({ name, offset, size: 8, valueKind: "global_buffer" }, { name: `${name}.length`, offset: offset + 8, size: 8, valueKind: "by_value" });
      } else {
        args.push({ name, offset, size, valueKind: "by_value" });
      }
      end = offset + size;
    }
    const wg = k.staticWorkgroupSize;
    return {
      name: k.name,
      kernargSize: Math.ceil(end / 8) * 8,
      kernargAlign: align,
      groupSegmentFixedSize: k.workgroupStorageBytes ?? 0,
      privateSegmentFixedSize: 0,
      wavefrontSize: t.wave,
      sgprCount: t.reservedSgprs,
      vgprCount: 0,
      maxFlatWorkgroupSize: wg ? wg[0] * wg[1] * wg[2] : 1024,
      args,
    };
  });
  return { targetId: t.targetId, abiVersion: t.abiVersion, flagWords: t.flagWords, kernels };
}

function allChecks(path: string, dir: string, mcpu: string, intent: CodeObjectIntent): string[] {
  return [
    ...checkHeader(path, intent),
    ...checkMetadata(path, intent),
    ...checkDynSymbols(path, intent),
    ...checkDescriptors(path, intent),
    ...checkDisassembly(path, mcpu, intent),
    ...checkRoundTrip(path, mcpu, dir),
  ];
}

for (const t of TARGETS) {
  const label = `${t.targetId}${t.identity?.wavefrontSize ? " wave64" : ""}`;
  test(`HSACO passes every LLVM oracle check: ${label}`, (tc) => {
    if (!requireLlvm(tc, ...TOOLS)) return;
    const p = profile(t.processor, t.identity ?? {});
    for (const specs of KERNEL_SETS) {
      const bytes = emitHsaco(p, specs);
      const problems = withFile(bytes, (path, dir) => allChecks(path, dir, t.processor, intentFor(t, specs)));
      assert.deepEqual(problems, [], `kernels ${specs.map((s) => s.name).join(", ")}`);
    }
  });
}

test("emission is deterministic: twice in-process and once in a fresh process", () => {
  const p = profile("gfx1100");
  const a = emitHsaco(p, [SEED, SAXPY]);
  const b = emitHsaco(profile("gfx1100"), [SEED, SAXPY]);
  assert.deepEqual(a, b);
  const script = `
    const { emitHsaco, profile, SEED, SAXPY } = await import(${JSON.stringify(new URL("./fixtures.js", import.meta.url).href)});
    process.stdout.write(Buffer.from(emitHsaco(profile("gfx1100"), [SEED, SAXPY])).toString("base64"));`;
  const r = spawnSync(process.execPath, ["--input-type=module", "-e", script], { encoding: "utf8", cwd: fromRoot() });
  assert.equal(r.status, 0, r.stderr);
  assert.deepEqual(new Uint8Array(Buffer.from(r.stdout, "base64")), a);
});

// ---- Each check bites: a corrupted copy of a good gfx1100 code object fails it. ----

const GOOD_TARGET = TARGETS[0]!;
const GOOD_SPECS = [SEED, SAXPY];
const GOOD_INTENT = intentFor(GOOD_TARGET, GOOD_SPECS);
function good(): Uint8Array {
  return emitHsaco(profile("gfx1100"), GOOD_SPECS);
}

function lastIndexOf(hay: Uint8Array, needle: Uint8Array): number {
  return Buffer.from(hay).lastIndexOf(Buffer.from(needle));
}

test("the checks pass on the unmodified file (baseline for the corruption tests)", (tc) => {
  if (!requireLlvm(tc, ...TOOLS)) return;
  assert.deepEqual(withFile(good(), (path, dir) => allChecks(path, dir, "gfx1100", GOOD_INTENT)), []);
});

test("header check bites: wrong machine flags and ABI version", (tc) => {
  if (!requireLlvm(tc, ...TOOLS)) return;
  const flags = good();
  flags[0x30] = 0x46; // EF_AMDGPU_MACH_AMDGCN_GFX1101
  assert.ok(withFile(flags, (path) => checkHeader(path, GOOD_INTENT)).some((p) => p.startsWith("Flags")));
  const abi = good();
  abi[8] = 4;
  assert.ok(withFile(abi, (path) => checkHeader(path, GOOD_INTENT)).some((p) => p.startsWith("ABI Version")));
});

test("metadata check bites: a changed value and a broken MessagePack byte", (tc) => {
  if (!requireLlvm(tc, ...TOOLS)) return;
  const changed = good();
  const key = new TextEncoder().encode(".kernarg_segment_size");
  const at = lastIndexOf(changed, key) + key.length; // saxpy's value: fixint 32
  assert.equal(changed[at], 32);
  changed[at] = 40;
  assert.ok(withFile(changed, (path) => checkMetadata(path, GOOD_INTENT)).some((p) => p.includes(".kernarg_segment_size")));
  const broken = good();
  const elf = readElf(broken);
  const note = section(elf, ".note");
  broken[Number(note.offset) + 20] = 0xc1; // first msgpack byte (the top-level map) → "never used" type
  assert.notDeepEqual(withFile(broken, (path) => checkMetadata(path, GOOD_INTENT)), []);
});

test("dynamic symbol check bites: a renamed descriptor symbol", (tc) => {
  if (!requireLlvm(tc, ...TOOLS)) return;
  const bytes = good();
  const dynstr = section(readElf(bytes), ".dynstr");
  const at = Number(dynstr.offset) + Buffer.from(dynstr.data).indexOf("seed.kd") + 6;
  bytes[at] = "x".charCodeAt(0);
  assert.ok(withFile(bytes, (path) => checkDynSymbols(path, GOOD_INTENT)).some((p) => p.includes("seed.kd")));
});

test("descriptor check bites: a wrong entry offset and kernarg size", (tc) => {
  if (!requireLlvm(tc, ...TOOLS)) return;
  const bytes = good();
  const elf = readElf(bytes);
  const kd = symbols(elf, ".dynsym").find((s) => s.name === "saxpy.kd")!;
  const rodata = section(elf, ".rodata");
  const at = Number(rodata.offset + kd.value - rodata.addr);
  bytes[at + 16] = bytes[at + 16]! ^ 0x04;
  bytes[at + 8] = 16;
  const problems = withFile(bytes, (path) => checkDescriptors(path, GOOD_INTENT));
  assert.ok(problems.some((p) => p.includes("entry")));
  assert.ok(problems.some((p) => p.includes("kernarg size")));
});

test("disassembly check bites: an undecodable word and a missing s_endpgm", (tc) => {
  if (!requireLlvm(tc, ...TOOLS)) return;
  const bytes = good();
  const elf = readElf(bytes);
  const text = section(elf, ".text");
  const seed = symbols(elf, ".dynsym").find((s) => s.name === "seed")!;
  const at = Number(text.offset + seed.value - text.addr);
  bytes.set([0xff, 0xff, 0xff, 0xff], at);
  const problems = withFile(bytes, (path) => checkDisassembly(path, "gfx1100", GOOD_INTENT));
  assert.ok(problems.some((p) => p.includes("undecodable")), problems.join("\n"));
  assert.ok(problems.some((p) => p.includes("seed does not end in s_endpgm")), problems.join("\n"));
});

test("round-trip check bites: a word whose disassembly re-assembles differently", (tc) => {
  if (!requireLlvm(tc, ...TOOLS)) return;
  const bytes = good();
  const text = section(readElf(bytes), ".text");
  // s_waitcnt with the unused bit 3 set prints like the canonical word, which re-assembles to 0xbf890000.
  bytes.set([0x08, 0x00, 0x89, 0xbf], Number(text.offset + text.size) - 4);
  assert.deepEqual(withFile(bytes, (path, dir) => checkRoundTrip(path, "gfx1100", dir)), [".text differs after disassemble + re-assemble"]);
});

test("the YAML reader accepts what llvm-readobj prints for tagged and quoted scalars", () => {
  // Spot check without tools: a fixture in LLVM's print style.
  const text = readFileSync(fromRoot("test/amdgpu/data/metadata-print.yaml"), "utf8");
  const doc = parseYaml(text) as Record<string, unknown>;
  assert.equal(doc["amdhsa.target"], "amdgcn-amd-amdhsa--gfx90a:sramecc+:xnack-");
  const k = (doc["amdhsa.kernels"] as Record<string, unknown>[])[0]!;
  assert.deepEqual(k[".args"], [{ ".name": "n", ".offset": 0, ".size": 8, ".value_kind": "by_value" }, { ".name": "y", ".offset": 8, ".size": 4, ".value_kind": "by_value" }]);
  assert.equal(k[".uses_dynamic_stack"], false);
  assert.deepEqual(doc["amdhsa.version"], [1, 2]);
  assert.deepEqual((doc["amdhsa.kernels"] as Record<string, unknown>[])[1]![".args"], []);
});
