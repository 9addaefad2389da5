/**
 * The simulator's `v_rcp_f64` is a seed, not a correctly rounded reciprocal (src/runtime/sim/f64.ts):
 * hand-written gfx11 division with LLVM's two Newton steps and residual correction is correctly
 * rounded on random quotients, and the same code without the Newton steps, or without the
 * correction, is not, so such a division fails in the simulator as it would on a GPU. (One
 * step fewer is not visible on random inputs: the correction then still rounds all but the
 * quotients within about 2^-40 of a tie.) Also proves the null scalar destination of
 * v_div_scale_f64 and the VOP3 negation modifiers of the refinement fmas.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { SimRuntime } from "../../src/runtime/sim/index.js";
import { requireTool } from "../util/tools.js";
import { assembleKernel } from "./asm.js";

const tools = (t: Parameters<typeof requireTool>[0]) => requireTool(t, "llvm-mc-19", "apt-get install llvm-19") && requireTool(t, "ld.lld-19", "apt-get install lld-19");

/** data[2i] = data[2i] / data[2i + 1] for lane i, with `steps` Newton steps on the reciprocal seed and the residual correction or not. */
const division = (steps: number, corrected: boolean) => `
  s_load_b64 s[2:3], s[0:1], 0x0
  s_waitcnt lgkmcnt(0)
  v_lshlrev_b32 v1, 4, v0
  global_load_b128 v[2:5], v1, s[2:3]
  s_waitcnt vmcnt(0)
  v_div_scale_f64 v[6:7], null, v[4:5], v[4:5], v[2:3]
  v_div_scale_f64 v[8:9], vcc_lo, v[2:3], v[4:5], v[2:3]
  v_rcp_f64 v[10:11], v[6:7]
  s_waitcnt_depctr 0xfff
${"  v_fma_f64 v[12:13], -v[6:7], v[10:11], 1.0\n  v_fma_f64 v[10:11], v[10:11], v[12:13], v[10:11]\n".repeat(steps)}
  v_mul_f64 v[12:13], v[8:9], v[10:11]
  v_fma_f64 v[14:15], -v[6:7], v[12:13], v[8:9]
  v_div_fmas_f64 v[14:15], v[14:15], v[10:11], v[12:13]${corrected ? "" : "\n  v_mov_b32 v14, v12\n  v_mov_b32 v15, v13"}
  v_div_fixup_f64 v[14:15], v[14:15], v[4:5], v[2:3]
  global_store_b64 v1, v[14:15], s[2:3]
  s_endpgm`;

function wrongQuotients(steps: number, corrected = true): number {
  let s = 7;
  const rng = () => ((s = (Math.imul(s, 1664525) + 1013904223) >>> 0), s / 2 ** 32);
  const data = Float64Array.from({ length: 64 }, () => (1 + rng()) * 2 ** Math.floor(rng() * 20 - 10));
  const rt = new SimRuntime({ instructionBudget: 10_000 });
  const k = rt.loadCodeObject(assembleKernel(division(steps, corrected), { vgprs: 16 })).kernel("k");
  const buf = rt.allocate(data.byteLength, "data");
  rt.upload(buf, new Uint8Array(data.buffer));
  rt.launch(k, [1, 1, 1], [buf], { workgroupSize: [32, 1, 1] });
  const out = new Float64Array(rt.download(buf).slice().buffer);
  let wrong = 0;
  for (let i = 0; i < 32; i++) if (out[2 * i] !== data[2 * i]! / data[2 * i + 1]!) wrong++;
  return wrong;
}

test("f64 division is correctly rounded with two Newton steps on the v_rcp_f64 seed and the correction, and not without them", (t) => {
  if (!tools(t)) return;
  const [full, noSteps, noCorrection] = [wrongQuotients(2), wrongQuotients(0), wrongQuotients(2, false)];
  t.diagnostic(`wrong of 32: LLVM's sequence ${full}, without the Newton steps ${noSteps}, without the correction ${noCorrection}`);
  assert.equal(full, 0, "LLVM's sequence");
  assert.ok(noSteps >= 16, "the 2^-23 seed alone");
  assert.ok(noCorrection >= 4, "q = n·r is not correctly rounded");
});
