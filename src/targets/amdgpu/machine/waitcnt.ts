/**
 * `s_waitcnt` insertion, correct by construction: after register allocation, every
 * instruction that reads or overwrites a register a memory instruction has not finished
 * writing waits until it has. Memory instructions are events on their counter:
 *
 *   vm   — VMEM loads and returning atomics (gfx9: also stores; one counter)
 *   vs   — gfx11 VMEM stores and non-returning atomics (`s_waitcnt_vscnt`)
 *   lgkm — SMEM (returns out of order) and LDS (in order)
 *
 * A counter drains in issue order, so waiting for an event means allowing only the events
 * issued after it to remain (`vmcnt(k)`); where order is not known (SMEM outstanding, gfx9
 * loads mixed with stores, or paths merged with different histories) the wait is for 0.
 * Stores write no register, so they only ever wait where the lowering orders memory
 * (barriers, fences), which it states with explicit `s_waitcnt`s this pass accounts for.
 * Control flow: a forward branch hands its state to its label, where states merge; a
 * backward branch (a loop's back edge) first drains every counter with a register write
 * outstanding, so a loop head's state is its entry's.
 */
import type { IsaFamily } from "../isa/family.js";
import { defOf, waitcntImmediate, waitcntMaxima, type Instruction } from "../isa/encoder.js";
import type { Operand } from "../isa/operands.js";
import type { Label } from "./program.js";

export type PItem =
  | { readonly kind: "inst"; readonly inst: Instruction; readonly target?: Label }
  | { readonly kind: "label"; readonly label: Label }
  | { readonly kind: "loop"; readonly edge: "begin" | "end" };

type Counter = "vm" | "vs" | "lgkm";

interface Event {
  readonly counter: Counter;
  /** Register numbers written (SGPR n = n, VGPR n = 1024 + n). */
  readonly regs: readonly number[];
  readonly smem: boolean;
  readonly store: boolean;
}

interface State {
  readonly events: Record<Counter, Event[]>;
  readonly ordered: Record<Counter, boolean>;
}

const COUNTERS: readonly Counter[] = ["vm", "vs", "lgkm"];

const emptyState = (): State => ({ events: { vm: [], vs: [], lgkm: [] }, ordered: { vm: true, vs: true, lgkm: true } });
const copy = (s: State): State => ({ events: { vm: [...s.events.vm], vs: [...s.events.vs], lgkm: [...s.events.lgkm] }, ordered: { ...s.ordered } });

function keys(o: Operand, into: number[]): number[] {
  if (o.k !== "s" && o.k !== "v") return into;
  const base = o.k === "v" ? 1024 + o.i : o.i;
  for (let i = 0; i < o.n; i++) into.push(base + i);
  return into;
}

/** Which counter a memory instruction counts on, with the registers it writes. */
function eventOf(inst: Instruction, family: IsaFamily): Event | undefined {
  const format = defOf(inst).format;
  if (format !== "SMEM" && format !== "DS" && format !== "GLOBAL" && format !== "SCRATCH") return undefined;
  const writes = format === "SMEM" || ((format === "DS" || format === "GLOBAL" || format === "SCRATCH") && defines(inst));
  const dst = inst.operands[0];
  const regs = writes && dst ? keys(dst, []) : [];
  if (format === "GLOBAL" || format === "SCRATCH") {
    const counter: Counter = writes || family === "gfx9" ? "vm" : "vs";
    return { counter, regs, smem: false, store: !writes };
  }
  return { counter: "lgkm", regs, smem: format === "SMEM", store: !writes };
}

function defines(inst: Instruction): boolean {
  const m = inst.mnemonic;
  if (m.startsWith("scratch_")) return m.startsWith("scratch_load");
  if (m.startsWith("global_")) return m.startsWith("global_load") || (inst.glc === true && m.startsWith("global_atomic"));
  return m.startsWith("ds_load") || m.includes("_rtn_") || m === "ds_swizzle_b32" || m === "ds_bpermute_b32";
}

function merge(states: readonly State[]): State {
  if (states.length === 0) return emptyState();
  const only = states.length === 1 ? states[0] : undefined;
  if (only) return copy(only);
  const out = emptyState();
  for (const c of COUNTERS) {
    const seen = new Set<Event>();
    const lists = states.map((s) => s.events[c]);
    for (const l of lists) for (const e of l) if (!seen.has(e)) (seen.add(e), out.events[c].push(e));
    const first = lists[0] ?? [];
    const same = lists.every((l) => l.length === first.length && l.every((e, i) => e === first[i]));
    out.ordered[c] = same && states.every((s) => s.ordered[c]);
  }
  return out;
}

/**
 * The registers an instruction names, in its first `touchedCount` slots (reused: one
 * instruction at a time; an array emptied by `length = 0` would reallocate on every push).
 */
const touchedScratch: number[] = [];
let touchedCount = 0;

function touch(o: Operand): void {
  if (o.k !== "s" && o.k !== "v") return;
  const base = o.k === "v" ? 1024 + o.i : o.i;
  for (let i = 0; i < o.n; i++) touchedScratch[touchedCount++] = base + i;
}

