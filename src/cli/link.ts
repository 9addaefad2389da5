/** `loom link`: resolve a root module's declarations from libraries into one module file. */
import { linkModule } from "../index.js";
import { buildLinkIndex, list, loadModule, output, report, requireOne, UsageError, type Command } from "./common.js";
import { OutputPlan } from "./io.js";

export const linkCommand: Command = {
  summary: "link a root module's declarations from libraries into one module",
  help: `usage: loom link ROOT --library LIB... [--kernel NAME]... -o OUT

Pulls every definition reachable from the root's kernels out of the libraries and writes
the linked module: .loombc bytecode when OUT ends in .loombc, canonical .loom text otherwise.
  --library LIB    a library module (.loom or .loombc; repeatable, at least one)
  --kernel NAME    a root kernel (repeatable; default: every kernel.def and kernel.decl)
  -o, --output OUT the linked module ('-' for stdout, as text)`,
  options: { library: { type: "string", multiple: true }, kernel: { type: "string", multiple: true }, output: { type: "string", short: "o" } },
  async run(values, positionals) {
    const file = requireOne(positionals, "ROOT");
    const libraries = list(values.library);
    if (libraries.length === 0) throw new UsageError("at least one --library LIB is required");
    if (typeof values.output !== "string") throw new UsageError("-o OUT is required");
    const { module } = await loadModule(file);
    if (!module) return 1;
    const index = await buildLinkIndex(libraries);
    if (!index) return 1;
    const roots = values.kernel as string[] | undefined;
    const result = linkModule(module, index, roots ? { roots } : {});
    report(result, output.json, file);
    if (!result.ok) return 1;
    const plan = new OutputPlan();
    plan.add("-o", values.output, values.output.endsWith(".loombc") ? module.toBytecode() : module.print());
    plan.commit();
    output.result = { outputs: [values.output] };
    return 0;
  },
};
