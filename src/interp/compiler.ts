/**
 * The prepare step: turns a function body (a kernel's device body, or a callee) into
 * closures over slot indices. Each op becomes a `Step`; a region becomes a `CompiledRegion`
 * that runs its ops and returns its terminator's operands. Ops and regions that contain a
 * barrier or collective compile to generators (the scheduler resumes them); everything else
 * is plain code, so synchronisation costs nothing where it is absent.
 */
import { resultOf } from "./types.js";
import type { Module, Op, Region, Value } from "../ir/core.js";
import { walkRegion } from "../ir/walk.js";
import { Undefined } from "../dialects/index/semantics.js";
import { InterpretError, opError, type InterpretFailure } from "./errors.js";
import { invocationId, plain, type Frame, type Gen, type PlainStep, type Step, type Val } from "./state.js";
import { isOp, OP_INFOS, opInfo } from "../dialects/registry.js";
import type { Evaluate, EvalValue } from "../dialects/decl.js";
import { compileArith } from "./ops-arith.js";
import { compileMemory } from "./ops-memory.js";
import { compileControl } from "./ops-control.js";
import { compileKernelOp, SYNC_OPS } from "./ops-kernel.js";
import { compileCall, calleeOf } from "./ops-call.js";

/** Config values for `config.get` when running an unprepared module. */
export type ConfigBinding = bigint | number | boolean;

/** What the prepare step needs besides the body. */
export interface UnitOptions {
  /** Module for resolving `func.call` / `template.call` (unprepared kernels only). */
  readonly module?: Module;
  readonly config?: ReadonlyMap<string, ConfigBinding>;
}

export interface CompiledRegion {
  /** Whether running it may stop at a barrier or collective (then only `gen` may be used). */
  readonly sync: boolean;
  /** Slots of the region's arguments; the caller writes them before running it. */
  readonly argSlots: readonly number[];
  /** Runs the region, returning the terminator's operands. Only when `!sync`. */
  readonly run: (f: Frame) => readonly Val[];
  readonly gen: (f: Frame) => Gen<readonly Val[]>;
}

/** A compiled function body; mutable so that a recursive call can refer to it while it compiles. */
export interface CompiledFunction {
  slotCount: number;
  body: CompiledRegion | undefined;
}

/** Region terminators of bodies the interpreter runs (the launch-config terminator never is). */
const TERMINATORS: ReadonlySet<string> = new Set(OP_INFOS.filter((i) => i.terminator && i.placement !== "C").map((i) => i.name));

/** State shared by every function compiled for one dispatch. */
export class CompileUnit {
  readonly callees = new Map<Op, CompiledFunction>();
  readonly #syncRegions = new Map<Region, boolean>();
  readonly symbols: ReadonlyMap<string, Op>;
  /** `config.def` ops by key (a key's `config.decl` may come first in the symbol table). */
  readonly configDefs: ReadonlyMap<string, Op>;
  constructor(readonly options: UnitOptions) {
    this.symbols = options.module?.symbolTable() ?? new Map();
    this.configDefs = new Map((options.module?.ops ?? []).filter((o) => isOp(o, "config.def")).map((o) => [o.symbol!, o]));
  }

  /** Compiles a function body; cached per defining op. */
  compileFunction(def: Op, body: Region): CompiledFunction {
    let fn = this.callees.get(def);
    if (fn) return fn;
    fn = { slotCount: 0, body: undefined };
    this.callees.set(def, fn);
    const c = new FunctionCompiler(this);
    fn.body = c.region(body);
    fn.slotCount = c.slotCount;
    return fn;
  }

  /** Whether a region (transitively through calls) contains a barrier or collective. */
  syncs(region: Region, visiting = new Set<Region>()): boolean {
    const known = this.#syncRegions.get(region);
    if (known !== undefined) return known;
    if (visiting.has(region)) return false; // recursion: the cycle adds nothing new
    visiting.add(region);
    let found = false;
    walkRegion(region, (op) => {
      if (found) return "skip";
      if (SYNC_OPS.has(op.name)) found = true;
      else if (isOp(op, "func.call") || isOp(op, "template.call")) {
        const callee = calleeOf(this, op);
        if (callee && this.syncs(callee.regions[0]!, visiting)) found = true;
      }
      return undefined;
    });
    visiting.delete(region);
    this.#syncRegions.set(region, found);
    return found;
  }
}

