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
import { readFileSync } from "node:fs";
import { Compiler, Context, PassProgram, Source, Workspace, compileModule, emitModule } from "../../src/index.js";
import { amdgpuListingOf, createAmdgpuProfile, createAmdgpuTargetEnvironment } from "../../src/targets/amdgpu/index.js";
import { KERNEL_SUITE } from "../../examples/kernels/suite.js";
import { NOT_YET_SELECTED } from "./not-yet.js";
import { fromRoot } from "../util/paths.js";
import { requireLlvm } from "./llvm.js";
import { checkWithLlvm, LLVM_CHECK_TOOLS } from "./llvm-checks.js";

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
      if (!requireLlvm(t, ...LLVM_CHECK_TOOLS)) return;
      checkWithLlvm(c.bytes, c.listing, target);
    });
  }
}
