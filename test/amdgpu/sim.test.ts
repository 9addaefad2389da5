/**
 * Loom-emitted HSACO runs correctly: every suite kernel, compiled by this back end for gfx1100
 * (RDNA3, wave32) and gfx942 (CDNA3, wave64), runs in the ISA simulator (src/runtime/sim,
 * which decodes the bytes, not our IR, and is proven on clang-19-built code by
 * test/sim/llvm-suite.test.ts) at every test size of the suite manifest (0, 1, primes,
 * non-multiples of the workgroup size) and reproduces the suite's CPU references.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { Compiler, Context, PassProgram, Source, Workspace, compileModule, emitModule, parseExecutableInterface } from "../../src/index.js";
import { createAmdgpuProfile, createAmdgpuTargetEnvironment } from "../../src/targets/amdgpu/index.js";
import { KERNEL_SUITE } from "../../examples/kernels/suite.js";
import { NOT_YET_SELECTED } from "./not-yet.js";
import { SimRuntime } from "../../src/runtime/sim/index.js";
import { fromRoot } from "../util/paths.js";
import { runSimCase, suiteLaunch } from "../sim/suite-cases.js";

const env = createAmdgpuTargetEnvironment();
const context = Context.create({ targetEnvironments: [env] });
const compiler = Compiler.create(context);
const pipeline = PassProgram.fromTargetPipeline(context, { identifier: "amdgpu-sim", kind: "prepared-low" }).value!;

/** The code object and its kernel-interface record (the simulator packs arguments from it). */
function hsaco(file: string, symbol: string, target: string) {
  const ws = new Workspace(context);
  const parsed = ws.parseModule(Source.fromText(file, readFileSync(fromRoot("examples", "kernels", file), "utf8")));
  const profile = createAmdgpuProfile(env, { identifier: `sim-${target}`, identity: { target } });
  const compiled = compileModule(compiler, ws, pipeline, parsed.value!, { specializations: [{ functionSymbol: symbol, targetProfile: profile }] });
  assert.equal(compiled.state, "succeeded", JSON.stringify(compiled.diagnostics));
  const emitted = emitModule(env, ws, parsed.value!, { artifactFormat: "amdgpu-hsaco" });
  assert.equal(emitted.state, "succeeded", JSON.stringify(emitted.diagnostics));
  const record = emitted.artifacts.find((a) => a.format === "json");
  assert.ok(record, "an interface artifact");
  return { bytes: emitted.artifacts[0]!.contents, record: parseExecutableInterface(record.contents) };
}

for (const target of ["gfx1100", "gfx942"]) {
  for (const kernel of KERNEL_SUITE.filter((k) => !(k.symbol in NOT_YET_SELECTED))) {
    test(`loom-built ${kernel.symbol} (${target}) reproduces the suite reference in the simulator at every test size`, (t) => {
      const rt = new SimRuntime();
      const built = hsaco(kernel.file, kernel.symbol, target);
      const module = rt.loadCodeObject(built.bytes, built.record);
      const launch = suiteLaunch(kernel, target);
      const failures: string[] = [];
      let instructions = 0;
      for (const shape of kernel.shapes.test) {
        const r = runSimCase(rt, module, kernel, launch, shape);
        instructions += r.instructions;
        for (const f of r.failures) failures.push(`${r.label}: ${f}`);
      }
      t.diagnostic(`${kernel.symbol} ${target}: ${kernel.shapes.test.length} sizes, ${instructions} wave instructions`);
      assert.deepEqual(failures, []);
    });
  }
}
