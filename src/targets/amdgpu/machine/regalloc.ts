/**
 * Linear-scan register allocation over the virtual registers of a `MachineProgram`.
 *
 * Each dword of a virtual register has its own live range (the dwords of a vector load die
 * one by one as its lanes are consumed, so a result vector may take the load's registers):
 * from its first occurrence to its last in program order, as a list of segments. A range
 * that touches a loop and reaches outside it covers the whole loop (values live around a
 * loop stay live through every iteration, loop-carried values too). Program order is
 * execution order for exec-masked (divergent) code, where both sides of a branch run, and
 * is conservative for uniform branches, where one side is skipped. Two kinds of holes cut
 * a range where the value is provably dead:
 *
 * - a dword read only on the else side of a two-sided `if` (not after it, nor in a loop
 *   around it) is not live on the then side: a uniform branch runs one side only, and a
 *   divergent one writes the then side's registers only in the lanes the else side leaves
 *   alone (VGPRs only: SALU writes ignore EXEC);
 * - a loop-carried dword that each iteration reads and then rewrites in straight-line code
 *   at the loop's top level (the yield) is dead between its last read and that write.
 *
 * Segments sharing an instruction conflict (closed intervals), with one exception: a value
 * whose segment ends with a read at instruction p may share registers with a value whose
 * segment starts with a write at p (hardware reads every source before it writes a
 * result, as in `v_add_f32 v0, v0, v1`). Instructions that may write before they finish
 * reading (`v_mad_u64_u32` on gfx11 — LLVM's early-clobber — and atomics) are left out.
 *
 * Registers are visited by start; each takes the lowest free aligned block of its size
 * (SGPR pairs even, quads at multiples of 4; VGPR tuples even where the ISA demands it).
 * Fixed (hardware-initialized) registers keep their physical index. When no block is
 * free, allocation fails with the class and the count it needed: the caller reports it
 * (no spilling yet).
 */
import { definedCount } from "./dce.js";
import type { MachineProgram, MInst, RegClass, VReg } from "./program.js";

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
  /** `r` is the register that found no free block. */
  | { readonly ok: false; readonly cls: RegClass; readonly needed: number; readonly limit: number; readonly r: VReg };

/** Positions [start, end] where one dword is live. */
interface Segment {
  readonly start: number;
  readonly end: number;
  /** The instruction at `start` writes the dword and does not read it. */
  readonly startsWithWrite: boolean;
  /** The instruction at `end` reads the dword and does not write it. */
  readonly endsWithRead: boolean;
}

const READ = 1, WRITE = 2;

/** One dword of a virtual register: where it occurs and how, and its live segments. */
interface Dword {
  /** Positions it occurs at, in order, one entry per instruction, with READ | WRITE flags. */
  readonly at: number[];
  readonly how: number[];
  /** Loops its range was widened over ([begin, end) positions). */
  readonly widened: Loop[];
  start: number;
  end: number;
  segments: Segment[];
}

interface Interval {
  readonly r: VReg;
  /** The earliest start of any dword (the visiting order). */
  first: number;
  /** Per dword (undefined: no operand names it). */
  readonly dwords: (Dword | undefined)[];
}

/** A loop: positions [begin, end); `id` names it among the enclosing structures. */
interface Loop {
  readonly id: number;
  readonly begin: number;
  end: number;
}

/** A two-sided `if`: then side [thenStart, elseStart), else side [elseStart, join). */
interface Branch {
  readonly thenStart: number;
  elseStart: number;
  join: number;
  readonly divergent: boolean;
}

/** Whether an instruction's results may take the registers of sources it reads for the last time. */
function resultsMayReuseSources(inst: MInst): boolean {
  const m = inst.mnemonic;
  return !(m === "v_mad_u64_u32" || m === "v_mad_i64_i32" || m.includes("atomic") || m.includes("_rtn_"));
}

/** Instructions straight-line reasoning stops at (control transfers and EXEC writes). */
function breaksStraightLine(inst: MInst): boolean {
  const m = inst.mnemonic;
  if (m.startsWith("s_cbranch") || m === "s_branch" || m === "s_endpgm" || inst.target !== undefined || m.includes("exec")) return true;
  for (const o of inst.operands) if (o.k === "special" && o.name === "exec") return true;
  return false;
}

interface Scan {
  readonly ivs: Interval[];
  readonly loops: Loop[];
  readonly branches: Branch[];
  /** Per position: the instruction may share its results with sources it last reads. */
  readonly reusable: boolean[];
  /** Per position: the innermost loop or branch around it (-1: none). */
  readonly enclosing: number[];
  /** Prefix counts of straight-line breaks: breaks[p + 1] counts those at or before position p (a label or marker counts at the next instruction). */
  readonly breaks: number[];
  /** Per position: the instruction itself breaks straight-line reasoning. */
  readonly breaking: boolean[];
}

