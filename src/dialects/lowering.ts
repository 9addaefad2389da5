/**
 * The target-independent lowering contract (in the spirit of Cranelift's lowering rules): a
 * back end states each op's fate in one table keyed by `OpName`, and this driver walks a
 * prepared kernel's regions through it. The back end's context says what a lowered value is
 * (an id, a virtual register, an expression); the driver
 * only knows that a rule either lowers an op or the op is reported and poisoned, so errors
 * never stop lowering and every unsupported op is reported at its own span.
 */
import type { Op, Region, Value } from "../ir/core.js";
import { isOp, type OpName } from "./registry.js";

/** An op a back end does not lower, with the reason (reported as TARGET/001 at the op). */
export interface Unsupported {
  readonly unsupported: string;
}

export const unsupported = (reason: string): Unsupported => ({ unsupported: reason });

/** One entry per declared op: tsc makes a back end decide every new op's fate. */
export type LoweringTable<R> = { readonly [N in OpName]: R | Unsupported };

const TOP_LEVEL = unsupported("a top-level op, never inside a kernel body");
const TERMINATOR = unsupported("a region terminator, read by the rule of the op that owns the region");
const RESOLVED = unsupported("resolved before lowering (inlined, specialized or split into the launch config)");
const HOST = unsupported("a check-harness op, run on the host by `loom check`, never compiled");

/** The ops no prepared kernel body holds or whose region's owner lowers them: every table spreads these. */
export const NEVER_LOWERED = {
  "kernel.def": TOP_LEVEL,
  "kernel.decl": TOP_LEVEL,
  "func.def": TOP_LEVEL,
  "func.decl": TOP_LEVEL,
  "template.decl": TOP_LEVEL,
  "template.def": TOP_LEVEL,
  "config.decl": TOP_LEVEL,
  "config.def": TOP_LEVEL,
  "target.decl": TOP_LEVEL,
  "module.import": TOP_LEVEL,
  alias: TOP_LEVEL,
  "kernel.return": TERMINATOR,
  "scf.yield": TERMINATOR,
  "scf.condition": TERMINATOR,
  "func.return": TERMINATOR,
  "template.return": TERMINATOR,
  "kernel.launch.config": RESOLVED,
  "func.call": RESOLVED,
  "template.apply": RESOLVED,
  "template.call": RESOLVED,
  "config.get": RESOLVED,
  "target.subgroup.size": RESOLVED,
  "check.case": TOP_LEVEL,
  "check.benchmark": TOP_LEVEL,
  "kernel.entry.decl": TOP_LEVEL,
  "check.return": HOST,
  "check.param.seed": HOST,
  "check.param.choice": HOST,
  "check.param.range": HOST,
  "check.literal": HOST,
  "check.generate.fill": HOST,
  "check.generate.iota": HOST,
  "check.generate.random.uniform": HOST,
  "check.tensor.view": HOST,
  "kernel.launch": HOST,
  "kernel.dispatch": HOST,
  "check.oracle.call": HOST,
  "check.expect.equal": HOST,
  "check.expect.bitwise": HOST,
  "check.expect.close": HOST,
  "check.expect.shape": HOST,
  "check.requires": HOST,
  "check.skip_if": HOST,
  "check.file.read.npy": HOST,
  "check.file.write.npy": HOST,
  "check.expect": HOST,
  "check.expect.event": HOST,
} as const satisfies Partial<Record<OpName, Unsupported>>;

/** What the driver needs from a back end's per-kernel context; `L` is its lowered value. */
export interface LoweringContext<L> {
  /** Reports TARGET/001 at `op`. */
  unsupported(op: Op, what: string, help?: string): void;
  /** False (after reporting) when the profile cannot express one of the op's types. */
  checkTypes(op: Op): boolean;
  /** Marks the op's results invalid, so their users lower without cascading reports. */
  poison(op: Op): void;
  set(value: Value, lowered: L): void;
  /** Called before an op's rule runs (e.g. to emit a debug line for it). */
  beforeRule?(op: Op): void;
}

/** Lowers a region's ops through a table, returning its terminator for the owner's rule. */
export type RegionLowering<C, L> = (cx: C, region: Region, args: readonly L[]) => Op;

/**
 * The region walker of one back end. `invalid` is its poisoned value (bound to region
 * arguments the owner did not supply); `backend` names it in messages.
 */
export function regionLowering<C extends LoweringContext<L>, L>(
  backend: string,
  // Partial for tables built from name lists (their coverage is a test); a missing entry is TARGET/001.
  table: Partial<LoweringTable<(cx: C, op: Op) => void>>,
  invalid: L,
): RegionLowering<C, L> {
  // A Map: looking an op's name up in a large object literal is slower on this hot path.
  const rules = new Map<string, ((cx: C, op: Op) => void) | Unsupported>(Object.entries(table).filter((e): e is [string, ((cx: C, op: Op) => void) | Unsupported] => e[1] !== undefined));
  const lowerOp = (cx: C, op: Op): void => {
    const entry = rules.get(op.name);
    if (typeof entry !== "function") {
      cx.unsupported(op, `'${op.name}'`, entry?.unsupported ?? `the ${backend} back end has no lowering for this op`);
      return cx.poison(op);
    }
    if (!cx.checkTypes(op)) return cx.poison(op);
    cx.beforeRule?.(op);
    entry(cx, op);
  };
  return (cx, region, args) => {
    let i = 0;
    for (const a of region.args) cx.set(a, args[i++] ?? invalid);
    const last = region.ops.at(-1);
    if (!last || !(isOp(last, "scf.yield") || isOp(last, "scf.condition") || isOp(last, "kernel.return"))) {
      throw new Error(`${backend} lowering: a region does not end in a terminator`);
    }
    for (const op of region.ops) if (op !== last) lowerOp(cx, op);
    return last;
  };
}
