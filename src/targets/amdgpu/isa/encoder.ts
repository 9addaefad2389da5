/**
 * The instruction encoder: an `Instruction` (mnemonic + operands) becomes little-endian
 * machine words for one ISA family by looking it up in the instruction table. Asking for
 * an instruction a family lacks, or an operand out of range, is a compiler bug (the
 * lowering chose it), so it throws `LoomError("internal")`.
 */
import { LoomError } from "../../../core/errors.js";
import type { IsaFamily } from "./family.js";
import { SOPP } from "./formats.js";
import { INSTRUCTIONS, type InstructionDef } from "./opcodes.js";

export interface Instruction {
  readonly mnemonic: string;
  readonly operands: readonly number[];
}

export function instruction(mnemonic: string, ...operands: number[]): Instruction {
  return { mnemonic, operands };
}

function lookup(mnemonic: string): InstructionDef {
  const d = INSTRUCTIONS.get(mnemonic);
  if (!d) throw new LoomError("internal", `AMDGPU encoder: unknown instruction '${mnemonic}'`);
  return d;
}

export function isAvailable(mnemonic: string, family: IsaFamily): boolean {
  return INSTRUCTIONS.get(mnemonic)?.opcodes[family] !== undefined;
}

/** Machine words of one instruction. */
export function encodeInstruction(inst: Instruction, family: IsaFamily): number[] {
  const d = lookup(inst.mnemonic);
  const opcode = d.opcodes[family];
  if (opcode === undefined) throw new LoomError("internal", `AMDGPU encoder: ${inst.mnemonic} does not exist on ${family}`);
  if (inst.operands.length !== d.operands.length) {
    throw new LoomError("internal", `AMDGPU encoder: ${inst.mnemonic} takes ${d.operands.length} operand(s), got ${inst.operands.length}`);
  }
  d.operands.forEach((spec, i) => {
    const v = inst.operands[i]!;
    if (!Number.isInteger(v) || v < spec.min || v > spec.max) {
      throw new LoomError("internal", `AMDGPU encoder: ${inst.mnemonic} operand ${spec.name} = ${v} is outside ${spec.min}..${spec.max}`);
    }
  });
  switch (d.format) {
    case "SOPP":
      return SOPP.encode(opcode, inst.operands[0] ?? 0);
  }
}

/** Assembly text as LLVM prints it (`s_nop 7`, `s_endpgm`). */
export function formatInstruction(inst: Instruction): string {
  return inst.operands.length === 0 ? inst.mnemonic : `${inst.mnemonic} ${inst.operands.join(", ")}`;
}

/** A straight-line program as little-endian bytes. */
export function encodeProgram(program: readonly Instruction[], family: IsaFamily): Uint8Array {
  const words = program.flatMap((i) => encodeInstruction(i, family));
  const bytes = new Uint8Array(words.length * 4);
  const view = new DataView(bytes.buffer);
  words.forEach((w, i) => view.setUint32(i * 4, w, true));
  return bytes;
}
