/**
 * The compiler does not decode its own launch-config output (encode.ts): this proves, for
 * every example kernel, that what compileModule encodes is accepted by the hostile decoder
 * and re-encodes to the same bytes.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { readdirSync, readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { Compiler, Context, PassProgram, Source, Workspace, compileModule } from "../../src/index.js";
import { createAmdgpuProfile, createAmdgpuTargetEnvironment } from "../../src/targets/amdgpu/index.js";
import { decodeLaunchConfig } from "../../src/launch/decode.js";
import { encodeLaunchFunctions } from "../../src/launch/encode.js";
import { isOp } from "../../src/dialects/registry.js";

const dir = fileURLToPath(new URL("../../../examples/kernels/", import.meta.url));

test("compiled launch-config companions of every example kernel decode and re-encode identically", () => {
  const env = createAmdgpuTargetEnvironment();
  const context = Context.create({ targetEnvironments: [env] });
  const profile = createAmdgpuProfile(env, { identifier: "roundtrip", identity: { target: "gfx1100" } });
  const compiler = Compiler.create(context);
  const pipeline = PassProgram.fromTargetPipeline(context, { kind: "prepared-low" }).value!;
  const workspace = new Workspace(context);
  let checked = 0;
  for (const file of readdirSync(dir).filter((f) => f.endsWith(".loom")).sort()) {
    const text = readFileSync(dir + file, "utf8");
    const parsed = workspace.parseModule(Source.fromText(file, text));
    assert.ok(parsed.ok, `${file}: ${parsed.formatDiagnostics()}`);
    const kernels = parsed.value!.ir.ops.flatMap((op) => (isOp(op, "kernel.def") ? [op.props.symbol] : []));
    const compiled = compileModule(compiler, workspace, pipeline, parsed.value!, {
      specializations: kernels.map((functionSymbol) => ({ functionSymbol, targetProfile: profile })),
      artifacts: { launchConfig: true },
    });
    assert.ok(compiled.ok, `${file}: ${compiled.formatDiagnostics()}`);
    const bytes = compiled.artifacts.find((a) => a.kind === "launch-config")!.contents;
    const decoded = decodeLaunchConfig(bytes);
    assert.equal(decoded.functions.length, kernels.length, file);
    assert.deepEqual(encodeLaunchFunctions(decoded.functions, decoded.producer), bytes, file);
    checked++;
  }
  assert.ok(checked >= 10, `only ${checked} example files`);
});
