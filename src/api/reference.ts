/**
 * The reference interpreter on a compiled module (docs/interpreter.md): the CPU oracle a
 * device result is compared with, reached without touching the module's internals.
 */
import { prepareInterpreter, type InterpretedKernel } from "../interp/index.js";
import { LoomError } from "../core/errors.js";
import { Module } from "./module.js";

/**
 * The interpreter for `symbol` (with or without '@') exactly as `compileModule` prepared it
 * for its profile (specialized, inlined, folded): run dispatches of it with `run(...)`.
 */
export function prepareReferenceKernel(module: Module, symbol: string): InterpretedKernel {
  if (!(module instanceof Module)) throw new LoomError("invalid-argument", "prepareReferenceKernel: 'module' must be a Module");
  if (typeof symbol !== "string") throw new LoomError("invalid-argument", "prepareReferenceKernel: 'symbol' must be a string");
  const state = module.state;
  if (state.phase !== "compiled") throw new LoomError("failed-precondition", "prepareReferenceKernel: the module has not been compiled successfully (call compileModule first)");
  const name = symbol.replace(/^@/, "");
  const kernel = state.prepared.kernels.find((k) => k.symbol === name);
  if (!kernel) throw new LoomError("not-found", `prepareReferenceKernel: '@${name}' was not compiled in this module`);
  return prepareInterpreter(kernel);
}
