/**
 * The Vulkan structs the runtime reads or writes, in vulkan_core.h member order, written in a
 * small C-like notation so each line can be compared with the header by eye. `defineStructs`
 * turns them into koffi types (koffi computes offsets with the C ABI rules); the test
 * `struct-layout.test.ts` checks every offset and size against the C compiler and the real header.
 *
 * Member types: u32 i32 u64 f32 size (size_t), ptr (any pointer), handle (non-dispatchable
 * handle, 64-bit), T[N] (fixed array), or the name of a struct declared earlier in the list.
 * Enums, flags and VkBool32 are u32; VkDeviceSize is u64.
 */
import type { KoffiModule, KoffiType } from "./koffi.js";

const bools = (names: string): string =>
  names
    .trim()
    .split(/\s+/)
    .map((n) => `u32 ${n}`)
    .join("; ");

/** [struct name, members] in dependency order. */
export const STRUCT_DECLS: readonly (readonly [string, string])[] = [
  ["VkApplicationInfo", "u32 sType; ptr pNext; ptr pApplicationName; u32 applicationVersion; ptr pEngineName; u32 engineVersion; u32 apiVersion"],
  ["VkInstanceCreateInfo", "u32 sType; ptr pNext; u32 flags; ptr pApplicationInfo; u32 enabledLayerCount; ptr ppEnabledLayerNames; u32 enabledExtensionCount; ptr ppEnabledExtensionNames"],
  [
    "VkPhysicalDeviceLimits",
    "u32 maxImageDimension1D; u32 maxImageDimension2D; u32 maxImageDimension3D; u32 maxImageDimensionCube; u32 maxImageArrayLayers; " +
      "u32 maxTexelBufferElements; u32 maxUniformBufferRange; u32 maxStorageBufferRange; u32 maxPushConstantsSize; " +
      "u32 maxMemoryAllocationCount; u32 maxSamplerAllocationCount; u64 bufferImageGranularity; u64 sparseAddressSpaceSize; " +
      "u32 maxBoundDescriptorSets; u32 maxPerStageDescriptorSamplers; u32 maxPerStageDescriptorUniformBuffers; " +
      "u32 maxPerStageDescriptorStorageBuffers; u32 maxPerStageDescriptorSampledImages; u32 maxPerStageDescriptorStorageImages; " +
      "u32 maxPerStageDescriptorInputAttachments; u32 maxPerStageResources; u32 maxDescriptorSetSamplers; " +
      "u32 maxDescriptorSetUniformBuffers; u32 maxDescriptorSetUniformBuffersDynamic; u32 maxDescriptorSetStorageBuffers; " +
      "u32 maxDescriptorSetStorageBuffersDynamic; u32 maxDescriptorSetSampledImages; u32 maxDescriptorSetStorageImages; " +
      "u32 maxDescriptorSetInputAttachments; u32 maxVertexInputAttributes; u32 maxVertexInputBindings; " +
      "u32 maxVertexInputAttributeOffset; u32 maxVertexInputBindingStride; u32 maxVertexOutputComponents; " +
      "u32 maxTessellationGenerationLevel; u32 maxTessellationPatchSize; u32 maxTessellationControlPerVertexInputComponents; " +
      "u32 maxTessellationControlPerVertexOutputComponents; u32 maxTessellationControlPerPatchOutputComponents; " +
      "u32 maxTessellationControlTotalOutputComponents; u32 maxTessellationEvaluationInputComponents; " +
      "u32 maxTessellationEvaluationOutputComponents; u32 maxGeometryShaderInvocations; u32 maxGeometryInputComponents; " +
      "u32 maxGeometryOutputComponents; u32 maxGeometryOutputVertices; u32 maxGeometryTotalOutputComponents; " +
      "u32 maxFragmentInputComponents; u32 maxFragmentOutputAttachments; u32 maxFragmentDualSrcAttachments; " +
      "u32 maxFragmentCombinedOutputResources; u32 maxComputeSharedMemorySize; u32[3] maxComputeWorkGroupCount; " +
      "u32 maxComputeWorkGroupInvocations; u32[3] maxComputeWorkGroupSize; u32 subPixelPrecisionBits; " +
      "u32 subTexelPrecisionBits; u32 mipmapPrecisionBits; u32 maxDrawIndexedIndexValue; u32 maxDrawIndirectCount; " +
      "f32 maxSamplerLodBias; f32 maxSamplerAnisotropy; u32 maxViewports; u32[2] maxViewportDimensions; " +
      "f32[2] viewportBoundsRange; u32 viewportSubPixelBits; size minMemoryMapAlignment; u64 minTexelBufferOffsetAlignment; " +
      "u64 minUniformBufferOffsetAlignment; u64 minStorageBufferOffsetAlignment; i32 minTexelOffset; u32 maxTexelOffset; " +
      "i32 minTexelGatherOffset; u32 maxTexelGatherOffset; f32 minInterpolationOffset; f32 maxInterpolationOffset; " +
      "u32 subPixelInterpolationOffsetBits; u32 maxFramebufferWidth; u32 maxFramebufferHeight; u32 maxFramebufferLayers; " +
      "u32 framebufferColorSampleCounts; u32 framebufferDepthSampleCounts; u32 framebufferStencilSampleCounts; " +
      "u32 framebufferNoAttachmentsSampleCounts; u32 maxColorAttachments; u32 sampledImageColorSampleCounts; " +
      "u32 sampledImageIntegerSampleCounts; u32 sampledImageDepthSampleCounts; u32 sampledImageStencilSampleCounts; " +
      "u32 storageImageSampleCounts; u32 maxSampleMaskWords; u32 timestampComputeAndGraphics; f32 timestampPeriod; " +
      "u32 maxClipDistances; u32 maxCullDistances; u32 maxCombinedClipAndCullDistances; u32 discreteQueuePriorities; " +
      "f32[2] pointSizeRange; f32[2] lineWidthRange; f32 pointSizeGranularity; f32 lineWidthGranularity; u32 strictLines; " +
      "u32 standardSampleLocations; u64 optimalBufferCopyOffsetAlignment; u64 optimalBufferCopyRowPitchAlignment; " +
      "u64 nonCoherentAtomSize",
  ],
  [
    "VkPhysicalDeviceSparseProperties",
    bools("residencyStandard2DBlockShape residencyStandard2DMultisampleBlockShape residencyStandard3DBlockShape residencyAlignedMipSize residencyNonResidentStrict"),
  ],
  [
    "VkPhysicalDeviceProperties",
    "u32 apiVersion; u32 driverVersion; u32 vendorID; u32 deviceID; u32 deviceType; char[256] deviceName; " +
      "u8[16] pipelineCacheUUID; VkPhysicalDeviceLimits limits; VkPhysicalDeviceSparseProperties sparseProperties",
  ],
  ["VkPhysicalDeviceProperties2", "u32 sType; ptr pNext; VkPhysicalDeviceProperties properties"],
  ["VkPhysicalDeviceSubgroupProperties", "u32 sType; ptr pNext; u32 subgroupSize; u32 supportedStages; u32 supportedOperations; u32 quadOperationsInAllStages"],
  [
    "VkPhysicalDeviceFloatControlsProperties",
    "u32 sType; ptr pNext; u32 denormBehaviorIndependence; u32 roundingModeIndependence; " +
      "u32 shaderSignedZeroInfNanPreserveFloat16; u32 shaderSignedZeroInfNanPreserveFloat32; u32 shaderSignedZeroInfNanPreserveFloat64; " +
      "u32 shaderDenormPreserveFloat16; u32 shaderDenormPreserveFloat32; u32 shaderDenormPreserveFloat64; " +
      "u32 shaderDenormFlushToZeroFloat16; u32 shaderDenormFlushToZeroFloat32; u32 shaderDenormFlushToZeroFloat64; " +
      "u32 shaderRoundingModeRTEFloat16; u32 shaderRoundingModeRTEFloat32; u32 shaderRoundingModeRTEFloat64; " +
      "u32 shaderRoundingModeRTZFloat16; u32 shaderRoundingModeRTZFloat32; u32 shaderRoundingModeRTZFloat64",
  ],
  [
    "VkPhysicalDeviceSubgroupSizeControlProperties",
    "u32 sType; ptr pNext; u32 minSubgroupSize; u32 maxSubgroupSize; u32 maxComputeWorkgroupSubgroups; u32 requiredSubgroupSizeStages",
  ],
  [
    "VkPhysicalDeviceFeatures",
    bools(`robustBufferAccess fullDrawIndexUint32 imageCubeArray independentBlend geometryShader tessellationShader
      sampleRateShading dualSrcBlend logicOp multiDrawIndirect drawIndirectFirstInstance depthClamp depthBiasClamp
      fillModeNonSolid depthBounds wideLines largePoints alphaToOne multiViewport samplerAnisotropy textureCompressionETC2
      textureCompressionASTC_LDR textureCompressionBC occlusionQueryPrecise pipelineStatisticsQuery
      vertexPipelineStoresAndAtomics fragmentStoresAndAtomics shaderTessellationAndGeometryPointSize shaderImageGatherExtended
      shaderStorageImageExtendedFormats shaderStorageImageMultisample shaderStorageImageReadWithoutFormat
      shaderStorageImageWriteWithoutFormat shaderUniformBufferArrayDynamicIndexing shaderSampledImageArrayDynamicIndexing
      shaderStorageBufferArrayDynamicIndexing shaderStorageImageArrayDynamicIndexing shaderClipDistance shaderCullDistance
      shaderFloat64 shaderInt64 shaderInt16 shaderResourceResidency shaderResourceMinLod sparseBinding sparseResidencyBuffer
      sparseResidencyImage2D sparseResidencyImage3D sparseResidency2Samples sparseResidency4Samples sparseResidency8Samples
      sparseResidency16Samples sparseResidencyAliased variableMultisampleRate inheritedQueries`),
  ],
  ["VkPhysicalDeviceFeatures2", "u32 sType; ptr pNext; VkPhysicalDeviceFeatures features"],
  [
    "VkPhysicalDeviceVulkan11Features",
    "u32 sType; ptr pNext; " +
      bools(`storageBuffer16BitAccess uniformAndStorageBuffer16BitAccess storagePushConstant16 storageInputOutput16
        multiview multiviewGeometryShader multiviewTessellationShader variablePointersStorageBuffer variablePointers
        protectedMemory samplerYcbcrConversion shaderDrawParameters`),
  ],
  [
    "VkPhysicalDeviceVulkan12Features",
    "u32 sType; ptr pNext; " +
      bools(`samplerMirrorClampToEdge drawIndirectCount storageBuffer8BitAccess uniformAndStorageBuffer8BitAccess
        storagePushConstant8 shaderBufferInt64Atomics shaderSharedInt64Atomics shaderFloat16 shaderInt8 descriptorIndexing
        shaderInputAttachmentArrayDynamicIndexing shaderUniformTexelBufferArrayDynamicIndexing
        shaderStorageTexelBufferArrayDynamicIndexing shaderUniformBufferArrayNonUniformIndexing
        shaderSampledImageArrayNonUniformIndexing shaderStorageBufferArrayNonUniformIndexing
        shaderStorageImageArrayNonUniformIndexing shaderInputAttachmentArrayNonUniformIndexing
        shaderUniformTexelBufferArrayNonUniformIndexing shaderStorageTexelBufferArrayNonUniformIndexing
        descriptorBindingUniformBufferUpdateAfterBind descriptorBindingSampledImageUpdateAfterBind
        descriptorBindingStorageImageUpdateAfterBind descriptorBindingStorageBufferUpdateAfterBind
        descriptorBindingUniformTexelBufferUpdateAfterBind descriptorBindingStorageTexelBufferUpdateAfterBind
        descriptorBindingUpdateUnusedWhilePending descriptorBindingPartiallyBound descriptorBindingVariableDescriptorCount
        runtimeDescriptorArray samplerFilterMinmax scalarBlockLayout imagelessFramebuffer uniformBufferStandardLayout
        shaderSubgroupExtendedTypes separateDepthStencilLayouts hostQueryReset timelineSemaphore bufferDeviceAddress
        bufferDeviceAddressCaptureReplay bufferDeviceAddressMultiDevice vulkanMemoryModel vulkanMemoryModelDeviceScope
        vulkanMemoryModelAvailabilityVisibilityChains shaderOutputViewportIndex shaderOutputLayer subgroupBroadcastDynamicId`),
  ],
  [
    "VkPhysicalDeviceVulkan13Features",
    "u32 sType; ptr pNext; " +
      bools(`robustImageAccess inlineUniformBlock descriptorBindingInlineUniformBlockUpdateAfterBind
        pipelineCreationCacheControl privateData shaderDemoteToHelperInvocation shaderTerminateInvocation
        subgroupSizeControl computeFullSubgroups synchronization2 textureCompressionASTC_HDR
        shaderZeroInitializeWorkgroupMemory dynamicRendering shaderIntegerDotProduct maintenance4`),
  ],
  [
    "VkPhysicalDeviceShaderAtomicFloatFeaturesEXT",
    "u32 sType; ptr pNext; " +
      bools(`shaderBufferFloat32Atomics shaderBufferFloat32AtomicAdd shaderBufferFloat64Atomics shaderBufferFloat64AtomicAdd
        shaderSharedFloat32Atomics shaderSharedFloat32AtomicAdd shaderSharedFloat64Atomics shaderSharedFloat64AtomicAdd
        shaderImageFloat32Atomics shaderImageFloat32AtomicAdd sparseImageFloat32Atomics sparseImageFloat32AtomicAdd`),
  ],
  ["VkExtensionProperties", "char[256] extensionName; u32 specVersion"],
  ["VkExtent3D", "u32 width; u32 height; u32 depth"],
  ["VkQueueFamilyProperties", "u32 queueFlags; u32 queueCount; u32 timestampValidBits; VkExtent3D minImageTransferGranularity"],
  ["VkMemoryType", "u32 propertyFlags; u32 heapIndex"],
  ["VkMemoryHeap", "u64 size; u32 flags"],
  ["VkPhysicalDeviceMemoryProperties", "u32 memoryTypeCount; VkMemoryType[32] memoryTypes; u32 memoryHeapCount; VkMemoryHeap[16] memoryHeaps"],
  ["VkDeviceQueueCreateInfo", "u32 sType; ptr pNext; u32 flags; u32 queueFamilyIndex; u32 queueCount; ptr pQueuePriorities"],
  [
    "VkDeviceCreateInfo",
    "u32 sType; ptr pNext; u32 flags; u32 queueCreateInfoCount; ptr pQueueCreateInfos; u32 enabledLayerCount; " +
      "ptr ppEnabledLayerNames; u32 enabledExtensionCount; ptr ppEnabledExtensionNames; ptr pEnabledFeatures",
  ],
  ["VkBufferCreateInfo", "u32 sType; ptr pNext; u32 flags; u64 size; u32 usage; u32 sharingMode; u32 queueFamilyIndexCount; ptr pQueueFamilyIndices"],
  ["VkMemoryRequirements", "u64 size; u64 alignment; u32 memoryTypeBits"],
  ["VkMemoryAllocateInfo", "u32 sType; ptr pNext; u64 allocationSize; u32 memoryTypeIndex"],
  ["VkMemoryAllocateFlagsInfo", "u32 sType; ptr pNext; u32 flags; u32 deviceMask"],
  ["VkMemoryDedicatedAllocateInfo", "u32 sType; ptr pNext; u64 image; u64 buffer"],
  ["VkBufferDeviceAddressInfo", "u32 sType; ptr pNext; handle buffer"],
  ["VkShaderModuleCreateInfo", "u32 sType; ptr pNext; u32 flags; size codeSize; ptr pCode"],
  ["VkPipelineCacheCreateInfo", "u32 sType; ptr pNext; u32 flags; size initialDataSize; ptr pInitialData"],
  ["VkDescriptorSetLayoutBinding", "u32 binding; u32 descriptorType; u32 descriptorCount; u32 stageFlags; ptr pImmutableSamplers"],
  ["VkDescriptorSetLayoutCreateInfo", "u32 sType; ptr pNext; u32 flags; u32 bindingCount; ptr pBindings"],
  ["VkPushConstantRange", "u32 stageFlags; u32 offset; u32 size"],
  ["VkPipelineLayoutCreateInfo", "u32 sType; ptr pNext; u32 flags; u32 setLayoutCount; ptr pSetLayouts; u32 pushConstantRangeCount; ptr pPushConstantRanges"],
  ["VkPipelineShaderStageCreateInfo", "u32 sType; ptr pNext; u32 flags; u32 stage; handle module; ptr pName; ptr pSpecializationInfo"],
  ["VkComputePipelineCreateInfo", "u32 sType; ptr pNext; u32 flags; VkPipelineShaderStageCreateInfo stage; handle layout; handle basePipelineHandle; i32 basePipelineIndex"],
  ["VkDescriptorPoolSize", "u32 type; u32 descriptorCount"],
  ["VkDescriptorPoolCreateInfo", "u32 sType; ptr pNext; u32 flags; u32 maxSets; u32 poolSizeCount; ptr pPoolSizes"],
  ["VkDescriptorSetAllocateInfo", "u32 sType; ptr pNext; handle descriptorPool; u32 descriptorSetCount; ptr pSetLayouts"],
  ["VkDescriptorBufferInfo", "handle buffer; u64 offset; u64 range"],
  [
    "VkWriteDescriptorSet",
    "u32 sType; ptr pNext; handle dstSet; u32 dstBinding; u32 dstArrayElement; u32 descriptorCount; u32 descriptorType; " +
      "ptr pImageInfo; ptr pBufferInfo; ptr pTexelBufferView",
  ],
  ["VkCommandPoolCreateInfo", "u32 sType; ptr pNext; u32 flags; u32 queueFamilyIndex"],
  ["VkCommandBufferAllocateInfo", "u32 sType; ptr pNext; handle commandPool; u32 level; u32 commandBufferCount"],
  ["VkCommandBufferBeginInfo", "u32 sType; ptr pNext; u32 flags; ptr pInheritanceInfo"],
  [
    "VkSubmitInfo",
    "u32 sType; ptr pNext; u32 waitSemaphoreCount; ptr pWaitSemaphores; ptr pWaitDstStageMask; u32 commandBufferCount; " +
      "ptr pCommandBuffers; u32 signalSemaphoreCount; ptr pSignalSemaphores",
  ],
  ["VkFenceCreateInfo", "u32 sType; ptr pNext; u32 flags"],
  ["VkQueryPoolCreateInfo", "u32 sType; ptr pNext; u32 flags; u32 queryType; u32 queryCount; u32 pipelineStatistics"],
  ["VkMemoryBarrier", "u32 sType; ptr pNext; u32 srcAccessMask; u32 dstAccessMask"],
  ["VkBufferCopy", "u64 srcOffset; u64 dstOffset; u64 size"],
];

