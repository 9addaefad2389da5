/**
 * Issue 12 item 14 (NaN payloads, signed zero, float controls) and the defects the program
 * fuzzer (bench/fuzz/differential.ts) found, as regression tests. Oracles: the reference
 * interpreter on the unoptimised kernel, execution on lavapipe (bit-exact comparison),
 * spirv-val, and the bit patterns the language docs promise.
 */
import "../../src/api/check-dialect.js"; // the check harness's syntax and rules, which loomc registers
import { test } from "node:test";
import assert from "node:assert/strict";
import { writeFileSync, mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { DiagnosticSink } from "../../src/core/diag/diagnostic.js";
import { parseModule } from "../../src/text/parser.js";
import { verifyModule } from "../../src/passes/verify/index.js";
import { prepareInterpreter } from "../../src/interp/index.js";
import { isOp } from "../../src/dialects/registry.js";
import { compileForDevice, spirvEnvironment, vulkanDevice } from "../../src/harness/index.js";
import { VulkanRuntime } from "../../src/runtime/vulkan/index.js";
import { createSpirvProfile } from "../../src/targets/spirv/index.js";
import { requireLavapipe } from "../runtime/vulkan/probe.js";
import { requireTool, runTool } from "../util/tools.js";

/** A one-invocation kernel: `%x` (f32) and `%xi` (i32) are word 0 of `%in`, as either type; the body stores to `%vo` (i32). */
function kernel(body: string): string {
  return `kernel.def export("k") @k() {
  %c1 = index.constant 1 : index
  kernel.launch.config workgroups(%c1, %c1, %c1) workgroup_size(%c1, %c1, %c1) : index
} launch(%in: buffer, %out: buffer) {
  %origin = index.constant 0 : offset
  %vf = buffer.view %in[%origin] : buffer -> view<4xf32>
  %vi = buffer.view %in[%origin] : buffer -> view<4xi32>
  %vo = buffer.view %out[%origin] : buffer -> view<8xi32>
  %x = view.load %vf[0] : view<4xf32> -> f32
  %xi = view.load %vi[0] : view<4xi32> -> i32
${body}
  kernel.return
}
`;
}

function interpret(text: string, input: number): number[] {
  const sink = new DiagnosticSink();
  const module = parseModule("k.loom", text, sink);
  verifyModule(module, sink);
  assert.equal(sink.hasErrors, false, JSON.stringify(sink.diagnostics));
  const out = new Uint32Array(8);
  const k = module.ops.find((o) => isOp(o, "kernel.def"))!;
  prepareInterpreter(k, { module }).run({
    workgroupCount: [1, 1, 1], workgroupSize: [1, 1, 1], subgroupSize: 1,
    args: [new Uint8Array(new Uint32Array([input, 0, 0, 0]).buffer), new Uint8Array(out.buffer)],
  });
  return [...out];
}

function onDevice(rt: VulkanRuntime, text: string, input: number): number[] {
  const dev = vulkanDevice(rt, { owned: false });
  const compiled = compileForDevice("k.loom", text, dev.target.profile as Parameters<typeof compileForDevice>[2]);
  assert.ok(compiled.ok, compiled.ok ? "" : compiled.diagnostics);
  const loaded = dev.load(compiled.kernel);
  const bin = dev.createBuffer(16), bout = dev.createBuffer(32);
  try {
    bin.upload(new Uint8Array(new Uint32Array([input, 0, 0, 0]).buffer));
    bout.upload(new Uint8Array(32));
    loaded.dispatch(compiled.kernel.launch([]), [bin, bout], false);
    const b = bout.download();
    return [...new Uint32Array(b.buffer.slice(b.byteOffset, b.byteOffset + 32))];
  } finally {
    bin.destroy();
    bout.destroy();
    loaded.destroy();
  }
}

const STORE = (names: string[]) => names.map((n, i) => `  view.store %${n}, %vo[${i}] : i32, view<8xi32>`).join("\n");

/** Each case: a body, an input word, and the words the language promises (the interpreter's and the device's). */
const CASES: { name: string; body: string; input: number; want: number[] }[] = [
  {
    name: "bit-moving ops keep a signalling NaN's payload (load, bitcast, select, vector lanes, store)",
    input: 0xff800001,
    body: `  %b = scalar.bitcast %x : f32 to i32
  %t = scalar.constant true : i1
  %s = scf.select %t, %x, %x : f32
  %sb = scalar.bitcast %s : f32 to i32
  %v = vector.splat %x : vector<4xf32>
  %e = vector.extract %v[2] : vector<4xf32> -> f32
  %eb = scalar.bitcast %e : f32 to i32
  %nb = scalar.bitcast %xi : i32 to f32
  %nbb = scalar.bitcast %nb : f32 to i32
${STORE(["b", "sb", "eb", "nbb"])}`,
    want: [0xff800001, 0xff800001, 0xff800001, 0xff800001, 0, 0, 0, 0],
  },
  {
    name: "inf − inf is NaN (SignedZeroInfNanPreserve: the driver may not fold x − x to 0)",
    input: 0x7f800000,
    body: `  %d = scalar.subf %x, %x : f32
  %u = scalar.cmpf uno, %d, %d : f32
  %r = scalar.extui %u : i1 to i32
${STORE(["r"])}`,
    want: [1, 0, 0, 0, 0, 0, 0, 0],
  },
  {
    name: "f64 trunc and roundeven keep −0 and round ties to even; minnumf/maxnumf order −0 < +0",
    input: 0xbe800000, // −0.25
    body: `  %d = scalar.extf %x : f32 to f64
  %t = scalar.truncf %d : f64
  %half = scalar.constant 1.5 : f64
  %re = scalar.roundevenf %half : f64
  %tf = scalar.fptrunc %t : f64 to f32
  %rf = scalar.fptrunc %re : f64 to f32
  %zero = scalar.constant 0.0 : f32
  %nz = scalar.truncf %x : f32
  %mn = scalar.minnumf %zero, %nz : f32
  %mx = scalar.maxnumf %nz, %zero : f32
  %a = scalar.bitcast %tf : f32 to i32
  %b = scalar.bitcast %rf : f32 to i32
  %c = scalar.bitcast %mn : f32 to i32
  %e = scalar.bitcast %mx : f32 to i32
${STORE(["a", "b", "c", "e"])}`,
    want: [0x80000000, 0x40000000, 0x80000000, 0, 0, 0, 0, 0],
  },
  {
    name: "a sign-extended value compares signed with a constant (sext(−1) <s 31)",
    input: 0xffffffff,
    body: `  %w = scalar.extsi %xi : i32 to i64
  %k = scalar.constant 31 : i64
  %gt = scalar.cmpi sgt, %k, %w : i64
  %q = index.cast %xi : i32 to index
  %c31 = index.constant 31 : index
  %lt = index.cmp slt, %q, %c31 : index
  %a = scalar.extui %gt : i1 to i32
  %b = scalar.extui %lt : i1 to i32
${STORE(["a", "b"])}`,
    want: [1, 1, 0, 0, 0, 0, 0, 0],
  },
];

for (const c of CASES) {
  test(`interpreter: ${c.name}`, () => {
    assert.deepEqual(interpret(kernel(c.body), c.input).map((w) => w >>> 0), c.want);
  });
}

test("lavapipe agrees bit for bit with the interpreter on every case above", (t) => {
  if (!requireLavapipe(t)) return;
  const rt = VulkanRuntime.create();
  try {
    for (const c of CASES) assert.deepEqual(onDevice(rt, kernel(c.body), c.input).map((w) => w >>> 0), c.want, c.name);
  } finally {
    rt.destroy();
  }
});

test("a subgroup maxnumf/minnumf of only NaNs is NaN, of numbers and NaNs the largest number (lavapipe vs interpreter)", (t) => {
  if (!requireLavapipe(t)) return;
  const text = kernel(`  %mx = kernel.subgroup.reduce<maxnumf> %x : f32
  %mn = kernel.subgroup.reduce<minnumf> %x : f32
  %u1 = scalar.cmpf uno, %mx, %mx : f32
  %u2 = scalar.cmpf uno, %mn, %mn : f32
  %a = scalar.extui %u1 : i1 to i32
  %b = scalar.extui %u2 : i1 to i32
${STORE(["a", "b"])}`);
  const rt = VulkanRuntime.create();
  try {
    assert.deepEqual(interpret(text, 0x7fc00000).slice(0, 2), [1, 1]);
    assert.deepEqual(onDevice(rt, text, 0x7fc00000).slice(0, 2), [1, 1]);
  } finally {
    rt.destroy();
  }
});

test("SignedZeroInfNanPreserve is declared exactly when the profile says the device honours it, and the module validates", (t) => {
  if (!requireTool(t, "spirv-val", "apt-get install spirv-tools")) return;
  const text = kernel(`  %d = scalar.subf %x, %x : f32
  %b = scalar.bitcast %d : f32 to i32
${STORE(["b"])}`);
  const env = spirvEnvironment();
  const dir = mkdtempSync(join(tmpdir(), "loom-fc-"));
  for (const preserve of [true, false]) {
    const profile = createSpirvProfile(env, { identifier: `fc-${preserve}`, identity: { environment: "vulkan1.3", features: { shaderInt64: true, shaderSignedZeroInfNanPreserveFloat32: preserve } } });
    const compiled = compileForDevice("k.loom", text, profile);
    assert.ok(compiled.ok, compiled.ok ? "" : compiled.diagnostics);
    const file = join(dir, `k-${preserve}.spv`);
    writeFileSync(file, compiled.kernel.executable);
    const val = runTool("spirv-val", ["--target-env", "vulkan1.3", file]);
    assert.equal(val.status, 0, val.stderr);
    const dis = runTool("spirv-dis", [file]).stdout;
    assert.equal(/OpExecutionMode %\w+ SignedZeroInfNanPreserve 32/.test(dis), preserve, dis);
    assert.equal(/OpCapability SignedZeroInfNanPreserve/.test(dis), preserve);
    assert.equal(compiled.kernel.interface.requiredFeatures?.includes("shaderSignedZeroInfNanPreserveFloat32") ?? false, preserve);
  }
  const nan = compileForDevice("k.loom", kernel(`  %n = scalar.constant nan : f32
  %b = scalar.bitcast %n : f32 to i32
${STORE(["b"])}`), createSpirvProfile(env, { identifier: "nan", identity: { environment: "vulkan1.3", features: { shaderInt64: true } } }));
  assert.ok(nan.ok);
  const words = new Uint32Array(nan.kernel.executable.buffer.slice(nan.kernel.executable.byteOffset, nan.kernel.executable.byteOffset + nan.kernel.executable.byteLength));
  assert.ok(words.includes(0x7fc00000), "a NaN constant is the canonical quiet NaN 0x7FC00000");
});
