/**
 * Untrusted bytes (verification.md ".loombc bytecode" 3): every truncation and single-bit flip
 * of valid files — raw (caught by the container) and re-sealed inside each section (reaching
 * the module decoders) — ends in exactly one BYTECODE diagnostic or a module that prints and
 * verifies; never an exception. Hand-made files hit each diagnostic on purpose.
 */
import "../../../src/api/check-dialect.js"; // the check harness's syntax and rules, which loomc registers
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { ByteWriter } from "../../../src/bytecode/bytes.js";
import { readContainer, writeContainer, type Section } from "../../../src/bytecode/container.js";
import { SECTION } from "../../../src/bytecode/sections.js";
import { readModuleBytecode } from "../../../src/bytecode/module/reader.js";
import { encodeModule, writeModuleBytecode } from "../../../src/bytecode/module/writer.js";
import { encodeLaunchConfig } from "../../../src/launch/encode.js";
import { DiagnosticSink } from "../../../src/core/diag/diagnostic.js";
import type { Module } from "../../../src/ir/core.js";
import { parseModule } from "../../../src/text/parser.js";
import { printModule } from "../../../src/text/printer.js";
import { fromRoot } from "../../util/paths.js";
import { outcome } from "./outcome.js";

function parseFile(path: string): Module {
  return parseModule(path, readFileSync(fromRoot(path), "utf8"), new DiagnosticSink());
}

function resealed(valid: Uint8Array, index: number, bytes: Uint8Array): Uint8Array {
  const c = readContainer(valid);
  const sections: Section[] = c.sections.map((s, i) => ({ kind: s.kind, bytes: i === index ? bytes : s.bytes }));
  return writeContainer({ locationMode: c.locationMode, producer: c.producer, sections });
}

const small = writeModuleBytecode(parseFile("test/fixtures/valid/seed_jit_kernel.loom"));
const withTypes = writeModuleBytecode(parseFile("test/fixtures/valid/toplevel_ops.loom"), { locations: "lines" });

test("every truncation of a valid file is a BYTECODE diagnostic", () => {
  for (const file of [small, withTypes]) {
    for (let n = 0; n < file.length; n++) assert.notEqual(outcome(file.subarray(0, n), `truncated to ${n}`), "ok");
  }
});

test("every single-bit flip of a valid file is a BYTECODE diagnostic", () => {
  for (let i = 0; i < small.length * 8; i++) {
    const f = small.slice();
    f[i >> 3]! ^= 1 << (i & 7);
    assert.notEqual(outcome(f, `bit ${i}`), "ok");
  }
});

test("every truncation and bit flip inside each section, re-sealed, is handled cleanly", () => {
  const codes = new Map<string, number>();
  for (const file of [small, withTypes]) {
    readContainer(file).sections.forEach((s, index) => {
      for (let n = 0; n < s.bytes.length; n++) {
        const code = outcome(resealed(file, index, s.bytes.subarray(0, n)), `section ${s.kind} truncated to ${n}`);
        assert.notEqual(code, "ok", `section ${s.kind} truncated to ${n} still reads`);
      }
      for (let i = 0; i < s.bytes.length * 8; i++) {
        const b = s.bytes.slice();
        b[i >> 3]! ^= 1 << (i & 7);
        const code = outcome(resealed(file, index, b), `section ${s.kind} bit ${i}`);
        codes.set(code, (codes.get(code) ?? 0) + 1);
      }
    });
  }
  // The flips reach every decoder check, not just one.
  for (const code of ["BYTECODE/901", "BYTECODE/903", "BYTECODE/904", "BYTECODE/906"]) assert.ok(codes.has(code), `${code} never seen: ${[...codes]}`);
});

// ---------------------------------------------------------------- hand-made files

