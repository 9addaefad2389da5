/**
 * The simulator's checks on hand-written gfx11 code: a load result used before its s_waitcnt is
 * an error naming both instructions, an endless loop stops at the instruction budget, an
 * access outside every buffer is a memory fault, a register beyond the declared counts is
 * refused, and a wave32 workgroup of 64 runs as two waves that meet at s_barrier.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { LoomError } from "../../src/core/errors.js";
import { SimRuntime } from "../../src/runtime/sim/index.js";
import { requireTool } from "../util/tools.js";
import { assembleKernel } from "./asm.js";

const tools = (t: Parameters<typeof requireTool>[0]) => requireTool(t, "llvm-mc-19", "apt-get install llvm-19") && requireTool(t, "ld.lld-19", "apt-get install lld-19");

/** out[i] = in[i] + 1 for lane i of one wave; `wait` is what stands between the load and its use. */
const increment = (wait: string) => `
  s_load_b64 s[2:3], s[0:1], 0x0
  s_waitcnt lgkmcnt(0)
  v_lshlrev_b32 v1, 2, v0
  global_load_b32 v2, v1, s[2:3]
  ${wait}
  v_add_nc_u32 v2, 1, v2
  global_store_b32 v1, v2, s[2:3]
  s_endpgm`;

function runOnce(code: Uint8Array, data: Int32Array, groups = 1, size = 32): Int32Array {
  const rt = new SimRuntime({ instructionBudget: 10_000 });
  const k = rt.loadCodeObject(code).kernel("k");
  const buf = rt.allocate(data.byteLength, "data");
  rt.upload(buf, data);
  rt.launch(k, [groups, 1, 1], [buf], { workgroupSize: [size, 1, 1] });
  return new Int32Array(rt.download(buf).buffer);
}

test("with its s_waitcnt, a global load feeds the add", (t) => {
  if (!tools(t)) return;
  const data = Int32Array.from({ length: 32 }, (_, i) => i * 10);
  assert.deepEqual([...runOnce(assembleKernel(increment("s_waitcnt vmcnt(0)")), data)], [...data].map((x) => x + 1));
});

test("a load result read before s_waitcnt is a missing-wait error naming both instructions", (t) => {
  if (!tools(t)) return;
  assert.throws(
    () => runOnce(assembleKernel(increment("s_nop 0")), new Int32Array(32)),
    (e: unknown) => e instanceof LoomError && /missing s_waitcnt: v_add_nc_u32 at 0x[0-9a-f]+ uses v2, which global_load_b32 at 0x[0-9a-f]+ is still writing \(vmcnt/.test(e.message),
  );
  // The lgkmcnt of the kernarg load is checked the same way.
  assert.throws(
    () => runOnce(assembleKernel(increment("s_waitcnt vmcnt(0)").replace("s_waitcnt lgkmcnt(0)", "s_nop 0")), new Int32Array(32)),
    (e: unknown) => e instanceof LoomError && /uses s2, which s_load_b64 .* \(lgkmcnt/.test(e.message),
  );
});

test("an endless loop stops at the instruction budget", (t) => {
  if (!tools(t)) return;
  assert.throws(
    () => runOnce(assembleKernel("loop:\n  s_branch loop\n  s_endpgm"), new Int32Array(1)),
    (e: unknown) => e instanceof LoomError && e.status === "resource-exhausted" && /budget of 10000 wave instructions/.test(e.message),
  );
});

test("an access outside every buffer is a memory fault", (t) => {
  if (!tools(t)) return;
  // 32 lanes load 4 bytes each from a 64-byte buffer: lanes 16.. fall off its end.
  assert.throws(
    () => runOnce(assembleKernel(increment("s_waitcnt vmcnt(0)")), new Int32Array(16)),
    (e: unknown) => e instanceof LoomError && e.status === "out-of-range" && /memory fault: global_load_b32 .*\(buffer 'data' is 0x100000000/.test(e.message),
  );
});

test("a register beyond the kernel's declared VGPR count is refused", (t) => {
  if (!tools(t)) return;
  assert.throws(
    () => runOnce(assembleKernel(increment("s_waitcnt vmcnt(0)"), { vgprs: 2 }), new Int32Array(32)),
    (e: unknown) => e instanceof LoomError && /uses v2, but the kernel declares 2 VGPRs/.test(e.message),
  );
});

test("two wave32 waves of one workgroup exchange data through LDS across s_barrier", (t) => {
  if (!tools(t)) return;
  // Lane i of the 64-item workgroup writes i to LDS, then reads slot 63 - i after the barrier:
  // each wave reads the other's values, which only a working barrier makes available.
  const code = assembleKernel(
    `
  s_load_b64 s[2:3], s[0:1], 0x0
  v_lshlrev_b32 v1, 2, v0
  ds_store_b32 v1, v0
  v_sub_nc_u32 v3, 63, v0
  v_lshlrev_b32 v3, 2, v3
  s_waitcnt lgkmcnt(0)
  s_barrier
  ds_load_b32 v2, v3
  s_waitcnt lgkmcnt(0)
  global_store_b32 v1, v2, s[2:3]
  s_endpgm`,
    { lds: 256 },
  );
  const out = runOnce(code, new Int32Array(64), 1, 64);
  assert.deepEqual([...out], Array.from({ length: 64 }, (_, i) => 63 - i));
});
