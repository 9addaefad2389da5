/**
 * The op table, the syntax registry and the fixtures agree: every v1 op has a syntax, and the
 * valid fixtures together use every op, type, flag, predicate and enum word of Loom v1.
 */
import "../../src/api/check-dialect.js"; // the check harness's syntax and rules, which loomc registers
import { test } from "node:test";
import { canonicalOpName } from "../../src/text/syntax/legacy.js";
import assert from "node:assert/strict";
import { join } from "node:path";
import type { Module, Op } from "../../src/ir/core.js";
import { walkOp } from "../../src/ir/walk.js";
import { opTable, lookupOp } from "../../src/dialects/table.js";
import { registeredNames } from "../../src/text/syntax/registry.js";
import { COMBINING, FLAG_SETS, FLOAT_PREDICATES, INT_PREDICATES, ORDERINGS, PREDICATE_ARITY, SCOPES, SHUFFLE_MODES, SCHEDULES, ATOMIC_RMW_KINDS } from "../../src/text/vocabulary.js";
import { NONCANONICAL_DIR, VALID_DIR, loomFiles, parse, readText } from "./helpers.js";

function allFixtures(): { text: string; module: Module }[] {
  const paths = [...loomFiles(VALID_DIR).map((f) => join(VALID_DIR, f)), ...loomFiles(NONCANONICAL_DIR, ".input.loom").map((f) => join(NONCANONICAL_DIR, f))];
  return paths.map((p) => {
    const text = readText(p);
    return { text, module: parse(text, p).module };
  });
}

function allOps(modules: readonly Module[]): Op[] {
  const out: Op[] = [];
  for (const m of modules) for (const op of m.ops) walkOp(op, (o) => void out.push(o));
  return out;
}

test("every table op has a syntax and every syntax a table entry", () => {
  const syntaxes = new Set(registeredNames());
  for (const name of opTable.keys()) if (name !== "alias") assert.ok(syntaxes.has(name), `no syntax for ${name}`);
  // A legacy spelling (func.template, func.apply) has a syntax and builds its canonical op.
  for (const name of syntaxes) assert.ok(lookupOp(canonicalOpName(name) ?? name), `syntax for unknown op ${name}`);
});

test("table entries are well formed", () => {
  for (const info of opTable.values()) {
    assert.match(info.placement, /^C?D?F?H?$/, info.name);
    assert.equal(info.topLevel, info.placement === "", info.name);
  }
  assert.equal(lookupOp("kernel.return")?.terminator, true);
  assert.equal(lookupOp("view.store")?.pure, false);
  assert.equal(lookupOp("scalar.expf")?.placement, "DF");
  assert.equal(lookupOp("index.add")?.placement, "CDF");
});

test("the valid fixtures use every v1 op", () => {
  const used = new Set(allOps(allFixtures().map((f) => f.module)).map((o) => o.name));
  const missing = [...opTable.keys()].filter((n) => !used.has(n));
  assert.deepEqual(missing, []);
});

test("the valid fixtures use every type, flag, predicate and enum word", () => {
  const text = allFixtures()
    .map((f) => f.text)
    .join("\n");
  const words = new Set(text.split(/[^A-Za-z0-9_.$-]+/));
  const expectWords = (list: readonly string[], what: string) => {
    const missing = list.filter((w) => !words.has(w));
    assert.deepEqual(missing, [], what);
  };
  expectWords(["index", "offset", "i1", "i8", "i16", "i32", "i64", "f16", "bf16", "f32", "f64", "buffer", "encoding"], "types");
  assert.match(text, /vector<\d+xindex>/);
  assert.match(text, /vector<\d+x\d+x/);
  assert.match(text, /view<\d+x\d+x\d+x\d+x/);
  assert.match(text, /encoding<layout>/);
  expectWords([...FLAG_SETS.fm, "fast", ...FLAG_SETS.ovf], "flags");
  expectWords(Object.keys(PREDICATE_ARITY), "predicates");
  expectWords([...INT_PREDICATES, ...FLOAT_PREDICATES.filter((p) => ["olt", "ord", "uno"].includes(p))], "compare predicates");
  expectWords([...ORDERINGS, ...SCOPES, "xor", "down", ...SCHEDULES], "enums");
  // Target-record parameters belong to the target packages; the fixtures cover each kind.
  expectWords(["gfx942", "gfx950", "gfx1100", "gfx1151", "gfx11-generic", "gfx12-generic", "vulkan1_3", "sramecc", "xnack", "abi"], "target records");
  expectWords(["addf", "maxsi", "minnumf", "addi", "maxui"], "combining kinds");
  assert.ok(COMBINING.length > 0 && SHUFFLE_MODES.length > 0 && ATOMIC_RMW_KINDS.length > 0);
  expectWords(["public", "retain", "host", "device", "pure", "hot", "cold", "inline", "noinline", "target", "export", "requires", "priority", "unroll", "schedule", "cluster_size"], "modifiers and clauses");
  for (const legacy of ["{ordering = acq_rel, scope = workgroup}", "{base_alignment = 64, memory_space = workgroup}", "{memory_space = global}"]) assert.ok(text.includes(legacy), legacy);
});