/** A module file with location mode "none": string table "", opNames..., extra...; raw IR bytes. */
function craft(o: { opNames: string[]; strings?: string[]; types?: number[][]; ir: number[]; symbols?: number[] }): Uint8Array {
  const all = ["", ...o.opNames, ...(o.strings ?? [])];
  const strings = new ByteWriter().varuint(all.length);
  for (const s of all) strings.string(s);
  const ops = new ByteWriter().varuint(o.opNames.length);
  o.opNames.forEach((_, i) => ops.varuint(i + 1));
  const types = new ByteWriter().varuint(o.types?.length ?? 0);
  for (const t of o.types ?? []) types.bytes(Uint8Array.from(t));
  return writeContainer({
    locationMode: 1,
    producer: "test",
    sections: [
      { kind: SECTION.strings, bytes: strings.finish() },
      { kind: SECTION.types, bytes: types.finish() },
      { kind: SECTION.ops, bytes: ops.finish() },
      { kind: SECTION.symbols, bytes: Uint8Array.from(o.symbols ?? [0]) },
      { kind: SECTION.ir, bytes: Uint8Array.from(o.ir) },
    ],
  });
}

function diagnostic(bytes: Uint8Array): string {
  const sink = new DiagnosticSink();
  assert.equal(readModuleBytecode("crafted.loombc", bytes, sink), undefined);
  assert.equal(sink.diagnostics.length, 1);
  return `${sink.diagnostics[0]!.code} ${sink.diagnostics[0]!.message}`;
}


test("a hand-made minimal file reads (the crafting helper is right)", () => {
  const sink = new DiagnosticSink();
  const m = readModuleBytecode("c.loombc", craft({ opNames: [], ir: [0, 0, 0, 0, 0, 0] }), sink);
  assert.ok(m, JSON.stringify(sink.diagnostics));
  assert.equal(printModule(m), "");
});

test("header problems and non-module files are BYTECODE/902", () => {
  const bad = small.slice();
  bad[0] = 0x58;
  assert.match(diagnostic(bad), /^BYTECODE\/902 .*magic/);
  assert.match(diagnostic(new Uint8Array(0)), /^BYTECODE\/902/);
  assert.match(diagnostic(encodeLaunchConfig([])), /^BYTECODE\/902 .*no ir section/);
  assert.match(diagnostic("not bytes" as unknown as Uint8Array), /^BYTECODE\/902/);
});

test("values used before their definition or out of scope are BYTECODE/904", () => {
  // One op whose operand is value #0, which does not exist.
  assert.match(diagnostic(craft({ opNames: ["target.decl"], ir: [0, 1, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0] })), /^BYTECODE\/904 .*not defined yet/);
  // The first op's region argument %a, used by the next top-level op.
  const ir = [1, 2, 1, 0, 0, 2, 0, 0, 0, 1, 1, 2, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0];
  assert.match(diagnostic(craft({ opNames: ["target.decl"], strings: ["a"], types: [[1, 1]], ir })), /^BYTECODE\/904 .*not in scope/);
  // Indices past their tables.
  assert.match(diagnostic(craft({ opNames: [], ir: [0, 1, 0, 0, 0, 1, 5, 0, 0, 0, 0, 0, 0] })), /^BYTECODE\/904 .*op name 5/);
  assert.match(diagnostic(craft({ opNames: ["target.decl"], ir: [0, 1, 0, 0, 1, 9, 0] })), /^BYTECODE\/904 .*string/);
});

test("limits are BYTECODE/905", () => {
  const depth = 200;
  const ir: number[] = [0, ...new ByteWriter().varuint(depth).varuint(depth).finish(), 0, 0, 1];
  for (let i = 0; i < depth; i++) ir.push(0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 1);
  ir.pop();
  ir.push(0);
  assert.match(diagnostic(craft({ opNames: ["scf.if"], ir })), /^BYTECODE\/905 .*nest deeper/);
  // One 60 KB comment referenced 20,000 times: small file, huge module.
  const bomb = new ByteWriter().varuint(0).varuint(1).varuint(0).u8(0).varuint(0).varuint(1).varuint(0).u8(0).varuint(20000);
  for (let i = 0; i < 20000; i++) bomb.varuint(2);
  bomb.bytes(Uint8Array.of(0, 0, 0, 0));
  assert.match(diagnostic(craft({ opNames: ["target.decl"], strings: ["x".repeat(60000)], ir: [...bomb.finish()] })), /^BYTECODE\/905 .*expands/);
});

