/**
 * Our code object equals LLVM's: for the same kernels (empty bodies, our device ABI),
 * llc-19 + ld.lld-19 build a reference, and every section of it (except the linker's
 * `.comment`) must match ours in header fields and bytes; ELF and program headers too.
 * This pins the kernel descriptors, metadata note, hash tables, symbols and layout.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { T } from "../../src/ir/types.js";
import type { AmdgpuIdentity } from "../../src/targets/amdgpu/index.js";
import { emitHsaco, profile, SAXPY, SEED, type KernelSpec } from "./fixtures.js";
import { programHeaders, readElf, type ElfFile } from "./elf-reader.js";
import { llvmReference, requireLlvm } from "./llvm.js";

/** Differences between our file and the reference, as readable lines (empty = equal). */
export function compareWithReference(ours: ElfFile, ref: ElfFile): string[] {
  const problems: string[] = [];
  const ident = (e: ElfFile) => Buffer.from(e.bytes.subarray(0, 0x28)).toString("hex") + Buffer.from(e.bytes.subarray(0x30, 0x3c)).toString("hex");
  if (ident(ours) !== ident(ref)) problems.push(`ELF header differs:\n ours ${ident(ours)}\n ref  ${ident(ref)}`);
  if (Buffer.compare(programHeaders(ours), programHeaders(ref)) !== 0) problems.push("program headers differ");
  const refNames = ref.sections.map((s) => s.name).filter((n) => n !== ".comment");
  const ourNames = ours.sections.map((s) => s.name);
  if (refNames.join(",") !== ourNames.join(",")) problems.push(`sections: ours ${ourNames.join(",")} / ref ${refNames.join(",")}`);
  for (const r of ref.sections) {
    // .comment names the linker; .shstrtab differs by that one name (section names are compared above).
    if (r.name === ".comment" || r.name === ".shstrtab") continue;
    const o = ours.sections.find((s) => s.name === r.name);
    if (!o) continue;
    const loaded = (r.flags & 2n) !== 0n;
    const fields = (s: typeof r, link: string) => ({
      type: s.type, flags: s.flags, addr: s.addr, size: s.size, info: s.info, align: s.align, entsize: s.entsize, link,
      ...(loaded ? { offset: s.offset } : {}),
    });
    const linkName = (e: ElfFile, s: typeof r) => (s.link ? e.sections[s.link]!.name : "");
    const a = JSON.stringify(fields(o, linkName(ours, o)), (_, v) => (typeof v === "bigint" ? v.toString(16) : v));
    const b = JSON.stringify(fields(r, linkName(ref, r)), (_, v) => (typeof v === "bigint" ? v.toString(16) : v));
    if (a !== b) problems.push(`${r.name} header: ours ${a} / ref ${b}`);
    if (Buffer.compare(o.data, r.data) !== 0) problems.push(`${r.name} contents differ`);
  }
  return problems;
}

interface Case {
  readonly processor: string;
  readonly identity?: Partial<AmdgpuIdentity>;
  readonly kernels: readonly KernelSpec[];
  readonly label?: string;
}

const cases: Case[] = [
  ...["gfx90a", "gfx942", "gfx1100", "gfx1101", "gfx1102", "gfx1103", "gfx1150", "gfx1151", "gfx1152", "gfx11-generic", "gfx1200", "gfx1201", "gfx12-generic"].map(
    (processor) => ({ processor, kernels: [SEED, SAXPY] }),
  ),
  { processor: "gfx90a", identity: { sramecc: true, xnack: false }, kernels: [SEED, SAXPY], label: "sramecc+ xnack-" },
  { processor: "gfx942", identity: { xnack: true }, kernels: [SAXPY], label: "xnack+" },
  { processor: "gfx1100", identity: { wavefrontSize: 64 }, kernels: [SEED, SAXPY], label: "wave64" },
  { processor: "gfx1100", kernels: [{ name: "tiled", staticWorkgroupSize: [64, 2, 1] }], label: "static workgroup size" },
  {
    processor: "gfx1151",
    kernels: [
      { name: "k0" },
      { name: "k1", args: [["flag", T.i1], ["h", T.f16], ["b", T.buffer]] },
      { name: "k2", args: [["c", T.i8], ["d", T.f64]] },
      { name: "k3" },
      { name: "k4", args: [["o", T.offset]] },
    ],
    label: "five kernels (two hash buckets)",
  },
];

for (const c of cases) {
  test(`code object equals llc-19 + ld.lld-19 output: ${c.processor}${c.label ? ` (${c.label})` : ""}`, (t) => {
    if (!requireLlvm(t, "llc-19", "ld.lld-19")) return;
    const p = profile(c.processor, c.identity ?? {});
    const ours = readElf(emitHsaco(p, c.kernels));
    const version = c.processor.endsWith("-generic") ? 6 : 5;
    const ref = readElf(llvmReference(c.processor, c.identity ?? {}, c.kernels, version));
    assert.deepEqual(compareWithReference(ours, ref), []);
  });
}

test("the comparison bites: a different processor's reference is reported", (t) => {
  if (!requireLlvm(t, "llc-19", "ld.lld-19")) return;
  const ours = readElf(emitHsaco(profile("gfx1100"), [SEED, SAXPY]));
  const ref = readElf(llvmReference("gfx1101", {}, [SEED, SAXPY], 5));
  const problems = compareWithReference(ours, ref);
  assert.ok(problems.some((p) => p.startsWith("ELF header")));
  assert.ok(problems.some((p) => p.startsWith(".note contents")));
  assert.ok(problems.some((p) => p.startsWith(".rodata contents")), "gfx1100's user SGPR padding changes the descriptor");
});
