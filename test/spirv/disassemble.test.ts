/**
 * The SPIR-V disassembler (src/targets/spirv/disassemble.ts) on hand-built words: every
 * constant form, masks and enumerants print as spirv-dis prints them (compared live where
 * spirv-dis exists, against fixed text always), and malformed input is an error.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { disassembleSpirv } from "../../src/targets/spirv/disassemble.js";
import {
  capability, constant, encodeInstruction, extInstImport, loopMerge, memoryModel, name, selectionMerge, typeFloat, typeInt, type Instruction,
} from "../../src/targets/spirv/instructions.js";
import { AddressingModel, Capability, GENERATOR, LoopControl, MAGIC, MemoryModel, SelectionControl, VERSION_1_6 } from "../../src/targets/spirv/spec.js";
import { requireTool } from "../util/tools.js";
import { spirvDis } from "./helpers.js";

function moduleBytes(instructions: readonly Instruction[], bound = 100): Uint8Array {
  const words = [MAGIC, VERSION_1_6, GENERATOR, bound, 0];
  for (const i of instructions) encodeInstruction(i, words);
  return new Uint8Array(new Uint32Array(words).buffer);
}

const f32 = (x: number) => new Uint32Array(new Float32Array([x]).buffer)[0] ?? 0;
const f64 = (x: number) => [...new Uint32Array(new Float64Array([x]).buffer)];

const SAMPLE = moduleBytes([
  capability(Capability.Shader),
  capability(Capability.Float16),
  extInstImport(9, "GLSL.std.450"),
  memoryModel(AddressingModel.Logical, MemoryModel.GLSL450),
  name(3, "grüße \"quoted\""),
  typeInt(1, 32, 1),
  typeInt(2, 64, 0),
  typeFloat(4, 16),
  typeFloat(5, 32),
  typeFloat(6, 64),
  constant(1, 10, [0xfffffff6]),
  constant(2, 11, [0xffffffff, 0xffffffff]),
  constant(4, 12, [0x3e00]),
  constant(4, 13, [0x0001]),
  constant(5, 14, [f32(0.1)]),
  constant(5, 15, [f32(1e20)]),
  constant(5, 16, [f32(-0)]),
  constant(5, 17, [f32(1.5e-5)]),
  constant(5, 18, [0x7fc00000]),
  constant(5, 19, [f32(Infinity)]),
  constant(6, 20, f64(1 / 3)),
  constant(6, 21, f64(123456789)),
  loopMerge(30, 31, LoopControl.Unroll),
  selectionMerge(32, SelectionControl.None),
]);

const EXPECTED = `; SPIR-V 1.6
; Generator: 0x00000001
; Bound: 100
; Schema: 0
OpCapability Shader
OpCapability Float16
%9 = OpExtInstImport "GLSL.std.450"
OpMemoryModel Logical GLSL450
OpName %3 "grüße \\"quoted\\""
%1 = OpTypeInt 32 1
%2 = OpTypeInt 64 0
%4 = OpTypeFloat 16
%5 = OpTypeFloat 32
%6 = OpTypeFloat 64
%10 = OpConstant %1 -10
%11 = OpConstant %2 18446744073709551615
%12 = OpConstant %4 0x1.8p+0
%13 = OpConstant %4 0x1p-24
%14 = OpConstant %5 0.100000001
%15 = OpConstant %5 1.00000002e+20
%16 = OpConstant %5 -0
%17 = OpConstant %5 1.49999996e-05
%18 = OpConstant %5 0x1.8p+128
%19 = OpConstant %5 0x1p+128
%20 = OpConstant %6 0.33333333333333331
%21 = OpConstant %6 123456789
OpLoopMerge %30 %31 Unroll
OpSelectionMerge %32 None
`;

test("disassembly of hand-built words: constants, strings, enumerants, masks", () => {
  assert.equal(disassembleSpirv(SAMPLE), EXPECTED);
});

test("each line is what spirv-dis --raw-id prints", (t) => {
  if (!requireTool(t, "spirv-dis", "apt-get install spirv-tools")) return;
  const theirs = spirvDis(SAMPLE, true).split("\n").map((l) => l.trim()).filter((l) => l && !l.startsWith(";"));
  const ours = EXPECTED.split("\n").filter((l) => l && !l.startsWith(";"));
  assert.deepEqual(ours, theirs);
});

test("malformed modules are errors, never guesses", () => {
  assert.throws(() => disassembleSpirv(new Uint8Array(8)), /not 5\+ whole words/);
  assert.throws(() => disassembleSpirv(moduleBytes([]).map((b, i) => (i === 0 ? 0 : b))), /bad SPIR-V magic/);
  const unknown = moduleBytes([{ opcode: 4, operands: [] }]);
  assert.throws(() => disassembleSpirv(unknown), /opcode 4 is not one loom emits/);
  const long = moduleBytes([{ opcode: capability(Capability.Shader).opcode, operands: [1, 2] }]);
  assert.throws(() => disassembleSpirv(long), /words more than its grammar/);
  const truncated = moduleBytes([capability(Capability.Shader)]).slice(0, 20 + 4);
  const view = new DataView(truncated.buffer);
  view.setUint32(20, (3 << 16) | 17, true);
  assert.throws(() => disassembleSpirv(truncated), /runs past the end/);
});
