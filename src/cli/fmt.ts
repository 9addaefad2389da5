/** `loom fmt`: print canonical text (language.md §9), rewrite files, or check them. */
import { writeFile } from "node:fs/promises";
import { loadModule, UsageError, type Command } from "./common.js";

export const fmtCommand: Command = {
  summary: "print files in canonical format (--check, --write)",
  help: `usage: loom fmt [--check | --write] [--json] FILE...

Prints each file in the canonical Loom format; comments are preserved.
  --check   print nothing; exit 1 and list files that are not canonical
  --write   rewrite files in place
  --json    diagnostics as JSON lines on stdout`,
  options: { check: { type: "boolean" }, write: { type: "boolean", short: "w" }, json: { type: "boolean" } },
  async run(values, files) {
    if (files.length === 0) throw new UsageError("expected at least one FILE");
    if (values.check && values.write) throw new UsageError("--check and --write exclude each other");
    if (!values.check && !values.write && files.length > 1) throw new UsageError("printing several files needs --write or --check");
    let status = 0;
    for (const file of files) {
      const { module } = await loadModule(file, values.json === true);
      if (!module) {
        status = 1;
        continue;
      }
      const text = module.print();
      if (values.check) {
        const { readFile } = await import("node:fs/promises");
        if ((await readFile(file, "utf8")) !== text) {
          console.log(`${file}: not canonical`);
          status = 1;
        }
      } else if (values.write) await writeFile(file, text);
      else process.stdout.write(text);
    }
    return status;
  },
};
