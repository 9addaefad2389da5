/**
 * Device buffers: one VkBuffer per allocation in host-visible, host-coherent memory (device-
 * local too when the device offers it), mapped for the buffer's whole life, so upload and
 * download are plain copies and need no flush. Every range is checked before memory is touched.
 */
import { LoomError } from "../../api/errors.js";
import {
  BUFFER_USAGE_SHADER_DEVICE_ADDRESS,
  BUFFER_USAGE_STORAGE_BUFFER,
  BUFFER_USAGE_TRANSFER_DST,
  BUFFER_USAGE_TRANSFER_SRC,
  MEMORY_ALLOCATE_DEVICE_ADDRESS_BIT,
  MEMORY_PROPERTY_DEVICE_LOCAL,
  MEMORY_PROPERTY_HOST_COHERENT,
  MEMORY_PROPERTY_HOST_VISIBLE,
  SHARING_MODE_EXCLUSIVE,
  STYPE,
  WHOLE_SIZE,
} from "./constants.js";
import { requireLive, type DeviceContext, type MemoryTypeInfo } from "./context.js";
import { NativeArena } from "./native-arena.js";
import { check } from "./vk-result.js";

/** Picks a host-visible + coherent memory type allowed by `bits`, preferring device-local. */
export function chooseMemoryType(types: readonly MemoryTypeInfo[], bits: number): number {
  const want = MEMORY_PROPERTY_HOST_VISIBLE | MEMORY_PROPERTY_HOST_COHERENT;
  let fallback = -1;
  for (let i = 0; i < types.length; i++) {
    if ((bits & (1 << i)) === 0 || (types[i]!.propertyFlags & want) !== want) continue;
    if (types[i]!.propertyFlags & MEMORY_PROPERTY_DEVICE_LOCAL) return i;
    if (fallback < 0) fallback = i;
  }
  return fallback;
}

export class VulkanBuffer {
  /** Bytes the caller asked for; the VkBuffer may be slightly larger (never 0, multiple of 4). */
  readonly byteLength: number;
  /**
   * The buffer's device address (VK_KHR_buffer_device_address) when the device supports it,
   * else 0n. Kernels in "bindings" addressing take 0 in the argument block instead.
   */
  readonly deviceAddress: bigint;
  /** @internal */ readonly handle: bigint;
  /** @internal */ readonly allocatedBytes: number;
  private readonly memory: bigint;
  private readonly mapped: Uint8Array;
  private destroyed = false;

