/**
 * A kernel's code as the wave loop runs it: instructions are decoded and compiled into closures
 * on first execution and cached by address, so code that is never reached is never required
 * to be supported. Each compiled instruction is checked against the kernel's declared register
 * counts (metadata .vgpr_count / .sgpr_count).
 */
import { LoomError } from "../../core/errors.js";
import type { CodeObject, SimKernel } from "./code-object.js";
import type { Compiled, CompileContext } from "./compiled.js";
import { decodeInstruction, type Instruction } from "./decode.js";
import { canonicalName } from "./names.js";
import { compileScalar } from "./scalar.js";
import { compileVector } from "./vector.js";
import { compileDs, compileFlat, compileMubuf } from "./vmem.js";

/** Plain SGPRs are s0..s105; codes above are VCC, trap temporaries, M0, EXEC. */
const LAST_PLAIN_SGPR = 105;

export class KernelProgram {
  /** Compiled instructions by (address - section start) / 4. */
  private readonly cache: (Compiled | undefined)[] = [];
  private readonly view: DataView;
  private readonly ctx: CompileContext;

  constructor(
    readonly code: CodeObject,
    readonly kernel: SimKernel,
  ) {
    const bytes = code.elf.bytes;
    this.view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    this.ctx = { family: code.family, width: kernel.wavefrontSize, kernel };
  }

  /** The instruction word at a virtual address of the kernel's code section. */
  fetch = (address: number): number => {
    const s = this.kernel.codeSection;
    if (address < s.address || address + 4 > s.address + s.size) {
      throw new LoomError("out-of-range", `kernel '${this.kernel.name}': the program counter 0x${address.toString(16)} left its code section (${s.name}, 0x${s.address.toString(16)}..0x${(s.address + s.size).toString(16)})`);
    }
    return this.view.getUint32(s.offset + (address - s.address), true);
  };

  decode(address: number): Instruction {
    return decodeInstruction(this.code.family, this.fetch, address);
  }

  at(address: number): Compiled {
    const slot = (address - this.kernel.codeSection.address) / 4;
    const hit = this.cache[slot];
    if (hit) return hit;
    return this.compile(address, slot);
  }

  private compile(address: number, slot: number): Compiled {
    let c: Compiled;
    const inst = this.decode(address);
    c = compileInstruction(inst, this.ctx);
    for (const v of c.vregs) {
      if (v >= this.kernel.vgprCount) {
        throw new LoomError("failed-precondition", `kernel '${this.kernel.name}': ${inst.name} at 0x${address.toString(16)} uses v${v}, but the kernel declares ${this.kernel.vgprCount} VGPRs (.vgpr_count)`);
      }
    }
    for (const s of c.sregs) {
      if (s <= LAST_PLAIN_SGPR && s >= this.kernel.sgprCount) {
        throw new LoomError("failed-precondition", `kernel '${this.kernel.name}': ${inst.name} at 0x${address.toString(16)} uses s${s}, but the kernel declares ${this.kernel.sgprCount} SGPRs (.sgpr_count)`);
      }
    }
    this.cache[slot] = c;
    return c;
  }
}

export function compileInstruction(inst: Instruction, ctx: CompileContext): Compiled {
  const name = canonicalName(inst.name, ctx.family);
  switch (inst.format) {
    case "SOP1":
    case "SOP2":
    case "SOPK":
    case "SOPC":
    case "SOPP":
    case "SMEM":
      return compileScalar(inst, name, ctx);
    case "VOP1":
    case "VOP2":
    case "VOPC":
    case "VOP3":
    case "VOP3P":
    case "VOPD":
      return compileVector(inst, name, ctx);
    case "DS":
      return compileDs(inst, name, ctx);
    case "FLAT":
    case "GLOBAL":
    case "SCRATCH":
      return compileFlat(inst, name, ctx);
    case "MUBUF":
      return compileMubuf(inst, name, ctx);
  }
}