test("inflated counts fail fast without allocating", () => {
  const huge = [0xff, 0xff, 0xff, 0xff, 0x0f];
  assert.match(diagnostic(craft({ opNames: [], ir: [...huge, 0, 0, 0, 0, 0] })), /^BYTECODE\/90[13] .*value count/);
  assert.match(diagnostic(craft({ opNames: ["target.decl"], ir: [0, 1, 0, 0, ...huge] })), /^BYTECODE\/90[13] .*comment count/);
  assert.match(diagnostic(craft({ opNames: [], ir: [0x80, 0x00, 0, 0, 0, 0, 0] })), /^BYTECODE\/903 .*not minimally encoded/);
});

test("non-canonical encodings are rejected", () => {
  const propOp = (prop: number[], strings: string[] = []) => craft({ opNames: ["target.decl"], strings: ["symbol", "t", ...strings], ir: [0, 1, 0, 0, 0, 1, 0, 0, 0, 0, 0, 1, 2, ...prop, 0] });
  // The canonical form reads; the symbols section must then list the symbol.
  const good = craft({ opNames: ["target.decl"], strings: ["symbol", "t"], ir: [0, 1, 0, 0, 0, 1, 0, 0, 0, 0, 0, 1, 2, 4, 3, 0], symbols: [1, 3, 0, 0] });
  assert.equal(printModule(readModuleBytecode("g.loombc", good, new DiagnosticSink())!), "target.decl @t\n");
  assert.match(diagnostic(propOp([4, 3])), /^BYTECODE\/903 .*symbols section/);
  assert.match(diagnostic(propOp([13, 2, 4, 4, 6, 5, 7, 0], ["kind", "value", "int"])), /^BYTECODE\/903 .*generic record/);
  assert.match(diagnostic(propOp([13, 1, 4, 5, 1], ["__proto__"])), /^BYTECODE\/903 .*__proto__/);
  assert.match(diagnostic(propOp([6, 0, 0, 0, 0, 0, 0, 0xf0, 0x3f])), /^BYTECODE\/903 .*written as an integer/);
  // First op of the module with a blank line before it: decodes, but is not what the parser builds.
  const blank = craft({ opNames: ["target.decl"], strings: ["symbol", "t"], ir: [0, 1, 0, 0, 0, 1, 0, 1, 0, 0, 0, 1, 2, 4, 3, 0], symbols: [1, 3, 0, 0] });
  assert.match(diagnostic(blank), /^BYTECODE\/906 .*blank-line flag/);
  // An SSA name the text cannot spell.
  const m = parseModule("n.loom", "func.def @f(%a: index) {\n  func.return\n}\n", new DiagnosticSink());
  m.ops[0]!.regions[0]!.args[0]!.name = "a b";
  assert.match(diagnostic(encodeModule(m)), /^BYTECODE\/906/);
});

test("a static strided layout (layout byte 3) with too many or too large strides is rejected", () => {
  const viewType = (layout: number[]) => craft({ opNames: [], types: [[10, 12, 1, ...layout, 0, 4]], ir: [0, 0, 0, 0, 0, 0] });
  const sink = new DiagnosticSink();
  assert.ok(readModuleBytecode("s.loombc", viewType([3, 1, 4]), sink), JSON.stringify(sink.diagnostics));
  assert.match(diagnostic(viewType([3, 9, ...new Array<number>(9).fill(1)])), /^BYTECODE\/905 .*stride count 9/);
  assert.match(diagnostic(viewType([3, 1, 0x80, 0x80, 0x80, 0x80, 0x08])), /^BYTECODE\/90[13] .*stride/);
  assert.match(diagnostic(viewType([4])), /^BYTECODE\/903 .*unknown layout tag 4/);
});
