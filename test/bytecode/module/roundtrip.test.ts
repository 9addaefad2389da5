/**
 * Lossless round trips (verification.md ".loombc bytecode" 1) over every valid `.loom` file of
 * the repository: canonical text → bytecode → text is unchanged, bytecode → text → bytecode is
 * byte-identical, writing is deterministic, spans survive per location mode, and what is read
 * verifies exactly like what was parsed.
 */
import "../../../src/api/check-dialect.js"; // the check harness's syntax and rules, which loomc registers
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { LoomError } from "../../../src/core/errors.js";
import { DiagnosticSink } from "../../../src/core/diag/diagnostic.js";
import { hasLoomMagic, readContainer } from "../../../src/bytecode/container.js";
import { LOCATION_MODE } from "../../../src/bytecode/module/format.js";
import { readModuleBytecode } from "../../../src/bytecode/module/reader.js";
import { writeModuleBytecode } from "../../../src/bytecode/module/writer.js";
import type { Module, Op, Region, Span, Value } from "../../../src/ir/core.js";
import { verifyModule } from "../../../src/passes/verify/index.js";
import { parseModule } from "../../../src/text/parser.js";
import { printModule } from "../../../src/text/printer.js";
import { fromRoot } from "../../util/paths.js";
import { validLoomFiles } from "../../../bench/fuzz/corpus.js";
import { repoRoot } from "../../util/paths.js";
// The target packages' record ops (amdgpu.target, spirv.target) that the sources use.
import "../../../src/targets/registry.js";

const files = validLoomFiles(repoRoot);

function parse(name: string, text: string): Module {
  const sink = new DiagnosticSink();
  const m = parseModule(name, text, sink);
  assert.ok(!sink.hasErrors, `${name}: ${sink.diagnostics.map((d) => d.message).join("; ")}`);
  return m;
}

function read(name: string, bytes: Uint8Array): Module {
  const sink = new DiagnosticSink();
  const m = readModuleBytecode(name, bytes, sink);
  assert.ok(m, `${name}: ${sink.diagnostics.map((d) => `${d.code} ${d.message}`).join("; ")}`);
  assert.equal(sink.diagnostics.length, 0);
  return m;
}

function verifyCodes(m: Module): string[] {
  const sink = new DiagnosticSink(1000);
  verifyModule(m, sink);
  return sink.diagnostics.map((d) => `${d.code} ${d.message}`);
}

test("the corpus covers fixtures, examples and kernels", () => {
  assert.ok(files.length >= 30, `only ${files.length} files`);
  for (const dir of ["test/fixtures/valid/", "test/spirv/kernels/", "examples/"]) assert.ok(files.some((f) => f.startsWith(dir)), dir);
});

for (const file of files) {
  test(`round trip: ${file}`, () => {
    const canonical = printModule(parse(file, readFileSync(fromRoot(file), "utf8")));
    const m = parse(file, canonical);
    const bytes = writeModuleBytecode(m);
    assert.ok(hasLoomMagic(bytes));
    assert.equal(readContainer(bytes).locationMode, LOCATION_MODE.full);
    // Deterministic: a second write, and a write of a second parse, give the same bytes.
    assert.deepEqual(writeModuleBytecode(m), bytes);
    assert.deepEqual(writeModuleBytecode(parse(file, canonical)), bytes);

    const back = read(file, bytes);
    assert.equal(printModule(back), canonical, "text → bytecode → text");
    assert.deepEqual(writeModuleBytecode(parse(file, printModule(back))), bytes, "bytecode → text → bytecode");
    assert.deepEqual(writeModuleBytecode(back), bytes, "bytecode → IR → bytecode");
    assert.deepEqual(verifyCodes(back), verifyCodes(m), "verifies like the parsed module");
    assertSameSpans(m, back);

    for (const locations of ["lines", "none"] as const) {
      const b = writeModuleBytecode(m, { locations });
      assert.equal(readContainer(b).locationMode, LOCATION_MODE[locations]);
      const r = read(file, b);
      assert.equal(printModule(r), canonical, `locations: ${locations}`);
      const op = firstOpWithSpan(r);
      if (locations === "none") assert.equal(op, undefined);
      else {
        // Start positions only: the span is empty at its start.
        const { line, column } = firstOpWithSpan(m)!.span!;
        assert.deepEqual(op && pick(op.span!), { line, column, endLine: line, endColumn: column });
      }
    }
  });
}

