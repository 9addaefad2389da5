/**
 * Hand-written gfx11 kernels for the simulator's own semantics tests, assembled with
 * llvm-mc-19 and linked with ld.lld-19 (a code object v5 with its metadata note).
 */
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { runTool } from "../util/tools.js";

let dir: string | undefined;
let serial = 0;

/** One gfx1100 wave32 kernel `k` taking one global buffer at kernarg offset 0. */
export function assembleKernel(body: string, options: { vgprs?: number; sgprs?: number; lds?: number } = {}): Uint8Array {
  dir ??= mkdtempSync(join(tmpdir(), "loom-sim-asm-"));
  const vgprs = options.vgprs ?? 8;
  const sgprs = options.sgprs ?? 16;
  const source = `
.amdgcn_target "amdgcn-amd-amdhsa--gfx1100"
.amdhsa_code_object_version 5
.text
.globl k
.p2align 8
.type k,@function
k:
${body}
.Lk_end:
.size k, .Lk_end-k
.rodata
.p2align 6
.amdhsa_kernel k
  .amdhsa_user_sgpr_kernarg_segment_ptr 1
  .amdhsa_system_sgpr_workgroup_id_x 1
  .amdhsa_next_free_vgpr ${vgprs}
  .amdhsa_next_free_sgpr ${sgprs}
  .amdhsa_wavefront_size32 1
  .amdhsa_group_segment_fixed_size ${options.lds ?? 0}
.end_amdhsa_kernel
.amdgpu_metadata
---
amdhsa.version: [1, 2]
amdhsa.target: amdgcn-amd-amdhsa--gfx1100
amdhsa.kernels:
  - .name: k
    .symbol: k.kd
    .kernarg_segment_size: 8
    .kernarg_segment_align: 8
    .group_segment_fixed_size: ${options.lds ?? 0}
    .private_segment_fixed_size: 0
    .wavefront_size: 32
    .sgpr_count: ${sgprs}
    .vgpr_count: ${vgprs}
    .max_flat_workgroup_size: 64
    .args:
      - { .offset: 0, .size: 8, .value_kind: global_buffer, .address_space: global }
...
.end_amdgpu_metadata
`;
  const base = join(dir, `k${serial++}`);
  writeFileSync(`${base}.s`, source);
  const mc = runTool("llvm-mc-19", ["-triple=amdgcn-amd-amdhsa", "-mcpu=gfx1100", "-filetype=obj", `${base}.s`, "-o", `${base}.o`]);
  if (mc.status !== 0) throw new Error(`llvm-mc-19 failed:\n${mc.stderr}`);
  const ld = runTool("ld.lld-19", ["-shared", `${base}.o`, "-o", `${base}.hsaco`]);
  if (ld.status !== 0) throw new Error(`ld.lld-19 failed:\n${ld.stderr}`);
  return new Uint8Array(readFileSync(`${base}.hsaco`));
}
