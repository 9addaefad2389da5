/**
 * The simulator on hostile input (fast-check, deterministic seed): random instruction words
 * decode, compile and run — or fail with a LoomError, never another exception; random and
 * truncated code objects are LoomErrors at load. The instruction budget bounds every run.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import fc from "fast-check";
import { LoomError } from "../../src/core/errors.js";
import { loadCodeObject } from "../../src/runtime/sim/code-object.js";
import { decodeInstruction } from "../../src/runtime/sim/decode.js";
import { compileInstruction } from "../../src/runtime/sim/program.js";
import { SimRuntime } from "../../src/runtime/sim/index.js";
import { requireTool } from "../util/tools.js";
import { assembleKernel } from "./asm.js";

const SEED = Number(process.env.FUZZ_SEED ?? 0x51a);
const onlyLoomErrors = (fn: () => void): void => {
  try {
    fn();
  } catch (e) {
    if (!(e instanceof LoomError)) throw e;
  }
};

test("random instruction words decode and compile, or are LoomErrors", () => {
  const kernel = { name: "fuzz" } as Parameters<typeof compileInstruction>[1]["kernel"];
  for (const family of ["gfx11", "gfx9"] as const) {
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 0, max: 0xffffffff }), { minLength: 3, maxLength: 3 }), (words) => {
        onlyLoomErrors(() => {
          const inst = decodeInstruction(family, (a) => words[(a - 0x100) / 4] ?? 0, 0x100);
          assert.ok(inst.size >= 4 && inst.size <= 12);
          compileInstruction(inst, { family, width: family === "gfx9" ? 64 : 32, kernel });
        });
      }),
      { seed: SEED, numRuns: 20000 },
    );
  }
});

test("random bytes and truncated code objects are LoomErrors at load", (t) => {
  fc.assert(
    fc.property(fc.uint8Array({ maxLength: 512 }), (bytes) => onlyLoomErrors(() => void loadCodeObject(bytes))),
    { seed: SEED, numRuns: 2000 },
  );
  if (!requireTool(t, "llvm-mc-19", "apt-get install llvm-19") || !requireTool(t, "ld.lld-19", "apt-get install lld-19")) return;
  const good = assembleKernel("  s_endpgm");
  for (let cut = 0; cut < good.length; cut += 97) onlyLoomErrors(() => void loadCodeObject(good.subarray(0, cut)));
  fc.assert(
    fc.property(fc.array(fc.tuple(fc.nat(good.length - 1), fc.integer({ min: 0, max: 255 })), { maxLength: 8 }), (flips) => {
      const bytes = good.slice();
      for (const [at, v] of flips) bytes[at] = v;
      onlyLoomErrors(() => void loadCodeObject(bytes));
    }),
    { seed: SEED, numRuns: 1000 },
  );
});

test("a kernel of random instruction words runs to its end, a LoomError or the budget", (t) => {
  if (!requireTool(t, "llvm-mc-19", "apt-get install llvm-19") || !requireTool(t, "ld.lld-19", "apt-get install lld-19")) return;
  // One kernel whose body is 64 patchable dwords: each run overwrites them with random words.
  const template = assembleKernel(`${"  s_nop 0\n".repeat(64)}  s_endpgm`, { vgprs: 256, sgprs: 106 });
  const view = new DataView(template.buffer);
  const co = loadCodeObject(template);
  const entry = co.kernels[0]!;
  const at = entry.codeSection.offset + (entry.entryAddress - entry.codeSection.address);
  // Bodies of instructions the simulator decodes and compiles (random words mostly are not).
  const ctx = { family: "gfx11" as const, width: 32 as const, kernel: entry };
  const validInstruction = fc.array(fc.integer({ min: 0, max: 0xffffffff }), { minLength: 3, maxLength: 3 }).map((w) => {
    try {
      const inst = decodeInstruction("gfx11", (a) => w[a / 4] ?? 0, 0);
      compileInstruction(inst, ctx);
      return inst.words.slice(0, inst.size / 4);
    } catch {
      return [0xbf800000]; // s_nop 0
    }
  });
  const body = fc.array(validInstruction, { minLength: 1, maxLength: 40 }).map((list) => list.flat().slice(0, 64));
  fc.assert(
    fc.property(body, (words) => {
      for (let i = 0; i < 64; i++) view.setUint32(at + 4 * i, words[i] ?? 0xbf800000, true);
      const rt = new SimRuntime({ instructionBudget: 5000 });
      onlyLoomErrors(() => {
        const k = rt.loadCodeObject(template).kernel("k");
        const buf = rt.allocate(256);
        rt.launch(k, [2, 1, 1], [buf], { workgroupSize: [64, 1, 1] });
      });
    }),
    { seed: SEED, numRuns: 400 },
  );
});