export class FunctionCompiler {
  readonly #slots = new Map<Value, number>();
  constructor(readonly unit: CompileUnit) {}

  get slotCount(): number {
    return this.#slots.size;
  }

  /** Assigns a slot to a newly defined value (an op result or a region argument). */
  define(v: Value): number {
    let s = this.#slots.get(v);
    if (s === undefined) {
      s = this.#slots.size;
      this.#slots.set(v, s);
    }
    return s;
  }

  /** The slot of a value that is already defined. */
  slot(v: Value): number {
    const s = this.#slots.get(v);
    if (s === undefined) throw new InterpretError("unsupported", undefined, v.span, undefined, `value '%${v.name}' is used before its definition (the module is not verified)`);
    return s;
  }

  /** Defines every result of `op`, in order. */
  results(op: Op): number[] {
    return op.results.map((r) => this.define(r));
  }

  region(r: Region): CompiledRegion {
    const argSlots = r.args.map((a) => this.define(a));
    const last = r.ops[r.ops.length - 1];
    const term = last && TERMINATORS.has(last.name) ? last : undefined;
    const body = term ? r.ops.slice(0, -1) : r.ops;
    const steps = body.map((op) => this.op(op));
    const termSlots = term ? term.operands.map((v) => this.slot(v)) : [];
    const count = Math.max(1, r.ops.length);
    const values = (f: Frame): Val[] => termSlots.map((i) => f.slots[i]!);
    const sync = steps.some((s) => s.sync);
    if (!sync) {
      const runs = steps.map((s) => s.run as PlainStep);
      const run = (f: Frame): readonly Val[] => {
        spend(f, count);
        for (let i = 0; i < runs.length; i++) runs[i]!(f);
        return values(f);
      };
      return { sync, argSlots, run, gen: function* (f) { return run(f); } };
    }
    const run = (): never => {
      throw new Error("internal: a synchronising region was run without the scheduler");
    };
    return {
      sync,
      argSlots,
      run,
      gen: function* (f) {
        spend(f, count);
        for (const s of steps) {
          if (s.sync) yield* s.run(f);
          else s.run(f);
        }
        return values(f);
      },
    };
  }

  op(op: Op): Step {
    const evaluate = opInfo(op.name)?.evaluate;
    if (evaluate) return this.evaluated(op, evaluate);
    const step = compileArith(this, op) ?? compileMemory(this, op) ?? compileControl(this, op) ?? compileKernelOp(this, op) ?? compileCall(this, op);
    if (!step) throw opError("unsupported", op, `the interpreter does not execute '${op.name}'`);
    return step;
  }

  /** An op with declared value semantics: evaluated on its operands, UB an error at the op. */
  private evaluated(op: Op, evaluate: Evaluate): Step {
    const ins = op.operands.map((v) => this.slot(v));
    const [r] = this.results(op);
    const types = { operands: op.operands.map((v) => v.type), result: resultOf(op, 0).type };
    return plain((f) => {
      const out = evaluate(ins.map((i) => f.slots[i] as EvalValue), types);
      f.slots[r!] = Array.isArray(out) ? Object.freeze(out) : defined(f, op, out);
    });
  }
}

/** Counts `n` executed ops against the budget. */
export function spend(f: Frame, n: number): void {
  const d = f.inv.dispatch;
  d.steps += n;
  if (d.steps > d.maxSteps) {
    throw new InterpretError("step-budget", undefined, undefined, invocationId(f.inv), `the dispatch exceeded its budget of ${d.maxSteps} executed ops (a non-terminating loop, or raise maxSteps)`);
  }
}

/** Raises a failure at `op` for the invocation running `f`. */
export function raise(f: Frame, op: Op, failure: InterpretFailure, detail: string): never {
  throw opError(failure, op, detail, invocationId(f.inv));
}

/** Unwraps a shared-semantics outcome; UB becomes an error at `op`. */
export function defined<T>(f: Frame, op: Op, x: T | Undefined): T {
  if (x instanceof Undefined) raise(f, op, "undefined-behaviour", `undefined behaviour: ${x.reason}`);
  return x;
}
