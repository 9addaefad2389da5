/**
 * Hand-written WGSL kernels following the WebGPU ABI (docs/abi.md, WGSL): buffer argument k at
 * `@group(0) @binding(k)`, the §7 argument block as a uniform at the binding after the buffers
 * (64-bit fields read as `vec2<u32>`, low word first), with records built from src/abi the way
 * the compiler builds them.
 */
import { bufferBindings, fingerprintOf, KERNEL_INTERFACE_VERSION, layoutArgumentBlock, type DeviceArgumentType, type ExecutableInterface, type KernelInterface } from "../../../src/abi/index.js";

/** y = alpha * x + y over n elements; block: n@0, alpha@8, x@16, y@32 (48 bytes). */
export const SAXPY_WGSL = `struct Args {
  n: vec2<u32>,
  alpha: f32,
  x: vec4<u32>,
  y: vec4<u32>,
}
@group(0) @binding(0) var<storage, read> x: array<f32>;
@group(0) @binding(1) var<storage, read_write> y: array<f32>;
@group(0) @binding(2) var<uniform> args: Args;

@compute @workgroup_size(64)
fn saxpy(@builtin(global_invocation_id) gid: vec3<u32>) {
  let i = gid.x;
  // The block's lengths are bytes: both bounds hold for a correct launch.
  if (i >= args.n.x || i * 4u >= args.y.z) { return; }
  y[i] = args.alpha * x[i] + y[i];
}
`;

/** Sums of each 256-element block of xs (u32, wrapping) into sums; block: n@0, xs@8, sums@24 (40 bytes). */
export const BLOCK_SUM_WGSL = `struct Args {
  n: vec2<u32>,
  xs_address: vec2<u32>,
  xs_length: vec2<u32>,
  sums_address: vec2<u32>,
  sums_length: vec2<u32>,
}
@group(0) @binding(0) var<storage, read> xs: array<u32>;
@group(0) @binding(1) var<storage, read_write> sums: array<u32>;
@group(0) @binding(2) var<uniform> args: Args;
var<workgroup> partial: array<u32, 256>;

@compute @workgroup_size(256)
fn block_sum(@builtin(global_invocation_id) gid: vec3<u32>, @builtin(local_invocation_index) lid: u32, @builtin(workgroup_id) wid: vec3<u32>) {
  var v = 0u;
  if (gid.x < args.n.x) { v = xs[gid.x]; }
  partial[lid] = v;
  workgroupBarrier();
  for (var stride = 128u; stride > 0u; stride = stride / 2u) {
    if (lid < stride) { partial[lid] = partial[lid] + partial[lid + stride]; }
    workgroupBarrier();
  }
  if (lid == 0u) { sums[wid.x] = partial[0]; }
}
`;

export interface WgslRecordOptions {
  readonly entryName: string;
  readonly types: readonly DeviceArgumentType[];
  readonly workgroupSize: readonly [number, number, number];
  /** Buffer k (counting buffers) is only read. */
  readonly readOnly?: readonly number[];
  readonly workgroupStorageBytes?: number;
  readonly override?: Partial<KernelInterface>;
}

/** What the compiler would record for this WGSL kernel. */
export function wgslRecord(wgsl: string, o: WgslRecordOptions): ExecutableInterface {
  const layout = layoutArgumentBlock(o.types);
  if ("unsupported" in layout) throw new Error(`wgslRecord: ${o.types[layout.unsupported]} is not a device-argument type`);
  const kernel: KernelInterface = {
    symbol: o.entryName,
    entryName: o.entryName,
    arguments: layout.slots.map((s, i) => ({ name: `arg${i}`, type: s.type, offset: s.offset, size: s.size })),
    argumentBlockBytes: layout.size,
    bufferAddressing: "bindings",
    bindings: bufferBindings(o.types, "bindings").map((b, k) => (o.readOnly?.includes(k) ? { ...b, readOnly: true as const } : b)),
    workgroupSize: o.workgroupSize,
    subgroup: { size: 0, fullSubgroups: false, operations: [] },
    requiredFeatures: [],
    workgroupStorageBytes: o.workgroupStorageBytes ?? 0,
    ...o.override,
  };
  return { version: KERNEL_INTERFACE_VERSION, format: "wgsl", identifier: `${o.entryName}.wgsl`, environment: "wgsl", target: "webgpu", executable: fingerprintOf(new TextEncoder().encode(wgsl)), kernels: [kernel] };
}

export const saxpyRecord = (wgsl = SAXPY_WGSL, override?: Partial<KernelInterface>): ExecutableInterface =>
  wgslRecord(wgsl, { entryName: "saxpy", types: ["index", "f32", "buffer", "buffer"], workgroupSize: [64, 1, 1], readOnly: [0], ...(override ? { override } : {}) });

export const blockSumRecord = (): ExecutableInterface =>
  wgslRecord(BLOCK_SUM_WGSL, { entryName: "block_sum", types: ["index", "buffer", "buffer"], workgroupSize: [256, 1, 1], readOnly: [0], workgroupStorageBytes: 1024 });
