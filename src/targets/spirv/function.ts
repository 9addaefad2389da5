/**
 * A SPIR-V function under construction, one basic block at a time.
 *
 * Exactly one block is open while code is emitted (`emit`); `terminate` closes it with its
 * terminator (preceded by a merge instruction for structured headers) and `begin` opens the
 * next, so a block can never be left without a terminator: `finish` refuses an open block.
 * `OpPhi`s may be added to an already closed block (loop headers learn their back-edge
 * values only after the body is lowered); they are written first in their block.
 * `Function`-storage variables go to the entry block's head, as the spec requires.
 */
import * as I from "./instructions.js";
import type { Id, Instruction } from "./instructions.js";
import { FunctionControl } from "./spec.js";

interface Block {
  readonly label: Id;
  readonly phis: Instruction[];
  readonly body: Instruction[];
  closed: boolean;
}

export class FunctionBuilder {
  private readonly blocks: Block[] = [];
  private readonly byLabel = new Map<Id, Block>();
  private readonly localVariables: Instruction[] = [];
  private open: Block | undefined;

  constructor(
    readonly id: Id,
    private readonly resultType: Id,
    private readonly fnType: Id,
    entryLabel: Id,
  ) {
    this.begin(entryLabel);
  }

  /** The label of the open block. */
  get block(): Id {
    if (!this.open) throw new Error("SPIR-V function: no open block");
    return this.open.label;
  }

  begin(label: Id): void {
    if (this.open) throw new Error(`SPIR-V function: block ${this.open.label} is still open`);
    const b: Block = { label, phis: [], body: [], closed: false };
    this.blocks.push(b);
    this.byLabel.set(label, b);
    this.open = b;
  }

  emit(i: Instruction): void {
    if (!this.open) throw new Error("SPIR-V function: emit with no open block");
    this.open.body.push(i);
  }

  /** Closes the open block with `terminator`, after `merge` (OpSelectionMerge/OpLoopMerge) if given. */
  terminate(terminator: Instruction, merge?: Instruction): void {
    const b = this.open;
    if (!b) throw new Error("SPIR-V function: terminate with no open block");
    if (merge) b.body.push(merge);
    b.body.push(terminator);
    b.closed = true;
    this.open = undefined;
  }

  addPhi(block: Id, phi: Instruction): void {
    const b = this.byLabel.get(block);
    if (!b) throw new Error(`SPIR-V function: no block ${block}`);
    b.phis.push(phi);
  }

  /** Declares a `Function`-storage variable (placed at the head of the entry block). */
  addLocalVariable(variable: Instruction): void {
    this.localVariables.push(variable);
  }

  finish(): Instruction[] {
    if (this.open) throw new Error(`SPIR-V function: block ${this.open.label} was never terminated`);
    const out: Instruction[] = [I.functionBegin(this.resultType, this.id, FunctionControl.None, this.fnType)];
    // Element by element: spreading a block of 150,000 instructions would overflow the stack.
    const append = (list: readonly Instruction[]) => {
      for (const inst of list) out.push(inst);
    };
    this.blocks.forEach((b, i) => {
      out.push(I.label(b.label));
      append(b.phis);
      if (i === 0) append(this.localVariables);
      append(b.body);
    });
    out.push(I.functionEnd());
    return out;
  }
}
