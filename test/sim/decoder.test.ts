/**
 * The simulator's decoder against llvm-objdump-19: every instruction word of the LLVM-built
 * reference kernels (all of .text, s_code_end padding included) decodes to LLVM's mnemonic and
 * length, for gfx1100 (wave32 and wave64) and gfx942. Also: an unknown word is a LoomError naming word and address.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { LoomError } from "../../src/core/errors.js";
import { loadCodeObject } from "../../src/runtime/sim/code-object.js";
import { decodeInstruction, decodeRange } from "../../src/runtime/sim/decode.js";
import { requireTool } from "../util/tools.js";
import { buildOpencl, OPENCL_KERNELS, REFERENCE_BUILDS, requireOpenclTools } from "./opencl.js";
import { llvmListing } from "./llvm-listing.js";

for (const build of REFERENCE_BUILDS) {
  const mcpu = build.mcpu;
  test(`decoder agrees with llvm-objdump-19 on every word of the LLVM-built kernels (${build.name})`, (t) => {
    if (!requireOpenclTools(t) || !requireTool(t, "llvm-objdump-19", "apt-get install llvm-19")) return;
    let words = 0;
    for (const kernel of OPENCL_KERNELS) {
      const { path, bytes } = buildOpencl(kernel, mcpu, build.flags);
      const co = loadCodeObject(bytes);
      const text = co.elf.sections.find((s) => s.name === ".text")!;
      const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
      const fetch = (a: number) => view.getUint32(text.offset + (a - text.address), true);
      const ours = decodeRange(co.family, fetch, text.address, text.address + text.size);
      const theirs = llvmListing(path, mcpu);
      assert.ok(theirs.length > 0, `${kernel}: llvm-objdump listed nothing`);
      for (const row of theirs) assert.ok(!/^\.long|<unknown>/.test(row.text), `${kernel}: LLVM could not decode ${row.text}`);
      const mismatch = ours.findIndex((inst, i) => inst.address !== theirs[i]?.address || inst.name !== theirs[i]?.mnemonic || inst.size !== theirs[i]?.size);
      if (mismatch >= 0 || ours.length !== theirs.length) {
        const i = mismatch >= 0 ? mismatch : Math.min(ours.length, theirs.length);
        const o = ours[i];
        const l = theirs[i];
        assert.fail(`${kernel} ${mcpu} instruction ${i}: ours ${o ? `${o.name} (${o.size} bytes at 0x${o.address.toString(16)})` : "none"}, LLVM ${l ? `${l.text} (${l.size} bytes at 0x${l.address.toString(16)})` : "none"}`);
      }
      words += text.size / 4;
    }
    console.log(`# ${build.name}: ${words} words of ${OPENCL_KERNELS.length} kernels decode as llvm-objdump-19 decodes them`);
  });
}

test("an unknown instruction word is a LoomError naming the word and its address", () => {
  // 0xfc000000: a prefix no gfx11 format uses.
  assert.throws(
    () => decodeInstruction("gfx11", () => 0xfc000000, 0x1700),
    (e: unknown) => e instanceof LoomError && /0xfc000000 at 0x1700/.test(e.message),
  );
  // A valid SOP1 prefix with an opcode gfx9 lacks.
  assert.throws(
    () => decodeInstruction("gfx9", () => 0xbe80ff00, 0x40),
    (e: unknown) => e instanceof LoomError && /0xbe80ff00 at 0x40.*SOP1 opcode 255/.test(e.message),
  );
});
