/**
 * Memory-type choice and raw VkBuffer + VkDeviceMemory allocation, shared by user buffers and
 * the staging buffer.
 *
 * Why device-only memory by default: on discrete GPUs the host-visible device-local type is a
 * ReBAR window onto VRAM, which the driver may map with small pages; an H200 ran saxpy at
 * 809 GB/s there against ~4.3 TB/s for plain VRAM. So buffers live in a DEVICE_LOCAL type that
 * is not HOST_VISIBLE when the device has one, and upload/download go through staging.
 */
import { LoomError } from "../../core/errors.js";
import {
  BUFFER_USAGE_SHADER_DEVICE_ADDRESS,
  MEMORY_ALLOCATE_DEVICE_ADDRESS_BIT,
  MEMORY_PROPERTY_DEVICE_LOCAL,
  MEMORY_PROPERTY_HOST_CACHED,
  MEMORY_PROPERTY_HOST_COHERENT,
  MEMORY_PROPERTY_HOST_VISIBLE,
  SHARING_MODE_EXCLUSIVE,
  STYPE,
  WHOLE_SIZE,
} from "./constants.js";
import type { DeviceContext, MemoryTypeInfo } from "./context.js";
import { NativeArena } from "./native-arena.js";
import { check } from "./vk-result.js";

/**
 * What a buffer's memory is for: "device" (kernels, default), "host-visible" (kernels, mapped
 * for direct host access), "staging" (host side of staged transfers).
 */
export type MemoryPurpose = "device" | "host-visible" | "staging";

export interface MemoryChoice {
  readonly typeIndex: number;
  /** Whether the buffer maps its memory (host access by plain copies) rather than staging. */
  readonly mapped: boolean;
}

const HOST = MEMORY_PROPERTY_HOST_VISIBLE | MEMORY_PROPERTY_HOST_COHERENT;

/** The first allowed type with the highest score (score < 0 = not usable), or -1. */
function best(types: readonly MemoryTypeInfo[], bits: number, score: (flags: number) => number): number {
  let chosen = -1;
  let top = -1;
  for (let i = 0; i < types.length; i++) {
    if ((bits & (1 << i)) === 0) continue;
    const s = score(types[i]!.propertyFlags);
    if (s > top) [chosen, top] = [i, s];
  }
  return chosen;
}

const has = (flags: number, want: number) => (flags & want) === want;

/**
 * Picks the memory type for `purpose` among those `bits` allows, or undefined when none fits.
 * "device": DEVICE_LOCAL and not HOST_VISIBLE, staged; without such a type (lavapipe, unified
 * memory) the "host-visible" choice, mapped, unless `forceStaging`, which stages anyway.
 * "host-visible": HOST_VISIBLE|COHERENT, preferring DEVICE_LOCAL. "staging": HOST_VISIBLE|
 * COHERENT, preferring system memory (not DEVICE_LOCAL) and CACHED (fast host reads).
 */
export function chooseMemoryType(types: readonly MemoryTypeInfo[], bits: number, purpose: MemoryPurpose, forceStaging = false): MemoryChoice | undefined {
  const hostVisible = () => best(types, bits, (f) => (has(f, HOST) ? (f & MEMORY_PROPERTY_DEVICE_LOCAL ? 1 : 0) : -1));
  if (purpose === "staging") {
    const i = best(types, bits, (f) => (has(f, HOST) ? (f & MEMORY_PROPERTY_DEVICE_LOCAL ? 0 : 2) + (f & MEMORY_PROPERTY_HOST_CACHED ? 1 : 0) : -1));
    return i < 0 ? undefined : { typeIndex: i, mapped: true };
  }
  if (purpose === "device") {
    const deviceOnly = best(types, bits, (f) => (f & MEMORY_PROPERTY_DEVICE_LOCAL && !(f & MEMORY_PROPERTY_HOST_VISIBLE) ? 0 : -1));
    if (deviceOnly >= 0) return { typeIndex: deviceOnly, mapped: false };
    if (forceStaging) {
      const any = best(types, bits, (f) => (f & MEMORY_PROPERTY_DEVICE_LOCAL ? 1 : 0));
      return any < 0 ? undefined : { typeIndex: any, mapped: false };
    }
  }
  const i = hostVisible();
  return i < 0 ? undefined : { typeIndex: i, mapped: true };
}

/** A VkBuffer bound to its own allocation, mapped when the choice says so. */
export interface RawBuffer {
  readonly handle: bigint;
  readonly memory: bigint;
  /** The whole buffer's bytes when mapped (mapped once, for the buffer's life). */
  readonly mapped: Uint8Array | undefined;
  readonly deviceAddress: bigint;
}

