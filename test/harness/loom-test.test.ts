/**
 * `loom test` and its runner (runLoomTest): our own files in the reference's `.loom-test`
 * format pass, and the runner fails a case whenever its expectation is not met (a wrong code,
 * a wrong line, a missing or an extra diagnostic, printed text that differs), so a passing
 * file proves the diagnostics and the printer, not the runner's leniency.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseLoomTestFile, runLoomTest, type LoomTestReport } from "../../src/harness/index.js";
import { fromRoot } from "../util/paths.js";

const DIR = fromRoot("test/loom-test");
const FILES = readdirSync(DIR).filter((f) => f.endsWith(".loom-test")).sort();
const CLI = fromRoot("dist/src/cli/main.js");

function failures(report: LoomTestReport): string[] {
  return report.outcomes.filter((o) => o.status !== "pass").map((o) => `${o.case.name} [${o.mode}] ${o.status}: ${o.details.join("; ")}`);
}

test("our .loom-test files pass in every mode they state", () => {
  assert.ok(FILES.length >= 4, "the verify, roundtrip, format bytecode and deferred files");
  for (const file of FILES) {
    const report = runLoomTest(file, readFileSync(join(DIR, file), "utf8"));
    assert.deepEqual(failures(report), [], file);
    assert.ok(report.passed >= 2, `${file}: ${report.passed} cases`);
  }
});

test("the file format: RUN modes, cases split at // ====, expected output after // ----", () => {
  const text = "// RUN: roundtrip\n// RUN: format   bytecode\n\nfunc.decl @a()\n\n// ====\n\nfunc.decl @b()\n// ----\nfunc.decl @b()\n";
  const parsed = parseLoomTestFile(text);
  assert.deepEqual(parsed.modes, ["roundtrip", "format bytecode"]);
  assert.deepEqual(parsed.cases.map((c) => [c.name, c.line, c.expected ?? null]), [["@a", 1, null], ["@b", 7, "func.decl @b()\n"]]);
  const report = runLoomTest("t.loom-test", text);
  assert.deepEqual([report.passed, report.failed, report.unsupported], [4, 0, 0]);
});

const CASE = `// RUN: verify
func.def @f(%x: offset, %y: offset) -> (offset) {
  // ERROR@+3: TYPE/003 "lhs"
  // ERROR@+2: TYPE/003 "rhs"
  // ERROR@+1: TYPE/004 "result"
  %r = index.mul %x, %y : offset
  func.return %r : offset
}
`;

test("a verify case fails on a wrong code, a wrong line, a wrong message part, a missing or an extra diagnostic", () => {
  assert.equal(runLoomTest("t", CASE).passed, 1);
  const variants: [string, RegExp][] = [
    [CASE.replace("TYPE/004", "TYPE/001"), /expected error TYPE\/001 at line 6.*not reported[\s\S]*unexpected error TYPE\/004/],
    [CASE.replace("ERROR@+1: TYPE/004", "ERROR@+2: TYPE/004"), /expected error TYPE\/004 at line 7/],
    [CASE.replace('"result"', '"no such words"'), /containing "no such words"; the message was:/],
    [CASE.replace('  // ERROR@+1: TYPE/004 "result"\n', "  // ERROR@+1: TYPE/004\n  // ERROR@+1: TYPE/004\n"), /not reported/],
    [CASE.replace('  // ERROR@+2: TYPE/003 "rhs"\n', ""), /unexpected error TYPE\/003/],
  ];
  for (const [text, why] of variants) {
    const report = runLoomTest("t", text);
    assert.equal(report.failed, 1, text);
    assert.match(report.outcomes[0]!.details.join("\n"), why);
  }
  // Codes-only matching ignores the quoted parts (how reference files are measured).
  assert.equal(runLoomTest("t", CASE.replace('"result"', '"no such words"'), { match: "codes" }).passed, 1);
});

test("roundtrip and format bytecode cases fail when the printed text differs; other modes are unsupported", () => {
  const wrong = "// RUN: roundtrip\nfunc.decl @a()\n// ----\nfunc.decl @b()\n";
  const r = runLoomTest("t", wrong);
  assert.equal(r.failed, 1);
  assert.match(r.outcomes[0]!.details[0]!, /expected "func.decl @b\(\)", printed "func.decl @a\(\)"/);
  const broken = runLoomTest("t", "// RUN: roundtrip\nfunc.def @a() {\n  %x = index.add %y, %y : index\n  func.return\n}\n");
  assert.equal(broken.failed, 1, "a case that does not verify cannot roundtrip");
  const other = runLoomTest("t", "// RUN: canonicalize\nfunc.decl @a()\n");
  assert.deepEqual([other.passed, other.failed, other.unsupported], [0, 0, 1]);
  assert.match(other.outcomes[0]!.details[0]!, /mode 'canonicalize' is not supported/);
});

test("a RUN line inside a later case sets that case's modes; the other cases keep the file's", () => {
  const text = "// RUN: verify\nfunc.decl @a()\n\n// ====\n\n// RUN: roundtrip\nfunc.decl @b()\n// ----\nfunc.decl @c()\n\n// ====\n\nfunc.decl @d()\n";
  const parsed = parseLoomTestFile(text);
  assert.deepEqual(parsed.modes, ["verify"]);
  assert.deepEqual(parsed.cases.map((c) => [c.name, c.modes ?? null]), [["@a", null], ["@b", ["roundtrip"]], ["@d", null]]);
  const r = runLoomTest("t", text);
  assert.deepEqual(r.outcomes.map((o) => `${o.case.name} ${o.mode} ${o.status}`), ["@a verify pass", "@d verify pass", "@b roundtrip fail"]);
  assert.match(r.outcomes[2]!.details[0]!, /expected "func.decl @c\(\)", printed "func.decl @b\(\)"/);
});

test("under roundtrip a case that expects errors is unsupported, not passed or failed; under verify it is checked", () => {
  const body = CASE.replace("// RUN: verify\n", "");
  const r = runLoomTest("t", `// RUN: roundtrip\n${body}\n// ====\n\nfunc.decl @g()\n`);
  assert.deepEqual(r.outcomes.map((o) => `${o.case.name} ${o.status}`), ["@f unsupported", "@g pass"]);
  assert.match(r.outcomes[0]!.details[0]!, /expects errors/);
  const v = runLoomTest("t", CASE);
  assert.deepEqual([v.passed, v.failed, v.unsupported], [1, 0, 0]);
});

test("loom test prints one line per case and a summary; exit 1 when a case fails", () => {
  const ok = spawnSync(process.execPath, [CLI, "test", ...FILES.map((f) => join(DIR, f))], { encoding: "utf8" });
  assert.equal(ok.status, 0, ok.stdout + ok.stderr);
  assert.match(ok.stdout, /^PASS {8}.*verify-operands\.loom-test:\d+ @mul_reports_each_operand_and_the_result \[verify\]$/m);
  assert.match(ok.stdout, /^loom test: \d+ passed, 0 failed, 0 unsupported \(\d+ files\)$/m);
  const dir = mkdtempSync(join(tmpdir(), "loom-test-"));
  const bad = join(dir, "bad.loom-test");
  writeFileSync(bad, CASE.replace("TYPE/004", "TYPE/001"));
  const failed = spawnSync(process.execPath, [CLI, "test", "--quiet", bad], { encoding: "utf8" });
  assert.equal(failed.status, 1);
  assert.match(failed.stdout, /^FAIL {8}.*bad\.loom-test:1 @f \[verify\]$/m);
  assert.match(failed.stdout, /0 passed, 1 failed/);
  const usage = spawnSync(process.execPath, [CLI, "test", "--match", "loose", bad], { encoding: "utf8" });
  assert.equal(usage.status, 2);
});

test("loom test --json prints one loom-cli/1 document with the per-case results inside", () => {
  const dir = mkdtempSync(join(tmpdir(), "loom-test-"));
  const bad = join(dir, "bad.loom-test");
  writeFileSync(bad, CASE.replace("TYPE/004", "TYPE/001"));
  const good = join(DIR, FILES[0]!);
  const run = spawnSync(process.execPath, [CLI, "test", "--json", good, bad], { encoding: "utf8" });
  assert.equal(run.status, 1, run.stderr);
  const lines = run.stdout.split("\n").filter((l) => l.length > 0);
  assert.equal(lines.length, 1, `exactly one JSON line on stdout, got:\n${run.stdout}`);
  const doc = JSON.parse(lines[0]!) as {
    schema: string; command: string; ok: boolean; exitCode: number;
    result: { files: { file: string; outcomes: { case: string; line: number; mode: string; status: string; details: string[] }[]; failed: number }[]; passed: number; failed: number };
  };
  assert.equal(doc.schema, "loom-cli/1");
  assert.equal(doc.command, "test");
  assert.equal(doc.ok, false);
  assert.equal(doc.exitCode, 1);
  assert.deepEqual(doc.result.files.map((f) => f.file), [good, bad]);
  assert.equal(doc.result.files[0]!.failed, 0);
  assert.ok(doc.result.passed > 0);
  assert.equal(doc.result.failed, 1);
  const failing = doc.result.files[1]!.outcomes.find((o) => o.status === "fail");
  assert.deepEqual(failing && [failing.case, failing.line, failing.mode], ["@f", 1, "verify"]);
  assert.ok(failing!.details.length > 0, "a failing case says why");
});
