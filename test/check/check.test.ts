/**
 * `loom check` end to end (issue 13 item 5): our own files in the reference's check format
 * (test/cases/check) run through the built binary on lavapipe (`--device vulkan`), the AMDGPU
 * simulator (`sim`) and the reference interpreter (`interp`). The oracle is each file's own
 * expectations, judged on values the device wrote: a wrong expectation must fail (exit 1,
 * with the first differing index and both values), malformed files give coded diagnostics at
 * the annotated lines, and the file format round-trips through `loom fmt` and bytecode.
 */
import { test, type TestContext } from "node:test";
import assert from "node:assert/strict";
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fromRoot } from "../util/paths.js";
import { requireLavapipe } from "../runtime/vulkan/probe.js";
import { doc, loomWith, tempDir, type Ran } from "../cli/helpers.js";

const CASES = fromRoot("test", "cases", "check");
const file = (name: string) => join(CASES, name);
const check = (...args: string[]): Ran => loomWith({ timeout: 300_000 }, "check", ...args);

type Report = {
  cases: { case: string; status: string; samples: { status: string; reason?: string; sample: Record<string, string>; expectations: { passed: boolean; first?: { index: number; actual: string; expected: string } }[] }[] }[];
  benchmarks: { name: string; status: string; samples: { timing?: { medianNs: number; minNs: number; maxNs: number; runs: number; clock: string } }[] }[];
  passed: number;
  failed: number;
  unsupported: number;
  errors: number;
};

function report(r: Ran): Report {
  return doc(r).result as unknown as Report;
}

const DEVICES: readonly { kind: string; available: (t: TestContext) => boolean }[] = [
  { kind: "interp", available: () => true },
  { kind: "sim", available: () => true },
  { kind: "vulkan", available: (t) => requireLavapipe(t) },
];

for (const { kind, available } of DEVICES) {
  test(`loom check --device ${kind}: passing cases pass, with every sample and a benchmark median`, (t) => {
    if (!available(t)) return;
    const copy = check(file("copy.loom"), "--device", kind, "--warmup-ms", "5", "--repeat", "3", "--json");
    assert.equal(copy.code, 0, copy.out + copy.err);
    const r = report(copy);
    assert.deepEqual(r.cases.map((c) => [c.case, c.status, c.samples.map((s) => s.sample.seed)]), [["copy_case", "pass", ["40", "41", "42"]]]);
    const bench = r.benchmarks[0]!;
    assert.equal(bench.name, "copy_seed_41");
    const timing = bench.samples[0]!.timing!;
    assert.equal(timing.runs, 3);
    assert.ok(timing.minNs > 0 && timing.minNs <= timing.medianNs && timing.medianNs <= timing.maxNs, JSON.stringify(timing));

    const scale = check(file("scale.loom"), "--device", kind, "--json");
    assert.equal(scale.code, 0, scale.out + scale.err);
    assert.deepEqual(report(scale).cases[0]!.samples.map((s) => [s.sample.count, s.status]), [["1", "pass"], ["63", "pass"], ["64", "pass"], ["65", "pass"], ["1000", "pass"]]);
  });

  test(`loom check --device ${kind}: workgroup scans (every direction and mode, a float scan, a scan in a loop) run through the target-independent expansion`, (t) => {
    if (!available(t)) return;
    // Oracle: the file's iota expectations (prefix counts of 1 in flat-id order), judged on what the device wrote.
    const r = check(file("scan.loom"), "--device", kind, "--no-bench", "--json");
    assert.equal(r.code, 0, r.out + r.err);
    assert.deepEqual(report(r).cases.map((c) => [c.case, c.status]), [["scan_case", "pass"]]);
  });

  test(`loom check --device ${kind}: a host program's launch schedules run in a case (func.call of a func.def that launches kernels)`, (t) => {
    if (!available(t)) return;
    // Oracle: the file's expectations on what the device wrote (y starts at -1: a skipped or reordered launch fails them).
    const r = check(file("launch_program.loom"), "--device", kind, "--no-bench", "--json");
    assert.equal(r.code, 0, r.out + r.err);
    const j = report(r);
    assert.deepEqual(j.cases.map((c) => [c.case, c.status, c.samples.length]), [["pipeline_case", "pass", 3], ["schedule_in_case", "pass", 1]]);
  });

  test(`loom check --device ${kind}: a wrong expectation fails with the first differing index and both values`, (t) => {
    if (!available(t)) return;
    const r = check(file("wrong.loom"), "--device", kind);
    assert.equal(r.code, 1, r.out + r.err);
    assert.match(r.out, /^PASS +\S+wrong\.loom:16 @doubles_right$/m);
    assert.match(r.out, /^FAIL +\S+wrong\.loom:24 @doubles_wrong$/m);
    assert.match(r.out, /wrong\.loom:28:3: check\.expect\.equal: 4 of 4 element\(s\) differ; first at index 0: actual 0, expected 1/);
    assert.match(r.out, /actual +\[0, 2, 4, 6\]\n +expected \[1, 3, 5, 7\]/);
    assert.match(r.out, /loom check: 1 passed, 1 failed/);
    const j = report(check(file("wrong.loom"), "--device", kind, "--json"));
    assert.deepEqual(j.cases[1]!.samples[0]!.expectations[0]!.first, { index: 0, coordinates: [0], actual: "0", expected: "1" });
  });
}

