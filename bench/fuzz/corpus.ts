/**
 * The valid `.loom` files of the repository (fixtures, examples with the canonical kernel suite,
 * and the few backend and interpreter test kernels the suite lacks) and their `.loombc`
 * encodings: the seeds that the fuzz bench and the property tests mutate.
 */
import "../../src/api/check-dialect.js"; // the check harness's syntax and rules, which loomc registers
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { join, relative } from "node:path";
import { DiagnosticSink } from "../../src/core/diag/diagnostic.js";
import type { Module } from "../../src/ir/core.js";
import { parseModule } from "../../src/text/parser.js";
import { encodeModule } from "../../src/bytecode/module/writer.js";
import type { LocationChoice } from "../../src/bytecode/module/format.js";
// The target packages' record ops (amdgpu.target, spirv.target) that the fixtures use.
import "../../src/targets/registry.js";

const ROOTS = ["test/fixtures/valid", "test/spirv/kernels", "test/interp/kernels", "examples"];

function walk(dir: string, out: string[]): void {
  for (const name of readdirSync(dir).sort()) {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) walk(p, out);
    else if (name.endsWith(".loom")) out.push(p);
  }
}

/** Repository-relative paths of every `.loom` file that should parse, sorted. */
export function validLoomFiles(repoRoot: string): string[] {
  const out: string[] = [];
  for (const r of ROOTS) if (existsSync(join(repoRoot, r))) walk(join(repoRoot, r), out);
  return out.map((p) => relative(repoRoot, p));
}

export interface Seed {
  readonly path: string;
  readonly module: Module;
  readonly bytes: Uint8Array;
}

/** Parses each file and encodes it, cycling through the three location modes. */
export function seeds(repoRoot: string): Seed[] {
  const modes: LocationChoice[] = ["full", "lines", "none"];
  const out: Seed[] = [];
  for (const [i, path] of validLoomFiles(repoRoot).entries()) {
    const sink = new DiagnosticSink();
    const module = parseModule(path, readFileSync(join(repoRoot, path), "utf8"), sink);
    if (sink.hasErrors) throw new Error(`${path} does not parse: ${sink.diagnostics[0]?.message}`);
    out.push({ path, module, bytes: encodeModule(module, { locations: modes[i % 3]! }) });
  }
  return out;
}
