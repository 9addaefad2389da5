/**
 * Property tests of the front end (parse + verify + print) on hostile input, with fast-check.
 * Over 10,000 cases in total, deterministic by default (seed 0x100d; FUZZ_SEED overrides):
 *  - mutated valid files: byte flips, deletions, random token insertions, truncations,
 *    duplicated and swapped lines;
 *  - random token soups built from the language's own vocabulary;
 *  - arbitrary Unicode strings.
 * Every case: nothing throws (parse, verify — also on IR from broken input — and print of
 * parse-clean modules); the work is bounded (ops built ≤ tokens in, diagnostics ≤ limit + 1),
 * diagnostics are well-formed and point inside the file; a parse-clean input prints to a
 * canonical text that parses cleanly and prints identically (print∘parse is a fixpoint).
 */
import "../../src/api/check-dialect.js"; // the check harness's syntax and rules, which loomc registers
import { test } from "node:test";
import assert from "node:assert/strict";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import fc from "fast-check";
import { fromRoot } from "../util/paths.js";
import { parseModule } from "../../src/text/parser.js";
import { printModule } from "../../src/text/printer.js";
import { verifyModule } from "../../src/passes/verify/index.js";
import { opTable } from "../../src/dialects/table.js";
import { DiagnosticSink, type Diagnostic } from "../../src/core/diag/diagnostic.js";
import type { Op, Region } from "../../src/ir/core.js";

const SEED = Number(process.env.FUZZ_SEED ?? 0x100d);
const MAX_ERRORS = 20;

function loomFiles(...parts: string[]): { name: string; bytes: Uint8Array }[] {
  const dir = fromRoot(...parts);
  if (!existsSync(dir)) return [];
  return readdirSync(dir)
    .filter((f) => f.endsWith(".loom"))
    .sort()
    .map((f) => ({ name: f, bytes: new Uint8Array(readFileSync(join(dir, f))) }));
}

const validFiles = loomFiles("test", "fixtures", "valid");
const seeds = [...validFiles, ...loomFiles("test", "corpus", "bad")];

const VOCABULARY = [
  ...opTable.keys(),
  ..."to step else do launch where from into align scope ordering unroll schedule workgroups workgroup_size cluster_size export target retain public pure requires priority true false".split(" "),
  ..."index offset i1 i8 i16 i32 i64 f16 bf16 f32 f64 buffer tensor vector<4xf32> vector<2x2xi32> view<[%n]xf32> view<4x4xf32, #dense> encoding<layout>".split(" "),
  ..."( ) { } [ ] < > = : , | -> x".split(" "),
  ..."%a %b %n %0 %c1 %x-y @f @k @model.size #dense #encoding.layout.dense #a ^bb %".split(" "),
  ..."0 1 -1 42 0x1F 0x 1.5 -2.5e3 1e 1. inf nan -inf 9223372036854775808".split(" "),
  '"s"', '"a\\nb"', '"\\q"', '"unterminated', "// comment", "\n", "\n\n", "\t", "range(%a, 0, 1)", "mul(%a, 4)", "<workgroup>", "<x>", "<fast>",
];

/** Lines and code-point lengths of the text the parser saw. */
function lineLengths(text: string): number[] {
  return text.split("\n").map((l) => Array.from(l.replace(/\r$/, "")).length);
}

function checkDiagnostic(d: Diagnostic, name: string, lines: readonly number[]): void {
  assert.match(d.code, /^[A-Z]+\/\d{3}$/, `code of ${JSON.stringify(d)}`);
  assert.ok(["error", "warning", "note", "remark"].includes(d.severity));
  assert.equal(typeof d.message, "string");
  assert.ok(d.message.length > 0);
  const loc = d.location;
  if (!loc) return;
  assert.equal(loc.source, name);
  assert.ok(Number.isInteger(loc.line) && loc.line >= 1 && loc.line <= lines.length, `line ${loc.line} of ${lines.length} in ${d.code}`);
  assert.ok(Number.isInteger(loc.column) && loc.column >= 1 && loc.column <= lines[loc.line - 1]! + 1, `column ${loc.column} on a line of ${lines[loc.line - 1]} in ${d.code} ${d.message}`);
}

function countOps(regions: readonly Region[], ops: readonly Op[]): number {
  let n = 0;
  const stack: Op[] = [...ops];
  for (const r of regions) stack.push(...r.ops);
  while (stack.length > 0) {
    const op = stack.pop()!;
    n++;
    for (const r of op.regions) stack.push(...r.ops);
  }
  return n;
}

