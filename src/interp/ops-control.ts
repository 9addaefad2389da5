/**
 * `scf.if`, `scf.for`, `scf.while` and `scf.select` (language.md §4.4). Each region op has a
 * plain form and, when a nested region may stop at a barrier or collective, a generator
 * form with the same meaning.
 */
import { operandOf } from "./types.js";
import type { Op } from "../ir/core.js";
import { raise, type CompiledRegion, type FunctionCompiler } from "./compiler.js";
import { plain, synced, type Frame, type Gen, type Step, type Val } from "./state.js";

const NONE: readonly Val[] = [];

export function compileControl(c: FunctionCompiler, op: Op): Step | undefined {
  switch (op.name) {
    case "scf.if": return ifOp(c, op);
    case "scf.for": return forOp(c, op);
    case "scf.while": return whileOp(c, op);
    case "scf.select": {
      const [k, a, b] = op.operands.map((v) => c.slot(v)) as [number, number, number];
      const [r] = c.results(op);
      return plain((f) => { f.slots[r!] = f.slots[k] === 1n ? f.slots[a]! : f.slots[b]!; });
    }
  }
  return undefined;
}

function assign(f: Frame, slots: readonly number[], values: readonly Val[], from = 0): void {
  for (let i = 0; i < slots.length; i++) f.slots[slots[i]!] = values[i + from]!;
}

function ifOp(c: FunctionCompiler, op: Op): Step {
  const cond = c.slot(operandOf(op, 0));
  const then = c.region(op.regions[0]!);
  const other: CompiledRegion | undefined = op.regions[1] ? c.region(op.regions[1]) : undefined;
  const outs = c.results(op);
  if (!then.sync && !other?.sync) {
    return plain((f) => {
      const values = f.slots[cond] === 1n ? then.run(f) : other ? other.run(f) : NONE;
      assign(f, outs, values);
    });
  }
  return synced(function* (f): Gen<void> {
    const values = f.slots[cond] === 1n ? yield* then.gen(f) : other ? yield* other.gen(f) : NONE;
    assign(f, outs, values);
  });
}

function forOp(c: FunctionCompiler, op: Op): Step {
  const [lo, hi, st, ...inits] = op.operands.map((v) => c.slot(v)) as [number, number, number, ...number[]];
  const body = c.region(op.regions[0]!);
  const [iv, ...carried] = body.argSlots as [number, ...number[]];
  const outs = c.results(op);
  const start = (f: Frame): [bigint, bigint, bigint] => {
    const step = f.slots[st] as bigint;
    if (step <= 0n) raise(f, op, "undefined-behaviour", `loop step ${step} is not positive`);
    return [f.slots[lo] as bigint, f.slots[hi] as bigint, step];
  };
  if (!body.sync) {
    return plain((f) => {
      const [from, to, step] = start(f);
      let acc: readonly Val[] = inits.map((s) => f.slots[s]!);
      for (let i = from; i < to; i += step) {
        f.slots[iv] = i;
        assign(f, carried, acc);
        acc = body.run(f);
      }
      assign(f, outs, acc);
    });
  }
  return synced(function* (f): Gen<void> {
    const [from, to, step] = start(f);
    let acc: readonly Val[] = inits.map((s) => f.slots[s]!);
    for (let i = from; i < to; i += step) {
      f.slots[iv] = i;
      assign(f, carried, acc);
      acc = yield* body.gen(f);
    }
    assign(f, outs, acc);
  });
}

function whileOp(c: FunctionCompiler, op: Op): Step {
  const inits = op.operands.map((v) => c.slot(v));
  const before = c.region(op.regions[0]!), after = c.region(op.regions[1]!);
  const outs = c.results(op);
  if (!before.sync && !after.sync) {
    return plain((f) => {
      let carried: readonly Val[] = inits.map((s) => f.slots[s]!);
      for (;;) {
        assign(f, before.argSlots, carried);
        const cond = before.run(f);
        if (cond[0] !== 1n) return assign(f, outs, cond, 1);
        assign(f, after.argSlots, cond, 1);
        carried = after.run(f);
      }
    });
  }
  return synced(function* (f): Gen<void> {
    let carried: readonly Val[] = inits.map((s) => f.slots[s]!);
    for (;;) {
      assign(f, before.argSlots, carried);
      const cond = yield* before.gen(f);
      if (cond[0] !== 1n) return assign(f, outs, cond, 1);
      assign(f, after.argSlots, cond, 1);
      carried = yield* after.gen(f);
    }
  });
}
