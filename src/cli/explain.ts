/** `loom explain CODE`: what a diagnostic code means (docs/diagnostics.md is `loom explain --markdown`). */
import { output, say, UsageError, type Command } from "./common.js";
import { EXPLANATIONS } from "./explanations.js";
import { closestName } from "../index.js";

export const explainCommand: Command = {
  summary: "explain a diagnostic code (e.g. loom explain TARGET/001)",
  help: `usage: loom explain CODE...
       loom explain --all | --markdown

Prints what each diagnostic code means and what to do about it.
  --all        every code
  --markdown   every code as the Markdown table of docs/diagnostics.md`,
  options: { all: { type: "boolean" }, markdown: { type: "boolean" } },
  async run(values, codes) {
    if (values.markdown) {
      say(markdown());
      output.result = { codes: EXPLANATIONS };
      return 0;
    }
    const wanted = values.all ? Object.keys(EXPLANATIONS) : codes.map((c) => c.toUpperCase().replace(/^([A-Z]+)-?(\d+)$/, "$1/$2"));
    if (wanted.length === 0) throw new UsageError("expected a CODE (e.g. TARGET/001), or --all");
    const found: Record<string, string> = {};
    for (const code of wanted) {
      const text = EXPLANATIONS[code];
      if (text === undefined) {
        const near = closestName(code, Object.keys(EXPLANATIONS));
        throw new UsageError(`unknown diagnostic code '${code}'${near ? `; did you mean '${near}'?` : ""}`);
      }
      found[code] = text;
      say(`${code}: ${text}`);
    }
    output.result = { codes: found };
    return 0;
  },
};

function markdown(): string {
  const groups = new Map<string, string[]>();
  for (const [code, text] of Object.entries(EXPLANATIONS).sort(([a], [b]) => a.localeCompare(b))) {
    const [group = code] = code.split("/");
    if (!groups.has(group)) groups.set(group, []);
    groups.get(group)!.push(`| \`${code}\` | ${text.replace(/\|/g, "\\|")} |`);
  }
  const out = [
    "# Diagnostic codes",
    "",
    "Every diagnostic loom reports carries a code `GROUP/NNN`. This page is generated:",
    "`loom explain --markdown > docs/diagnostics.md` (test/cli/explain.test.ts checks it is current);",
    "`loom explain CODE` prints one entry.",
    "",
  ];
  for (const [group, rows] of groups) out.push(`## ${group}`, "", "| code | meaning |", "| --- | --- |", ...rows, "");
  return out.join("\n").trimEnd();
}
