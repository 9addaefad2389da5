/**
 * The device context shared by a runtime's buffers and kernels: instance, chosen physical
 * device, logical device with one compute queue, and the per-runtime objects every dispatch
 * reuses (command pool + one command buffer, fence, timestamp query pool, pipeline cache).
 * Dispatches are synchronous, so one of each suffices.
 */
import { LoomError } from "../../core/errors.js";
import {
  COMMAND_BUFFER_LEVEL_PRIMARY,
  COMMAND_POOL_CREATE_RESET_COMMAND_BUFFER,
  QUERY_TYPE_TIMESTAMP,
  STYPE,
  apiVersion,
  formatApiVersion,
} from "./constants.js";
import { describePhysicalDevice, deviceApiVersionOf, queryFeatureChain, type VulkanDeviceInfo } from "./device-info.js";
import { loadVulkan, type VulkanLibrary } from "./ffi.js";
import type { StagingBuffer } from "./staging.js";
import { NativeArena } from "./native-arena.js";
import { DEVICE_ENV_VAR, selectDevice, type DeviceCandidate } from "./select.js";
import { check } from "./vk-result.js";

export interface ContextOptions {
  readonly device?: number | string;
  readonly layers?: readonly string[];
  readonly pipelineCache?: Uint8Array;
  readonly timeoutMs: number;
  readonly forceStaging: boolean;
  readonly stagingBytes: number;
}

export interface MemoryTypeInfo {
  readonly propertyFlags: number;
  readonly heapIndex: number;
}

export interface DeviceContext {
  readonly lib: VulkanLibrary;
  readonly instance: bigint;
  readonly physicalDevice: bigint;
  readonly device: bigint;
  readonly queue: bigint;
  readonly info: VulkanDeviceInfo;
  readonly memoryTypes: readonly MemoryTypeInfo[];
  /** bufferDeviceAddress was enabled at device creation. */
  readonly bufferDeviceAddress: boolean;
  readonly commandPool: bigint;
  readonly commandBuffer: bigint;
  readonly fence: bigint;
  /** Two timestamp queries, or 0n when the queue cannot write timestamps. */
  readonly queryPool: bigint;
  readonly pipelineCache: bigint;
  /** How long one submission may run before the device counts as lost. */
  readonly timeoutMs: number;
  /** Device-memory buffers never map their memory, even when it is host-visible (tests the staging path). */
  readonly forceStaging: boolean;
  /** Largest staging buffer = the chunk size of staged transfers. */
  readonly stagingBytes: number;
  /** The runtime's one staging buffer, made on first use and grown as needed. */
  staging: StagingBuffer | undefined;
  /** Set by destroy; set with a reason when a dispatch timed out or the device was lost. */
  state: "live" | "destroyed" | { lost: string };
  /** A submitted batch not yet waited for (batch.ts): anything else that uses the device settles it first. */
  pending: { settle(): void } | undefined;
  /**
   * The dispatch the command buffer holds, when it was recorded by dispatch.ts for reuse: a
   * repeat of the same dispatch resubmits it without recording. Anything else that records
   * (beginCommands) clears it.
   */
  recorded: RecordedDispatch | undefined;
  /** The buffers last written into each kernel's descriptor set (written again only when they change). */
  readonly boundBuffers: WeakMap<object, readonly object[]>;
  /** Native structs of the dispatch path, encoded once (dispatch.ts); freed with the context. */
  dispatchScratch: { free(): void } | undefined;
}

/** What a reusable dispatch recording holds (identity of kernel and buffers, bytes of the block). */
interface RecordedDispatch {
  readonly kernel: object;
  readonly buffers: readonly object[];
  readonly block: Uint8Array;
  readonly count: readonly [number, number, number];
  readonly timestamps: boolean;
}

/** Throws unless the context can still be used; `what` names the object being used. */
export function requireLive(ctx: DeviceContext, what: string): void {
  if (ctx.state === "live") return;
  if (ctx.state === "destroyed") throw new LoomError("failed-precondition", `${what}: the Vulkan runtime was destroyed`);
  throw new LoomError("failed-precondition", `${what}: the Vulkan device is unusable (${ctx.state.lost})`);
}

/** Instance + the enumerated physical devices, described. Caller destroys the instance. */
function createInstance(lib: VulkanLibrary, arena: NativeArena, layers: readonly string[]): bigint {
  if (lib.instanceVersion < apiVersion(1, 1)) {
    throw new LoomError(
      "failed-precondition",
      `the Vulkan loader reports instance version ${formatApiVersion(lib.instanceVersion)}; the runtime needs 1.1 or newer`,
    );
  }
  const requested = Math.min(lib.instanceVersion, apiVersion(1, 3));
  const app = arena.struct("VkApplicationInfo", {
    sType: STYPE.APPLICATION_INFO,
    pApplicationName: arena.cstring("loom"),
    pEngineName: arena.cstring("loom"),
    apiVersion: requested,
  });
  const info = arena.struct("VkInstanceCreateInfo", {
    sType: STYPE.INSTANCE_CREATE_INFO,
    pApplicationInfo: app,
    enabledLayerCount: layers.length,
    ppEnabledLayerNames: layers.length ? arena.handles(layers.map((l) => arena.cstring(l))) : null,
  });
  const out = arena.bytes(8);
  check(lib.vk.vkCreateInstance(info, null, out), `vkCreateInstance${layers.length ? ` (layers ${layers.join(", ")})` : ""}`);
  return arena.readU64(out);
}