test("loom check: host functions, scalar expectations, tensor views and bitwise floats (interp)", () => {
  const r = check(file("host.loom"), "--device", "interp", "--json");
  assert.equal(r.code, 0, r.out + r.err);
  assert.deepEqual(report(r).cases.map((c) => [c.case, c.status]), [["wraps", "pass"], ["views_and_bits", "pass"]]);
});

test("loom check: a constant shuffle width wider than the device's fixed subgroup is unsupported there, correct elsewhere", (t) => {
  const wide = check(file("shuffle_width.loom"), "--device", "interp", "--json");
  assert.equal(wide.code, 0, wide.out + wide.err);
  assert.equal(report(wide).cases[0]!.status, "pass");
  if (!requireLavapipe(t)) return;
  // lavapipe's subgroups have 8 lanes on this host's vectors (256-bit): width 16 cannot be met.
  const narrow = check(file("shuffle_width.loom"), "--device", "vulkan", "--json");
  const sample = report(narrow).cases[0]!.samples[0]!;
  if (sample.status === "pass") return t.skip("this lavapipe runs subgroups of 16 or more lanes");
  assert.equal(sample.status, "unsupported");
  assert.match(sample.reason ?? "", /a shuffle width of 16 lanes is not supported on profile .*its subgroup has \d lanes/);
  assert.equal(narrow.code, 0);
});

test("loom check: --library links a kernel.decl'd kernel; without it the case is unsupported, not passed", (t) => {
  const dir = tempDir(t);
  const text = readFileSync(file("copy.loom"), "utf8");
  const kernelEnd = text.indexOf("check.case");
  writeFileSync(join(dir, "kernel.loom"), text.slice(0, kernelEnd));
  writeFileSync(join(dir, "tests.loom"), `kernel.decl @copy_i32() launch(%input: buffer, %output: buffer)\n\n${text.slice(kernelEnd)}`);
  const alone = check(join(dir, "tests.loom"), "--device", "interp", "--no-bench", "--json");
  assert.equal(alone.code, 0);
  assert.equal(report(alone).cases[0]!.status, "unsupported");
  assert.match(report(alone).cases[0]!.samples[0]!.reason!, /defined in another module/);
  const linked = check(join(dir, "tests.loom"), "--library", join(dir, "kernel.loom"), "--device", "interp", "--no-bench", "--json");
  assert.equal(linked.code, 0, linked.out);
  assert.equal(report(linked).cases[0]!.status, "pass");
});

test("loom check: a func.decl that a case calls with tensors binds to the library's kernel.def of that name", (t) => {
  const dir = tempDir(t);
  const text = readFileSync(file("copy.loom"), "utf8");
  writeFileSync(join(dir, "kernel.loom"), text.slice(0, text.indexOf("check.case")));
  // The case body of copy.loom, calling the kernel through a function declaration of its launch arguments.
  const caseText = text.slice(text.indexOf("check.case"), text.indexOf("check.benchmark")).replace(
    "kernel.launch @copy_i32(%input, %output) : (tensor<8xi32>, tensor<8xi32>)",
    "func.call @copy_i32(%input, %output) : (tensor<8xi32>, tensor<8xi32>)",
  );
  assert.match(caseText, /func\.call @copy_i32/);
  writeFileSync(join(dir, "tests.loom"), `func.decl @copy_i32(%input: buffer, %output: buffer)\n\n${caseText}`);
  const linked = check(join(dir, "tests.loom"), "--library", join(dir, "kernel.loom"), "--device", "interp", "--no-bench", "--json");
  assert.equal(linked.code, 0, linked.out + linked.err);
  assert.equal(report(linked).cases[0]!.status, "pass");
  assert.equal(report(linked).cases[0]!.samples.length, 3);
  // Launch arguments that differ from the declared parameters are TYPE/001 at the declaration.
  writeFileSync(join(dir, "wrong.loom"), `func.decl @copy_i32(%input: buffer)\n\n${caseText.replace("func.call @copy_i32(%input, %output) : (tensor<8xi32>, tensor<8xi32>)", "func.call @copy_i32(%input) : (tensor<8xi32>)")}`);
  const wrong = check(join(dir, "wrong.loom"), "--library", join(dir, "kernel.loom"), "--device", "interp", "--no-bench", "--json");
  assert.notEqual(wrong.code, 0);
  assert.match(wrong.out + wrong.err, /TYPE\/001/);
});

