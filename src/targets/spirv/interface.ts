/**
 * What the SPIR-V emit adds to each kernel's interface record (docs/abi.md): buffer addressing,
 * the Vulkan features a device must enable to load the module, and the subgroup operations
 * each kernel uses (those kernels assume full subgroups).
 */
import type { TargetKernelInterface } from "../../abi/index.js";
import type { KernelLowering } from "./lower/context.js";
import type { SpirvModule } from "./module.js";
import type { CapabilityName } from "./spec.js";
import type { SpirvTargetInfo } from "./profile.js";

/** Capabilities that name exactly one Vulkan feature (docs/abi.md table); the rest come from the lowering's feature checks. */
const CAPABILITY_FEATURE: Partial<Record<CapabilityName, string>> = {
  Int64: "shaderInt64",
  Float64: "shaderFloat64",
  Float16: "shaderFloat16",
  Int8: "shaderInt8",
  Int16: "shaderInt16",
  StorageBuffer8BitAccess: "storageBuffer8BitAccess",
  StoragePushConstant8: "storagePushConstant8",
  StorageBuffer16BitAccess: "storageBuffer16BitAccess",
  StoragePushConstant16: "storagePushConstant16",
  PhysicalStorageBufferAddresses: "bufferDeviceAddress",
  SignedZeroInfNanPreserve: "shaderSignedZeroInfNanPreserveFloat32",
};

/**
 * One record per lowered kernel. Features are the module's (the device must support every
 * capability of a shader module to create it), subgroup operations are each kernel's own.
 */
export function spirvKernelInterfaces(module: SpirvModule, lowered: readonly KernelLowering[], info: SpirvTargetInfo): TargetKernelInterface[] {
  const features = new Set<string>();
  for (const cap of module.capabilityNames()) {
    const feature = CAPABILITY_FEATURE[cap];
    if (feature) features.add(feature);
  }
  for (const cx of lowered) for (const f of cx.usedFeatures) features.add(f);
  const requiredFeatures = [...features].sort();
  return lowered.map((cx) => ({
    entryName: cx.kernel.exportName,
    bufferAddressing: info.abi,
    requiredFeatures,
    subgroupOperations: [...cx.usedSubgroupOperations],
  }));
}
