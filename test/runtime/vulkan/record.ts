/**
 * Kernel-interface records for the hand-written GLSL shaders of these tests: what the compiler
 * would write for a kernel with these argument types (src/abi lays them out), bound to the
 * shader's bytes.
 */
import { bufferBindings, fingerprintOf, KERNEL_INTERFACE_VERSION, layoutArgumentBlock, type BufferAddressing, type DeviceArgumentType, type ExecutableInterface, type KernelInterface } from "../../../src/abi/index.js";

export interface RecordOptions {
  readonly types: readonly DeviceArgumentType[];
  readonly workgroupSize: readonly [number, number, number];
  readonly addressing?: BufferAddressing;
  readonly entryName?: string;
  readonly subgroupOperations?: readonly string[];
  readonly requiredFeatures?: readonly string[];
  /** Overrides of the kernel record, to make it wrong on purpose. */
  readonly override?: Partial<KernelInterface>;
}

export function recordFor(spirv: Uint8Array, o: RecordOptions): ExecutableInterface {
  const layout = layoutArgumentBlock(o.types);
  if ("unsupported" in layout) throw new Error(`recordFor: type ${o.types[layout.unsupported]} is not a device-argument type`);
  const addressing = o.addressing ?? "bindings";
  const ops = o.subgroupOperations ?? [];
  const kernel: KernelInterface = {
    symbol: "main",
    entryName: o.entryName ?? "main",
    arguments: layout.slots.map((s, i) => ({ name: `arg${i}`, type: s.type, offset: s.offset, size: s.size })),
    argumentBlockBytes: layout.size,
    bufferAddressing: addressing,
    bindings: bufferBindings(o.types, addressing),
    workgroupSize: o.workgroupSize,
    subgroup: { size: 0, fullSubgroups: ops.length > 0, operations: ops },
    requiredFeatures: o.requiredFeatures ?? ["shaderInt64"],
    workgroupStorageBytes: 0,
    ...o.override,
  };
  return { version: KERNEL_INTERFACE_VERSION, format: "spirv", identifier: "test.spv", environment: "spirv", target: "vulkan1.3", executable: fingerprintOf(spirv), kernels: [kernel] };
}