test("loom check: a file with the reference's test.target record loads; host-only cases run, a mismatch fails with both values, a kernel pinned to the record is unsupported", (t) => {
  // Oracle: the file's own literal expectations (41 ≠ 42 must fail) and the record admitting no device profile.
  const r = check(file("test_target.loom"), "--device", "interp", "--json");
  assert.equal(r.code, 1, r.out + r.err);
  const j = report(r);
  assert.deepEqual(j.cases.map((c) => [c.case, c.status]), [["literal_case", "pass"], ["literal_mismatch_case", "fail"], ["pinned_case", "unsupported"]]);
  const first = j.cases[1]!.samples[0]!.expectations[0]!.first!;
  assert.deepEqual([first.index, first.actual, first.expected], [0, "41", "42"]);
  assert.match(j.cases[2]!.samples[0]!.reason ?? "", /pinned to target 'test\.target @core'/);
  const badFile = join(tempDir(t), "x.loom");
  writeFileSync(badFile, readFileSync(file("test_target.loom"), "utf8").replace("<low_core>", "<high_core>"));
  const bad = check(badFile, "--device", "interp");
  assert.equal(bad.code, 1, bad.out + bad.err);
  assert.match(bad.err + bad.out, /PARSE\/017.*unknown test profile 'high_core'/);
});

test("loom check: --case picks one case; an unknown case, device or option is a usage error", () => {
  const one = check(file("wrong.loom"), "--device", "interp", "--case", "doubles_right");
  assert.equal(one.code, 0, one.out + one.err);
  assert.doesNotMatch(one.out, /doubles_wrong/);
  const missing = check(file("wrong.loom"), "--device", "interp", "--case", "nope");
  assert.equal(missing.code, 2);
  assert.match(missing.err, /no check\.case @nope/);
  const device = check(file("wrong.loom"), "--device", "interpp");
  assert.equal(device.code, 2);
  assert.match(device.err, /did you mean 'interp'/);
  assert.equal(check(join(CASES, "absent.loom"), "--device", "interp").code, 3);
});

/** `// ERROR@+N: CODE` annotations of a malformed file, as `line CODE`. */
function annotations(text: string): string[] {
  const out: string[] = [];
  text.split("\n").forEach((l, i) => {
    const m = /\/\/ ERROR@\+(\d+): ([A-Z]+\/\d+)/.exec(l);
    if (m) out.push(`${i + 1 + Number(m[1])} ${m[2]}`);
  });
  return out.sort();
}

for (const name of readdirSync(join(CASES, "malformed")).filter((f) => f.endsWith(".loom")).sort()) {
  test(`loom check: malformed ${name} gives its coded diagnostics at file:line:col and exit 1`, () => {
    const path = join(CASES, "malformed", name);
    const r = check(path, "--device", "interp", "--json");
    assert.equal(r.code, 1, r.out);
    const d = doc(r);
    const got = d.diagnostics.map((x) => `${(x as { location?: { line: number } }).location?.line} ${x.code}`).sort();
    assert.deepEqual(got, annotations(readFileSync(path, "utf8")));
    for (const x of d.diagnostics) assert.ok((x as { location?: { column: number } }).location?.column, `${x.code} has a column`);
  });
}

test("check files print canonically (loom fmt --check) and survive bytecode (fmt of the .loombc)", (t) => {
  const dir = tempDir(t);
  for (const name of readdirSync(CASES).filter((f) => f.endsWith(".loom"))) {
    const fmt = loomWith({}, "fmt", "--check", file(name));
    assert.equal(fmt.code, 0, `${name}: ${fmt.out}${fmt.err}`);
    const bc = join(dir, `${name}bc`);
    const compiled = loomWith({}, "compile", file(name), "--emit", "loombc", "-o", bc);
    assert.equal(compiled.code, 0, `${name}: ${compiled.err}`);
    const back = loomWith({}, "fmt", bc);
    assert.equal(back.code, 0, back.err);
    assert.equal(back.out.replace(/^\s*\/\/.*\n/gm, "").replace(/\n\n+/g, "\n"), readFileSync(file(name), "utf8").replace(/^\s*\/\/.*\n/gm, "").replace(/\n\n+/g, "\n"), name);
  }
});

