/**
 * The code buffer: places instructions and labels, resolves branch fixups (SOPP branches
 * count words from the instruction after the branch, signed 16 bits), and produces the
 * machine words and the assembly listing. Every instruction's size is known before fixups
 * (branches are one word), so one pass sizes and a second encodes.
 */
import { LoomError } from "../../../core/errors.js";
import type { IsaFamily } from "../isa/family.js";
import { encodeInstruction, formatInstruction, type Instruction, type Syntax } from "../isa/encoder.js";
import type { Label } from "./program.js";
import type { PItem } from "./waitcnt.js";

export interface LaidOut {
  readonly program: readonly Instruction[];
  readonly code: Uint8Array;
  /** Assembly text: `.LBB<n>:` labels and one instruction per line (llvm-mc-19 assembles it to `code`). */
  readonly listing: string;
}

export function layout(items: readonly PItem[], family: IsaFamily, syntax: Syntax): LaidOut {
  const at = new Map<Label, number>();
  let words = 0;
  const sized: { inst: Instruction; target?: Label; word: number }[] = [];
  for (const item of items) {
    if (item.kind === "label") at.set(item.label, words);
    if (item.kind !== "inst") continue;
    const probe = item.target ? { ...item.inst, simm: 0 } : item.inst;
    sized.push(item.target ? { inst: item.inst, target: item.target, word: words } : { inst: item.inst, word: words });
    words += encodeInstruction(probe, family).length;
  }
  const program = sized.map(({ inst, target, word }) => {
    if (!target) return inst;
    const dest = at.get(target);
    if (dest === undefined) throw new LoomError("internal", "AMDGPU layout: a branch to a label never placed");
    const simm = dest - (word + 1);
    if (simm < -32768 || simm > 32767) throw new LoomError("internal", `AMDGPU layout: branch of ${simm} words does not fit 16 bits`);
    return { ...inst, simm };
  });
  const encoded = program.flatMap((i) => encodeInstruction(i, family));
  const code = new Uint8Array(encoded.length * 4);
  const view = new DataView(code.buffer);
  encoded.forEach((w, i) => view.setUint32(i * 4, w, true));

  const names = new Map<Label, string>();
  for (const item of items) if (item.kind === "label") names.set(item.label, `.LBB${names.size}`);
  const lines: string[] = [];
  let k = 0;
  for (const item of items) {
    if (item.kind === "label") lines.push(`${names.get(item.label)}:`);
    if (item.kind !== "inst") continue;
    const inst = program[k++]!;
    // Branches print their label (llvm-mc resolves it to the same offset).
    const text = item.target ? `${formatInstruction(inst, family, syntax).replace(/ -?\d+$/, "")} ${names.get(item.target)}` : formatInstruction(inst, family, syntax);
    lines.push(`\t${text}`);
  }
  return { program, code, listing: lines.join("\n") + "\n" };
}
