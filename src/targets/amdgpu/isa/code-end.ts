/**
 * Padding after the last kernel of a code object, as LLVM's AMDGPU asm printer emits it
 * (`EmitCodeEnd`): align to the instruction cache line with the pad instruction, then a
 * fixed run of it, so instruction prefetch past the end of code reads harmless words.
 * gfx10+ pads with `s_code_end` (three cache lines); gfx90a/gfx94x with `s_nop 0`
 * (sixteen 64-byte lines); other gfx9 processors get none.
 */
import type { IsaFamily } from "./family.js";
import { instruction, type Instruction } from "./encoder.js";

export interface CodeEndPadding {
  readonly pad: Instruction;
  readonly cacheLineBytes: number;
  readonly fillBytes: number;
}

export function codeEndPadding(family: IsaFamily, gfx90aInsts: boolean): CodeEndPadding | undefined {
  if (family === "gfx9") {
    return gfx90aInsts ? { pad: instruction("s_nop", 0), cacheLineBytes: 64, fillBytes: 16 * 64 } : undefined;
  }
  const line = family === "gfx10" ? 64 : 128;
  return { pad: instruction("s_code_end"), cacheLineBytes: line, fillBytes: 3 * line };
}

/** Alignment filler between kernels inside `.text` (the assembler's nop fill). */
export const ALIGNMENT_FILL: Instruction = instruction("s_nop", 0);
