/** `loom verify`: parse and verify files, printing diagnostics. */
import { loadModule, output, say, UsageError, type Command } from "./common.js";

export const verifyCommand: Command = {
  summary: "parse and verify files; print diagnostics",
  help: `usage: loom verify FILE...

Parses and verifies each file ('-' reads stdin). Exit 1 if any file has errors.`,
  options: {},
  async run(_values, files) {
    if (files.length === 0) throw new UsageError("expected at least one FILE");
    let status = 0;
    const results: { file: string; ok: boolean }[] = [];
    for (const file of files) {
      const { module } = await loadModule(file);
      results.push({ file, ok: module !== undefined });
      if (!module) status = 1;
      else say(`${file}: ok`);
    }
    output.result = { files: results };
    return status;
  },
};