test("non-canonical input reads back as its canonical text", () => {
  const dir = "test/fixtures/valid/noncanonical/";
  for (const input of files.filter((f) => f.startsWith(dir) && f.endsWith(".input.loom"))) {
    const m = parse(input, readFileSync(fromRoot(input), "utf8"));
    const expected = readFileSync(fromRoot(input.replace(".input.loom", ".canonical.loom")), "utf8");
    assert.equal(printModule(read(input, writeModuleBytecode(m))), expected, input);
  }
});

test("the producer is informational and configurable", () => {
  const m = parse("p.loom", "target.decl @t\n");
  const b = writeModuleBytecode(m, { producer: "my tool 1.0" });
  assert.equal(readContainer(b).producer, "my tool 1.0");
  assert.equal(printModule(read("p.loombc", b)), "target.decl @t\n");
});

test("empty and comment-only modules round trip", () => {
  for (const text of ["", "// only a comment\n", "target.decl @t\n\n// tail\n//   kept verbatim\n"]) {
    assert.equal(printModule(read("e.loombc", writeModuleBytecode(parse("e.loom", text)))), text);
  }
});

test("spans of other sources keep their name; the module's own take the reader's name", () => {
  const m = parse("a.loom", "target.decl @t\n\ntarget.decl @u\n");
  m.ops[1]!.span = { source: "inlined/from.loom", line: 7, column: 3, endLine: 9, endColumn: 2 };
  const back = read("b.loombc", writeModuleBytecode(m));
  assert.deepEqual(back.ops[1]!.span, m.ops[1]!.span);
  assert.equal(back.ops[0]!.span!.source, "b.loombc");
  assert.equal(back.ops[0]!.span!.line, 1);
});

test("modules the reader would reject are not written", () => {
  // A use before its definition (DOMINANCE/001) parses, but has no bytecode form.
  const text = "func.def @f(%a: index) -> (index) {\n  %b = index.add %c, %a : index\n  %c = index.add %a, %a : index\n  func.return %b : index\n}\n";
  const m = parseModule("d.loom", text, new DiagnosticSink());
  assert.throws(() => writeModuleBytecode(m), (e: unknown) => e instanceof LoomError && e.status === "invalid-argument" && /before its definition/.test(e.message));
  const bad = parse("x.loom", "target.decl @t\n");
  bad.ops[0]!.name = "no.such.op";
  assert.throws(() => writeModuleBytecode(bad), (e: unknown) => e instanceof LoomError && e.status === "invalid-argument");
  const lone = parse("s.loom", "target.decl @t\n");
  lone.ops[0]!.comments = ["\ud800"];
  assert.throws(() => writeModuleBytecode(lone), (e: unknown) => e instanceof LoomError && e.status === "invalid-argument" && /surrogate/.test(e.message));
});

function pick(s: Span): Omit<Span, "source"> {
  return { line: s.line, column: s.column, endLine: s.endLine, endColumn: s.endColumn };
}

function firstOpWithSpan(m: Module): Op | undefined {
  return m.ops.find((o) => o.span !== undefined);
}

/** Full location mode keeps every op, value and predicate span (source name aside). */
function assertSameSpans(a: Module, b: Module): void {
  const spans = (m: Module): unknown[] => {
    const out: unknown[] = [];
    const value = (v: Value) => out.push(v.name, v.span && pick(v.span));
    const region = (r: Region) => {
      r.args.forEach(value);
      r.ops.forEach(op);
    };
    const op = (o: Op) => {
      out.push(o.name, o.span && pick(o.span));
      o.results.forEach(value);
      for (const k of ["where", "workloadWhere", "launchWhere", "predicates"]) {
        for (const p of (o.props[k] as { span?: Span }[] | undefined) ?? []) out.push(p.span && pick(p.span));
      }
      o.regions.forEach(region);
    };
    m.ops.forEach(op);
    return out;
  };
  assert.deepEqual(spans(b), spans(a));
}
