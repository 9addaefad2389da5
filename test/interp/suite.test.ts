/**
 * The shared kernel suite under examples/kernels (written elsewhere, when present): every
 * kernel must parse, compile against the reference environment and prepare for the
 * interpreter — i.e. use no op the interpreter does not execute. Results are checked by the
 * suite's own runner, which knows each kernel's arguments.
 */
import { test } from "node:test";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { fromRoot } from "../util/paths.js";
import { loadKernelText } from "./harness.js";

const dir = fromRoot("examples", "kernels");
const files = existsSync(dir) ? readdirSync(dir).filter((f) => f.endsWith(".loom")).sort() : [];

test("examples/kernels: every kernel prepares for the interpreter", { skip: files.length === 0 ? "examples/kernels has no .loom files yet" : false }, () => {
  for (const f of files) loadKernelText(f, readFileSync(`${dir}/${f}`, "utf8"));
});
