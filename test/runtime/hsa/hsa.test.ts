/**
 * The HSA handoff without an AMD GPU: a missing library and Debian's libhsa-runtime64-1 (which
 * loads but cannot start without /dev/kfd) are clear LoomErrors; the kernarg segment is checked
 * against the HSACO metadata as llvm-readobj-19 prints it (explicit arguments of a loom kernel at
 * the record's offsets, code object v5 hidden arguments of an LLVM-built kernel at theirs); the
 * AQL packet against the HSA packet layout; ISA names against the AMDGPU target ID syntax.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { existsSync } from "node:fs";
import { Compiler, Context, PassProgram, Source, Workspace, compileModule, emitModule, parseExecutableInterface, type ExecutableInterface } from "../../../src/index.js";
import { LoomError } from "../../../src/core/errors.js";
import { createAmdgpuProfile, createAmdgpuTargetEnvironment } from "../../../src/targets/amdgpu/index.js";
import { DISPATCH_HEADER, HsaRuntime, LIBRARY_ENV_VAR, dispatchPacket, kernargSegment, packExplicitArguments, parseIsaName, profileFromAgent, readHsacoMetadata } from "../../../src/runtime/hsa/index.js";
import { withFile } from "../../amdgpu/llvm.js";
import { parseYaml, type YamlValue } from "../../amdgpu/yaml.js";
import { requireTool, runTool } from "../../util/tools.js";
import { buildOpencl, requireOpenclTools } from "../../sim/opencl.js";

const DEBIAN_LIBRARY = "/usr/lib/x86_64-linux-gnu/libhsa-runtime64.so.1";

function withLibrary<R>(file: string | undefined, fn: () => R): R {
  const saved = process.env[LIBRARY_ENV_VAR];
  if (file === undefined) delete process.env[LIBRARY_ENV_VAR];
  else process.env[LIBRARY_ENV_VAR] = file;
  try {
    return fn();
  } finally {
    if (saved === undefined) delete process.env[LIBRARY_ENV_VAR];
    else process.env[LIBRARY_ENV_VAR] = saved;
  }
}

test("a missing HSA library is a LoomError naming the file and the override", () => {
  assert.throws(
    () => withLibrary("/nonexistent/libhsa-runtime64.so.1", () => HsaRuntime.open()),
    (e: unknown) => e instanceof LoomError && e.status === "failed-precondition" && /cannot load the HSA runtime \/nonexistent\/libhsa-runtime64\.so\.1/.test(e.message) && e.message.includes(LIBRARY_ENV_VAR),
  );
});

test("Debian's libhsa-runtime64-1 loads and reports that no GPU agent can run (LoomError)", (t) => {
  if (!existsSync(DEBIAN_LIBRARY)) {
    const reason = `${DEBIAN_LIBRARY} not installed (apt-get install libhsa-runtime64-1)`;
    if (process.env.REQUIRE_ALL_TOOLS === "1") throw new Error(`REQUIRE_ALL_TOOLS=1 but ${reason}`);
    t.skip(reason);
    return;
  }
  let opened: HsaRuntime | undefined;
  try {
    opened = withLibrary(undefined, () => HsaRuntime.open());
  } catch (e) {
    assert.ok(e instanceof LoomError, `not a LoomError: ${String(e)}`);
    // Without /dev/kfd hsa_init fails; with a driver but no GPU there is no GPU agent.
    assert.match(e.message, /hsa_init failed with HSA_STATUS_ERROR_\w+ .*no AMD GPU or no amdgpu kernel driver|reports no GPU agent/);
    assert.ok(e.status === "failed-precondition" || e.status === "not-found");
    return;
  }
  // A machine with an AMD GPU: the agent must describe itself.
  assert.ok(opened.gpu.isaName.startsWith("amdgcn-amd-amdhsa--gfx"));
  opened.dispose();
});

interface ReadobjArg {
  readonly offset: number;
  readonly size: number;
  readonly kind: string;
}
/** `.args` of each kernel as llvm-readobj-19 decodes the metadata note. */
function readobjArgs(bytes: Uint8Array): Map<string, { args: ReadobjArg[]; kernargSize: number }> {
  return withFile(bytes, (path) => {
    const r = runTool("llvm-readobj-19", ["--notes", "--elf-output-style=JSON", path]);
    assert.equal(r.status, 0, r.stderr);
    const notes = (JSON.parse(r.stdout) as { NoteSections?: { NoteSection: { Notes: Record<string, string>[] } }[] }[])[0]?.NoteSections?.flatMap((s) => s.NoteSection.Notes) ?? [];
    const text = notes.find((n) => n.Type?.startsWith("NT_AMDGPU_METADATA"))?.["AMDGPU Metadata"];
    const doc = parseYaml(text!) as Record<string, YamlValue>;
    const kernels = doc["amdhsa.kernels"] as Record<string, YamlValue>[];
    return new Map(
      kernels.map((k) => [
        String(k[".name"]),
        {
          kernargSize: Number(k[".kernarg_segment_size"]),
          args: ((k[".args"] as Record<string, YamlValue>[] | undefined) ?? []).map((a) => ({ offset: Number(a[".offset"]), size: Number(a[".size"]), kind: String(a[".value_kind"]) })),
        },
      ]),
    );
  });
}