function enumeratePhysicalDevices(lib: VulkanLibrary, arena: NativeArena, instance: bigint): bigint[] {
  const count = arena.bytes(4);
  check(lib.vk.vkEnumeratePhysicalDevices(instance, count, null), "vkEnumeratePhysicalDevices");
  const n = arena.readU32(count);
  if (n === 0) return [];
  const handles = arena.bytes(8 * n);
  const r = lib.vk.vkEnumeratePhysicalDevices(instance, count, handles);
  if (r !== 5) check(r, "vkEnumeratePhysicalDevices"); // VK_INCOMPLETE: a device vanished; use what came back
  return Array.from({ length: arena.readU32(count) }, (_, i) => arena.readU64(handles, i));
}

function unusableReason(info: VulkanDeviceInfo): string | undefined {
  if (deviceApiVersionOf(info) < apiVersion(1, 1)) return `device Vulkan ${info.apiVersion} < 1.1`;
  if (info.computeQueueFamily < 0) return "no queue family with compute support";
  return undefined;
}

/** Lists every physical device without creating a logical device. */
export function listPhysicalDevices(layers: readonly string[] = []): VulkanDeviceInfo[] {
  const lib = loadVulkan();
  const arena = new NativeArena(lib);
  try {
    const instance = createInstance(lib, arena, layers);
    try {
      return enumeratePhysicalDevices(lib, arena, instance).map((pd, i) => describePhysicalDevice(lib, pd, i));
    } finally {
      lib.vk.vkDestroyInstance(instance, null);
    }
  } finally {
    arena.free();
  }
}

/** Features enabled on the logical device: everything supported except these (cost, no use here). */
const NOT_ENABLED = ["robustBufferAccess", "robustImageAccess", "bufferDeviceAddressCaptureReplay", "bufferDeviceAddressMultiDevice"];

