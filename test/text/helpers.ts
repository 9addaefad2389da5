/** Shared helpers of the text front-end tests. */
import "../../src/api/check-dialect.js"; // the check harness's syntax and rules, which loomc registers
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import type { Module } from "../../src/ir/core.js";
import { DiagnosticSink, type Diagnostic } from "../../src/core/diag/diagnostic.js";
import { parseModule } from "../../src/text/parser.js";
import { fromRoot } from "../util/paths.js";
// The target packages' record ops (amdgpu.target, spirv.target) that the sources use.
import "../../src/targets/registry.js";

export const VALID_DIR = fromRoot("test/fixtures/valid");
export const NONCANONICAL_DIR = join(VALID_DIR, "noncanonical");

export function loomFiles(dir: string, suffix = ".loom"): string[] {
  return readdirSync(dir).filter((f) => f.endsWith(suffix)).sort();
}

export function readText(path: string): string {
  return readFileSync(path, "utf8");
}

export function parse(text: string, name = "test.loom", maxErrors = 20): { module: Module; diagnostics: Diagnostic[] } {
  const sink = new DiagnosticSink(maxErrors);
  const module = parseModule(name, text, sink);
  return { module, diagnostics: sink.diagnostics };
}

/** `CODE@line:col` of each diagnostic, for compact assertions. */
export function codes(ds: readonly Diagnostic[]): string[] {
  return ds.map((d) => `${d.code}@${d.location?.line ?? "?"}:${d.location?.column ?? "?"}`);
}
