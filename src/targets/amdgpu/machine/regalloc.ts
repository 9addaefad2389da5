/**
 * Linear-scan register allocation over the virtual registers of a `MachineProgram`.
 *
 * Each virtual register's live interval is [first occurrence, last occurrence] in program
 * order; an interval that touches a loop and reaches outside it covers the whole loop
 * (values live around a loop stay live through every iteration, loop-carried values too).
 * Program order is execution order for exec-masked (divergent) code, where both sides of
 * a branch run, and is conservative for uniform branches, where one side is skipped.
 * Intervals sharing an instruction conflict (closed intervals), so an instruction never
 * writes a register another operand of it still reads.
 *
 * Intervals are visited by start; each takes the lowest free aligned block of its size
 * (SGPR pairs even, quads at multiples of 4; VGPR tuples even where the ISA demands it).
 * Fixed (hardware-initialized) registers keep their physical index. When no block is
 * free, allocation fails with the class and the count it needed: the caller reports it
 * (no spilling yet).
 */
import type { MachineProgram, RegClass, VReg } from "./program.js";

export interface AllocationLimits {
  readonly sgprs: number;
  readonly vgprs: number;
  /** Even-aligned VGPR tuples (gfx90a/gfx94x). */
  readonly alignVgprTuples: boolean;
}

export type Allocation =
  | {
      readonly ok: true;
      readonly physical: ReadonlyMap<VReg, number>;
      /** The same assignment by virtual register id (-1: never allocated, no operand names it). */
      readonly physicalById: Int32Array;
      readonly sgprsUsed: number;
      readonly vgprsUsed: number;
    }
  | { readonly ok: false; readonly cls: RegClass; readonly needed: number; readonly limit: number };

interface Interval {
  readonly r: VReg;
  start: number;
  end: number;
}

function intervals(program: MachineProgram): Interval[] {
  const byReg = new Map<VReg, Interval>();
  const loops: [number, number][] = [];
  const open: number[] = [];
  let pos = 0;
  for (const item of program.items) {
    if (item.kind === "loop") {
      if (item.edge === "begin") open.push(pos);
      else loops.push([open.pop() ?? 0, pos]);
      continue;
    }
    if (item.kind !== "inst") continue;
    for (const o of item.inst.operands) {
      if (o.k !== "vreg") continue;
      const iv = byReg.get(o.r);
      if (iv) iv.end = pos;
      // A hardware-initialized register holds its value from the first instruction on.
      else byReg.set(o.r, { r: o.r, start: o.r.fixed !== undefined ? 0 : pos, end: pos });
    }
    pos++;
  }
  // Inner loops first (they end first); repeat until nothing grows (an extension can reach an outer loop).
  loops.sort((a, b) => a[1] - a[0] - (b[1] - b[0]));
  for (let changed = true; changed; ) {
    changed = false;
    for (const iv of byReg.values()) {
      for (const [b, e] of loops) {
        const touches = iv.end >= b && iv.start < e;
        if (touches && (iv.start < b || iv.end >= e) && (iv.start > b || iv.end < e)) {
          iv.start = Math.min(iv.start, b);
          iv.end = Math.max(iv.end, e);
          changed = true;
        }
      }
    }
  }
  return [...byReg.values()].sort((a, b) => a.start - b.start || a.r.id - b.r.id);
}

export function allocateRegisters(program: MachineProgram, limits: AllocationLimits): Allocation {
  const ivs = intervals(program);
  const occupied: Record<RegClass, { start: number; end: number }[][]> = { s: [], v: [] };
  const limit: Record<RegClass, number> = { s: limits.sgprs, v: limits.vgprs };
  const used: Record<RegClass, number> = { s: 0, v: 0 };
  const physical = new Map<VReg, number>();
  const physicalById = new Int32Array(program.vregs.length).fill(-1);
  const free = (cls: RegClass, at: number, n: number, iv: Interval) => {
    for (let i = at; i < at + n; i++) {
      for (const o of occupied[cls][i] ?? []) if (o.start <= iv.end && iv.start <= o.end) return false;
    }
    return true;
  };
  const take = (cls: RegClass, at: number, iv: Interval) => {
    for (let i = at; i < at + iv.r.n; i++) (occupied[cls][i] ??= []).push({ start: iv.start, end: iv.end });
    physical.set(iv.r, at);
    physicalById[iv.r.id] = at;
    used[cls] = Math.max(used[cls], at + iv.r.n);
  };
  // Fixed registers first: nothing else may sit in them while they are live.
  for (const iv of ivs) if (iv.r.fixed !== undefined) take(iv.r.cls, iv.r.fixed, iv);
  for (const iv of ivs) {
    if (iv.r.fixed !== undefined) continue;
    const { cls, n } = iv.r;
    const align = cls === "s" ? (n >= 4 ? 4 : n) : limits.alignVgprTuples && n > 1 ? 2 : 1;
    let at = 0;
    while (at + n <= limit[cls] && !free(cls, at, n, iv)) at += align;
    if (at + n > limit[cls]) return { ok: false, cls, needed: at + n, limit: limit[cls] };
    take(cls, at, iv);
  }
  return { ok: true, physical, physicalById, sgprsUsed: used.s, vgprsUsed: used.v };
}
