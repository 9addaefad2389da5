/**
 * The AQL kernel dispatch packet (hsa_kernel_dispatch_packet_t, 64 bytes; HSA Platform System
 * Architecture §2.9): built as bytes, with the header returned apart because it must be the
 * last thing written (it hands the packet to the packet processor).
 */
import { LoomError } from "../../core/errors.js";

/** Size in bytes of one AQL packet (a kernel dispatch packet is one queue slot). */
export const PACKET_BYTES = 64;
const HSA_PACKET_TYPE_KERNEL_DISPATCH = 2;
const HSA_FENCE_SCOPE_SYSTEM = 2;
/** header bit positions: type [7:0], barrier [8], acquire fence scope [10:9], release fence scope [12:11]. */
export const DISPATCH_HEADER = HSA_PACKET_TYPE_KERNEL_DISPATCH | (1 << 8) | (HSA_FENCE_SCOPE_SYSTEM << 9) | (HSA_FENCE_SCOPE_SYSTEM << 11);

/**
 * The fields of an AQL kernel dispatch packet: counts in workgroups and work-items, segment sizes
 * in bytes, and the device addresses (kernel object, kernargs, completion signal).
 */
export interface DispatchPacketFields {
  readonly workgroups: readonly [number, number, number];
  readonly workgroupSize: readonly [number, number, number];
  readonly privateSegmentBytes: number;
  readonly groupSegmentBytes: number;
  readonly kernelObject: bigint;
  readonly kernargAddress: bigint;
  readonly completionSignal: bigint;
}

/** The packet body (header left 0) and the 32-bit word header | setup << 16 to store last. */
export function dispatchPacket(f: DispatchPacketFields): { readonly body: Uint8Array; readonly headerAndSetup: number } {
  const body = new Uint8Array(PACKET_BYTES);
  const v = new DataView(body.buffer);
  const dims = f.workgroups[2] > 1 || f.workgroupSize[2] > 1 ? 3 : f.workgroups[1] > 1 || f.workgroupSize[1] > 1 ? 2 : 1;
  for (const i of [0, 1, 2] as const) {
    const size = f.workgroupSize[i];
    const grid = f.workgroups[i] * size;
    if (size < 1 || size > 0xffff) throw new LoomError("out-of-range", `workgroup size ${size} in dimension ${i} does not fit the packet's 16 bits`);
    if (grid > 0xffffffff) throw new LoomError("out-of-range", `grid of ${grid} work-items in dimension ${i} does not fit the packet's 32 bits`);
    v.setUint16(4 + 2 * i, size, true);
    v.setUint32(12 + 4 * i, grid, true);
  }
  v.setUint32(24, f.privateSegmentBytes, true);
  v.setUint32(28, f.groupSegmentBytes, true);
  v.setBigUint64(32, f.kernelObject, true);
  v.setBigUint64(40, f.kernargAddress, true);
  v.setBigUint64(56, f.completionSignal, true);
  // setup: dimensions in bits [1:0].
  return { body, headerAndSetup: (DISPATCH_HEADER | (dims << 16)) >>> 0 };
}
