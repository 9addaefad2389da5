/**
 * The machine layer: a kernel as a list of machine instructions over virtual registers,
 * with labels and loop markers, before register allocation. Virtual registers have a class
 * (SGPR or VGPR) and a size in dwords (1, 2 or 4: 64-bit values and vector accesses are
 * tuples); an operand may name a dword range of one. Hardware-initialized registers (the
 * kernarg pointer, workgroup ids, workitem ids) are virtual registers fixed to their
 * physical index, so the allocator keeps them there only while they are live.
 *
 * Branches name labels; `layout.ts` turns them into word offsets once sizes are known.
 */
import type { Operand } from "../isa/operands.js";
import type { InstructionDef } from "../isa/opcodes.js";

export type RegClass = "s" | "v";

export interface VReg {
  readonly id: number;
  readonly cls: RegClass;
  readonly n: number;
  /** Physical register the value arrives in (hardware-initialized registers). */
  readonly fixed?: number;
  /** `part`'s operand for the whole register and for each single dword, made once each (absent on registers built elsewhere). */
  whole?: VOperand | undefined;
  dwords?: (VOperand | undefined)[] | undefined;
}

/** A dword range of a virtual register. */
export interface VOperand {
  readonly k: "vreg";
  readonly r: VReg;
  readonly sub: number;
  readonly n: number;
}

export type MOperand = Operand | VOperand;

export interface Label {
  readonly id: number;
}

export interface MInst {
  readonly mnemonic: string;
  readonly operands: readonly MOperand[];
  readonly simm?: number;
  readonly offset?: number;
  readonly glc?: boolean;
  /** gfx94x cache-coherence bit SC1 (device and system scope atomics, `buffer_wbl2`/`buffer_inv`). */
  readonly sc1?: boolean;
  /** Branch target (SOPP branches): layout fills in simm. */
  readonly target?: Label;
  /** The instruction table row of `mnemonic` (KernelLowering.emit looks it up once for every pass). */
  readonly def?: InstructionDef | undefined;
}

export type Item =
  | { readonly kind: "inst"; readonly inst: MInst }
  | { readonly kind: "label"; readonly label: Label }
  /** Loop bounds for liveness: values live around a loop stay live through all of it. */
  | { readonly kind: "loop"; readonly edge: "begin" | "end" }
  /**
   * Bounds of a two-sided `if` for liveness: where the then side starts, where the else side
   * starts, where they join. A value read only on the else side is not live on the then side
   * (a uniform branch runs one side; a divergent one writes only the then lanes there).
   */
  | { readonly kind: "branch"; readonly edge: "then" | "else" | "end"; readonly divergent: boolean };

export class MachineProgram {
  readonly items: Item[] = [];
  readonly vregs: VReg[] = [];
  private labels = 0;

  vreg(cls: RegClass, n: number, fixed?: number): VReg {
    const r: VReg = fixed === undefined ? { id: this.vregs.length, cls, n, whole: undefined, dwords: undefined } : { id: this.vregs.length, cls, n, fixed, whole: undefined, dwords: undefined };
    this.vregs.push(r);
    return r;
  }

  label(): Label {
    return { id: this.labels++ };
  }

  emit(inst: MInst): void {
    this.items.push({ kind: "inst", inst });
  }

  place(label: Label): void {
    this.items.push({ kind: "label", label });
  }

  loop(edge: "begin" | "end"): void {
    this.items.push({ kind: "loop", edge });
  }

  branch(edge: "then" | "else" | "end", divergent: boolean): void {
    this.items.push({ kind: "branch", edge, divergent });
  }
}

/** The whole register, or dwords [sub, sub + n) of it. */
export function part(r: VReg, sub = 0, n = r.n - sub): VOperand {
  // Operands are immutable: selection names the same few ranges of a register many times.
  if (sub === 0 && n === r.n) return (r.whole ??= { k: "vreg", r, sub, n });
  if (n !== 1 || sub >= r.n) return { k: "vreg", r, sub, n };
  const dwords = (r.dwords ??= []);
  return (dwords[sub] ??= { k: "vreg", r, sub, n });
}