/** A version 1.0 .npy file of little-endian int32 values, built by hand (the oracle for our reader). */
function npyInt32(values: readonly number[], shape = `(${values.length},)`): Uint8Array {
  let header = `{'descr': '<i4', 'fortran_order': False, 'shape': ${shape}, }`;
  header += " ".repeat(63 - ((10 + header.length) % 64)) + "\n";
  const out = Buffer.alloc(10 + header.length + 4 * values.length);
  Buffer.from([0x93, 0x4e, 0x55, 0x4d, 0x50, 0x59, 1, 0]).copy(out);
  out.writeUInt16LE(header.length, 8);
  out.write(header, 10, "latin1");
  values.forEach((v, i) => out.writeInt32LE(v, 10 + header.length + 4 * i));
  return out;
}

for (const { kind, available } of DEVICES.filter((d) => d.kind !== "sim")) {
  test(`loom check --device ${kind}: .npy fixtures in and evidence out; unmet requirements, skip predicates and validators are skips with reasons`, (t) => {
    if (!available(t)) return;
    const dir = tempDir(t, "loom-check-npy-");
    writeFileSync(join(dir, "fixtures.loom"), readFileSync(file("fixtures.loom")));
    mkdirSync(join(dir, "fixtures"));
    writeFileSync(join(dir, "fixtures", "input.npy"), npyInt32([1, -2, 3, 40]));
    writeFileSync(join(dir, "fixtures", "expected.npy"), npyInt32([3, -6, 9, 120]));
    const r = check(join(dir, "fixtures.loom"), "--device", kind, "--json");
    assert.equal(r.code, 0, r.out + r.err);
    const j = report(r);
    assert.deepEqual(j.cases.map((c) => [c.case, c.status]), [["triple_from_fixture", "pass"], ["needs_a_feature", "unsupported"], ["skipped_when_small", "unsupported"]]);
    assert.match(j.cases[1]!.samples[0]!.reason!, /requirement target\.feature \{feature = "test\.feature"\} cannot be established/);
    assert.match(j.cases[2]!.samples[0]!.reason!, /skip predicate device\.memory \{max_bytes = 1024\} \("tiny device"\)/);
    // The evidence file, read back by hand: header then the tripled values; on_failure wrote nothing.
    const out = readFileSync(join(dir, "outputs", "triple.actual.npy"));
    assert.deepEqual([...out.subarray(0, 6)], [0x93, 0x4e, 0x55, 0x4d, 0x50, 0x59]);
    const headerLength = out.readUInt16LE(8);
    assert.equal((10 + headerLength) % 64, 0);
    assert.match(out.subarray(10, 10 + headerLength).toString("latin1"), /^\{'descr': '<i4', 'fortran_order': False, 'shape': \(4,\), \} *\n$/);
    assert.deepEqual([0, 1, 2, 3].map((i) => out.readInt32LE(10 + headerLength + 4 * i)), [3, -6, 9, 120]);
    assert.equal(existsSync(join(dir, "outputs", "triple.failed.npy")), false);

    // A wrong expected fixture fails with the values; a fixture of the wrong shape is an error naming both shapes.
    writeFileSync(join(dir, "fixtures", "expected.npy"), npyInt32([3, -6, 9, 121]));
    const wrong = check(join(dir, "fixtures.loom"), "--device", kind, "--case", "triple_from_fixture");
    assert.equal(wrong.code, 1, wrong.out + wrong.err);
    assert.match(wrong.out, /first at index 3: actual 120, expected 121/);
    assert.equal(existsSync(join(dir, "outputs", "triple.failed.npy")), true);
    writeFileSync(join(dir, "fixtures", "expected.npy"), npyInt32([3, -6, 9, 120], "(2, 2)"));
    const shape = check(join(dir, "fixtures.loom"), "--device", kind, "--case", "triple_from_fixture");
    assert.equal(shape.code, 1, shape.out + shape.err);
    assert.match(shape.out, /expected\.npy": shape \(2, 2\) is not the tensor<4xi32> shape \(4\)/);
  });
}
