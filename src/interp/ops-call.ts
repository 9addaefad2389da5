/**
 * `func.call` and `template.call` in kernels that were not compiled (prepared kernels have
 * every call inlined). The callee body runs in a fresh frame of its own slots; calls are
 * bounded in depth so that recursion (rejected by the verifier) cannot overflow the stack.
 * `template.apply` needs provider selection and is left to the compiler (`unsupported`).
 */
import type { Op } from "../ir/core.js";
import { prop } from "./types.js";
import { opError } from "./errors.js";
import { raise, type CompileUnit, type CompiledFunction, type FunctionCompiler } from "./compiler.js";
import { plain, synced, type Frame, type Gen, type Step, type Val } from "./state.js";
import { isOp } from "../dialects/registry.js";

export const MAX_CALL_DEPTH = 64;

/** The defining op a call names, when the module defines it. */
export function calleeOf(unit: CompileUnit, call: Op): Op | undefined {
  const symbol = prop(call, "symbol");
  const def = symbol === undefined ? undefined : unit.symbols.get(symbol);
  return def && (isOp(def, "func.def") || isOp(def, "template.def")) && def.regions[0] ? def : undefined;
}

export function compileCall(c: FunctionCompiler, op: Op): Step | undefined {
  if (isOp(op, "template.apply")) throw opError("unsupported", op, "template.apply needs provider selection: interpret the compiled (prepared) kernel instead");
  if (!isOp(op, "func.call") && !isOp(op, "template.call")) return undefined;
  const def = calleeOf(c.unit, op);
  if (!def) {
    const hint = c.unit.options.module ? "is not defined in this module" : "cannot be resolved: pass options.module";
    throw opError("unsupported", op, `callee '@${String(op.props.symbol)}' ${hint}`);
  }
  const fn = c.unit.compileFunction(def, def.regions[0]!);
  const args = op.operands.map((v) => c.slot(v));
  const outs = c.results(op);
  const enter = (f: Frame): Frame => {
    if (f.depth >= MAX_CALL_DEPTH) raise(f, op, "unsupported", `call depth exceeds ${MAX_CALL_DEPTH} (recursion?)`);
    const callee: Frame = { slots: new Array<Val>(fn.slotCount), inv: f.inv, depth: f.depth + 1 };
    const body = bodyOf(fn);
    body.argSlots.forEach((s, i) => { callee.slots[s] = f.slots[args[i]!]!; });
    return callee;
  };
  const leave = (f: Frame, values: readonly Val[]) => outs.forEach((s, i) => { f.slots[s] = values[i]!; });
  if (!c.unit.syncs(def.regions[0]!)) return plain((f) => leave(f, bodyOf(fn).run(enter(f))));
  return synced(function* (f): Gen<void> {
    leave(f, yield* bodyOf(fn).gen(enter(f)));
  });
}

function bodyOf(fn: CompiledFunction) {
  if (!fn.body) throw new Error("internal: a callee ran before it finished compiling");
  return fn.body;
}
