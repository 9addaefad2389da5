/** `loom fmt`: print canonical text, rewrite files atomically, or check them. */
import { loadModule, output, readSource, say, UsageError, type Command } from "./common.js";
import { OutputPlan } from "./io.js";

export const fmtCommand: Command = {
  summary: "print files in canonical format (--check, --write)",
  help: `usage: loom fmt [--check | --write] FILE...

Prints each file in the canonical Loom format; comments stay where they are.
'-' reads stdin (printing only).
  --check      print nothing but the files that are not canonical; exit 1 if any
  -w, --write  rewrite the files in place (through a temporary file and a rename; .loom text only)`,
  options: { check: { type: "boolean" }, write: { type: "boolean", short: "w" } },
  async run(values, files) {
    if (files.length === 0) throw new UsageError("expected at least one FILE");
    if (values.check && values.write) throw new UsageError("--check and --write exclude each other");
    if (!values.check && !values.write && files.length > 1) throw new UsageError("printing several files needs --write or --check");
    if (values.write && files.includes("-")) throw new UsageError("--write cannot rewrite stdin ('-')");
    let status = 0;
    const notCanonical: string[] = [];
    const rewritten: string[] = [];
    let printed: string | undefined;
    for (const file of files) {
      const source = readSource(file);
      if (values.write && source.kind === "bytecode") {
        throw new UsageError(`'${file}' is .loombc bytecode; --write rewrites .loom text only (print it as text with 'loom fmt ${file} > FILE.loom')`);
      }
      const { module } = await loadModule(source);
      if (!module) {
        status = 1;
        continue;
      }
      const text = module.print();
      const canonical = source.kind === "text" && source.text === text;
      if (values.check) {
        if (!canonical) {
          notCanonical.push(file);
          say(`${file}: not canonical`);
          status = 1;
        }
      } else if (values.write) {
        if (!canonical) {
          const plan = new OutputPlan();
          plan.addInPlace(file, text);
          plan.commit();
          rewritten.push(file);
        }
      } else {
        printed = text;
        if (!output.json) process.stdout.write(text);
      }
    }
    output.result = values.check ? { checked: files, notCanonical } : values.write ? { rewritten } : { text: printed };
    return status;
  },
};