  /** @internal Use VulkanRuntime.createBuffer. */
  constructor(
    /** @internal */ readonly ctx: DeviceContext,
    byteLength: number,
    private readonly onDestroy: (b: VulkanBuffer) => void,
  ) {
    requireLive(ctx, "createBuffer");
    if (!Number.isSafeInteger(byteLength) || byteLength < 0) {
      throw new LoomError("invalid-argument", `createBuffer: byteLength must be a non-negative integer, got ${byteLength}`);
    }
    const { lib, device } = ctx;
    const arena = new NativeArena(lib);
    const cleanup: (() => void)[] = [];
    try {
      // Vulkan forbids empty buffers and storage ranges are counted in 4-byte words.
      const allocatedBytes = Math.max(4, Math.ceil(byteLength / 4) * 4);
      const usage =
        BUFFER_USAGE_STORAGE_BUFFER |
        BUFFER_USAGE_TRANSFER_SRC |
        BUFFER_USAGE_TRANSFER_DST |
        (ctx.bufferDeviceAddress ? BUFFER_USAGE_SHADER_DEVICE_ADDRESS : 0);
      const out = arena.bytes(8);
      const info = arena.struct("VkBufferCreateInfo", {
        sType: STYPE.BUFFER_CREATE_INFO,
        size: BigInt(allocatedBytes),
        usage,
        sharingMode: SHARING_MODE_EXCLUSIVE,
      });
      check(lib.vk.vkCreateBuffer(device, info, null, out), `vkCreateBuffer (${byteLength} bytes)`);
      const handle = arena.readU64(out);
      cleanup.push(() => lib.vk.vkDestroyBuffer(device, handle, null));

      const reqPtr = arena.bytes(lib.structs.VkMemoryRequirements.size);
      lib.vk.vkGetBufferMemoryRequirements(device, handle, reqPtr);
      const req = arena.readStruct<{ size: number | bigint; memoryTypeBits: number }>("VkMemoryRequirements", reqPtr);
      const typeIndex = chooseMemoryType(ctx.memoryTypes, req.memoryTypeBits);
      if (typeIndex < 0) {
        throw new LoomError("failed-precondition", `createBuffer: device '${ctx.info.name}' has no host-visible, host-coherent memory type for storage buffers`);
      }
      const flagsInfo = ctx.bufferDeviceAddress
        ? arena.struct("VkMemoryAllocateFlagsInfo", { sType: STYPE.MEMORY_ALLOCATE_FLAGS_INFO, flags: MEMORY_ALLOCATE_DEVICE_ADDRESS_BIT })
        : null;
      const alloc = arena.struct("VkMemoryAllocateInfo", {
        sType: STYPE.MEMORY_ALLOCATE_INFO,
        pNext: flagsInfo,
        allocationSize: BigInt(req.size),
        memoryTypeIndex: typeIndex,
      });
      check(lib.vk.vkAllocateMemory(device, alloc, null, out), `vkAllocateMemory (${req.size} bytes)`);
      const memory = arena.readU64(out);
      cleanup.push(() => lib.vk.vkFreeMemory(device, memory, null));
      check(lib.vk.vkBindBufferMemory(device, handle, memory, 0n), "vkBindBufferMemory");
      check(lib.vk.vkMapMemory(device, memory, 0n, WHOLE_SIZE, 0, out), "vkMapMemory");
      const mapped = new Uint8Array(lib.koffi.view(arena.readU64(out), allocatedBytes));
      mapped.fill(0); // new buffers read as zeros, deterministically

      this.deviceAddress = ctx.bufferDeviceAddress
        ? BigInt(lib.vk.vkGetBufferDeviceAddress(device, arena.struct("VkBufferDeviceAddressInfo", { sType: STYPE.BUFFER_DEVICE_ADDRESS_INFO, buffer: handle })))
        : 0n;
      this.byteLength = byteLength;
      this.allocatedBytes = allocatedBytes;
      this.handle = handle;
      this.memory = memory;
      this.mapped = mapped;
      cleanup.length = 0;
    } finally {
      for (const undo of cleanup.reverse()) undo();
      arena.free();
    }
  }

  get isDestroyed(): boolean {
    return this.destroyed;
  }

  /** @internal Throws unless the buffer and its runtime are usable. */
  requireUsable(what: string): void {
    if (this.destroyed) throw new LoomError("failed-precondition", `${what}: the buffer was destroyed`);
    requireLive(this.ctx, what);
  }

  /** Copies `data` into the buffer at `byteOffset`. */
  upload(data: ArrayBufferView, byteOffset = 0): void {
    this.requireUsable("upload");
    const bytes = new Uint8Array(data.buffer, data.byteOffset, data.byteLength);
    this.checkRange("upload", byteOffset, bytes.byteLength);
    this.mapped.set(bytes, byteOffset);
  }

  /** Copies `byteLength` bytes starting at `byteOffset` out of the buffer (default: to the end). */
  download(byteOffset = 0, byteLength = this.byteLength - byteOffset): Uint8Array {
    this.requireUsable("download");
    this.checkRange("download", byteOffset, byteLength);
    return this.mapped.slice(byteOffset, byteOffset + byteLength);
  }

  private checkRange(what: string, offset: number, length: number): void {
    if (!Number.isSafeInteger(offset) || offset < 0 || !Number.isSafeInteger(length) || length < 0) {
      throw new LoomError("invalid-argument", `${what}: offset and length must be non-negative integers, got ${offset} and ${length}`);
    }
    if (offset + length > this.byteLength) {
      throw new LoomError("out-of-range", `${what}: bytes [${offset}, ${offset + length}) exceed the buffer's ${this.byteLength} bytes`);
    }
  }

  /** Frees the buffer (no-op when already destroyed). It must not be in use by a dispatch. */
  destroy(): void {
    if (this.destroyed) return;
    this.destroyed = true;
    this.onDestroy(this);
    if (this.ctx.state !== "live") return; // destroyed with the runtime, or leaked with a lost device
    const { lib, device } = this.ctx;
    lib.vk.vkUnmapMemory(device, this.memory);
    lib.vk.vkDestroyBuffer(device, this.handle, null);
    lib.vk.vkFreeMemory(device, this.memory, null);
  }
}
