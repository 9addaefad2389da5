/**
 * The binding layer: loads libvulkan lazily through koffi and declares the Vulkan 1.3 entry
 * points the runtime calls. Every pointer and handle crosses as a BigInt (koffi 3) and every
 * struct is written into native memory first (see scratch.ts), so no declaration below needs
 * koffi to marshal a struct by itself. The loader exports all core 1.0–1.3 commands, so they
 * are bound by symbol; layers (validation) still intercept them through the loader.
 */
import { LoomError } from "../../core/errors.js";
import { loadKoffi, type KoffiModule } from "./koffi.js";
import { defineStructs, type Structs } from "./structs.js";

/** Commands that return a VkResult (declared `int32_t`). */
const RESULT_COMMANDS = {
  vkEnumerateInstanceVersion: "(void *pApiVersion)",
  vkCreateInstance: "(void *pCreateInfo, void *pAllocator, void *pInstance)",
  vkEnumeratePhysicalDevices: "(void *instance, void *pCount, void *pDevices)",
  vkEnumerateDeviceExtensionProperties: "(void *physicalDevice, void *pLayerName, void *pCount, void *pProperties)",
  vkCreateDevice: "(void *physicalDevice, void *pCreateInfo, void *pAllocator, void *pDevice)",
  vkCreateBuffer: "(void *device, void *pCreateInfo, void *pAllocator, void *pBuffer)",
  vkAllocateMemory: "(void *device, void *pAllocateInfo, void *pAllocator, void *pMemory)",
  vkBindBufferMemory: "(void *device, void *buffer, void *memory, uint64_t offset)",
  vkMapMemory: "(void *device, void *memory, uint64_t offset, uint64_t size, uint32_t flags, void *ppData)",
  vkCreateShaderModule: "(void *device, void *pCreateInfo, void *pAllocator, void *pModule)",
  vkCreatePipelineCache: "(void *device, void *pCreateInfo, void *pAllocator, void *pCache)",
  vkGetPipelineCacheData: "(void *device, void *cache, void *pDataSize, void *pData)",
  vkCreateDescriptorSetLayout: "(void *device, void *pCreateInfo, void *pAllocator, void *pLayout)",
  vkCreatePipelineLayout: "(void *device, void *pCreateInfo, void *pAllocator, void *pLayout)",
  vkCreateComputePipelines: "(void *device, void *cache, uint32_t count, void *pCreateInfos, void *pAllocator, void *pPipelines)",
  vkCreateDescriptorPool: "(void *device, void *pCreateInfo, void *pAllocator, void *pPool)",
  vkAllocateDescriptorSets: "(void *device, void *pAllocateInfo, void *pSets)",
  vkCreateCommandPool: "(void *device, void *pCreateInfo, void *pAllocator, void *pPool)",
  vkAllocateCommandBuffers: "(void *device, void *pAllocateInfo, void *pBuffers)",
  vkResetCommandBuffer: "(void *commandBuffer, uint32_t flags)",
  vkBeginCommandBuffer: "(void *commandBuffer, void *pBeginInfo)",
  vkEndCommandBuffer: "(void *commandBuffer)",
  vkCreateFence: "(void *device, void *pCreateInfo, void *pAllocator, void *pFence)",
  vkResetFences: "(void *device, uint32_t count, void *pFences)",
  vkWaitForFences: "(void *device, uint32_t count, void *pFences, uint32_t waitAll, uint64_t timeout)",
  vkGetFenceStatus: "(void *device, void *fence)",
  vkQueueSubmit: "(void *queue, uint32_t count, void *pSubmits, void *fence)",
  vkCreateQueryPool: "(void *device, void *pCreateInfo, void *pAllocator, void *pPool)",
  vkGetQueryPoolResults:
    "(void *device, void *pool, uint32_t first, uint32_t count, size_t dataSize, void *pData, uint64_t stride, uint32_t flags)",
  vkDeviceWaitIdle: "(void *device)",
} as const;

