/**
 * Every kernel of the canonical suite (examples/kernels), of test/spirv/kernels and of the
 * file tests (test/cases) either compiles to WGSL that both independent WGSL front ends
 * accept — Tint through Dawn's null backend (compilation messages, then pipeline creation
 * against the layout the kernel-interface record implies, inside a validation error scope)
 * and naga (plus test/wgsl/kernels, the same op families in WebGPU's types) — or fails with exactly the TARGET diagnostics this target documents
 * (docs/wgsl.md). Emission is deterministic; the suite's and the file tests' WGSL is golden
 * (`// RUN: wgsl` cases, goldens in test/golden/wgsl/, UPDATE=1 to refresh).
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { readdirSync, readFileSync } from "node:fs";
import { KERNEL_SUITE } from "../../examples/kernels/suite.js";
import { fromRoot } from "../util/paths.js";
import { compileText, errorCodes, nagaError, tint } from "./helpers.js";

interface Source {
  readonly dir: readonly string[];
  readonly file: string;
  readonly kernel: string;
}

/** Kernels that must fail, and with which codes (in report order, duplicates kept). */
const REFUSED: Readonly<Record<string, RegExp>> = {
  // i64 arguments and arithmetic, rotations of the 64-bit index carrier.
  integer_ops: /i64|rotation of the 64-bit index carrier/,
  float_ops: /f64/,
  narrow_types: /'i8'|'i16'|'f64'/,
  // Non-relaxed atomics, signed max and f32 add on one buffer.
  collectives: /ordering|signed atomic min\/max/,
  fold: /f64/,
  split: /compile-time constant/,
  layout: /entry name 'layout'/,
  // Needs a config binding and a fixed subgroup size (WebGPU fixes none).
  tiled: /has no value|no fixed subgroup size/,
  // test/cases/limits_*.loom: programs past a limit or budget on purpose (issue 12).
  limit_huge_private: /private buffer\.alloca/,
  limit_wide: /workgroup size/,
  limit_empty: /workgroup size/,
  limit_too_much_shared: /workgroup storage/,
  limit_nested: /implementation limit exceeded/,
  limit_predicates: /implementation limit exceeded/,
  limit_arguments: /implementation limit exceeded/,
  limit_results: /implementation limit exceeded/,
};

function kernelsOf(dir: readonly string[]): Source[] {
  const out: Source[] = [];
  for (const file of readdirSync(fromRoot(...dir)).filter((f) => f.endsWith(".loom")).sort()) {
    if (file.startsWith("verify_")) continue; // verifier cases: they do not parse or verify on purpose
    const text = readFileSync(fromRoot(...dir, file), "utf8");
    for (const m of text.matchAll(/^kernel\.def[^@\n]*@([A-Za-z_0-9]+)/gm)) out.push({ dir, file, kernel: m[1]! });
  }
  return out;
}

const SOURCES = [...kernelsOf(["examples", "kernels"]), ...kernelsOf(["test", "spirv", "kernels"]), ...kernelsOf(["test", "cases"]), ...kernelsOf(["test", "wgsl", "kernels"])];

test("the sources cover the whole kernel suite", () => {
  const byFile = (a: readonly string[], b: readonly string[]) => (a[0]! < b[0]! ? -1 : a[0]! > b[0]! ? 1 : 0);
  const suite = SOURCES.filter((s) => s.dir[0] === "examples").map((s) => [s.file, s.kernel]);
  assert.deepEqual(suite.sort(byFile), KERNEL_SUITE.map((k) => [k.file, k.symbol]).sort(byFile));
});

let accepted = 0;
for (const s of SOURCES) {
  const where = `${s.dir.join("/")}/${s.file}`;
  test(`${where} @${s.kernel}: ${REFUSED[s.kernel] ? "refused with TARGET diagnostics" : "Tint and naga accept the WGSL"}`, async (t) => {
    const text = readFileSync(fromRoot(...s.dir, s.file), "utf8");
    const c = compileText(s.file, text, [s.kernel]);
    const refused = REFUSED[s.kernel];
    if (refused) {
      assert.equal(c.ok, false, "expected TARGET diagnostics");
      assert.ok(errorCodes(c).every((code) => /^(TARGET|STRUCTURE)\//.test(code)), JSON.stringify(c.diagnostics));
      for (const d of c.diagnostics) assert.match(d.message, refused);
      assert.ok(c.diagnostics.every((d) => d.location !== undefined), "every diagnostic has a location");
      return;
    }
    assert.ok(c.ok, JSON.stringify(c.diagnostics));
    const again = compileText(s.file, text, [s.kernel]);
    assert.equal(again.text, c.text, "emission is deterministic");
    assert.ok(/^[\x0a\x20-\x7e]*$/.test(c.text!), "WGSL text is printable ASCII");
    const record = c.record!;
    assert.equal(record.format, "wgsl");
    assert.equal(record.kernels[0]!.entryName, s.kernel);
    assert.equal(record.kernels[0]!.bufferAddressing, "bindings");
    const verdict = await tint(t, c.text!, record);
    if (verdict === false) return;
    assert.deepEqual(verdict.errors, [], `Tint:\n${verdict.errors.join("\n")}\n${c.text}`);
    const naga = await nagaError(t, c.text!);
    if (naga === false) return;
    assert.equal(naga, undefined, `naga: ${naga}\n${c.text}`);
    accepted++;
  });
}

test("counts", () => {
  const refused = SOURCES.filter((s) => REFUSED[s.kernel]).length;
  console.log(`# WGSL: ${accepted} of ${SOURCES.length - refused} modules accepted by Tint and naga; ${refused} kernels refused with TARGET diagnostics`);
});
