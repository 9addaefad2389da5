/**
 * The `.loom-test` file format of the reference Loom, run through the public API
 * (`loom test`, docs/language.md "Test files").
 *
 *   // RUN: verify | roundtrip | format bytecode     one or more modes, each run on every case
 *                                                    (a RUN line inside a later case sets that case's modes)
 *   ...case text...
 *   // ----                                          optional: the expected printed output
 *   ...expected text...
 *   // ====                                          next case
 *
 * In a case, `// ERROR@+N: CODE "part" "part"` expects an error with that code on the line N
 * below the annotation (`@-N` above, no `@…` the annotation's own line) whose message contains
 * each quoted part (bare, or the values of a `{key="value", …}` list); `WARNING@…` the same for warnings. A case without annotations must verify
 * without errors. Modes the runner does not implement are reported as unsupported, never as
 * passed; so is a case that expects errors under `roundtrip` (a module that does not verify
 * has no round trip to check).
 */
import { Context, Source, Workspace, type Diagnostic, type Module } from "../index.js";

/** How strictly an `ERROR@` annotation is matched against a diagnostic. */
export type AnnotationMatch = "messages" | "codes";

/** One case of a `.loom` test file: the text between `// ====` separators, with its optional expected output. */
export interface LoomTestCase {
  /** 1-based ordinal in the file. */
  readonly ordinal: number;
  /** The first symbol the case defines (`@name`), else `case N`. */
  readonly name: string;
  /** 1-based line of the case's first line in the file. */
  readonly line: number;
  readonly input: string;
  /** The text after `// ----`, when the case has one. */
  readonly expected?: string;
  /** 1-based file line where `expected` starts. */
  readonly expectedLine?: number;
  /** The case's own `// RUN:` modes (RUN lines inside a case after the first); the file's when absent. */
  readonly modes?: readonly string[];
}

/** A parsed `.loom` test file: its `// RUN:` modes and its cases. */
export interface LoomTestFile {
  /** The file's modes: each `// RUN:` line's before the second case, in order (`verify`, `roundtrip`, `format bytecode`, …). */
  readonly modes: readonly string[];
  readonly cases: readonly LoomTestCase[];
}

/** Outcome of one case under one mode: `pass`, `fail`, or `unsupported` (the mode cannot run it here). */
export type CaseStatus = "pass" | "fail" | "unsupported";

/** The result of running one case under one RUN mode, with the reasons when it did not pass. */
export interface CaseOutcome {
  readonly case: LoomTestCase;
  readonly mode: string;
  readonly status: CaseStatus;
  /** Why a case failed or is unsupported, one line each. */
  readonly details: readonly string[];
}

/** The results of running every case of one test file under every RUN mode, with counts per status. */
export interface LoomTestReport {
  readonly file: string;
  readonly outcomes: readonly CaseOutcome[];
  readonly passed: number;
  readonly failed: number;
  readonly unsupported: number;
}

/** Options of running a `.loom` test file. */
export interface LoomTestOptions {
  /** `messages` (default) also requires each quoted part in the message; `codes` checks code and line only. */
  readonly match?: AnnotationMatch;
}

const RUN = /^\s*\/\/\s*RUN:\s*(.*?)\s*$/;
const CASE_SPLIT = /^\s*\/\/\s*====\s*$/;
const EXPECTED_SPLIT = /^\s*\/\/\s*----\s*$/;
// The parts are quoted strings, bare (`"lhs" "f32"`) or as the values of a `{key="value", …}` list.
const ANNOTATION = /\/\/\s*(ERROR|WARNING)(?:@([+-]\d+))?:\s*([A-Z]+\/\d+)\b(.*)$/;
const QUOTED = /"((?:[^"\\]|\\.)*)"/g;
const SUPPORTED_MODES = new Set(["verify", "roundtrip", "format bytecode"]);

