/**
 * The module's call graph: which bodies each call may run (`func.call` → its `func.def`,
 * `template.call` → its `template.def`, `template.apply` → every provider of the family),
 * and a callee-before-caller order for bottom-up summaries. Built with an explicit stack,
 * so arbitrarily deep call chains cannot overflow the JS stack.
 */
import type { Module, Op, Region } from "../../ir/core.js";
import { isCallOp } from "./ops.js";
import type { SymbolTable } from "./symbols.js";
import { isOp } from "../../dialects/registry.js";

export interface CallEdge {
  readonly call: Op;
  readonly callee: Op;
}

/** The bodies a call may run. */
export function calleeBodies(symbols: SymbolTable, call: Op): Op[] {
  if (isOp(call, "template.apply")) {
    const family = call.props.family;
    return typeof family === "string" ? [...symbols.providers(family)] : [];
  }
  const s = call.symbol;
  const entry = s === undefined ? undefined : symbols.get(s);
  if (!entry) return [];
  if (isOp(call, "func.call") && isOp(entry.op, "func.def")) return [entry.op];
  if (isOp(call, "template.call") && isOp(entry.op, "template.def")) return [entry.op];
  return [];
}

/** Calls made inside `fn`'s regions, in program order. */
export function callsIn(fn: Op): Op[] {
  const out: Op[] = [];
  const stack: Op[] = [];
  const pushRegions = (regions: readonly Region[]) => {
    for (let k = regions.length - 1; k >= 0; k--) {
      const ops = regions[k]!.ops;
      for (let i = ops.length - 1; i >= 0; i--) stack.push(ops[i]!);
    }
  };
  pushRegions(fn.regions);
  while (stack.length > 0) {
    const op = stack.pop()!;
    if (isCallOp(op.name)) out.push(op);
    if (op.regions.length > 0) pushRegions(op.regions);
  }
  return out;
}

const NO_EDGES: readonly CallEdge[] = [];

export class CallGraph {
  readonly #edges = new Map<Op, readonly CallEdge[]>();
  /** Every body-owning top-level op, callees before callers (cycles broken at the back edge). */
  readonly postOrder: Op[] = [];
  /** Back edges: calls that close a cycle, one per cycle entry. */
  readonly backEdges: CallEdge[] = [];

  constructor(module: Module, symbols: SymbolTable) {
    const fns = module.ops.filter((op) => isOp(op, "func.def") || isOp(op, "template.def") || isOp(op, "kernel.def"));
    for (const fn of fns) {
      const calls = callsIn(fn);
      // Most bodies call nothing: they share the empty edge list.
      this.#edges.set(fn, calls.length === 0 ? NO_EDGES : calls.flatMap((call) => calleeBodies(symbols, call).map((callee) => ({ call, callee }))));
    }
    const state = new Map<Op, "active" | "done">();
    for (const root of fns) {
      if (state.has(root)) continue;
      const stack: { fn: Op; next: number }[] = [{ fn: root, next: 0 }];
      state.set(root, "active");
      while (stack.length > 0) {
        const frame = stack[stack.length - 1]!;
        const edge = this.edges(frame.fn)[frame.next++];
        if (!edge) {
          state.set(frame.fn, "done");
          this.postOrder.push(frame.fn);
          stack.pop();
          continue;
        }
        const st = state.get(edge.callee);
        if (st === "active") this.backEdges.push(edge);
        else if (st === undefined) {
          state.set(edge.callee, "active");
          stack.push({ fn: edge.callee, next: 0 });
        }
      }
    }
  }

  edges(fn: Op): readonly CallEdge[] {
    return this.#edges.get(fn) ?? NO_EDGES;
  }
}
