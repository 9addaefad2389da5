/**
 * `loom test`: runs `.loom-test` files (the reference Loom's test-file format) and prints one
 * line per case and mode, then a summary. The runner is `runLoomTest` in loomc/harness.
 */
import { readFile } from "node:fs/promises";
import { UsageError, output, type Command } from "./common.js";
import { runLoomTest, type AnnotationMatch, type LoomTestReport } from "../harness/index.js";

export const testCommand: Command = {
  summary: "run .loom-test files (verify, roundtrip, format bytecode cases)",
  help: `usage: loom test [--match messages|codes] [--quiet] [--json] FILE.loom-test...

Runs each case of each file in each of its '// RUN:' modes: verify (diagnostics against the
'// ERROR@+N: CODE "part"' annotations), roundtrip (printed text against the input or the
text after '// ----'), format bytecode (write, read back, print the same). Other modes are
reported as unsupported. Exit 1 if any case fails.
  --match codes  match annotations by code and line only (not the quoted message parts)
  --quiet        print failing and unsupported cases only, and the summary
  --json         one loom-cli/1 document on stdout; result: { files: [report], passed, failed, unsupported }`,
  options: { match: { type: "string" }, quiet: { type: "boolean", short: "q" }, json: { type: "boolean" } },
  async run(values, files) {
    if (files.length === 0) throw new UsageError("expected at least one FILE");
    const match = (values.match ?? "messages") as string;
    if (match !== "messages" && match !== "codes") throw new UsageError(`--match takes 'messages' or 'codes', got '${match}'`);
    const reports: LoomTestReport[] = [];
    for (const file of files) {
      let text: string;
      try {
        text = await readFile(file, "utf8");
      } catch (e) {
        throw new UsageError(`cannot read '${file}': ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}`);
      }
      const report = runLoomTest(file, text, { match: match as AnnotationMatch });
      reports.push(report);
      if (values.json) continue;
      for (const o of report.outcomes) {
        if (values.quiet && o.status === "pass") continue;
        console.log(`${o.status.toUpperCase().padEnd(11)} ${file}:${o.case.line} ${o.case.name} [${o.mode}]`);
        for (const d of o.details) console.log(`    ${d}`);
      }
    }
    const sum = (k: "passed" | "failed" | "unsupported") => reports.reduce((n, r) => n + r[k], 0);
    // --json: the per-case results go inside the CLI's one document (main.ts prints it), not beside it.
    if (values.json) {
      const files = reports.map((r) => ({ ...r, outcomes: r.outcomes.map((o) => ({ case: o.case.name, line: o.case.line, mode: o.mode, status: o.status, details: o.details })) }));
      output.result = { files, passed: sum("passed"), failed: sum("failed"), unsupported: sum("unsupported") };
    } else console.log(`loom test: ${sum("passed")} passed, ${sum("failed")} failed, ${sum("unsupported")} unsupported (${files.length} file${files.length === 1 ? "" : "s"})`);
    return sum("failed") > 0 ? 1 : 0;
  },
};