function scan(program: MachineProgram): Scan {
  const byReg = new Map<VReg, Interval>();
  const loops: Loop[] = [];
  const branches: Branch[] = [];
  const stack: number[] = [];
  const openLoops: Loop[] = [];
  const openBranches: Branch[] = [];
  const reusable: boolean[] = [];
  const enclosing: number[] = [];
  const breaks: number[] = [0];
  const breaking: boolean[] = [];
  let ids = 0;
  let pos = 0;
  let pendingBreak = false;
  for (const item of program.items) {
    if (item.kind === "branch") {
      pendingBreak = true;
      if (item.edge === "then") {
        openBranches.push({ thenStart: pos, elseStart: pos, join: pos, divergent: item.divergent });
        stack.push(ids++);
      } else if (item.edge === "else") {
        const b = openBranches.at(-1);
        if (b) b.elseStart = pos;
      } else {
        const b = openBranches.pop();
        if (b) {
          b.join = pos;
          branches.push(b);
        }
        stack.pop();
      }
      continue;
    }
    if (item.kind === "loop") {
      pendingBreak = true;
      if (item.edge === "begin") {
        const l = { id: ids++, begin: pos, end: pos };
        openLoops.push(l);
        stack.push(l.id);
      } else {
        const l = openLoops.pop();
        if (l) {
          l.end = pos;
          loops.push(l);
        }
        stack.pop();
      }
      continue;
    }
    if (item.kind === "label") {
      pendingBreak = true;
      continue;
    }
    const inst = item.inst;
    const defined = definedCount(inst);
    reusable.push(resultsMayReuseSources(inst));
    enclosing.push(stack.at(-1) ?? -1);
    const breaksHere = breaksStraightLine(inst);
    breaking.push(breaksHere);
    breaks.push(breaks[pos]! + (pendingBreak ? 1 : 0) + (breaksHere ? 1 : 0));
    pendingBreak = false;
    const operands = inst.operands;
    for (let j = 0; j < operands.length; j++) {
      const o = operands[j]!;
      if (o.k !== "vreg") continue;
      const flag = j < defined ? WRITE : READ;
      let iv = byReg.get(o.r);
      if (!iv) byReg.set(o.r, (iv = { r: o.r, first: Infinity, dwords: new Array<Dword | undefined>(o.r.n).fill(undefined) }));
      for (let d = o.sub; d < o.sub + o.n; d++) {
        let dw = iv.dwords[d];
        // A hardware-initialized register holds its value from the first instruction on.
        if (!dw) iv.dwords[d] = dw = { at: [], how: [], widened: [], start: o.r.fixed !== undefined ? 0 : pos, end: pos, segments: [] };
        if (dw.at.at(-1) === pos) dw.how[dw.how.length - 1]! |= flag;
        else {
          dw.at.push(pos);
          dw.how.push(flag);
        }
        dw.end = pos;
      }
    }
    pos++;
  }
  // Inner loops first (they end first); repeat until nothing grows (an extension can reach an outer loop).
  loops.sort((a, b) => a.end - a.begin - (b.end - b.begin));
  const ivs = [...byReg.values()];
  for (const iv of ivs) {
    for (const dw of iv.dwords) {
      if (!dw) continue;
      for (let changed = true; changed; ) {
        changed = false;
        for (const l of loops) {
          const touches = dw.end >= l.begin && dw.start < l.end;
          if (touches && (dw.start < l.begin || dw.end >= l.end) && (dw.start > l.begin || dw.end < l.end)) {
            dw.start = Math.min(dw.start, l.begin);
            dw.end = Math.max(dw.end, l.end);
            dw.widened.push(l);
            changed = true;
          }
        }
      }
    }
  }
  return { ivs, loops, branches, reusable, enclosing, breaks, breaking };
}