/** Splits a `.loom-test` file into its modes and cases. */
export function parseLoomTestFile(text: string): LoomTestFile {
  const lines = text.split("\n");
  const modes: string[] = [];
  const cases: LoomTestCase[] = [];
  // RUN lines by the case segment they sit in (0: the file's header and first case).
  const segmentModes = new Map<number, string[]>();
  let start = 0;
  let segment = 0;
  const flush = (end: number) => {
    const body = lines.slice(start, end);
    const split = body.findIndex((l) => EXPECTED_SPLIT.test(l));
    const input = (split < 0 ? body : body.slice(0, split)).join("\n");
    if (input.trim() === "" && split < 0) return;
    const ordinal = cases.length + 1;
    const symbol = /^\s*(?:%[^=]*=\s*)?[a-z][\w.]*(?:<[^>]*>)?\b[^@\n]*@([\w.$-]+)/m.exec(stripComments(input));
    const c: LoomTestCase = {
      ordinal,
      name: symbol ? `@${symbol[1]}` : `case ${ordinal}`,
      line: start + 1,
      input,
      ...(split >= 0 ? { expected: body.slice(split + 1).join("\n"), expectedLine: start + split + 2 } : {}),
      ...(segment > 0 && segmentModes.has(segment) ? { modes: segmentModes.get(segment)! } : {}),
    };
    cases.push(c);
  };
  let at = 0;
  lines.forEach((l, i) => {
    if (CASE_SPLIT.test(l)) at++;
    const run = RUN.exec(l);
    if (!run) return;
    const mode = run[1]!.replace(/\s+/g, " ");
    if (at === 0) modes.push(mode);
    else segmentModes.set(at, [...(segmentModes.get(at) ?? []), mode]);
    lines[i] = ""; // keeps line numbers; the RUN line is no part of any case
  });
  lines.forEach((l, i) => {
    if (!CASE_SPLIT.test(l)) return;
    flush(i);
    start = i + 1;
    segment++;
  });
  flush(lines.length);
  return { modes, cases };
}

/** Runs every case of a parsed file in every mode. */
export function runLoomTest(file: string, text: string, options: LoomTestOptions = {}): LoomTestReport {
  const parsed = parseLoomTestFile(text);
  const outcomes: CaseOutcome[] = [];
  const modesOf = (c: LoomTestCase) => c.modes ?? parsed.modes;
  // Every mode in order of first appearance: the file's, then those only some cases set.
  const modes = [...new Set([...parsed.modes, ...parsed.cases.flatMap(modesOf)])];
  for (const c of parsed.cases) {
    if (modesOf(c).length === 0) outcomes.push({ case: c, mode: "(none)", status: "unsupported", details: ["neither the file nor the case has a '// RUN:' line"] });
  }
  for (const mode of modes) {
    for (const c of parsed.cases) if (modesOf(c).includes(mode)) outcomes.push(runCase(file, c, mode, options.match ?? "messages"));
  }
  const count = (s: CaseStatus) => outcomes.filter((o) => o.status === s).length;
  return { file, outcomes, passed: count("pass"), failed: count("fail"), unsupported: count("unsupported") };
}

function runCase(file: string, c: LoomTestCase, mode: string, match: AnnotationMatch): CaseOutcome {
  const outcome = (status: CaseStatus, details: string[]): CaseOutcome => ({ case: c, mode, status, details });
  if (!SUPPORTED_MODES.has(mode)) return outcome("unsupported", [`mode '${mode}' is not supported by loom test (supported: ${[...SUPPORTED_MODES].join(", ")})`]);
  const expectations = annotations(c);
  if (mode === "roundtrip" && expectations.some((e) => e.severity === "error")) {
    return outcome("unsupported", ["the case expects errors: a module that does not verify has no round trip (its diagnostics are checked under 'verify')"]);
  }
  // Leading newlines keep diagnostics on the file's own line numbers.
  const padded = "\n".repeat(c.line - 1) + c.input;
  const parsed = parse(file, padded);
  const details = compareDiagnostics(expectations, parsed.diagnostics, match);
  // Annotated cases check diagnostics in every mode; a clean case must also print back.
  if (mode === "verify" || expectations.length > 0 || details.length > 0) return outcome(details.length === 0 ? "pass" : "fail", details);
  const module = parsed.module;
  if (!module) return outcome("fail", ["the case did not parse"]);
  const printed = module.print();
  if (mode === "roundtrip") {
    const want = c.expected ?? c.input;
    const diff = firstDifference(normalizeForComparison(want), normalizeForComparison(printed));
    return diff ? outcome("fail", [`printed output differs from the ${c.expected !== undefined ? "expected output" : "input"}: ${diff}`]) : outcome("pass", []);
  }
  // format bytecode: write, read back, and the module must print the same.
  const back = parse(file, module.toBytecode(), true);
  if (!back.module) return outcome("fail", ["the bytecode did not read back", ...back.diagnostics.map(describe)]);
  const again = back.module.print();
  const diff = firstDifference(normalizeForComparison(printed), normalizeForComparison(again));
  if (diff) return outcome("fail", [`the module read back from bytecode prints differently: ${diff}`]);
  if (c.expected !== undefined) {
    const d = firstDifference(normalizeForComparison(c.expected), normalizeForComparison(again));
    if (d) return outcome("fail", [`printed output differs from the expected output: ${d}`]);
  }
  return outcome("pass", []);
}

