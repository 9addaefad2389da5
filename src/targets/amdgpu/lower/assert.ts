/**
 * `kernel.assert %ok`: the wave traps when any active lane's condition is false, through the
 * HSA trap handler ABI LLVM uses for `llvm.trap` (AMDGPUUsage "Trap Handler ABI": `s_trap 2`;
 * gfx9+ needs no queue pointer in SGPR0-1 since the handler reads the doorbell). The failing
 * lanes are EXEC & ~ok, so the branch around the trap is a scalar one on that mask:
 *
 *   s_andn2_b{32,64} t, exec, ok     ; SCC = some active lane failed
 *   s_cbranch_scc0 OK
 *   s_trap 2                         ; the handler halts the wave and puts the queue in the error state
 * OK:
 *
 * The message stays in the kernel-interface record's source; the code carries no string.
 */
import { imm } from "../isa/operands.js";
import { part } from "../machine/program.js";
import { asMask } from "./arith.js";
import { operandOf, type Rule } from "./context.js";

/** The trap ID of `llvm.trap` in the HSA trap handler ABI. */
export const LLVM_TRAP_ID = 2;

export const assertRule: Rule = (cx, op) => {
  const ok = cx.scalar(operandOf(op, 0));
  if (ok.c !== undefined && ok.c !== 0n) return;
  const failing = cx.vreg("s", cx.maskDwords);
  cx.emit(cx.maskOp("s_andn2"), [part(failing), cx.exec, ok.c !== undefined ? imm(0) : asMask(cx, ok)]);
  const pass = cx.label();
  cx.branch("s_cbranch_scc0", pass);
  cx.program.branch("then", false);
  cx.program.emit({ mnemonic: "s_trap", operands: [], simm: LLVM_TRAP_ID });
  cx.program.branch("else", false);
  cx.program.branch("end", false);
  cx.place(pass);
};