export type StructName =
  | "VkApplicationInfo"
  | "VkInstanceCreateInfo"
  | "VkPhysicalDeviceLimits"
  | "VkPhysicalDeviceSparseProperties"
  | "VkPhysicalDeviceProperties"
  | "VkPhysicalDeviceProperties2"
  | "VkPhysicalDeviceSubgroupProperties"
  | "VkPhysicalDeviceSubgroupSizeControlProperties"
  | "VkPhysicalDeviceFloatControlsProperties"
  | "VkPhysicalDeviceFeatures"
  | "VkPhysicalDeviceFeatures2"
  | "VkPhysicalDeviceVulkan11Features"
  | "VkPhysicalDeviceVulkan12Features"
  | "VkPhysicalDeviceVulkan13Features"
  | "VkPhysicalDeviceShaderAtomicFloatFeaturesEXT"
  | "VkExtensionProperties"
  | "VkExtent3D"
  | "VkQueueFamilyProperties"
  | "VkMemoryType"
  | "VkMemoryHeap"
  | "VkPhysicalDeviceMemoryProperties"
  | "VkDeviceQueueCreateInfo"
  | "VkDeviceCreateInfo"
  | "VkBufferCreateInfo"
  | "VkMemoryRequirements"
  | "VkMemoryAllocateInfo"
  | "VkMemoryAllocateFlagsInfo"
  | "VkMemoryDedicatedAllocateInfo"
  | "VkBufferDeviceAddressInfo"
  | "VkShaderModuleCreateInfo"
  | "VkPipelineCacheCreateInfo"
  | "VkDescriptorSetLayoutBinding"
  | "VkDescriptorSetLayoutCreateInfo"
  | "VkPushConstantRange"
  | "VkPipelineLayoutCreateInfo"
  | "VkPipelineShaderStageCreateInfo"
  | "VkComputePipelineCreateInfo"
  | "VkDescriptorPoolSize"
  | "VkDescriptorPoolCreateInfo"
  | "VkDescriptorSetAllocateInfo"
  | "VkDescriptorBufferInfo"
  | "VkWriteDescriptorSet"
  | "VkCommandPoolCreateInfo"
  | "VkCommandBufferAllocateInfo"
  | "VkCommandBufferBeginInfo"
  | "VkSubmitInfo"
  | "VkFenceCreateInfo"
  | "VkQueryPoolCreateInfo"
  | "VkMemoryBarrier"
  | "VkBufferCopy";