interface Expectation {
  readonly severity: "error" | "warning";
  readonly line: number;
  readonly code: string;
  readonly parts: readonly string[];
  readonly annotationLine: number;
}

function annotations(c: LoomTestCase): Expectation[] {
  const out: Expectation[] = [];
  c.input.split("\n").forEach((l, i) => {
    const m = ANNOTATION.exec(l);
    if (!m) return;
    const line = c.line + i;
    const parts = [...(m[4] ?? "").matchAll(QUOTED)].map((q) => JSON.parse(`"${q[1]!}"`) as string);
    out.push({ severity: m[1] === "ERROR" ? "error" : "warning", line: line + Number(m[2] ?? 0), code: m[3]!, parts, annotationLine: line });
  });
  return out;
}

/** One line per expectation not met and per error nobody expected; empty when they agree. */
function compareDiagnostics(expected: readonly Expectation[], actual: readonly Diagnostic[], match: AnnotationMatch): string[] {
  const pool = actual.filter((d) => d.severity === "error" || d.severity === "warning");
  const used = new Set<Diagnostic>();
  const details: string[] = [];
  for (const e of expected) {
    const fits = (d: Diagnostic, strict: boolean) =>
      !used.has(d) && d.severity === e.severity && d.code === e.code && d.location?.line === e.line && (!strict || e.parts.every((p) => d.message.includes(p)));
    const found = pool.find((d) => fits(d, match === "messages"));
    if (found) {
      used.add(found);
      continue;
    }
    const near = pool.find((d) => fits(d, false));
    const what = `${e.severity} ${e.code} at line ${e.line}${e.parts.length > 0 ? ` containing ${e.parts.map((p) => JSON.stringify(p)).join(" ")}` : ""}`;
    details.push(near ? `expected ${what}; the message was: ${near.message}` : `expected ${what}; not reported`);
    if (near) used.add(near);
  }
  for (const d of pool) if (!used.has(d) && d.severity === "error") details.push(`unexpected ${describe(d)}`);
  return details;
}

function describe(d: Diagnostic): string {
  return `${d.severity} ${d.code}${d.location ? ` at line ${d.location.line}:${d.location.column}` : ""}: ${d.message}`;
}

function parse(file: string, input: string | Uint8Array, bytecode = false): { module?: Module; diagnostics: readonly Diagnostic[] } {
  const workspace = new Workspace(Context.create());
  const source = bytecode ? Source.fromBytes(file, input as Uint8Array) : Source.fromText(file, input as string);
  const result = workspace.parseModule(source, { maxErrors: 1000 });
  return result.ok ? { module: result.value!, diagnostics: result.diagnostics } : { diagnostics: result.diagnostics };
}

/**
 * Printed text compared without comment lines, trailing spaces or repeated blank lines: the
 * reference printer drops comments, while loom keeps them.
 */
export function normalizeForComparison(text: string): string {
  const lines = text
    .split("\n")
    .filter((l) => !l.trim().startsWith("//"))
    .map((l) => l.replace(/\s+$/, ""));
  const out: string[] = [];
  for (const l of lines) if (!(l === "" && (out.length === 0 || out[out.length - 1] === ""))) out.push(l);
  while (out.length > 0 && out[out.length - 1] === "") out.pop();
  return out.join("\n");
}

function stripComments(text: string): string {
  return text
    .split("\n")
    .map((l) => (l.trim().startsWith("//") ? "" : l))
    .join("\n");
}

function firstDifference(want: string, got: string): string | undefined {
  if (want === got) return undefined;
  const a = want.split("\n"), b = got.split("\n");
  for (let i = 0; i < Math.max(a.length, b.length); i++) {
    if (a[i] !== b[i]) return `line ${i + 1}: expected ${JSON.stringify(a[i] ?? "(end)")}, printed ${JSON.stringify(b[i] ?? "(end)")}`;
  }
  return "texts differ";
}
