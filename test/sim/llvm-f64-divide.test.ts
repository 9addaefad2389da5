/**
 * The simulator's f64 division and square root helpers (src/runtime/sim/f64.ts) proven on code
 * it did not produce: test/sim/opencl-ops/double_divide.cl built by clang-19 -O2 (+ ld.lld-19)
 * for gfx1100 (wave32) and gfx942 (wave64) runs on the inputs of test/amdgpu/f64-divide.test.ts
 * (special values, the whole exponent range, quotients near the range ends) and must give the
 * CPU's IEEE results bit for bit (a NaN any NaN), as loom's own sequences do there; the listing
 * must hold LLVM's sequences, and every word of it decodes as llvm-objdump-19 decodes it.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { SimRuntime } from "../../src/runtime/sim/index.js";
import { loadCodeObject } from "../../src/runtime/sim/code-object.js";
import { decodeRange } from "../../src/runtime/sim/decode.js";
import { fromRoot } from "../util/paths.js";
import { runTool } from "../util/tools.js";
import { f64Bits, f64Pairs, sameF64 } from "../util/f64-inputs.js";
import { requireOpenclTools } from "./opencl.js";
import { llvmListing } from "./llvm-listing.js";

const SOURCE = fromRoot("test", "sim", "opencl-ops", "double_divide.cl");
const NEEDED = ["v_div_scale_f64", "v_rcp_f64", "v_fma_f64", "v_div_fmas_f64", "v_div_fixup_f64", "v_rsq_f64", "v_ldexp_f64", "v_cmp_class_f64"];

function build(mcpu: string): { path: string; bytes: Uint8Array; listing: string } {
  const dir = mkdtempSync(join(tmpdir(), "loom-sim-f64div-"));
  const object = join(dir, "double_divide.o"), path = join(dir, "double_divide.hsaco");
  const cc = runTool("clang-19", ["-x", "cl", "-cl-std=CL2.0", "-target", "amdgcn-amd-amdhsa", `-mcpu=${mcpu}`, "-nogpulib", "-O2", "-c", SOURCE, "-o", object]);
  assert.equal(cc.status, 0, cc.stderr);
  const ld = runTool("ld.lld-19", ["-shared", object, "-o", path]);
  assert.equal(ld.status, 0, ld.stderr);
  const dump = runTool("llvm-objdump-19", ["-d", `--mcpu=${mcpu}`, path]);
  assert.equal(dump.status, 0, dump.stderr);
  return { path, bytes: new Uint8Array(readFileSync(path)), listing: dump.stdout };
}

for (const mcpu of ["gfx1100", "gfx942"]) {
  test(`LLVM-built f64 division and square root (${mcpu}) give the CPU's IEEE results in the simulator`, (t) => {
    if (!requireOpenclTools(t)) return;
    const { path, bytes, listing } = build(mcpu);
    for (const name of NEEDED) assert.match(listing, new RegExp(`\\b${name}(_e32|_e64)?\\b`), `clang-19's code uses ${name}`);
    const co = loadCodeObject(bytes);
    const text = co.elf.sections.find((s) => s.name === ".text")!;
    const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    const ours = decodeRange(co.family, (at) => view.getUint32(text.offset + (at - text.address), true), text.address, text.address + text.size);
    assert.deepEqual(ours.map((i) => [i.address, i.name, i.size]), llvmListing(path, mcpu).map((r) => [r.address, r.mnemonic, r.size]), "the decoder reads clang-19's words as llvm-objdump-19 does");
    const { a, b } = f64Pairs(3000, 11);
    const n = a.length;
    const rt = new SimRuntime();
    const module = rt.loadCodeObject(bytes);
    const ba = rt.allocate(8 * n, "a"), bb = rt.allocate(8 * n, "b"), bo = rt.allocate(24 * n, "out");
    rt.upload(ba, new Uint8Array(a.buffer));
    rt.upload(bb, new Uint8Array(b.buffer));
    rt.launch(module.kernel("double_divide"), [Math.ceil(n / 64), 1, 1], [n, ba, bb, bo], { workgroupSize: [64, 1, 1] });
    const out = new Float64Array(rt.download(bo).slice().buffer);
    const failures: string[] = [];
    for (let i = 0; i < n; i++) {
      const x = a[i]!, y = b[i]!;
      [x / y, Math.sqrt(x), 1 / y].forEach((w, j) => {
        const got = out[3 * i + j]!;
        if (!sameF64(got, w) && failures.length < 12) failures.push(`i=${i} slot ${j} (${x}, ${y}): got ${got} (0x${f64Bits(got).toString(16)}), want ${w} (0x${f64Bits(w).toString(16)})`);
      });
    }
    assert.deepEqual(failures, []);
  });
}