/**
 * Buffers at least this large get their own dedicated allocation, sized in whole 2 MiB
 * pages, so the driver can map them with large pages (on an NVIDIA H200, saxpy on buffers
 * sub-allocated otherwise ran at a fraction of the DRAM bandwidth).
 */
const DEDICATED_BYTES = 2 << 20;

/** Creates a buffer of at least `bytes` (> 0) with `usage` in memory for `purpose`. */
export function allocateBuffer(ctx: DeviceContext, requested: number, usage: number, purpose: MemoryPurpose, what: string): RawBuffer {
  const { lib, device } = ctx;
  const arena = new NativeArena(lib);
  const cleanup: (() => void)[] = [];
  try {
    const withAddress = purpose !== "staging" && ctx.bufferDeviceAddress;
    const dedicated = purpose !== "staging" && requested >= DEDICATED_BYTES;
    const bytes = dedicated ? Math.ceil(requested / DEDICATED_BYTES) * DEDICATED_BYTES : requested;
    const out = arena.bytes(8);
    const info = arena.struct("VkBufferCreateInfo", {
      sType: STYPE.BUFFER_CREATE_INFO,
      size: BigInt(bytes),
      usage: usage | (withAddress ? BUFFER_USAGE_SHADER_DEVICE_ADDRESS : 0),
      sharingMode: SHARING_MODE_EXCLUSIVE,
    });
    check(lib.vk.vkCreateBuffer(device, info, null, out), `vkCreateBuffer (${what}, ${bytes} bytes)`);
    const handle = arena.readU64(out);
    cleanup.push(() => lib.vk.vkDestroyBuffer(device, handle, null));

    const reqPtr = arena.bytes(lib.structs.VkMemoryRequirements.size);
    lib.vk.vkGetBufferMemoryRequirements(device, handle, reqPtr);
    const req = arena.readStruct<{ size: number | bigint; memoryTypeBits: number }>("VkMemoryRequirements", reqPtr);
    const choice = chooseMemoryType(ctx.memoryTypes, req.memoryTypeBits, purpose, ctx.forceStaging);
    if (!choice) {
      throw new LoomError("failed-precondition", `${what}: device '${ctx.info.name}' has no suitable memory type for ${purpose} buffers`);
    }
    const dedicatedInfo = dedicated ? arena.struct("VkMemoryDedicatedAllocateInfo", { sType: STYPE.MEMORY_DEDICATED_ALLOCATE_INFO, buffer: handle }) : null;
    const flagsInfo = withAddress
      ? arena.struct("VkMemoryAllocateFlagsInfo", { sType: STYPE.MEMORY_ALLOCATE_FLAGS_INFO, pNext: dedicatedInfo, flags: MEMORY_ALLOCATE_DEVICE_ADDRESS_BIT })
      : dedicatedInfo;
    const alloc = arena.struct("VkMemoryAllocateInfo", {
      sType: STYPE.MEMORY_ALLOCATE_INFO,
      pNext: flagsInfo,
      allocationSize: BigInt(req.size),
      memoryTypeIndex: choice.typeIndex,
    });
    check(lib.vk.vkAllocateMemory(device, alloc, null, out), `vkAllocateMemory (${what}, ${req.size} bytes)`);
    const memory = arena.readU64(out);
    cleanup.push(() => lib.vk.vkFreeMemory(device, memory, null));
    check(lib.vk.vkBindBufferMemory(device, handle, memory, 0n), "vkBindBufferMemory");
    let mapped: Uint8Array | undefined;
    if (choice.mapped) {
      check(lib.vk.vkMapMemory(device, memory, 0n, WHOLE_SIZE, 0, out), "vkMapMemory");
      mapped = new Uint8Array(lib.koffi.view(arena.readU64(out), bytes));
    }
    const deviceAddress = withAddress
      ? BigInt(lib.vk.vkGetBufferDeviceAddress(device, arena.struct("VkBufferDeviceAddressInfo", { sType: STYPE.BUFFER_DEVICE_ADDRESS_INFO, buffer: handle })))
      : 0n;
    cleanup.length = 0;
    return { handle, memory, mapped, deviceAddress };
  } finally {
    for (const undo of cleanup.reverse()) undo();
    arena.free();
  }
}

/** Frees a raw buffer (unmapping first); the device must be done with it. */
export function freeBuffer(ctx: DeviceContext, raw: RawBuffer): void {
  const { lib, device } = ctx;
  if (raw.mapped) lib.vk.vkUnmapMemory(device, raw.memory);
  lib.vk.vkDestroyBuffer(device, raw.handle, null);
  lib.vk.vkFreeMemory(device, raw.memory, null);
}
