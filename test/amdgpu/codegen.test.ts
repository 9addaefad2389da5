/**
 * Instruction selection on every suite kernel (examples/kernels) for RDNA3 (gfx1100, wave32)
 * and CDNA3 (gfx942, wave64), against LLVM 19 as the independent oracle:
 *   - `llvm-objdump-19 -d` decodes every word of each kernel's code (no unknown words);
 *   - `llvm-mc-19` assembles our listing to exactly our code bytes (every emitted form,
 *     instruction by instruction, as LLVM encodes it);
 *   - `llvm-readobj-19 --notes` metadata covers the registers the code names and the LDS size.
 * Golden listings: test/golden/amdgpu/<kernel>.<processor>.s, from the `RUN: amdgpu` lines of
 * test/cases (UPDATE=1 refreshes them).
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { Compiler, Context, PassProgram, Source, Workspace, compileModule, emitModule } from "../../src/index.js";
import { amdgpuListingOf, createAmdgpuProfile, createAmdgpuTargetEnvironment } from "../../src/targets/amdgpu/index.js";
import { KERNEL_SUITE } from "../../examples/kernels/suite.js";
import { NOT_YET_SELECTED } from "./not-yet.js";
import { fromRoot } from "../util/paths.js";
import { runTool } from "../util/tools.js";
import { requireLlvm, withTempDir } from "./llvm.js";

const env = createAmdgpuTargetEnvironment();
const context = Context.create({ targetEnvironments: [env] });
const compiler = Compiler.create(context);
const pipeline = PassProgram.fromTargetPipeline(context, { identifier: "amdgpu-codegen", kind: "prepared-low" }).value!;

/** Kernels not selected yet, with the op that is TARGET/001 (docs/amdgpu.md "Not done yet"). */
const NOT_YET = NOT_YET_SELECTED;

function compile(file: string, symbol: string, target: string) {
  const ws = new Workspace(context);
  const parsed = ws.parseModule(Source.fromText(file, readFileSync(fromRoot("examples", "kernels", file), "utf8")));
  assert.equal(parsed.state, "succeeded");
  const profile = createAmdgpuProfile(env, { identifier: `codegen-${target}`, identity: { target } });
  const compiled = compileModule(compiler, ws, pipeline, parsed.value!, { specializations: [{ functionSymbol: symbol, targetProfile: profile }] });
  if (compiled.state !== "succeeded") return { diagnostics: compiled.diagnostics };
  const emitted = emitModule(env, ws, parsed.value!, { artifactFormat: "amdgpu-hsaco" });
  assert.equal(emitted.state, "succeeded", JSON.stringify(emitted.diagnostics));
  return { diagnostics: [], bytes: emitted.artifacts[0]!.contents, listing: amdgpuListingOf(emitted.artifacts[0]!.contents) };
}

function maxRegister(listing: string, prefix: "s" | "v"): number {
  let max = -1;
  for (const m of listing.matchAll(new RegExp(`\\b${prefix}(?:\\[(\\d+):(\\d+)\\]|(\\d+))\\b`, "g"))) max = Math.max(max, Number(m[2] ?? m[3]));
  return max;
}

for (const k of KERNEL_SUITE) {
  for (const target of ["gfx1100", "gfx942"]) {
    test(`${k.symbol} on ${target}: LLVM decodes, re-assembles and reads back what we emit`, (t) => {
      const c = compile(k.file, k.symbol, target);
      const missing = NOT_YET[k.symbol];
      if (missing) {
        assert.ok(c.diagnostics.some((d) => d.code === "TARGET/001" && d.message.includes(missing)), JSON.stringify(c.diagnostics));
        return;
      }
      assert.ok(c.bytes && c.listing, JSON.stringify(c.diagnostics));
      if (!requireLlvm(t, "llvm-objdump-19", "llvm-mc-19", "llvm-objcopy-19", "llvm-readobj-19")) return;
      withTempDir((dir) => {
        const hsaco = join(dir, "k.hsaco");
        writeFileSync(hsaco, c.bytes!);
        const dis = runTool("llvm-objdump-19", ["-d", `--mcpu=${target}`, hsaco]);
        assert.equal(dis.status, 0, dis.stderr);
        assert.doesNotMatch(dis.stdout, /<unknown>|\.long\b/);
        // Our listing, assembled by llvm-mc-19, is our code byte for byte.
        const body = c.listing!.split("\n").slice(1).join("\n");
        writeFileSync(join(dir, "k.s"), body);
        const mc = runTool("llvm-mc-19", ["-triple=amdgcn-amd-amdhsa", `-mcpu=${target}`, "-filetype=obj", join(dir, "k.s"), "-o", join(dir, "k.o")]);
        assert.equal(mc.status, 0, mc.stderr);
        assert.equal(runTool("llvm-objcopy-19", ["-O", "binary", "--only-section=.text", join(dir, "k.o"), join(dir, "mc.bin")]).status, 0);
        assert.equal(runTool("llvm-objcopy-19", ["-O", "binary", "--only-section=.text", hsaco, join(dir, "ours.bin")]).status, 0);
        const ours = readFileSync(join(dir, "ours.bin"));
        const theirs = readFileSync(join(dir, "mc.bin"));
        const start = 0x0; // each single-kernel object starts its code at .text offset 0
        assert.deepEqual([...ours.subarray(start, start + theirs.length)], [...theirs], "llvm-mc-19 encodes our listing differently");
        // Metadata covers every register the code names, and the LDS it uses.
        const notes = runTool("llvm-readobj-19", ["--notes", hsaco]).stdout;
        const sgprs = Number(/\.sgpr_count:\s+(\d+)/.exec(notes)?.[1]);
        const vgprs = Number(/\.vgpr_count:\s+(\d+)/.exec(notes)?.[1]);
        assert.ok(sgprs >= maxRegister(c.listing!, "s") + 1, `.sgpr_count ${sgprs} < s${maxRegister(c.listing!, "s")}`);
        assert.ok(vgprs >= maxRegister(c.listing!, "v") + 1, `.vgpr_count ${vgprs} < v${maxRegister(c.listing!, "v")}`);
        const lds = Number(/\.group_segment_fixed_size:\s+(\d+)/.exec(notes)?.[1]);
        const usesLds = /\bds_(?!bpermute|swizzle)/.test(c.listing!);
        assert.ok(!usesLds || lds > 0, "LDS instructions with no group segment");
      });
    });
  }
}
