/**
 * How a runtime hands buffers and the argument block to a kernel, per target (docs/abi.md).
 * Plain rules over argument types, so the compiler's record and a runtime's pipeline layout
 * come from the same statement.
 */
import type { DeviceArgumentType } from "./arguments.js";

/**
 * How buffer arguments reach the kernel:
 * - "bindings": SPIR-V descriptor bindings (buffer k = set 0, binding k); the block's address fields may be 0;
 * - "device-address": the block's address fields hold device addresses, no descriptors;
 * - "kernarg": the block is the kernel's argument segment (AMDGPU); addresses in the block.
 */
export type BufferAddressing = "bindings" | "device-address" | "kernarg";

/** The descriptor set every buffer binding lives in under "bindings". */
export const BUFFER_DESCRIPTOR_SET = 0;

/** One storage-buffer descriptor of a kernel. */
export interface BufferBinding {
  readonly set: number;
  readonly binding: number;
  /** Index of the buffer argument among all arguments (declaration order). */
  readonly argument: number;
  /** The kernel only reads it (WGSL: `var<storage, read>`, bound as "read-only-storage"); absent = read-write. */
  readonly readOnly?: true;
}

/**
 * The descriptor bindings of a kernel whose arguments have these types: under "bindings",
 * the k-th buffer argument (counting buffers only) is set 0, binding k, whether or not the
 * kernel reads it; other addressings bind nothing.
 */
export function bufferBindings(types: readonly DeviceArgumentType[], addressing: BufferAddressing): BufferBinding[] {
  if (addressing !== "bindings") return [];
  const out: BufferBinding[] = [];
  for (const [argument, type] of types.entries()) {
    if (type === "buffer") out.push({ set: BUFFER_DESCRIPTOR_SET, binding: out.length, argument });
  }
  return out;
}

/** The push-constant range that carries the block on Vulkan (none for an empty block). */
export function pushConstantRange(argumentBlockBytes: number): { readonly offset: 0; readonly size: number } | undefined {
  return argumentBlockBytes > 0 ? { offset: 0, size: argumentBlockBytes } : undefined;
}