export type Structs = Readonly<Record<StructName, KoffiType>>;

const PRIMITIVES: Readonly<Record<string, string>> = {
  u8: "uint8_t",
  u32: "uint32_t",
  i32: "int32_t",
  u64: "uint64_t",
  f32: "float",
  size: "size_t",
  ptr: "void *",
  handle: "void *", // non-dispatchable handles are 64-bit; the runtime requires a 64-bit process
  char: "char",
};

/** One parsed member: C-like type name, array length (0 = scalar), member name. */
export interface MemberDecl {
  readonly type: string;
  readonly count: number;
  readonly name: string;
}

export function parseMembers(decl: string): MemberDecl[] {
  return decl
    .split(";")
    .map((m) => m.trim())
    .filter((m) => m.length > 0)
    .map((m) => {
      const match = /^(\w+)(?:\[(\d+)\])?\s+(\w+)$/.exec(m);
      if (!match) throw new Error(`bad struct member declaration '${m}'`);
      return { type: match[1]!, count: match[2] ? Number(match[2]) : 0, name: match[3]! };
    });
}

/** Builds anonymous koffi struct types (anonymous so a second load never clashes by name). */
export function defineStructs(koffi: KoffiModule): Structs {
  const defined = new Map<string, KoffiType>();
  for (const [name, decl] of STRUCT_DECLS) {
    const members: Record<string, KoffiType> = {};
    for (const m of parseMembers(decl)) {
      const base = defined.get(m.type) ?? koffi.type(PRIMITIVES[m.type] ?? fail(name, m.type));
      // char arrays decode as JS strings; other arrays as plain JS arrays.
      members[m.name] = m.count === 0 ? base : koffi.array(base, m.count, m.type === "char" ? "String" : "Array");
    }
    defined.set(name, koffi.struct(members));
  }
  return Object.fromEntries(defined) as Structs;
}

function fail(struct: string, type: string): never {
  throw new Error(`struct ${struct}: unknown member type '${type}'`);
}