export function createDeviceContext(options: ContextOptions): DeviceContext {
  const lib = loadVulkan();
  const arena = new NativeArena(lib);
  const cleanup: (() => void)[] = [];
  try {
    const instance = createInstance(lib, arena, options.layers ?? []);
    cleanup.push(() => lib.vk.vkDestroyInstance(instance, null));

    const handles = enumeratePhysicalDevices(lib, arena, instance);
    const infos = handles.map((pd, i) => describePhysicalDevice(lib, pd, i));
    const candidates: DeviceCandidate[] = infos.map((info) => ({ index: info.index, name: info.name, type: info.type, unusable: unusableReason(info) }));
    const fromOptions = options.device !== undefined;
    const selector = fromOptions ? options.device : process.env[DEVICE_ENV_VAR];
    const chosen = selectDevice(candidates, selector, fromOptions ? "options.device" : DEVICE_ENV_VAR);
    const info = infos[chosen]!;
    const physicalDevice = handles[chosen]!;

    const chain = queryFeatureChain(lib, arena, physicalDevice, deviceApiVersionOf(info));
    for (const f of NOT_ENABLED) chain.disable(f);
    const queueInfo = arena.struct("VkDeviceQueueCreateInfo", {
      sType: STYPE.DEVICE_QUEUE_CREATE_INFO,
      queueFamilyIndex: info.computeQueueFamily,
      queueCount: 1,
      pQueuePriorities: arena.f32s([1]),
    });
    const deviceInfo = arena.struct("VkDeviceCreateInfo", {
      sType: STYPE.DEVICE_CREATE_INFO,
      pNext: chain.head,
      queueCreateInfoCount: 1,
      pQueueCreateInfos: queueInfo,
      enabledExtensionCount: chain.extensions.length,
      ppEnabledExtensionNames: chain.extensions.length ? arena.handles(chain.extensions.map((e) => arena.cstring(e))) : null,
    });
    const out = arena.bytes(8);
    check(lib.vk.vkCreateDevice(physicalDevice, deviceInfo, null, out), `vkCreateDevice (${info.name})`);
    const device = arena.readU64(out);
    cleanup.push(() => lib.vk.vkDestroyDevice(device, null));

    lib.vk.vkGetDeviceQueue(device, info.computeQueueFamily, 0, out);
    const queue = arena.readU64(out);

    const memProps = arena.bytes(lib.structs.VkPhysicalDeviceMemoryProperties.size);
    lib.vk.vkGetPhysicalDeviceMemoryProperties(physicalDevice, memProps);
    const mem = arena.readStruct<{ memoryTypeCount: number; memoryTypes: MemoryTypeInfo[] }>("VkPhysicalDeviceMemoryProperties", memProps);
    const memoryTypes = mem.memoryTypes.slice(0, mem.memoryTypeCount).map((t) => ({ propertyFlags: t.propertyFlags, heapIndex: t.heapIndex }));

    const create = (fn: (out: bigint) => number, what: string, destroy: (h: bigint) => void): bigint => {
      check(fn(out), what);
      const handle = arena.readU64(out);
      cleanup.push(() => destroy(handle));
      return handle;
    };
    const commandPool = create(
      (o) =>
        lib.vk.vkCreateCommandPool(
          device,
          arena.struct("VkCommandPoolCreateInfo", {
            sType: STYPE.COMMAND_POOL_CREATE_INFO,
            flags: COMMAND_POOL_CREATE_RESET_COMMAND_BUFFER,
            queueFamilyIndex: info.computeQueueFamily,
          }),
          null,
          o,
        ),
      "vkCreateCommandPool",
      (h) => lib.vk.vkDestroyCommandPool(device, h, null),
    );
    check(
      lib.vk.vkAllocateCommandBuffers(
        device,
        arena.struct("VkCommandBufferAllocateInfo", {
          sType: STYPE.COMMAND_BUFFER_ALLOCATE_INFO,
          commandPool,
          level: COMMAND_BUFFER_LEVEL_PRIMARY,
          commandBufferCount: 1,
        }),
        out,
      ),
      "vkAllocateCommandBuffers",
    );
    const commandBuffer = arena.readU64(out); // freed with the pool
    const fence = create(
      (o) => lib.vk.vkCreateFence(device, arena.struct("VkFenceCreateInfo", { sType: STYPE.FENCE_CREATE_INFO }), null, o),
      "vkCreateFence",
      (h) => lib.vk.vkDestroyFence(device, h, null),
    );
    const queryPool = info.timestamps
      ? create(
          (o) =>
            lib.vk.vkCreateQueryPool(
              device,
              arena.struct("VkQueryPoolCreateInfo", { sType: STYPE.QUERY_POOL_CREATE_INFO, queryType: QUERY_TYPE_TIMESTAMP, queryCount: 2 }),
              null,
              o,
            ),
          "vkCreateQueryPool",
          (h) => lib.vk.vkDestroyQueryPool(device, h, null),
        )
      : 0n;
    const initial = options.pipelineCache;
    const pipelineCache = create(
      (o) =>
        lib.vk.vkCreatePipelineCache(
          device,
          arena.struct("VkPipelineCacheCreateInfo", {
            sType: STYPE.PIPELINE_CACHE_CREATE_INFO,
            initialDataSize: initial?.byteLength ?? 0,
            pInitialData: initial?.byteLength ? arena.copy(initial) : null,
          }),
          null,
          o,
        ),
      "vkCreatePipelineCache",
      (h) => lib.vk.vkDestroyPipelineCache(device, h, null),
    );
    cleanup.length = 0; // success: the context owns everything now
    return {
      lib,
      instance,
      physicalDevice,
      device,
      queue,
      info,
      memoryTypes,
      bufferDeviceAddress: chain.all.bufferDeviceAddress === true,
      commandPool,
      commandBuffer,
      fence,
      queryPool,
      pipelineCache,
      timeoutMs: options.timeoutMs,
      forceStaging: options.forceStaging,
      stagingBytes: options.stagingBytes,
      staging: undefined,
      state: "live",
      pending: undefined,
      recorded: undefined,
      boundBuffers: new WeakMap(),
      dispatchScratch: undefined,
    };
  } finally {
    for (const undo of cleanup.reverse()) undo();
    arena.free();
  }
}

/**
 * Destroys the per-runtime objects, the device and the instance (children must be gone). A
 * context lost to a timed-out dispatch is only marked destroyed: the device may still be
 * running that work, and waiting for it could hang, so its objects are leaked instead.
 */
export function destroyDeviceContext(ctx: DeviceContext): void {
  const { lib, device } = ctx;
  const live = ctx.state === "live";
  ctx.state = "destroyed";
  if (!live) return;
  lib.vk.vkDeviceWaitIdle(device);
  ctx.staging?.destroy(ctx);
  ctx.staging = undefined;
  ctx.recorded = undefined;
  ctx.dispatchScratch?.free();
  ctx.dispatchScratch = undefined;
  lib.vk.vkDestroyPipelineCache(device, ctx.pipelineCache, null);
  if (ctx.queryPool !== 0n) lib.vk.vkDestroyQueryPool(device, ctx.queryPool, null);
  lib.vk.vkDestroyFence(device, ctx.fence, null);
  lib.vk.vkDestroyCommandPool(device, ctx.commandPool, null);
  lib.vk.vkDestroyDevice(device, null);
  lib.vk.vkDestroyInstance(ctx.instance, null);
}
