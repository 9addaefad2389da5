/** What the per-format compilers hand the wave loop. */
import type { IsaFamily, SimKernel } from "./code-object.js";
import type { Instruction } from "./decode.js";
import type { Wave } from "./wave.js";

export interface CompileContext {
  readonly family: IsaFamily;
  readonly width: 32 | 64;
  readonly kernel: SimKernel;
}

export interface Compiled {
  readonly inst: Instruction;
  /** Runs the instruction; the loop has already set w.pc to the next instruction (branches overwrite it). */
  readonly exec: (w: Wave) => void;
  /** Registers the instruction reads or writes (SGPR file indices, VGPR numbers), for the missing-wait check. */
  readonly sregs: readonly number[];
  readonly vregs: readonly number[];
}
