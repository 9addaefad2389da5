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
 * The bookkeeping is typed arrays indexed by dword id (each virtual register's dwords are
 * consecutive ids), not objects per dword: allocation runs on every compile.
 *
 * Registers are visited by start; each takes the lowest free aligned block of its size
 * (SGPR pairs even, quads at multiples of 4; VGPR tuples even where the ISA demands it).
 * Fixed (hardware-initialized) registers keep their physical index. When no block is
 * free, allocation fails with the class and the count it needed: the caller reports it
 * (no spilling yet).
 */
import { definedCount } from "./dce.js";
import { Scratch } from "./scratch.js";
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
      /** The assignment by virtual register id (-1: never allocated, no operand names it); a scratch array, valid until the next allocation and longer than the register count. */
      readonly physicalById: Int32Array;
      readonly sgprsUsed: number;
      readonly vgprsUsed: number;
    }
  /** `r` is the register that found no free block. */
  | { readonly ok: false; readonly cls: RegClass; readonly needed: number; readonly limit: number; readonly r: VReg };

const READ = 1, WRITE = 2;

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

/** Per mnemonic: whether its results may take the registers of sources it reads for the last time (REUSE), and whether its name alone stops straight-line reasoning (BREAKS: control transfers, EXEC writes). */
const REUSE = 1, BREAKS = 2;
const mnemonicFlags = new Map<string, number>();

function flagsOf(m: string): number {
  let f = mnemonicFlags.get(m);
  if (f === undefined) {
    f = 0;
    if (!(m === "v_mad_u64_u32" || m === "v_mad_i64_i32" || m.includes("atomic") || m.includes("_rtn_"))) f |= REUSE;
    if (m.startsWith("s_cbranch") || m === "s_branch" || m === "s_endpgm" || m.includes("exec")) f |= BREAKS;
    mnemonicFlags.set(m, f);
  }
  return f;
}

/** Instructions straight-line reasoning stops at (control transfers and EXEC writes). */
function breaksStraightLine(inst: MInst, flags: number): boolean {
  if ((flags & BREAKS) !== 0 || inst.target !== undefined) return true;
  for (const o of inst.operands) if (o.k === "special" && o.name === "exec") return true;
  return false;
}

/** A growable Int32Array (occurrence lists), reused from compile to compile. */
class IntList {
  data = new Int32Array(256);
  length = 0;
  push(v: number): void {
    if (this.length === this.data.length) {
      const grown = new Int32Array(this.data.length * 2);
      grown.set(this.data);
      this.data = grown;
    }
    this.data[this.length++] = v;
  }
}

/* Scratch arrays reused by every allocation (scratch.ts); the ones read before they are written are cleared over the used range. */
const scratch = new Scratch();
const i32 = (slot: number, n: number) => scratch.i32(slot, n);
const u8 = (slot: number, n: number) => scratch.u8(slot, n);
const occDword = new IntList(), occPosition = new IntList(), occFlags = new IntList();

/**
 * Liveness facts of one program, by dword id (`base[r.id] + d` is dword d of register r).
 * A dword's occurrences are `occPos`/`occHow` [occStart[d], occStart[d + 1]) in position
 * order; its segments are at most two (one hole cuts one range): slots 2d and 2d + 1.
 */
interface Scan {
  readonly base: Int32Array;
  /** Per dword: occurrences (0: no operand names it). */
  readonly occStart: Int32Array;
  readonly occPos: Int32Array;
  readonly occHow: Int32Array;
  readonly start: Int32Array;
  readonly end: Int32Array;
  /** Per dword: its range was widened over a loop. */
  readonly widened: Uint8Array;
  readonly segCount: Uint8Array;
  readonly segStart: Int32Array;
  readonly segEnd: Int32Array;
  /** Per segment: the instruction at its start writes the dword and does not read it. */
  readonly segStartsWithWrite: Uint8Array;
  /** Per segment: the instruction at its end reads the dword and does not write it. */
  readonly segEndsWithRead: Uint8Array;
  /** Register ids some operand names, in first-occurrence order. */
  readonly named: number[];
  readonly loops: Loop[];
  readonly branches: Branch[];
  /** Per position: the instruction may share its results with sources it last reads. */
  readonly reusable: Uint8Array;
  /** Per position: the innermost loop or branch around it (-1: none). */
  readonly enclosing: Int32Array;
  /** Prefix counts of straight-line breaks: breaks[p + 1] counts those at or before position p (a label or marker counts at the next instruction). */
  readonly breaks: Int32Array;
  /** Per position: the instruction itself breaks straight-line reasoning. */
  readonly breaking: Uint8Array;
}