function buildLoom(text: string, symbol: string): { bytes: Uint8Array; record: ExecutableInterface } {
  const env = createAmdgpuTargetEnvironment();
  const profile = createAmdgpuProfile(env, { identifier: "hsa-test", identity: { target: "gfx1100" } });
  const context = Context.create({ targetEnvironments: [env] });
  const workspace = new Workspace(context);
  const parsed = workspace.parseModule(Source.fromText("k.loom", text));
  assert.ok(parsed.ok && parsed.value, parsed.formatDiagnostics());
  const pipeline = PassProgram.fromTargetPipeline(context, { kind: "prepared-low" }).value!;
  const compiled = compileModule(Compiler.create(context), workspace, pipeline, parsed.value, { specializations: [{ functionSymbol: symbol, targetProfile: profile }] });
  assert.ok(compiled.ok, compiled.formatDiagnostics());
  const emitted = emitModule(env, workspace, parsed.value, { artifactFormat: "amdgpu-hsaco", identifier: "k.hsaco" });
  assert.ok(emitted.ok, emitted.formatDiagnostics());
  const [exe, iface] = emitted.artifacts;
  return { bytes: exe!.contents, record: parseExecutableInterface(iface!.contents) };
}

test("the explicit kernarg block of a loom kernel sits where its HSACO metadata says (llvm-readobj-19)", (t) => {
  if (!requireTool(t, "llvm-readobj-19", "apt-get install llvm-19")) return;
  const text = `
kernel.def export("args") @args(%n: index) {
  %c1 = index.constant 1 : index
  kernel.launch.config workgroups(%n, %c1, %c1) workgroup_size(%c1, %c1, %c1) : index
} launch(%n: index, %alpha: f32, %flag: i1, %x: buffer, %k: i32, %y: buffer) {
  kernel.return
}
`;
  const { bytes, record } = buildLoom(text, "args");
  const md = readHsacoMetadata(bytes).kernels.find((k) => k.name === "args")!;
  const oracle = readobjArgs(bytes).get("args")!;
  assert.equal(md.kernargSegmentSize, oracle.kernargSize);
  assert.deepEqual(md.args.map((a) => ({ offset: a.offset, size: a.size, kind: a.valueKind })), oracle.args);
  const kernel = record.kernels.find((k) => k.entryName === "args")!;
  const x = { address: 0x7f00_1234_5000n, byteLength: 4096 };
  const y = { address: 0x7f00_9999_0000n, byteLength: 12 };
  const explicit = packExplicitArguments(kernel, [97, 2.5, true, x, -3, y]);
  const segment = kernargSegment(md, explicit, { workgroups: [97, 1, 1], workgroupSize: [1, 1, 1] });
  assert.equal(segment.length, oracle.kernargSize);
  const v = new DataView(segment.buffer);
  // Walk the oracle's entries in order: n, alpha, flag, x address, x length, k, y address, y length.
  const expected: [string, (at: number) => unknown, unknown][] = [
    ["by_value", (at) => v.getBigInt64(at, true), 97n],
    ["by_value", (at) => v.getFloat32(at, true), 2.5],
    ["by_value", (at) => v.getUint32(at, true), 1],
    ["global_buffer", (at) => v.getBigUint64(at, true), x.address],
    ["by_value", (at) => v.getBigUint64(at, true), 4096n],
    ["by_value", (at) => v.getInt32(at, true), -3],
    ["global_buffer", (at) => v.getBigUint64(at, true), y.address],
    ["by_value", (at) => v.getBigUint64(at, true), 12n],
  ];
  const explicitArgs = oracle.args.filter((a) => !a.kind.startsWith("hidden_"));
  assert.equal(explicitArgs.length, expected.length);
  explicitArgs.forEach((a, i) => {
    const [kind, read, want] = expected[i]!;
    assert.equal(a.kind, kind, `entry ${i}`);
    assert.equal(read(a.offset), want, `entry ${i} at offset ${a.offset}`);
  });
  assert.throws(() => packExplicitArguments(kernel, [1, 2]), (e: unknown) => e instanceof LoomError && /takes 6 arguments/.test(e.message));
  assert.throws(() => packExplicitArguments(kernel, [1, 2.5, true, 7, 1, y]), (e: unknown) => e instanceof LoomError && /argument 3 \('x'\): expected a buffer/.test(e.message));
});

