/**
 * The instruction table: one row per instruction, with its format, operands and the
 * opcode in each family that has it (a missing family means "not available there").
 * Opcodes are from the AMD ISA guides (Vega/CDNA, RDNA2, RDNA3, RDNA4) and agree with
 * `llvm-mc-19 -show-encoding` (test/amdgpu/isa.test.ts). Extend by adding rows.
 */
import type { IsaFamily } from "./family.js";
import type { FormatName } from "./formats.js";

/** An immediate operand and the range loom allows for it. */
export interface ImmediateOperand {
  readonly kind: "simm16";
  readonly name: string;
  readonly min: number;
  readonly max: number;
}

export interface InstructionDef {
  readonly mnemonic: string;
  readonly format: FormatName;
  readonly operands: readonly ImmediateOperand[];
  readonly opcodes: Readonly<Partial<Record<IsaFamily, number>>>;
  readonly doc: string;
}

function def(d: InstructionDef): [string, InstructionDef] {
  return [d.mnemonic, Object.freeze(d)];
}

export const INSTRUCTIONS: ReadonlyMap<string, InstructionDef> = new Map([
  def({
    mnemonic: "s_nop",
    format: "SOPP",
    // SIMM16[3:0] = wait states − 1 on every family here; higher bits are not portable.
    operands: [{ kind: "simm16", name: "waitStatesMinusOne", min: 0, max: 15 }],
    opcodes: { gfx9: 0x00, gfx10: 0x00, gfx11: 0x00, gfx12: 0x00 },
    doc: "Do nothing for 1..16 wait states; also the alignment filler between kernels.",
  }),
  def({
    mnemonic: "s_endpgm",
    format: "SOPP",
    operands: [],
    opcodes: { gfx9: 0x01, gfx10: 0x01, gfx11: 0x30, gfx12: 0x30 },
    doc: "End of program; terminates the wavefront.",
  }),
  def({
    mnemonic: "s_code_end",
    format: "SOPP",
    operands: [],
    opcodes: { gfx10: 0x1f, gfx11: 0x1f, gfx12: 0x1f },
    doc: "Marks the end of a code object's code; padding after the last kernel (gfx10+).",
  }),
]);