/** Runs the whole front end on `bytes` and checks every invariant of one case. */
function frontEndInvariants(name: string, bytes: Uint8Array): void {
  let text: string;
  try {
    text = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true }).decode(bytes);
  } catch {
    return; // invalid UTF-8 never reaches the parser (Workspace reports PARSE/019)
  }
  const sink = new DiagnosticSink(MAX_ERRORS);
  const module = parseModule(name, text, sink);
  const parseClean = !sink.hasErrors;
  // The verifier must survive IR built from broken input too.
  verifyModule(module, sink);
  const lines = lineLengths(text);
  for (const d of sink.diagnostics) checkDiagnostic(d, name, lines);
  // Bounded work: no op without input to show for it, no runaway diagnostics.
  assert.ok(countOps([], module.ops) <= text.length + 1, "more ops than input characters");
  assert.ok(sink.diagnostics.filter((d) => d.severity === "error").length <= 2 * (MAX_ERRORS + 1), "error limit ignored");
  if (!parseClean) return;
  const printed = printModule(module);
  const again = new DiagnosticSink(MAX_ERRORS);
  const reparsed = parseModule(name, printed, again);
  assert.deepEqual(again.diagnostics.map((d) => `${d.code} ${d.location?.line}:${d.location?.column} ${d.message}`), [], `printed text must parse cleanly:\n${printed}`);
  assert.equal(printModule(reparsed), printed, "print(parse(print(parse(x)))) == print(parse(x))");
}

type Mutation =
  | { kind: "flip"; at: number; byte: number }
  | { kind: "delete"; at: number; length: number }
  | { kind: "insert"; at: number; token: string }
  | { kind: "truncate"; at: number }
  | { kind: "duplicate-line"; line: number }
  | { kind: "swap-lines"; line: number };

const mutationArb: fc.Arbitrary<Mutation> = fc.oneof(
  fc.record({ kind: fc.constant("flip" as const), at: fc.nat(), byte: fc.integer({ min: 0, max: 255 }) }),
  fc.record({ kind: fc.constant("delete" as const), at: fc.nat(), length: fc.integer({ min: 1, max: 24 }) }),
  fc.record({ kind: fc.constant("insert" as const), at: fc.nat(), token: fc.constantFrom(...VOCABULARY) }),
  fc.record({ kind: fc.constant("truncate" as const), at: fc.nat() }),
  fc.record({ kind: fc.constant("duplicate-line" as const), line: fc.nat() }),
  fc.record({ kind: fc.constant("swap-lines" as const), line: fc.nat() }),
);

const encoder = new TextEncoder();

function concat(...parts: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}

function splitLines(bytes: Uint8Array): Uint8Array[] {
  const lines: Uint8Array[] = [];
  let start = 0;
  for (let i = 0; i < bytes.length; i++) {
    if (bytes[i] === 0x0a) {
      lines.push(bytes.subarray(start, i + 1));
      start = i + 1;
    }
  }
  if (start < bytes.length) lines.push(bytes.subarray(start));
  return lines;
}

function mutate(bytes: Uint8Array, m: Mutation): Uint8Array {
  const n = bytes.length;
  switch (m.kind) {
    case "flip": {
      if (n === 0) return bytes;
      const out = bytes.slice();
      out[m.at % n] = m.byte;
      return out;
    }
    case "delete": {
      const at = n === 0 ? 0 : m.at % n;
      return concat(bytes.subarray(0, at), bytes.subarray(Math.min(n, at + m.length)));
    }
    case "insert": {
      const at = m.at % (n + 1);
      return concat(bytes.subarray(0, at), encoder.encode(` ${m.token} `), bytes.subarray(at));
    }
    case "truncate":
      return bytes.subarray(0, m.at % (n + 1));
    case "duplicate-line":
    case "swap-lines": {
      const lines = splitLines(bytes);
      if (lines.length === 0) return bytes;
      const i = m.line % lines.length;
      if (m.kind === "duplicate-line") lines.splice(i, 0, lines[i]!);
      else if (i + 1 < lines.length) [lines[i], lines[i + 1]] = [lines[i + 1]!, lines[i]!];
      return concat(...lines);
    }
  }
}

test("fuzz: seeds exist", () => {
  assert.ok(validFiles.length > 0 && seeds.length > validFiles.length);
});

test("fuzz: valid files round-trip print → parse → print", () => {
  for (const f of validFiles) frontEndInvariants(f.name, f.bytes);
});

test("fuzz: mutated valid and corpus files (6,000 cases)", { timeout: 120_000 }, () => {
  const seedIndex = fc.integer({ min: 0, max: seeds.length - 1 });
  fc.assert(
    fc.property(seedIndex, fc.array(mutationArb, { minLength: 1, maxLength: 4 }), (i, mutations) => {
      const seed = seeds[i]!;
      const bytes = mutations.reduce(mutate, seed.bytes);
      frontEndInvariants(seed.name, bytes);
    }),
    { numRuns: 6000, seed: SEED, includeErrorInReport: true },
  );
});

test("fuzz: random token soups (3,000 cases)", { timeout: 120_000 }, () => {
  const soup = fc.array(fc.tuple(fc.constantFrom(...VOCABULARY), fc.constantFrom(" ", " ", "", "\n", "  ")), { maxLength: 60 });
  fc.assert(
    fc.property(soup, (parts) => {
      const text = parts.map(([tok, sep]) => tok + sep).join("");
      frontEndInvariants("soup.loom", encoder.encode(text));
    }),
    { numRuns: 3000, seed: SEED + 1, includeErrorInReport: true },
  );
});

test("fuzz: arbitrary Unicode text (1,500 cases)", { timeout: 120_000 }, () => {
  fc.assert(
    fc.property(fc.string({ unit: "binary", maxLength: 200 }), (text) => {
      frontEndInvariants("unicode.loom", encoder.encode(text));
    }),
    { numRuns: 1500, seed: SEED + 2, includeErrorInReport: true },
  );
});