test("hidden kernel arguments land at the offsets of the LLVM-built kernel's metadata (llvm-readobj-19)", (t) => {
  if (!requireOpenclTools(t) || !requireTool(t, "llvm-readobj-19", "apt-get install llvm-19")) return;
  // vector_add_tail.cl reads hidden_group_size_x; LLVM lists the whole v5 hidden block.
  const { bytes } = buildOpencl("vector_add_tail", "gfx1100");
  const md = readHsacoMetadata(bytes).kernels[0]!;
  const oracle = readobjArgs(bytes).get("vector_add_tail")!;
  const explicitBytes = Math.max(...oracle.args.filter((a) => !a.kind.startsWith("hidden_")).map((a) => a.offset + a.size));
  const segment = kernargSegment(md, new Uint8Array(explicitBytes), { workgroups: [17, 3, 1], workgroupSize: [64, 2, 1] });
  assert.equal(segment.length, oracle.kernargSize);
  const v = new DataView(segment.buffer);
  const at = (kind: string) => oracle.args.find((a) => a.kind === kind)!;
  const read = (kind: string) => {
    const a = at(kind);
    return a.size === 2 ? v.getUint16(a.offset, true) : a.size === 4 ? v.getUint32(a.offset, true) : Number(v.getBigUint64(a.offset, true));
  };
  assert.deepEqual(
    ["hidden_block_count_x", "hidden_block_count_y", "hidden_block_count_z", "hidden_group_size_x", "hidden_group_size_y", "hidden_group_size_z", "hidden_remainder_x", "hidden_grid_dims"].map(read),
    [17, 3, 1, 64, 2, 1, 0, 2],
  );
});

test("the AQL dispatch packet has the HSA layout: header, setup, sizes, segments, object, kernarg, signal", () => {
  const { body, headerAndSetup } = dispatchPacket({
    workgroups: [10, 2, 1],
    workgroupSize: [256, 1, 1],
    privateSegmentBytes: 16,
    groupSegmentBytes: 1024,
    kernelObject: 0x1111_2222_3333n,
    kernargAddress: 0x4444_5555_6666n,
    completionSignal: 0x7777_8888n,
  });
  const v = new DataView(body.buffer);
  assert.equal(body.length, 64);
  assert.equal(v.getUint16(0, true), 0, "the header is stored last, apart from the body");
  // Header: type 2 (kernel dispatch) [7:0], barrier [8], acquire [10:9] and release [12:11] system scope (2).
  assert.equal(headerAndSetup & 0xffff, 2 | (1 << 8) | (2 << 9) | (2 << 11));
  assert.equal(DISPATCH_HEADER, 2 | (1 << 8) | (2 << 9) | (2 << 11));
  assert.equal(headerAndSetup >>> 16, 2, "setup: two dimensions");
  assert.deepEqual([v.getUint16(4, true), v.getUint16(6, true), v.getUint16(8, true)], [256, 1, 1]);
  assert.deepEqual([v.getUint32(12, true), v.getUint32(16, true), v.getUint32(20, true)], [2560, 2, 1], "grid size in work-items");
  assert.equal(v.getUint32(24, true), 16);
  assert.equal(v.getUint32(28, true), 1024);
  assert.equal(v.getBigUint64(32, true), 0x1111_2222_3333n);
  assert.equal(v.getBigUint64(40, true), 0x4444_5555_6666n);
  assert.equal(v.getBigUint64(48, true), 0n);
  assert.equal(v.getBigUint64(56, true), 0x7777_8888n);
});

test("an agent's ISA name becomes AMDGPU profile options", () => {
  assert.deepEqual(parseIsaName("amdgcn-amd-amdhsa--gfx1100"), { processor: "gfx1100" });
  assert.deepEqual(parseIsaName("amdgcn-amd-amdhsa--gfx90a:sramecc+:xnack-"), { processor: "gfx90a", sramecc: true, xnack: false });
  const agent = { handle: 1n, name: "gfx942", vendor: "AMD", deviceType: 1, isaName: "amdgcn-amd-amdhsa--gfx942:sramecc+:xnack-", wavefrontSize: 64, workgroupMaxSize: 1024 };
  const options = profileFromAgent(agent);
  assert.deepEqual(options, { identifier: "hsa-gfx942", identity: { target: "gfx942", sramecc: true, xnack: false, wavefrontSize: 64 } });
  // The options are what the AMDGPU target takes.
  const profile = createAmdgpuProfile(createAmdgpuTargetEnvironment(), options);
  assert.equal(profile.identifier, "hsa-gfx942");
  assert.throws(() => profileFromAgent({ ...agent, deviceType: 0 }), (e: unknown) => e instanceof LoomError && /not a GPU/.test(e.message));
  assert.throws(() => parseIsaName("x86_64-unknown-linux"), (e: unknown) => e instanceof LoomError);
});
