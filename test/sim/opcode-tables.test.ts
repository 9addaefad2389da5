/**
 * src/runtime/sim/opcodes.ts (the decoder's opcode → name tables) is what llvm-mc-19 names
 * each opcode of each format, per family (test/sim/opcode-capture.ts). Checked live where
 * llvm-mc-19 exists (always in CI); `UPDATE=1` rewrites the file.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync, writeFileSync } from "node:fs";
import { fromRoot } from "../util/paths.js";
import { UPDATING } from "../util/golden.js";
import { requireTool } from "../util/tools.js";
import { captureOpcodeTables, renderOpcodeModule } from "./opcode-capture.js";

const MODULE = fromRoot("src", "runtime", "sim", "opcodes.ts");

test("the simulator's opcode tables are LLVM 19's names for every opcode", (t) => {
  if (!requireTool(t, "llvm-mc-19", "apt-get install llvm-19")) return;
  const text = renderOpcodeModule({ gfx11: captureOpcodeTables("gfx11"), gfx9: captureOpcodeTables("gfx9") });
  if (UPDATING) writeFileSync(MODULE, text);
  assert.equal(readFileSync(MODULE, "utf8"), text, "src/runtime/sim/opcodes.ts is stale: rerun with UPDATE=1 and review the diff");
});
