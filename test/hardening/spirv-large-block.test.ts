/**
 * Issue 12 item 4: one block of 150,000 instructions (a straight-line kernel that long) used
 * to end in "Maximum call stack size exceeded" when the function was assembled; the builder
 * and the module append element by element now.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { FunctionBuilder } from "../../src/targets/spirv/function.js";
import * as I from "../../src/targets/spirv/instructions.js";

test("a SPIR-V function with a 150,000-instruction block assembles", () => {
  const f = new FunctionBuilder(1, 2, 3, 4);
  const nop: I.Instruction = { opcode: 0, operands: [] }; // OpNop
  for (let i = 0; i < 150_000; i++) f.emit(nop);
  f.terminate(I.returnVoid());
  const out = f.finish();
  // OpFunction, OpLabel, the block, OpReturn, OpFunctionEnd.
  assert.equal(out.length, 150_000 + 4);
});