/** Commands that return nothing. */
const VOID_COMMANDS = {
  vkDestroyInstance: "(void *instance, void *pAllocator)",
  vkGetPhysicalDeviceProperties2: "(void *physicalDevice, void *pProperties)",
  vkGetPhysicalDeviceFeatures2: "(void *physicalDevice, void *pFeatures)",
  vkGetPhysicalDeviceQueueFamilyProperties: "(void *physicalDevice, void *pCount, void *pProperties)",
  vkGetPhysicalDeviceMemoryProperties: "(void *physicalDevice, void *pProperties)",
  vkDestroyDevice: "(void *device, void *pAllocator)",
  vkGetDeviceQueue: "(void *device, uint32_t family, uint32_t index, void *pQueue)",
  vkDestroyBuffer: "(void *device, void *buffer, void *pAllocator)",
  vkGetBufferMemoryRequirements: "(void *device, void *buffer, void *pRequirements)",
  vkFreeMemory: "(void *device, void *memory, void *pAllocator)",
  vkUnmapMemory: "(void *device, void *memory)",
  vkDestroyShaderModule: "(void *device, void *module, void *pAllocator)",
  vkDestroyPipelineCache: "(void *device, void *cache, void *pAllocator)",
  vkDestroyDescriptorSetLayout: "(void *device, void *layout, void *pAllocator)",
  vkDestroyPipelineLayout: "(void *device, void *layout, void *pAllocator)",
  vkDestroyPipeline: "(void *device, void *pipeline, void *pAllocator)",
  vkDestroyDescriptorPool: "(void *device, void *pool, void *pAllocator)",
  vkUpdateDescriptorSets: "(void *device, uint32_t writeCount, void *pWrites, uint32_t copyCount, void *pCopies)",
  vkDestroyCommandPool: "(void *device, void *pool, void *pAllocator)",
  vkCmdBindPipeline: "(void *commandBuffer, uint32_t bindPoint, void *pipeline)",
  vkCmdBindDescriptorSets:
    "(void *commandBuffer, uint32_t bindPoint, void *layout, uint32_t firstSet, uint32_t count, void *pSets, uint32_t dynamicCount, void *pDynamicOffsets)",
  vkCmdPushConstants: "(void *commandBuffer, void *layout, uint32_t stageFlags, uint32_t offset, uint32_t size, void *pValues)",
  vkCmdDispatch: "(void *commandBuffer, uint32_t x, uint32_t y, uint32_t z)",
  vkCmdCopyBuffer: "(void *commandBuffer, void *srcBuffer, void *dstBuffer, uint32_t regionCount, void *pRegions)",
  vkCmdFillBuffer: "(void *commandBuffer, void *dstBuffer, uint64_t dstOffset, uint64_t size, uint32_t data)",
  vkCmdPipelineBarrier:
    "(void *commandBuffer, uint32_t srcStages, uint32_t dstStages, uint32_t dependencyFlags, uint32_t memoryBarrierCount, void *pMemoryBarriers, uint32_t bufferBarrierCount, void *pBufferBarriers, uint32_t imageBarrierCount, void *pImageBarriers)",
  vkCmdResetQueryPool: "(void *commandBuffer, void *pool, uint32_t first, uint32_t count)",
  vkCmdWriteTimestamp: "(void *commandBuffer, uint32_t stage, void *pool, uint32_t query)",
  vkDestroyFence: "(void *device, void *fence, void *pAllocator)",
  vkDestroyQueryPool: "(void *device, void *pool, void *pAllocator)",
} as const;

/** Commands with another return type. */
const OTHER_COMMANDS = {
  vkGetBufferDeviceAddress: "uint64_t vkGetBufferDeviceAddress(void *device, void *pInfo)",
} as const;

/** A native pointer or handle (0n = null), or a scalar. */
export type NativeArg = bigint | number | null;

export type Vk = { readonly [K in keyof typeof RESULT_COMMANDS]: (...args: NativeArg[]) => number } & {
  readonly [K in keyof typeof VOID_COMMANDS]: (...args: NativeArg[]) => void;
} & { readonly vkGetBufferDeviceAddress: (device: bigint, info: bigint) => bigint | number };

/** Everything the runtime needs from the native side, loaded once per process. */
export interface VulkanLibrary {
  readonly koffi: KoffiModule;
  readonly vk: Vk;
  readonly structs: Structs;
  /** The loader's instance-level version (vkEnumerateInstanceVersion). */
  readonly instanceVersion: number;
}

/** Overrides the loader's path (e.g. a loader unpacked outside the library search path). */
export const LIBRARY_ENV_VAR = "LOOM_VULKAN_LIBRARY";

/** The loader to open: $LOOM_VULKAN_LIBRARY, else the platform's usual file name. */
export function vulkanLibraryName(platform: string = process.platform, env: NodeJS.ProcessEnv = process.env): string {
  const override = env[LIBRARY_ENV_VAR];
  if (override) return override;
  if (platform === "win32") return "vulkan-1.dll";
  if (platform === "darwin") return "libvulkan.1.dylib";
  return "libvulkan.so.1";
}

let cached: VulkanLibrary | undefined;

/**
 * Loads koffi and the Vulkan loader (once). Throws LoomError: "unimplemented" without koffi,
 * "failed-precondition" when the loader is missing or too old, naming the fix.
 */
export function loadVulkan(): VulkanLibrary {
  if (cached) return cached;
  const koffi = loadKoffi();
  const file = vulkanLibraryName();
  let lib: ReturnType<KoffiModule["load"]>;
  try {
    lib = koffi.load(file);
  } catch (e) {
    throw new LoomError(
      "failed-precondition",
      `cannot load the Vulkan loader ${file} (${(e as Error).message.split("\n")[0]}); install a Vulkan loader ` +
        `and driver, e.g. 'apt-get install libvulkan1 mesa-vulkan-drivers' (lavapipe, a CPU device)`,
    );
  }
  const vk: Record<string, unknown> = {};
  const bind = (decl: string, name: string) => {
    try {
      vk[name] = lib.func(decl);
    } catch (e) {
      throw new LoomError(
        "failed-precondition",
        `the Vulkan loader ${file} does not export ${name} (${(e as Error).message}); a loader for Vulkan 1.2 or newer is required`,
      );
    }
  };
  for (const [name, params] of Object.entries(RESULT_COMMANDS)) bind(`int32_t ${name}${params}`, name);
  for (const [name, params] of Object.entries(VOID_COMMANDS)) bind(`void ${name}${params}`, name);
  for (const [name, decl] of Object.entries(OTHER_COMMANDS)) bind(decl, name);

  const version = koffi.alloc("uint32_t", 1);
  const r = (vk as Vk).vkEnumerateInstanceVersion(version);
  const instanceVersion = r === 0 ? (koffi.decode(version, "uint32_t") as number) : 0;
  koffi.free(version);
  cached = { koffi, vk: vk as Vk, structs: defineStructs(koffi), instanceVersion };
  return cached;
}
