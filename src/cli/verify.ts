/** `loom verify`: parse and verify files, printing diagnostics. */
import { loadModule, UsageError, type Command } from "./common.js";

export const verifyCommand: Command = {
  summary: "parse and verify files; print diagnostics",
  help: `usage: loom verify [--json] FILE...

Parses and verifies each file. Exit 1 if any file has errors.
  --json    diagnostics as one JSON object per file on stdout`,
  options: { json: { type: "boolean" } },
  async run(values, files) {
    if (files.length === 0) throw new UsageError("expected at least one FILE");
    let status = 0;
    for (const file of files) {
      const { module } = await loadModule(file, values.json === true);
      if (!module) status = 1;
      else if (!values.json) console.log(`${file}: ok`);
    }
    return status;
  },
};
