/**
 * A file-test case: a `.loom` file whose leading `// RUN:` lines name what to run on it
 * (Cranelift filetests' `test` lines, LLVM's `RUN:`). docs/testing.md lists the stages.
 *
 *   // RUN: prepared-low target=spirv:vulkan1.3 feature=shaderInt64
 *   // RUN: pass fold
 *
 * Options are `key=value` words: target (ENV:DEVICE), feature (comma list, spirv), limit
 * (NAME=VALUE, repeatable, spirv), subgroup (subgroup operations, comma list, spirv), kernel (comma list; default every kernel.def), config
 * (NAME=VALUE, repeatable), invocations (layout), label (tells two runs of one stage apart).
 */
import { readFileSync, readdirSync } from "node:fs";
import { basename } from "node:path";
import { fromRoot } from "../util/paths.js";

export const STAGES = ["verify", "compile", "prepared-low", "spirv", "ptx", "wgsl", "amdgpu", "launch", "hsaco", "pass"] as const;
export type Stage = (typeof STAGES)[number];
export const PASSES = ["fold", "inline", "specialize", "layout", "templates", "launch-split"] as const;
export type PassName = (typeof PASSES)[number];

export interface RunLine {
  readonly stage: Stage;
  /** For `pass`: which pass. */
  readonly pass?: PassName;
  readonly options: ReadonlyMap<string, readonly string[]>;
  /** 1-based line of the RUN comment. */
  readonly line: number;
}

export interface Case {
  /** File name without `.loom`. */
  readonly name: string;
  /** Path from the repository root, as diagnostics name it. */
  readonly path: string;
  readonly text: string;
  readonly runs: readonly RunLine[];
}

const RUN = /^\/\/\s*RUN:\s*(.*)$/;
const OPTIONS = new Set(["target", "feature", "limit", "subgroup", "kernel", "config", "invocations", "label"]);

function parseRun(rest: string, line: number, where: string): RunLine {
  const [stage, ...words] = rest.trim().split(/\s+/);
  if (!STAGES.includes(stage as Stage)) throw new Error(`${where}:${line}: unknown stage '${stage}' (known: ${STAGES.join(", ")})`);
  let pass: PassName | undefined;
  if (stage === "pass") {
    const name = words.shift();
    if (!PASSES.includes(name as PassName)) throw new Error(`${where}:${line}: unknown pass '${name}' (known: ${PASSES.join(", ")})`);
    pass = name as PassName;
  }
  const options = new Map<string, string[]>();
  for (const w of words) {
    const eq = w.indexOf("=");
    const key = w.slice(0, eq);
    if (eq < 1 || !OPTIONS.has(key)) throw new Error(`${where}:${line}: '${w}' is not KEY=VALUE with KEY one of ${[...OPTIONS].join(", ")}`);
    options.set(key, [...(options.get(key) ?? []), w.slice(eq + 1)]);
  }
  return { stage: stage as Stage, ...(pass ? { pass } : {}), options, line };
}

/** Reads the header: RUN lines among the leading comment lines. */
export function readCase(path: string): Case {
  const text = readFileSync(fromRoot(path), "utf8");
  const runs: RunLine[] = [];
  for (const [i, raw] of text.split("\n").entries()) {
    if (!raw.startsWith("//")) break;
    const m = RUN.exec(raw.trimEnd());
    if (m) runs.push(parseRun(m[1] ?? "", i + 1, path));
  }
  if (runs.length === 0) throw new Error(`${path}: no '// RUN:' line in the leading comments`);
  return { name: basename(path, ".loom"), path, text, runs };
}

export function caseFiles(): string[] {
  return readdirSync(fromRoot("test", "cases")).filter((f) => f.endsWith(".loom")).sort().map((f) => `test/cases/${f}`);
}

/** The one value of an option, or undefined. */
export function option(run: RunLine, key: string): string | undefined {
  const values = run.options.get(key);
  if (values && values.length > 1) throw new Error(`RUN line ${run.line}: '${key}' given ${values.length} times`);
  return values?.[0];
}

/** Where a run's golden goes: test/golden/<stage>/<case>[.<label>].<ext>. */
export function goldenPath(c: Case, run: RunLine, ext: string): string {
  const folder = run.stage === "pass" ? `pass-${run.pass}` : run.stage;
  const label = option(run, "label");
  return `${folder}/${c.name}${label ? `.${label}` : ""}.${ext}`;
}