function touches(r: number): boolean {
  for (let i = 0; i < touchedCount; i++) if (touchedScratch[i] === r) return true;
  return false;
}
/** The `allowed` of an instruction that cannot wait (never written). */
const NO_WAIT: Partial<Record<Counter, number>> = Object.freeze({});

export function insertWaits(items: readonly PItem[], family: IsaFamily): PItem[] {
  const out: PItem[] = [];
  const max = waitcntMaxima(family);
  let state = emptyState();
  let reachable = true;
  const pending = new Map<Label, State[]>();
  const placed = new Set<Label>();

  /** Waits so that at most `allowed[c]` events stay outstanding on each counter. */
  const wait = (allowed: Partial<Record<Counter, number>>) => {
    const vm = allowed.vm, lgkm = allowed.lgkm, vs = allowed.vs;
    if (vm !== undefined || lgkm !== undefined) {
      out.push({ kind: "inst", inst: { mnemonic: "s_waitcnt", operands: [], simm: waitcntImmediate(family, Math.min(vm ?? max.vm, max.vm), Math.min(lgkm ?? max.lgkm, max.lgkm)) } });
    }
    if (vs !== undefined) out.push({ kind: "inst", inst: { mnemonic: "s_waitcnt_vscnt", operands: [{ k: "special", name: "null", n: 1 }], simm: vs } });
    for (const c of COUNTERS) {
      const a = allowed[c];
      if (a !== undefined) state.events[c] = a === 0 ? [] : state.events[c].slice(-a);
      if (a === 0) state.ordered[c] = true;
    }
  };

  /** Explicit waits of the lowering: account for them. */
  const applyExplicit = (inst: Instruction) => {
    if (inst.mnemonic === "s_waitcnt_vscnt") {
      const a = inst.simm ?? 0;
      state.events.vs = a === 0 ? [] : state.events.vs.slice(-a);
      return;
    }
    const simm = inst.simm ?? 0;
    const vm = family === "gfx9" ? (simm & 0xf) | (((simm >> 14) & 3) << 4) : (simm >> 10) & 0x3f;
    const lgkm = family === "gfx9" ? (simm >> 8) & 0xf : (simm >> 4) & 0x3f;
    if (vm < max.vm) state.events.vm = vm === 0 ? [] : state.events.vm.slice(-vm);
    if (lgkm < max.lgkm) state.events.lgkm = lgkm === 0 ? [] : state.events.lgkm.slice(-lgkm);
  };

  for (let index = 0; index < items.length; index++) {
    const item = items[index];
    if (item === undefined) continue;
    if (item.kind === "loop") {
      out.push(item);
      continue;
    }
    if (item.kind === "label") {
      const preds = pending.get(item.label);
      state = preds === undefined ? (reachable ? copy(state) : emptyState()) : merge(reachable ? [...preds, state] : preds);
      if (items[index - 1]?.kind === "loop") for (const c of COUNTERS) if (state.events[c].length) state.ordered[c] = false;
      placed.add(item.label);
      reachable = true;
      out.push(item);
      continue;
    }
    const inst = item.inst;
    if (inst.mnemonic === "s_waitcnt" || inst.mnemonic === "s_waitcnt_vscnt") {
      applyExplicit(inst);
      out.push(item);
      continue;
    }
    const outstanding = state.events.vm.length + state.events.vs.length + state.events.lgkm.length;
    // Most instructions find nothing outstanding: no per-instruction arrays then.
    touchedCount = 0;
    if (outstanding > 0) for (const o of inst.operands) touch(o);
    const allowed: Partial<Record<Counter, number>> = touchedCount > 0 || item.target ? {} : NO_WAIT;
    let waits = false;
    if (touchedCount > 0) for (const c of COUNTERS) {
      const events = state.events[c];
      let j = -1;
      for (let i = events.length - 1; i >= 0 && j < 0; i--) {
        const regs = events[i]?.regs ?? [];
        for (const r of regs) if (touches(r)) { j = i; break; }
      }
      if (j < 0) continue;
      const unordered = !state.ordered[c] || (c === "lgkm" && events.some((e) => e.smem)) || (c === "vm" && events.some((e) => e.store) && events.some((e) => !e.store));
      allowed[c] = unordered ? 0 : events.length - 1 - j;
      waits = true;
    }
    if (item.target && placed.has(item.target)) {
      // Back edge: nothing with a register write stays outstanding around the loop.
      for (const c of COUNTERS) if (state.events[c].some((e) => e.regs.length > 0)) (allowed[c] = 0), (waits = true);
    }
    if (waits) wait(allowed);
    out.push(item);
    const ev = eventOf(inst, family);
    if (ev) state.events[ev.counter].push(ev);
    if (item.target && !placed.has(item.target)) {
      const list = pending.get(item.target) ?? [];
      list.push(copy(state));
      pending.set(item.target, list);
    }
    if (inst.mnemonic === "s_branch" || inst.mnemonic === "s_endpgm") reachable = false;
  }
  return out;
}