function scan(program: MachineProgram): Scan {
  const vregs = program.vregs;
  const base = i32(0, vregs.length + 1);
  base[0] = 0;
  for (let i = 0; i < vregs.length; i++) base[i + 1] = base[i]! + vregs[i]!.n;
  const dwords = base[vregs.length]!;
  let positions = 0;
  for (const item of program.items) if (item.kind === "inst") positions++;
  const loops: Loop[] = [];
  const branches: Branch[] = [];
  const stack: number[] = [];
  const openLoops: Loop[] = [];
  const openBranches: Branch[] = [];
  const reusable = u8(0, positions);
  const enclosing = i32(1, positions);
  const breaks = i32(2, positions + 1);
  breaks[0] = 0;
  const breaking = u8(1, positions);
  const start = i32(3, dwords);
  const end = i32(4, dwords);
  const count = i32(5, dwords).fill(0, 0, dwords);
  /** Per dword: index in the occurrence lists of its last occurrence (-1: none yet). */
  const last = i32(6, dwords).fill(-1, 0, dwords);
  const named: number[] = [];
  const seen = u8(2, vregs.length).fill(0, 0, vregs.length);
  // Occurrences in position order: (dword, position, how).
  occDword.length = occPosition.length = occFlags.length = 0;
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
    const flags = flagsOf(inst.mnemonic);
    reusable[pos] = flags & REUSE;
    enclosing[pos] = stack.length > 0 ? stack[stack.length - 1]! : -1;
    const breaksHere = breaksStraightLine(inst, flags);
    breaking[pos] = breaksHere ? 1 : 0;
    breaks[pos + 1] = breaks[pos]! + (pendingBreak ? 1 : 0) + (breaksHere ? 1 : 0);
    pendingBreak = false;
    const operands = inst.operands;
    for (let j = 0; j < operands.length; j++) {
      const o = operands[j]!;
      if (o.k !== "vreg") continue;
      const flag = j < defined ? WRITE : READ;
      const r = o.r;
      if (seen[r.id] === 0) {
        seen[r.id] = 1;
        named.push(r.id);
      }
      const first = base[r.id]!;
      for (let d = first + o.sub; d < first + o.sub + o.n; d++) {
        const at = last[d]!;
        if (at < 0) {
          // A hardware-initialized register holds its value from the first instruction on.
          start[d] = r.fixed !== undefined ? 0 : pos;
        } else if (occPosition.data[at] === pos) {
          occFlags.data[at]! |= flag;
          continue;
        }
        last[d] = occDword.length;
        occDword.push(d);
        occPosition.push(pos);
        occFlags.push(flag);
        count[d]!++;
        end[d] = pos;
      }
    }
    pos++;
  }
  // Occurrences grouped by dword (a stable counting sort keeps position order).
  const occStart = i32(7, dwords + 1);
  const fillAt = i32(8, dwords);
  occStart[0] = 0;
  for (let d = 0; d < dwords; d++) {
    const at = occStart[d] ?? 0;
    fillAt[d] = at;
    occStart[d + 1] = at + (count[d] ?? 0);
  }
  const total = occDword.length;
  const occPos = i32(9, total);
  const occHow = i32(10, total);
  for (let i = 0; i < total; i++) {
    const k = fillAt[occDword.data[i]!]!++;
    occPos[k] = occPosition.data[i]!;
    occHow[k] = occFlags.data[i]!;
  }
  // Inner loops first (they end first); repeat until nothing grows (an extension can reach an outer loop).
  loops.sort((a, b) => a.end - a.begin - (b.end - b.begin));
  const widened = u8(3, dwords).fill(0, 0, dwords);
  if (loops.length > 0) {
    for (let d = 0; d < dwords; d++) {
      if (count[d] === 0) continue;
      let lo = start[d]!, hi = end[d]!;
      for (let changed = true; changed; ) {
        changed = false;
        for (const l of loops) {
          const touches = hi >= l.begin && lo < l.end;
          if (touches && (lo < l.begin || hi >= l.end) && (lo > l.begin || hi < l.end)) {
            lo = Math.min(lo, l.begin);
            hi = Math.max(hi, l.end);
            widened[d] = 1;
            changed = true;
          }
        }
      }
      start[d] = lo;
      end[d] = hi;
    }
  }
  return {
    base, occStart, occPos, occHow, start, end, widened,
    segCount: u8(4, dwords),
    segStart: i32(11, 2 * dwords),
    segEnd: i32(12, 2 * dwords),
    segStartsWithWrite: u8(5, 2 * dwords),
    segEndsWithRead: u8(6, 2 * dwords),
    named, loops, branches, reusable, enclosing, breaks, breaking,
  };
}

