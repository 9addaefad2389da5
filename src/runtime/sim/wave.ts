/**
 * The architectural state of one wave (SGPRs incl. VCC, M0 and EXEC, SCC, VGPRs, PC) and of
 * the workgroup around it (LDS), plus the outstanding-memory bookkeeping that s_waitcnt
 * checks: every load's destination registers stay "pending" until a wait retires the load,
 * and an instruction touching a pending register is a missing-wait error.
 */
import { LoomError } from "../../core/errors.js";
import type { IsaFamily } from "./code-object.js";
import type { FlatMemory } from "./memory.js";

/** SGPR file indices: s0..s105, then the special registers at their gfx9 codes. */
export const VCC_LO = 106;
export const M0 = 124;
export const EXEC_LO = 126;
/** Writes to the null register land here (up to 16 dwords); reads of null are constant 0. */
export const NULL_SINK = 128;
export const SGPR_FILE_SIZE = 144;
/** Normalized code meaning the null register. */
export const NULL_CODE = -2;

/** LDS aperture of the flat address space (FLAT instructions whose address falls in it go to LDS). */
export const SHARED_APERTURE_HI = 0x10000;
export const PRIVATE_APERTURE_HI = 0x20000;

export type Counter = "vm" | "vs" | "lgkm";

export interface Outstanding {
  readonly id: number;
  readonly counter: Counter;
  readonly smem: boolean;
  readonly address: number;
  readonly name: string;
  /** Destination registers: SGPR indices (positive) and VGPRs as 1000 + n. */
  readonly regs: readonly number[];
}

export interface WorkgroupState {
  readonly lds: Uint8Array;
  readonly ldsView: DataView;
  readonly id: readonly [number, number, number];
}

export class Wave {
  readonly s = new Uint32Array(SGPR_FILE_SIZE);
  scc = 0;
  pc = 0;
  readonly vu: Uint32Array;
  readonly vi: Int32Array;
  readonly vf: Float32Array;
  state: "running" | "barrier" | "done" = "running";
  /** Outstanding memory operations in issue order. */
  readonly outstanding: Outstanding[] = [];
  /** Per register: id of the outstanding load writing it (0 = none). */
  readonly pendingS = new Int32Array(SGPR_FILE_SIZE);
  readonly pendingV: Int32Array;
  private nextId = 1;
  /** Private (scratch) memory: `scratchBytes` per lane, lane l's at l·scratchBytes (set by the dispatch). */
  scratch: DataView | undefined;
  scratchBytes = 0;

  constructor(
    readonly index: number,
    readonly width: 32 | 64,
    readonly vgprs: number,
    readonly family: IsaFamily,
    readonly group: WorkgroupState,
    readonly memory: FlatMemory,
    readonly kernel: string,
  ) {
    const buffer = new ArrayBuffer(Math.max(1, vgprs) * width * 4);
    this.vu = new Uint32Array(buffer);
    this.vi = new Int32Array(buffer);
    this.vf = new Float32Array(buffer);
    this.pendingV = new Int32Array(Math.max(1, vgprs));
  }

  get execLo(): number {
    return this.s[EXEC_LO]!;
  }
  get execHi(): number {
    return this.width === 64 ? this.s[EXEC_LO + 1]! : 0;
  }
  execZero(): boolean {
    return this.s[EXEC_LO] === 0 && (this.width === 32 || this.s[EXEC_LO + 1] === 0);
  }
  vccZero(): boolean {
    return this.s[VCC_LO] === 0 && (this.width === 32 || this.s[VCC_LO + 1] === 0);
  }

  where(address = this.pc): string {
    return `kernel '${this.kernel}', workgroup (${this.group.id.join(", ")}), wave ${this.index}, instruction at 0x${address.toString(16)}`;
  }

  /** Records a memory operation whose results arrive in `regs` (see Outstanding.regs). */
  issue(counter: Counter, smem: boolean, address: number, name: string, regs: readonly number[]): void {
    const id = this.nextId++;
    this.outstanding.push({ id, counter, smem, address, name, regs });
    for (const r of regs) {
      if (r >= 1000) this.pendingV[r - 1000] = id;
      else this.pendingS[r] = id;
    }
  }

  private retire(op: Outstanding): void {
    const i = this.outstanding.indexOf(op);
    this.outstanding.splice(i, 1);
    for (const r of op.regs) {
      if (r >= 1000) {
        if (this.pendingV[r - 1000] === op.id) this.pendingV[r - 1000] = 0;
      } else if (this.pendingS[r] === op.id) this.pendingS[r] = 0;
    }
  }

  /**
   * s_waitcnt: retire operations of `counter` until at most `allowed` remain. Vector memory
   * returns in order; LDS in order; scalar memory out of order, so with a nonzero lgkm count
   * the simulator assumes the LDS operations finished first (no SMEM result is guaranteed).
   */
  wait(counter: Counter, allowed: number): void {
    let count = 0;
    for (const o of this.outstanding) if (o.counter === counter) count++;
    while (count > allowed) {
      let first: Outstanding | undefined;
      let firstNonSmem: Outstanding | undefined;
      for (const o of this.outstanding) {
        if (o.counter !== counter) continue;
        first ??= o;
        if (!o.smem) {
          firstNonSmem = o;
          break;
        }
      }
      this.retire(allowed > 0 && firstNonSmem ? firstNonSmem : first!);
      count--;
    }
  }

  /** A missing-wait error when any of the registers is still being written by a memory operation. */
  checkPending(sregs: readonly number[], vregs: readonly number[], address: number, name: string): void {
    for (const r of sregs) if (this.pendingS[r] !== 0) this.hazard(this.pendingS[r]!, `s${r}`, address, name);
    for (const r of vregs) if (r < this.pendingV.length && this.pendingV[r] !== 0) this.hazard(this.pendingV[r]!, `v${r}`, address, name);
  }

  private hazard(id: number, reg: string, address: number, name: string): never {
    const op = this.outstanding.find((o) => o.id === id)!;
    throw new LoomError(
      "failed-precondition",
      `missing s_waitcnt: ${name} at 0x${address.toString(16)} uses ${reg}, which ${op.name} at 0x${op.address.toString(16)} is still writing (${op.counter}cnt not waited for) — ${this.where(address)}`,
    );
  }

  laneActive(lane: number): boolean {
    return lane < 32 ? ((this.s[EXEC_LO]! >>> lane) & 1) === 1 : ((this.s[EXEC_LO + 1]! >>> (lane - 32)) & 1) === 1;
  }
}
