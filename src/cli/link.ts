/** `loom link`: resolve a root module's declarations from libraries into one module file. */
import { writeFile } from "node:fs/promises";
import { linkModule } from "../index.js";
import { buildLinkIndex, loadModule, report, requireOne, UsageError, type Command } from "./common.js";

export const linkCommand: Command = {
  summary: "link a root module's declarations from libraries into one module",
  help: `usage: loom link ROOT --library LIB... [--kernel NAME]... -o OUT [--json]

Pulls every definition reachable from the root's kernels out of the libraries and writes
the linked module: .loombc bytecode when OUT ends in .loombc, canonical .loom text otherwise.
  --library LIB    a library module (.loom or .loombc; repeatable, at least one)
  --kernel NAME    a root kernel (repeatable; default: every kernel.def and kernel.decl)
  -o, --output OUT the linked module
  --json           diagnostics as JSON on stdout`,
  options: { library: { type: "string", multiple: true }, kernel: { type: "string", multiple: true }, output: { type: "string", short: "o" }, json: { type: "boolean" } },
  async run(values, positionals) {
    const file = requireOne(positionals, "ROOT");
    const libraries = (values.library as string[] | undefined) ?? [];
    if (libraries.length === 0) throw new UsageError("at least one --library LIB is required");
    if (typeof values.output !== "string") throw new UsageError("-o OUT is required");
    const json = values.json === true;
    const { module } = await loadModule(file, json);
    if (!module) return 1;
    const index = await buildLinkIndex(libraries, json);
    if (!index) return 1;
    const roots = values.kernel as string[] | undefined;
    const result = linkModule(module, index, roots ? { roots } : {});
    if (!result.ok || json) report(result, json, file);
    if (!result.ok) return 1;
    await writeFile(values.output, values.output.endsWith(".loombc") ? module.toBytecode() : module.print());
    return 0;
  },
};
