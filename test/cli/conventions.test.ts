/**
 * The command line a user expects (issue 11): each test names the item it covers and runs the
 * built `loom` binary as a subprocess. Oracles: the exit status and streams, the files left on
 * disk, spirv-val for SPIR-V the named profiles produce.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { chmodSync, existsSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fromRoot } from "../util/paths.js";
import { requireTool, runTool } from "../util/tools.js";
import { doc, loom, loomWith, tempDir } from "./helpers.js";

const SAXPY = fromRoot("examples/kernels/saxpy.loom");
const REDUCE = fromRoot("examples/kernels/reduce_sum.loom");
const SEED = fromRoot("examples/integration/jit-kernel/kernel.loom");
const SUITE = ["saxpy", "vector_add_tail", "block_sum", "reduce_sum", "matmul16", "transpose_tile", "row_softmax", "histogram", "prefix_sum"];
const SUITE_WORKLOAD: Record<string, string> = { matmul16: "20,33", transpose_tile: "20,33" };

test("item 1: loom launch evaluates the launch configuration of every suite kernel with the default target", () => {
  const r = loom("launch", SAXPY, "--kernel", "saxpy", "--workload", "1009");
  assert.equal(r.code, 0, r.err);
  assert.equal(r.out.trim(), "workgroups=8x1x1 workgroup_size=128x1x1 cluster_size=1x1x1 subgroup_size=32 workgroup_storage_bytes=0");
  assert.equal(r.err, "");
  for (const k of SUITE) {
    const workload = SUITE_WORKLOAD[k] ?? "1009";
    const l = loom("launch", fromRoot(`examples/kernels/${k}.loom`), "--kernel", k, "--workload", workload);
    assert.equal(l.code, 0, `${k}: ${l.err}`);
    assert.match(l.out, /^workgroups=\d+x\d+x\d+ /, k);
  }
});

test("item 2: --subgroup-ops, named profiles of real device classes, and the feature list spelled for the CLI", (t) => {
  const dir = tempDir(t);
  const out = join(dir, "reduce.spv");
  const lacking = loom("compile", REDUCE, "--target", "spirv:vulkan1.3", "--feature", "shaderInt64", "--limit", "maxComputeWorkGroupInvocations=256", "--limit", "maxComputeWorkGroupSize=256,256,64", "-o", out);
  assert.equal(lacking.code, 1);
  assert.match(lacking.err, /--subgroup-ops arithmetic/);
  const withOps = loom(
    "compile", REDUCE, "--target", "spirv:vulkan1.3", "--feature", "shaderInt64", "--subgroup-ops", "basic,arithmetic",
    "--limit", "maxComputeWorkGroupInvocations=256", "--limit", "maxComputeWorkGroupSize=256,256,64", "-o", out,
  );
  assert.equal(withOps.code, 0, withOps.err);
  const misuse = loom("compile", REDUCE, "--target", "spirv:vulkan1.3", "--feature", "subgroupOperations", "-o", out);
  assert.equal(misuse.code, 2);
  assert.match(misuse.err, /--subgroup-ops/);
  assert.doesNotMatch(misuse.err, /must be an array/);
  const badOp = loom("compile", REDUCE, "--target", "spirv:vulkan1.3", "--subgroup-ops", "arithmatic", "-o", out);
  assert.equal(badOp.code, 2);
  assert.match(badOp.err, /did you mean 'arithmetic'\?/);
  // Named profiles compile the whole suite (lavapipe, nvidia, amd-rdna) with no extra flags.
  for (const profile of ["lavapipe", "nvidia", "amd-rdna"]) {
    for (const k of profile === "lavapipe" ? SUITE : ["reduce_sum", "row_softmax", "matmul16"]) {
      const spv = join(dir, `${k}-${profile}.spv`);
      const r = loom("compile", fromRoot(`examples/kernels/${k}.loom`), "--target", `spirv:${profile}`, "-o", spv);
      assert.equal(r.code, 0, `${k} on spirv:${profile}: ${r.err}`);
    }
  }
  // SwiftShader has no shaderInt64: the profile says so.
  const swift = loom("compile", SAXPY, "--target", "spirv:swiftshader", "-o", join(dir, "s.spv"));
  assert.equal(swift.code, 1);
  assert.match(swift.err, /shaderInt64/);
  if (!requireTool(t, "spirv-val", "apt-get install spirv-tools")) return;
  for (const f of readdirSync(dir).filter((n) => n.endsWith(".spv") && n !== "s.spv")) {
    const v = runTool("spirv-val", ["--target-env", "vulkan1.3", join(dir, f)]);
    assert.equal(v.status, 0, `${f}: ${v.stderr}${v.stdout}`);
  }
});

test("item 2: spirv:device compiles for the live Vulkan device's own profile", (t) => {
  if (!requireTool(t, "vulkaninfo", "apt-get install vulkan-tools mesa-vulkan-drivers")) return;
  const dir = tempDir(t);
  const out = join(dir, "reduce.spv");
  const r = loom("compile", REDUCE, "--target", "spirv:device", "-o", out);
  assert.equal(r.code, 0, r.err);
  assert.ok(statSync(out).size > 100);
  const facts = loom("compile", REDUCE, "--target", "spirv:device", "--feature", "shaderInt64", "-o", out);
  assert.equal(facts.code, 2, "the live device's facts are not overridden");
});

test("item 3: diagnostics and errors name command-line flags, not API options", (t) => {
  const dir = tempDir(t);
  const r = loom("compile", SAXPY, "--target", "spirv:vulkan1.3", "-o", join(dir, "k.spv"));
  assert.equal(r.code, 1);
  assert.match(r.err, /pass --feature shaderInt64 when the device has it/);
  assert.doesNotMatch(r.err, /identity\.|compileModule|options\./);
  const proc = loom("compile", SEED, "--target", "amdgpu:gfx9999", "-o", join(dir, "k.hsaco"));
  assert.equal(proc.code, 2);
  assert.match(proc.err, /--target amdgpu:gfx9999: .*gfx9999/);
  assert.doesNotMatch(proc.err, /options\.identity/);
  const root = fromRoot("examples/integration/module-composition/kernel.loom");
  const unlinked = loom("compile", root, "--target", "ptx:sm_90", "-o", join(dir, "k.ptx"));
  assert.equal(unlinked.code, 1);
  assert.match(unlinked.err, /--library LIB/);
  assert.doesNotMatch(unlinked.err, /LinkIndex|compileModule/);
});

test("item 4: --color=auto|always|never and NO_COLOR", () => {
  const src = "kernel.def @k() {\n  %x = index.bogus 1 : index\n}\n";
  const always = loomWith({ input: src }, "verify", "--color=always", "-");
  assert.equal(always.code, 1);
  assert.match(always.err, /\x1b\[/);
  const never = loomWith({ input: src }, "verify", "--color", "never", "-");
  assert.doesNotMatch(never.err, /\x1b\[/);
  const noColor = loomWith({ input: src, env: { NO_COLOR: "1" } }, "verify", "--color=auto", "-");
  assert.doesNotMatch(noColor.err, /\x1b\[/);
  assert.equal(loom("verify", "--color=sometimes", SEED).code, 2);
});

test("item 5: one versioned JSON document on stdout for every command and outcome", (t) => {
  const dir = tempDir(t);
  const broken = join(dir, "broken.loom");
  writeFileSync(broken, "kernel.def @k() {\n  %x = index.bogus 1 : index\n}\n");
  const outcomes: [string[], number, string][] = [
    [["verify", SEED], 0, "verify"],
    [["verify", broken], 1, "verify"],
    [["compile", broken, "--target", "ptx:sm_90", "-o", join(dir, "k.ptx")], 1, "compile"],
    [["compile", SAXPY, "--target", "ptx:sm_90", "-o", join(dir, "k.ptx")], 0, "compile"],
    [["compile", SAXPY, "-o", join(dir, "k.ptx")], 2, "compile"],
    [["launch", broken, "--kernel", "k", "--workload", ""], 1, "launch"],
    [["launch", SAXPY, "--kernel", "saxpy", "--workload", "7"], 0, "launch"],
    [["run", broken, "--device", "vulkan"], 1, "run"],
    [["run", join(dir, "missing.loom")], 3, "run"],
    [["fmt", "--check", broken], 1, "fmt"],
    [["link", SEED, "-o", join(dir, "l.loom")], 2, "link"],
    [["explain", "TARGET/001"], 0, "explain"],
    [["compile", SAXPY, "--bogus"], 2, "compile"],
  ];
  for (const [args, code, command] of outcomes) {
    const r = loom(...args, "--json");
    assert.equal(r.code, code, `${args.join(" ")}: ${r.out}${r.err}`);
    const d = doc(r);
    assert.equal(d.schema, "loom-cli/1");
    assert.equal(d.command, command);
    assert.equal(d.ok, code === 0);
    assert.equal(d.exitCode, code);
    assert.ok(Array.isArray(d.diagnostics));
    if (code === 1 && command !== "fmt") assert.ok(d.errorCount > 0 && d.diagnostics.length > 0, args.join(" "));
    if (code >= 2) assert.ok(d.error && ["usage", "io", "device"].includes(d.error.kind), args.join(" "));
  }
  const parse = doc(loom("compile", broken, "--target", "ptx:sm_90", "-o", join(dir, "k.ptx"), "--json"));
  assert.ok(parse.diagnostics.some((d) => d.code === "PARSE/006" && d.file === broken));
  const ugly = join(dir, "ugly.loom");
  writeFileSync(ugly, readFileSync(SEED, "utf8").replace("%unit = index.constant 1 : index", "%unit   =   index.constant 1 : index"));
  const check = doc(loom("fmt", "--check", "--json", ugly, SEED));
  assert.deepEqual(check.result.notCanonical, [ugly]);
  const launch = doc(loom("launch", SAXPY, "--kernel", "saxpy", "--workload", "1009", "--json"));
  assert.deepEqual((launch.result.launch as { workgroupCount: number[] }).workgroupCount, [8, 1, 1]);
});

test("item 6: I/O failures are one line and exit 3; a missing input is not a usage error", (t) => {
  const dir = tempDir(t);
  const cases = [
    ["compile", SEED, "--target", "amdgpu:gfx11-generic", "-o", "/nonexistent/dir/k.hsaco"],
    ["compile", SEED, "--target", "amdgpu:gfx11-generic", "-o", "."],
    ["compile", SEED, "--target", "amdgpu:gfx11-generic", "-o", "/dev/full"],
    ["compile", SEED, "--target", "amdgpu:gfx11-generic", "-o", "/proc/loom-k.hsaco"],
    ["verify", join(dir, "nosuch.loom")],
    ["fmt", join(dir, "nosuch.loom")],
  ];
  for (const args of cases) {
    const r = loom(...args);
    assert.equal(r.code, 3, `${args.join(" ")}: ${r.err}`);
    assert.equal(r.err.trim().split("\n").length, 1, `one line: ${r.err}`);
    assert.match(r.err, /^loom \w+: cannot (read|write) '/);
    assert.doesNotMatch(r.err, /internal error|    at |usage:/);
  }
});

test("item 7: no data loss: outputs never replace inputs or each other, and are all-or-nothing", (t) => {
  const dir = tempDir(t);
  const k = join(dir, "k.loom");
  const original = readFileSync(SAXPY, "utf8");
  writeFileSync(k, original);
  for (const args of [
    ["compile", k, "--target", "ptx:sm_90", "-o", k],
    ["compile", k, "--target", "ptx:sm_90", "-o", join(dir, "k.ptx"), "--launch-config", k],
    ["compile", k, "--emit", "loombc", "-o", k],
    ["compile", k, "--target", "ptx:sm_90", "-o", join(dir, "x"), "--launch-config", join(dir, "x")],
    ["compile", k, "--target", "ptx:sm_90", "-o", join(dir, "..", dir.split("/").pop()!, "k.loom")],
  ]) {
    const r = loom(...args);
    assert.equal(r.code, 3, `${args.join(" ")}: ${r.err}`);
    assert.match(r.err, /refusing to overwrite it|its own path/);
    assert.equal(readFileSync(k, "utf8"), original);
  }
  assert.ok(!existsSync(join(dir, "x")));
  // A later output that cannot be written leaves no earlier one behind.
  const partial = loom("compile", k, "--target", "ptx:sm_90", "-o", join(dir, "good.ptx"), "--launch-config", "/nonexistent/dir/k.loombc");
  assert.equal(partial.code, 3);
  assert.ok(!existsSync(join(dir, "good.ptx")));
  assert.deepEqual(readdirSync(dir).sort(), ["k.loom"], "no temporary files are left");
  // fmt --write is atomic, keeps the file's mode, and refuses bytecode.
  const ugly = join(dir, "ugly.loom");
  writeFileSync(ugly, original.replace("%c1 = index.constant 1 : index", "%c1   =  index.constant 1 : index"));
  chmodSync(ugly, 0o640);
  const w = loom("fmt", "--write", ugly);
  assert.equal(w.code, 0, w.err);
  assert.equal(readFileSync(ugly, "utf8"), original);
  assert.equal(statSync(ugly).mode & 0o777, 0o640);
  const bc = join(dir, "k.loombc");
  assert.equal(loom("compile", k, "--emit", "loombc", "-o", bc).code, 0);
  const before = readFileSync(bc);
  const refused = loom("fmt", "--write", bc);
  assert.equal(refused.code, 2);
  assert.match(refused.err, /bytecode/);
  assert.deepEqual(readFileSync(bc), before);
  assert.deepEqual(readdirSync(dir).sort(), ["k.loom", "k.loombc", "ugly.loom"]);
});

test("item 8: only regular files or stdin are read, up to a limit a flag raises", (t) => {
  const dir = tempDir(t);
  const zero = loom("verify", "/dev/zero");
  assert.equal(zero.code, 3);
  assert.match(zero.err, /not a regular file/);
  const fifo = join(dir, "fifo");
  execFileSync("mkfifo", [fifo]);
  const f = loomWith({ timeout: 20_000 }, "verify", fifo);
  assert.equal(f.code, 3, "a FIFO is refused without blocking");
  const small = loom("verify", "--max-input-bytes", "100", SEED);
  assert.equal(small.code, 3);
  assert.match(small.err, /input limit of 100 .*--max-input-bytes/);
  assert.equal(loom("verify", "--max-input-bytes", "1000000", SEED).code, 0);
  const stdin = loomWith({ input: readFileSync(SEED) }, "verify", "-");
  assert.equal(stdin.code, 0, stdin.err);
  const big = loomWith({ input: "x".repeat(5000) }, "verify", "--max-input-bytes", "4096", "-");
  assert.equal(big.code, 3);
});

test("item 9: wrapped workload values are refused; float sizes are accepted", () => {
  const wrapped = loom("launch", SAXPY, "--kernel", "saxpy", "--workload", "18446744073709552625");
  assert.equal(wrapped.code, 2);
  assert.match(wrapped.err, /out of range for index/);
  assert.equal(loom("launch", SAXPY, "--kernel", "saxpy", "--workload", "18446744073709551616").code, 2);
  assert.equal(loom("launch", SAXPY, "--kernel", "saxpy", "--workload=-9223372036854775809").code, 2);
  // Float sizes and --max-steps on a device run: test/cli/cuda.test.ts (through the fake driver).
});

test("item 11: --version, '-' for stdin and stdout, the error summary, did-you-mean", (t) => {
  const dir = tempDir(t);
  const v = loom("--version");
  assert.equal(v.code, 0);
  assert.match(v.out, /^loom \d+\.\d+\.\d+\n$/);
  const fmt = loomWith({ input: readFileSync(SEED) }, "fmt", "-");
  assert.equal(fmt.code, 0, fmt.err);
  assert.equal(fmt.out, readFileSync(SEED, "utf8"));
  const ptx = loom("compile", SAXPY, "--target", "ptx:sm_90", "-o", "-");
  assert.equal(ptx.code, 0, ptx.err);
  assert.match(ptx.out, /^\.visible \.entry saxpy\(/m);
  const piped = loomWith({ input: readFileSync(SAXPY) }, "compile", "-", "--target", "ptx:sm_90", "-o", join(dir, "s.ptx"));
  assert.equal(piped.code, 0, piped.err);
  const typos = join(dir, "typos.loom");
  writeFileSync(typos, readFileSync(SAXPY, "utf8").replace("view.load %x_view", "view.lod %x_view"));
  const summary = loom("verify", typos);
  assert.equal(summary.code, 1);
  assert.match(summary.err, /did you mean 'view\.load'\?/);
  assert.match(summary.err, /^loom verify: 1 error generated$/m);
  writeFileSync(typos, readFileSync(SAXPY, "utf8").replace("index.add %n", "index.ad %n"));
  assert.match(loom("verify", typos).err, /did you mean 'index\.add'\?/);
  assert.match(loom("fmt", "--chek", SEED).err, /unknown option '--chek'; did you mean '--check'\?/);
  assert.match(loom("compile", SAXPY, "--target", "spirv:vulkan1.3", "--feature", "shaderint64", "-o", "-").err, /did you mean 'shaderInt64'\?/);
  assert.match(loom("compile", SAXPY, "--target", "spirv:lavapip", "-o", "-").err, /did you mean 'lavapipe'\?/);
  assert.match(loom("compile", SAXPY, "--target", "ptx:sm_09", "-o", "-").err, /did you mean 'sm_90'\?/);
  assert.match(loom("compile", SAXPY, "--target", "spirc:vulkan1.3", "-o", "-").err, /did you mean 'spirv'\?/);
  assert.match(loom("compil", SAXPY).err, /did you mean 'compile'\?/);
});

test("item 12: --emit asm and ir, launch --dump, and fmt naming a companion it cannot print", (t) => {
  const dir = tempDir(t);
  const spvAsm = loom("compile", SAXPY, "--target", "spirv:lavapipe", "--emit", "asm", "-o", "-");
  assert.equal(spvAsm.code, 0, spvAsm.err);
  assert.match(spvAsm.out, /OpEntryPoint GLCompute %\d+ "saxpy"/);
  if (requireTool(t, "spirv-dis", "apt-get install spirv-tools")) {
    const spv = join(dir, "s.spv");
    assert.equal(loom("compile", SAXPY, "--target", "spirv:lavapipe", "-o", spv).code, 0);
    const theirs = runTool("spirv-dis", ["--raw-id", spv]).stdout;
    // Both listings name the same instructions, in the same order.
    const ops = (s: string) => [...s.matchAll(/\b(Op[A-Z]\w+)/g)].map((m) => m[1]);
    assert.deepEqual(ops(spvAsm.out.split("\n").filter((l) => !l.startsWith(";")).join("\n")), ops(theirs.split("\n").filter((l) => !l.startsWith(";")).join("\n")));
  }
  const ptxAsm = loom("compile", SAXPY, "--target", "ptx:sm_90", "--emit", "asm", "-o", "-");
  assert.match(ptxAsm.out, /^\.target sm_90$/m);
  const wgslAsm = loom("compile", SAXPY, "--target", "wgsl:webgpu", "--emit", "asm", "-o", "-");
  assert.equal(wgslAsm.code, 0, wgslAsm.err);
  assert.match(wgslAsm.out, /@compute @workgroup_size\(128/);
  const amdAsm = loom("compile", SAXPY, "--target", "amdgpu:gfx1100", "--emit", "asm", "-o", "-");
  assert.equal(amdAsm.code, 0, amdAsm.err);
  assert.match(amdAsm.out, /^saxpy:$/m);
  if (requireTool(t, "llvm-objdump-19", "apt-get install llvm-19")) {
    const hsaco = join(dir, "s.hsaco");
    assert.equal(loom("compile", SAXPY, "--target", "amdgpu:gfx1100", "-o", hsaco).code, 0);
    // The listing names the instructions llvm-objdump decodes from the code object, in order.
    const theirs = runTool("llvm-objdump-19", ["-d", "--mcpu=gfx1100", hsaco]).stdout;
    const mnemonics = (lines: string[]) => lines.map((l) => /^\s+([a-z_0-9]+)/.exec(l)?.[1]).filter((m): m is string => m !== undefined && m !== "s_code_end" && m !== "s_nop");
    const decoded = mnemonics(theirs.split("\n").map((l) => l.replace(/\s*\/\/.*$/, "")).filter((l) => l.startsWith("\t")));
    assert.deepEqual(mnemonics(amdAsm.out.split("\n")), decoded);
  }
  const ir = loom("compile", SAXPY, "--target", "ptx:sm_90", "--emit", "ir", "-o", "-");
  assert.equal(ir.code, 0, ir.err);
  assert.match(ir.out, /kernel\.def export\("saxpy"\) @saxpy/);
  const lc = join(dir, "saxpy.launch.loombc");
  assert.equal(loom("compile", SAXPY, "--target", "ptx:sm_90", "-o", join(dir, "s.ptx"), "--launch-config", lc).code, 0);
  const d = loom("launch", "--dump", lc);
  assert.equal(d.code, 0, d.err);
  assert.match(d.out, /^function @saxpy\(%r0: index \/\* n \*\/\) ; .*saxpy\.loom:\d+:\d+$/m);
  assert.match(d.out, /launch workgroups\(/);
  const notLc = loom("launch", "--dump", SAXPY);
  assert.equal(notLc.code, 1);
  assert.match(notLc.err, /saxpy\.loom: not a launch-config companion/);
  const f = loom("fmt", lc);
  assert.equal(f.code, 1);
  assert.match(f.err, /saxpy\.launch\.loombc/);
});

test("item 10: loom fmt keeps comments where the author put them; every file in examples/ is canonical", (t) => {
  const dir = tempDir(t);
  const file = join(dir, "c.loom");
  const canonical = `// header comment

// second group, after a blank line
func.def public pure @f(%a: index) -> (index) { // on the signature line
  %one = index.constant 1 : index // end of line
  // own line

  // after a blank line inside the group
  %r = index.add %a, %one : index // end of line two
  func.return %r : index // before the brace
} // after the brace
// at the end
`;
  writeFileSync(file, canonical.replace("index // end of line two", "index     // end of line two"));
  const f = loom("fmt", file);
  assert.equal(f.code, 0, f.err);
  assert.equal(f.out, canonical);
  writeFileSync(file, canonical);
  assert.equal(loom("fmt", "--check", file).code, 0, "the canonical form is a fixpoint");
  const examples: string[] = [];
  const walk = (d: string) => {
    for (const e of readdirSync(d, { withFileTypes: true })) {
      if (e.isDirectory()) walk(join(d, e.name));
      else if (e.name.endsWith(".loom")) examples.push(join(d, e.name));
    }
  };
  walk(fromRoot("examples"));
  assert.ok(examples.length >= 10);
  const check = loom("fmt", "--check", ...examples);
  assert.equal(check.code, 0, check.out + check.err);
});

test("item 16: the README names every tool the tests use; a loader without a driver says how to install one", () => {
  const readme = readFileSync(fromRoot("README.md"), "utf8");
  for (const tool of ["ld.lld-19", "lld-19", "libvulkan-dev", "mesa-vulkan-drivers", "spirv-val", "ptxas", "clang-19"]) assert.ok(readme.includes(tool), tool);
  const r = loomWith({ env: { VK_ICD_FILENAMES: "/nonexistent.json", VK_DRIVER_FILES: "/nonexistent.json" } }, "run", SAXPY, "--workload", "10");
  assert.equal(r.code, 4, r.out + r.err);
  assert.match(r.err, /no Vulkan driver is installed .*mesa-vulkan-drivers/);
});

test("item 17: the package has its LICENSE, repository, homepage and a top-level types field", () => {
  const pkg = JSON.parse(readFileSync(fromRoot("package.json"), "utf8")) as Record<string, unknown> & { files: string[]; scripts: Record<string, string> };
  assert.equal(pkg.license, "Apache-2.0");
  assert.match(readFileSync(fromRoot("LICENSE"), "utf8"), /Apache License\s+Version 2\.0, January 2004/);
  assert.ok(pkg.files.includes("LICENSE"));
  assert.equal(typeof pkg.repository, "object");
  assert.equal(typeof pkg.homepage, "string");
  assert.equal(pkg.types, "./dist/src/index.d.ts");
  assert.ok(existsSync(fromRoot(pkg.types as string)), "types points at the built declarations");
  assert.match(pkg.scripts.docs!, /typedoc/);
  assert.match(pkg.scripts.test!, /TMPDIR=/, "npm test runs with a temp dir of its own and removes it");
});

test("item 13: loom compile -g puts OpString/OpSource/OpLine into SPIR-V that spirv-val accepts", (t) => {
  const dir = tempDir(t);
  const plain = join(dir, "plain.spv");
  const debug = join(dir, "debug.spv");
  assert.equal(loom("compile", SAXPY, "--target", "spirv:lavapipe", "-o", plain).code, 0);
  const r = loom("compile", SAXPY, "--target", "spirv:lavapipe", "-g", "-o", debug);
  assert.equal(r.code, 0, r.err);
  const asm = loom("compile", SAXPY, "--target", "spirv:lavapipe", "-g", "--emit", "asm", "-o", "-").out;
  const file = /^%(\d+) = OpString "(.*)"$/m.exec(asm);
  assert.ok(file, asm.slice(0, 400));
  assert.equal(file[2], SAXPY);
  assert.match(asm, new RegExp(`^OpSource 0 0 %${file[1]}$`, "m"));
  // Each OpLine names the line and column of a device-body op of the source.
  const source = readFileSync(SAXPY, "utf8").split("\n");
  const lines = [...asm.matchAll(/^OpLine %\d+ (\d+) (\d+)$/gm)].map((m) => [Number(m[1]), Number(m[2])] as const);
  assert.ok(lines.length >= 8);
  for (const [line, column] of lines) assert.match(source[line - 1]!.slice(column - 1), /^[a-z]+\.[a-z.]+/, `line ${line}:${column}`);
  assert.ok(lines.some(([line]) => source[line - 1]!.includes("view.store")));
  const without = loom("compile", SAXPY, "--target", "spirv:lavapipe", "--emit", "asm", "-o", "-").out;
  assert.doesNotMatch(without, /OpLine|OpString/);
  assert.ok(readFileSync(debug).length > readFileSync(plain).length);
  if (!requireTool(t, "spirv-val", "apt-get install spirv-tools")) return;
  for (const k of ["saxpy", "reduce_sum", "matmul16", "row_softmax", "prefix_sum"]) {
    const out = join(dir, `${k}.spv`);
    assert.equal(loom("compile", fromRoot(`examples/kernels/${k}.loom`), "--target", "spirv:lavapipe", "-g", "-o", out).code, 0, k);
    const v = runTool("spirv-val", ["--target-env", "vulkan1.3", out]);
    assert.equal(v.status, 0, `${k}: ${v.stderr}${v.stdout}`);
  }
});

test("item 13: launch-config errors name the source line of the failing where predicate or op", (t) => {
  const dir = tempDir(t);
  const file = join(dir, "where.loom");
  writeFileSync(
    file,
    `kernel.def export("grid") @grid(%n: index) where [ge(%n, 1)] {
  %c1 = index.constant 1 : index
  %c64 = index.constant 64 : index
  %groups = index.div %n, %c64 : index
  kernel.launch.config workgroups(%groups, %c1, %c1) workgroup_size(%c64, %c1, %c1) : index
} launch() {
  kernel.return
}
`,
  );
  const r = loom("launch", file, "--kernel", "grid", "--workload", "0");
  assert.equal(r.code, 1);
  assert.equal(r.err.split("\n")[0], `loom launch: error: ${file}:1:51: @grid: out-of-range: launch-config function 'grid': workload predicate ge(%n, 1) is violated (%n = 0)`);
  const j = doc(loom("launch", file, "--kernel", "grid", "--workload", "0", "--json"));
  assert.equal(j.ok, false);
  assert.deepEqual((j.diagnostics[0] as { location?: unknown }).location, { source: file, line: 1, column: 51 });
  // An op without a defined result: index.div of a negative dividend, on its own line (SEED line 8).
  const seed = loom("launch", SEED, "--kernel", "workload_grid", "--workload=-100");
  assert.equal(seed.code, 1);
  assert.match(seed.err, new RegExp(`^loom launch: error: ${SEED.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&")}:8:22: @workload_grid: out-of-range: .*index\\.div \\(op \\d+\\) has no defined result`, "m"));
  // The dump shows the table next to each predicate and op.
  const lc = join(dir, "grid.launch.loombc");
  assert.equal(loom("compile", file, "--target", "ptx:sm_90", "-o", join(dir, "g.ptx"), "--launch-config", lc).code, 0);
  const d = loom("launch", "--dump", lc);
  assert.equal(d.code, 0, d.err);
  assert.match(d.out, new RegExp(`^  where ge\\(0, 1\\) ; .*where\\.loom:1:51$`, "m"));
  assert.match(d.out, /^ {4}%r\d+ = index\.div .* ; .*where\.loom:4:13$/m);
});
