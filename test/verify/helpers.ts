/** Helpers for verifier unit tests: verify `.loom` text and look at the codes reported. */
import "../../src/api/check-dialect.js"; // the check harness's syntax and rules, which loomc registers
import assert from "node:assert/strict";
import { parseModule } from "../../src/text/parser.js";
import { verifyModule, type VerifiedModule } from "../../src/passes/verify/index.js";
import { DiagnosticSink, type Diagnostic } from "../../src/core/diag/diagnostic.js";
import type { Module } from "../../src/ir/core.js";
// The target packages' record ops (amdgpu.target, spirv.target) that the sources use.
import "../../src/targets/registry.js";

export interface Verified {
  readonly module: Module;
  readonly info: VerifiedModule;
  readonly diagnostics: readonly Diagnostic[];
  /** `CODE` of each diagnostic, in order. */
  readonly codes: readonly string[];
}

/** Parses `text` (which must parse cleanly: a test bug otherwise) and verifies it. */
export function verifyText(text: string, name = "test.loom"): Verified {
  const sink = new DiagnosticSink(100);
  const module = parseModule(name, text, sink);
  assert.deepEqual(
    sink.diagnostics.map((d) => `${d.code} ${d.location?.line}:${d.location?.column} ${d.message}`),
    [],
    `test input must parse cleanly:\n${text}`,
  );
  const info = verifyModule(module, sink);
  return { module, info, diagnostics: sink.diagnostics, codes: sink.diagnostics.map((d) => d.code) };
}

/** Asserts the verifier reports exactly `codes` (in order) for `text`. */
export function expectCodes(text: string, codes: readonly string[]): Verified {
  const v = verifyText(text);
  assert.deepEqual(v.codes, codes, v.diagnostics.map((d) => `${d.code} ${d.location?.line}:${d.location?.column} ${d.message}`).join("\n"));
  return v;
}

/** Asserts a clean verification. */
export function expectClean(text: string): Verified {
  return expectCodes(text, []);
}

/**
 * A kernel with a trivial launch config, the given device args and device body lines.
 * The body starts with `%c1 = index.constant 1 : index` (line 5); `body` starts on line 6.
 */
export function kernel(body: string, deviceArgs = "", workloadArgs = ""): string {
  return `kernel.def @k(${workloadArgs}) {
  %c1 = index.constant 1 : index
  kernel.launch.config workgroups(%c1, %c1, %c1) workgroup_size(%c1, %c1, %c1) : index
} launch(${deviceArgs}) {
  %c1 = index.constant 1 : index
${body}
  kernel.return
}
`;
}

/** A kernel whose config region holds `config` lines before the launch config. */
export function configKernel(config: string, workloadArgs = ""): string {
  return `kernel.def @k(${workloadArgs}) {
  %c1 = index.constant 1 : index
${config}
  kernel.launch.config workgroups(%c1, %c1, %c1) workgroup_size(%c1, %c1, %c1) : index
} launch() {
  kernel.return
}
`;
}
