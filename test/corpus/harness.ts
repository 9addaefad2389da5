/**
 * The corpus harness: reads expectation comments and runs a file through the front end
 * the way `Workspace.parseModule` does (UTF-8 check, parse, verify when parsing succeeded).
 *
 * Expectation syntax (one per comment line, see test/corpus/README.md):
 *   // ERROR@+N:C: DOMAIN/NNN   — a diagnostic with that code at line (this line + N), column C
 *   // ERROR@-N:C: DOMAIN/NNN   — same, N lines above
 *   // ERROR@none: DOMAIN/NNN   — a diagnostic with that code and no source location
 */
import "../../src/api/check-dialect.js"; // the check harness's syntax and rules, which loomc registers
import { parseModule } from "../../src/text/parser.js";
import { verifyModule } from "../../src/passes/verify/index.js";
import { D, DiagnosticSink, type Diagnostic } from "../../src/core/diag/diagnostic.js";
import { firstInvalidUtf8 } from "../../src/api/source.js";
import type { Module } from "../../src/ir/core.js";
// The target packages' record ops (amdgpu.target, spirv.target) that the sources use.
import "../../src/targets/registry.js";

export interface Expectation {
  readonly code: string;
  /** 1-based; undefined for `@none`. */
  readonly line?: number;
  readonly column?: number;
  /** Line of the comment stating it (for messages). */
  readonly at: number;
}

const EXPECT = /\/\/\s*ERROR@(?:([+-]\d+):(\d+)|none):\s*([A-Z]+\/\d{3})\s*$/;

/** The expectations a file states. Lines are split on `\n` like the renderer does. */
export function readExpectations(text: string): Expectation[] {
  const out: Expectation[] = [];
  text.split("\n").forEach((raw, i) => {
    const m = EXPECT.exec(raw.replace(/\r$/, ""));
    if (!m) return;
    const at = i + 1;
    if (m[1] === undefined) out.push({ code: m[3]!, at });
    else out.push({ code: m[3]!, line: at + Number(m[1]), column: Number(m[2]), at });
  });
  return out;
}

export interface RunResult {
  /** The decoded text (replacement characters where the bytes were not UTF-8). */
  readonly text: string;
  readonly diagnostics: readonly Diagnostic[];
  readonly module?: Module;
  /** Whether the verifier ran (it runs only on modules without parse errors). */
  readonly verified: boolean;
}

/** Parses (and, when clean, verifies) one file's bytes. */
export function runFrontEnd(name: string, bytes: Uint8Array, maxErrors = 20): RunResult {
  const sink = new DiagnosticSink(maxErrors);
  let text: string;
  try {
    text = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true }).decode(bytes);
  } catch {
    const { line, column } = firstInvalidUtf8(bytes);
    sink.report(D.invalidUtf8, { source: name, line, column, endLine: line, endColumn: column + 1 });
    return { text: new TextDecoder("utf-8").decode(bytes), diagnostics: sink.diagnostics, verified: false };
  }
  const module = parseModule(name, text, sink);
  const verified = !sink.hasErrors;
  if (verified) verifyModule(module, sink);
  return { text, diagnostics: sink.diagnostics, module, verified };
}

export function describe(d: Diagnostic): string {
  const loc = d.location ? `${d.location.line}:${d.location.column}` : "none";
  return `${d.code} ${loc} ${d.message}`;
}

/** Whether `d` satisfies `e`. */
export function matches(d: Diagnostic, e: Expectation): boolean {
  if (d.code !== e.code) return false;
  if (e.line === undefined) return d.location === undefined;
  return d.location?.line === e.line && d.location.column === e.column;
}
