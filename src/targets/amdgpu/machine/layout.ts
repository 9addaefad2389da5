/**
 * The code buffer: places instructions and labels, resolves branch fixups (SOPP branches
 * count words from the instruction after the branch, signed 16 bits), and produces the
 * machine words and the assembly listing. Every instruction's size is known before fixups
 * (branches are one word), so one pass sizes and a second encodes.
 */
import { LoomError } from "../../../core/errors.js";
import type { IsaFamily } from "../isa/family.js";
import { encodeInto, formatInstruction, wordsToBytes, type Instruction, type Syntax } from "../isa/encoder.js";
import type { Label } from "./program.js";
import type { PItem } from "./waitcnt.js";

export interface LaidOut {
  readonly program: readonly Instruction[];
  /** The machine words (the code object writes them into `.text` directly). */
  readonly words: readonly number[];
  /** The words as little-endian bytes; made on first read. */
  readonly code: Uint8Array;
  /** Assembly text: `.LBB<n>:` labels and one instruction per line (llvm-mc-19 assembles it to `code`); made on first read. */
  readonly listing: string;
}

export function layout(items: readonly PItem[], family: IsaFamily, syntax: Syntax): LaidOut {
  const at = new Map<Label, number>();
  const words: number[] = [];
  const fixups: { index: number; target: Label; inst: Instruction; k: number }[] = [];
  const program: Instruction[] = [];
  for (const item of items) {
    if (item.kind === "label") at.set(item.label, words.length);
    if (item.kind !== "inst") continue;
    // Branches are one SOPP word: encode with offset 0, patch the 16-bit field below.
    if (item.target) fixups.push({ index: words.length, target: item.target, inst: item.inst, k: program.length });
    program.push(item.inst);
    encodeInto(item.target && item.inst.simm !== 0 ? { ...item.inst, simm: 0 } : item.inst, family, words);
  }
  for (const f of fixups) {
    const dest = at.get(f.target);
    if (dest === undefined) throw new LoomError("internal", "AMDGPU layout: a branch to a label never placed");
    const simm = dest - (f.index + 1);
    if (simm < -32768 || simm > 32767) throw new LoomError("internal", `AMDGPU layout: branch of ${simm} words does not fit 16 bits`);
    words[f.index] = (((words[f.index] ?? 0) & 0xffff0000) | (simm & 0xffff)) >>> 0;
    program[f.k] = { ...f.inst, simm };
  }
  return new LaidOutCode(program, words, items, family, syntax);
}

/** A class, not an object literal with a getter (those are built slowly, once per compile). */
class LaidOutCode implements LaidOut {
  #listing: string | undefined;
  #code: Uint8Array | undefined;
  constructor(
    readonly program: readonly Instruction[],
    readonly words: readonly number[],
    private readonly items: readonly PItem[],
    private readonly family: IsaFamily,
    private readonly syntax: Syntax,
  ) {}
  get code(): Uint8Array {
    return (this.#code ??= wordsToBytes(this.words));
  }
  get listing(): string {
    return (this.#listing ??= printListing(this.items, this.program, this.family, this.syntax));
  }
}

function printListing(items: readonly PItem[], program: readonly Instruction[], family: IsaFamily, syntax: Syntax): string {
  const names = new Map<Label, string>();
  for (const item of items) if (item.kind === "label") names.set(item.label, `.LBB${names.size}`);
  const lines: string[] = [];
  let k = 0;
  for (const item of items) {
    if (item.kind === "label") lines.push(`${names.get(item.label)}:`);
    if (item.kind !== "inst") continue;
    // program holds one (fixed-up) instruction per instruction item, in order.
    const inst = program[k++] ?? item.inst;
    // Branches print their label (llvm-mc resolves it to the same offset).
    const text = item.target ? `${formatInstruction(inst, family, syntax).replace(/ -?\d+$/, "")} ${names.get(item.target)}` : formatInstruction(inst, family, syntax);
    lines.push(`\t${text}`);
  }
  return lines.join("\n") + "\n";
}