/** The first index of `at` with at[i] >= p. */
function firstAtOrAfter(at: readonly number[], p: number): number {
  let lo = 0, hi = at.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (at[mid]! < p) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** Removes (lo, hi) from a dword's segments; the pieces keep their ends' read/write facts. */
function cut(dw: Dword, lo: number, hi: number, endsWithRead: boolean, startsWithWrite: boolean): void {
  const out: Segment[] = [];
  for (const s of dw.segments) {
    if (s.end <= lo || s.start >= hi) {
      out.push(s);
      continue;
    }
    if (s.start <= lo) out.push({ start: s.start, end: lo, startsWithWrite: s.startsWithWrite, endsWithRead });
    if (s.end >= hi) out.push({ start: hi, end: s.end, startsWithWrite, endsWithRead: s.endsWithRead });
  }
  dw.segments = out;
}

/** The dword's segments: its range, less the holes (module comment). */
function segmentsOf(dw: Dword, cls: RegClass, fixed: boolean, s: Scan): void {
  const first = dw.how[0]!, last = dw.how.at(-1)!;
  const widenedStart = dw.start < dw.at[0]!, widenedEnd = dw.end > dw.at.at(-1)!;
  dw.segments = [{ start: dw.start, end: dw.end, startsWithWrite: !fixed && !widenedStart && first === WRITE, endsWithRead: !widenedEnd && last === READ }];
  if (dw.widened.length === 0 && !s.loops.some((l) => dw.start < l.begin && dw.end >= l.end)) {
    // The widest then side it lives across without an occurrence there, ending on the else side.
    let best: Branch | undefined;
    for (const b of s.branches) {
      if ((b.divergent && cls !== "v") || !(dw.start < b.thenStart && dw.end >= b.elseStart && dw.end < b.join)) continue;
      if (best && b.elseStart - b.thenStart <= best.elseStart - best.thenStart) continue;
      if ((dw.at[firstAtOrAfter(dw.at, b.thenStart)] ?? Infinity) < b.elseStart) continue;
      best = b;
    }
    if (best) cut(dw, best.thenStart - 1, best.elseStart, false, false);
    return;
  }
  for (const l of s.loops) {
    if (!(dw.start < l.begin && dw.end >= l.end)) continue;
    // Live through loop l: every occurrence in it before the first write w only reads; w
    // only writes, at l's top level, straight-line after the last read r.
    const i0 = firstAtOrAfter(dw.at, l.begin);
    let i = i0;
    while (i < dw.at.length && dw.at[i]! < l.end && dw.how[i] === READ) i++;
    if (i === i0 || i >= dw.at.length || dw.at[i]! >= l.end || dw.how[i] !== WRITE) continue;
    const r = dw.at[i - 1]!, w = dw.at[i]!;
    if (s.enclosing[w] !== l.id || s.breaking[r] || s.breaks[w + 1]! - s.breaks[r + 1]! !== 0) continue;
    cut(dw, r, w, true, true);
    return;
  }
}

export function allocateRegisters(program: MachineProgram, limits: AllocationLimits): Allocation {
  const s = scan(program);
  const reusable = s.reusable;
  for (const iv of s.ivs) {
    for (const dw of iv.dwords) if (dw) segmentsOf(dw, iv.r.cls, iv.r.fixed !== undefined, s);
    let first = Infinity;
    for (const dw of iv.dwords) if (dw && dw.start < first) first = dw.start;
    iv.first = first;
  }
  const ivs = s.ivs.sort((a, b) => a.first - b.first || a.r.id - b.r.id);
  const occupied: Record<RegClass, Segment[][]> = { s: [], v: [] };
  const limit: Record<RegClass, number> = { s: limits.sgprs, v: limits.vgprs };
  const used: Record<RegClass, number> = { s: 0, v: 0 };
  const physical = new Map<VReg, number>();
  const physicalById = new Int32Array(program.vregs.length).fill(-1);
  const free = (cls: RegClass, at: number, iv: Interval) => {
    for (let d = 0; d < iv.r.n; d++) {
      const dw = iv.dwords[d];
      if (!dw) continue;
      const taken = occupied[cls][at + d];
      if (!taken) continue;
      for (const m of dw.segments) {
        for (const o of taken) {
          if (o.start > m.end || m.start > o.end) continue;
          // Touching at one instruction that reads one and only writes the other.
          if (o.end === m.start && o.endsWithRead && m.startsWithWrite && reusable[m.start]) continue;
          if (m.end === o.start && m.endsWithRead && o.startsWithWrite && reusable[o.start]) continue;
          return false;
        }
      }
    }
    return true;
  };
  const take = (cls: RegClass, at: number, iv: Interval) => {
    for (let d = 0; d < iv.r.n; d++) {
      const dw = iv.dwords[d];
      if (dw) (occupied[cls][at + d] ??= []).push(...dw.segments);
    }
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
    while (at + n <= limit[cls] && !free(cls, at, iv)) at += align;
    if (at + n > limit[cls]) return { ok: false, cls, needed: at + n, limit: limit[cls], r: iv.r };
    take(cls, at, iv);
  }
  return { ok: true, physical, physicalById, sgprsUsed: used.s, vgprsUsed: used.v };
}