/** The first index i in [lo, hi) of `at` with at[i] >= p (hi when none). */
function firstAtOrAfter(at: Int32Array, lo: number, hi: number, p: number): number {
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (at[mid]! < p) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** Removes (lo, hi) from dword d's one segment; the pieces keep their ends' read/write facts. */
function cut(s: Scan, d: number, lo: number, hi: number, endsWithRead: boolean, startsWithWrite: boolean): void {
  const k = 2 * d;
  const segStart = s.segStart[k]!, segEnd = s.segEnd[k]!, sw = s.segStartsWithWrite[k]!, er = s.segEndsWithRead[k]!;
  if (segEnd <= lo || segStart >= hi) return;
  let n = 0;
  if (segStart <= lo) {
    s.segStart[k] = segStart;
    s.segEnd[k] = lo;
    s.segStartsWithWrite[k] = sw;
    s.segEndsWithRead[k] = endsWithRead ? 1 : 0;
    n++;
  }
  if (segEnd >= hi) {
    s.segStart[k + n] = hi;
    s.segEnd[k + n] = segEnd;
    s.segStartsWithWrite[k + n] = startsWithWrite ? 1 : 0;
    s.segEndsWithRead[k + n] = er;
    n++;
  }
  s.segCount[d] = n;
}

/** Dword d's segments: its range, less the holes (module comment). */
function segmentsOf(s: Scan, d: number, cls: RegClass, fixed: boolean): void {
  const o0 = s.occStart[d]!, o1 = s.occStart[d + 1]!;
  const at = s.occPos;
  const dStart = s.start[d]!, dEnd = s.end[d]!;
  const first = s.occHow[o0]!, last = s.occHow[o1 - 1]!;
  const widenedStart = dStart < at[o0]!, widenedEnd = dEnd > at[o1 - 1]!;
  s.segCount[d] = 1;
  s.segStart[2 * d] = dStart;
  s.segEnd[2 * d] = dEnd;
  s.segStartsWithWrite[2 * d] = !fixed && !widenedStart && first === WRITE ? 1 : 0;
  s.segEndsWithRead[2 * d] = !widenedEnd && last === READ ? 1 : 0;
  let across = false;
  for (const l of s.loops) if (dStart < l.begin && dEnd >= l.end) across = true;
  if (s.widened[d] === 0 && !across) {
    // The widest then side it lives across without an occurrence there, ending on the else side.
    let best: Branch | undefined;
    for (const b of s.branches) {
      if ((b.divergent && cls !== "v") || !(dStart < b.thenStart && dEnd >= b.elseStart && dEnd < b.join)) continue;
      if (best && b.elseStart - b.thenStart <= best.elseStart - best.thenStart) continue;
      const i = firstAtOrAfter(at, o0, o1, b.thenStart);
      if (i < o1 && at[i]! < b.elseStart) continue;
      best = b;
    }
    if (best) cut(s, d, best.thenStart - 1, best.elseStart, false, false);
    return;
  }
  for (const l of s.loops) {
    if (!(dStart < l.begin && dEnd >= l.end)) continue;
    // Live through loop l: every occurrence in it before the first write w only reads; w
    // only writes, at l's top level, straight-line after the last read r.
    const i0 = firstAtOrAfter(at, o0, o1, l.begin);
    let i = i0;
    while (i < o1 && at[i]! < l.end && s.occHow[i] === READ) i++;
    if (i === i0 || i >= o1 || at[i]! >= l.end || s.occHow[i] !== WRITE) continue;
    const r = at[i - 1]!, w = at[i]!;
    if (s.enclosing[w] !== l.id || s.breaking[r] || s.breaks[w + 1]! - s.breaks[r + 1]! !== 0) continue;
    cut(s, d, r, w, true, true);
    return;
  }
}

/**
 * Register ids by first position, then id (a total order, so the result is that of any
 * sort). Insertion sort: the ids arrive in first-occurrence order, out of place only where
 * a range was widened over a loop or starts at entry (hardware-initialized), so it moves few.
 */
function sortByFirst(ids: number[], firstOf: Int32Array): number[] {
  // Past a budget of moves (many values out of place), the general sort finishes the job.
  let budget = 8 * ids.length + 64;
  for (let i = 1; i < ids.length; i++) {
    const id = ids[i]!;
    const f = firstOf[id]!;
    let j = i - 1;
    for (; j >= 0; j--) {
      const other = ids[j]!;
      const g = firstOf[other]!;
      if (g < f || (g === f && other < id)) break;
      ids[j + 1] = other;
    }
    ids[j + 1] = id;
    budget -= i - 1 - j;
    if (budget < 0) return ids.sort((a, b) => firstOf[a]! - firstOf[b]! || a - b);
  }
  return ids;
}

export function allocateRegisters(program: MachineProgram, limits: AllocationLimits): Allocation {
  const s = scan(program);
  const vregs = program.vregs;
  const { base, occStart, segCount, segStart, segEnd, segStartsWithWrite, segEndsWithRead, reusable } = s;
  const firstOf = i32(13, vregs.length);
  for (const id of s.named) {
    const r = vregs[id]!;
    let first = 0x7fffffff;
    for (let d = base[id]!; d < base[id + 1]!; d++) {
      if (occStart[d + 1] === occStart[d]) continue;
      segmentsOf(s, d, r.cls, r.fixed !== undefined);
      if (s.start[d]! < first) first = s.start[d]!;
    }
    firstOf[id] = first;
  }
  const order = sortByFirst(s.named, firstOf);
  /** Per class and physical register: the segments (2 × dword + slot) of the values assigned to it. */
  const occupied: Record<RegClass, number[][]> = { s: [], v: [] };
  const limit: Record<RegClass, number> = { s: limits.sgprs, v: limits.vgprs };
  const used: Record<RegClass, number> = { s: 0, v: 0 };
  const physicalById = i32(14, vregs.length).fill(-1, 0, vregs.length);
  /** Segments ending before `first` meet no register visited from here on (all start later): dropped. */
  const free = (cls: RegClass, at: number, id: number, first: number): boolean => {
    const r = vregs[id]!;
    for (let j = 0; j < r.n; j++) {
      const d = base[id]! + j;
      if (occStart[d + 1] === occStart[d]) continue;
      const taken = occupied[cls][at + j];
      if (!taken) continue;
      let kept = 0;
      for (let t = 0; t < taken.length; t++) {
        const o = taken[t]!;
        if (segEnd[o]! >= first) taken[kept++] = o;
      }
      if (kept !== taken.length) taken.length = kept;
      for (let m = 2 * d; m < 2 * d + segCount[d]!; m++) {
        const mStart = segStart[m]!, mEnd = segEnd[m]!;
        for (let t = 0; t < kept; t++) {
          const o = taken[t]!;
          const oStart = segStart[o]!, oEnd = segEnd[o]!;
          if (oStart > mEnd || mStart > oEnd) continue;
          // Touching at one instruction that reads one and only writes the other.
          if (oEnd === mStart && segEndsWithRead[o] && segStartsWithWrite[m] && reusable[mStart]) continue;
          if (mEnd === oStart && segEndsWithRead[m] && segStartsWithWrite[o] && reusable[oStart]) continue;
          return false;
        }
      }
    }
    return true;
  };
  const take = (cls: RegClass, at: number, id: number): void => {
    const r = vregs[id]!;
    for (let j = 0; j < r.n; j++) {
      const d = base[id]! + j;
      if (occStart[d + 1] === occStart[d]) continue;
      const taken = occupied[cls][at + j];
      const count = segCount[d]!;
      // A register's first value: a list of its exact size (a push onto `[]` reserves 17 slots).
      if (!taken) occupied[cls][at + j] = count === 0 ? [] : count === 1 ? [2 * d] : [2 * d, 2 * d + 1];
      else for (let m = 2 * d; m < 2 * d + count; m++) taken.push(m);
    }
    physicalById[id] = at;
    used[cls] = Math.max(used[cls], at + r.n);
  };
  // Fixed registers first: nothing else may sit in them while they are live.
  for (const id of order) {
    const r = vregs[id]!;
    if (r.fixed !== undefined) take(r.cls, r.fixed, id);
  }
  for (const id of order) {
    const r = vregs[id]!;
    if (r.fixed !== undefined) continue;
    const { cls, n } = r;
    const align = cls === "s" ? (n >= 4 ? 4 : n) : limits.alignVgprTuples && n > 1 ? 2 : 1;
    const first = firstOf[id]!;
    let at = 0;
    while (at + n <= limit[cls] && !free(cls, at, id, first)) at += align;
    if (at + n > limit[cls]) return { ok: false, cls, needed: at + n, limit: limit[cls], r };
    take(cls, at, id);
  }
  return { ok: true, physicalById, sgprsUsed: used.s, vgprsUsed: used.v };
}
