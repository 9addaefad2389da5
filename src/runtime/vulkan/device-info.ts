/**
 * Reads what a physical device offers (properties, limits, features, queue families) and turns
 * it into plain data: `VulkanDeviceInfo` for callers and `VulkanProfileFacts`, the facts a
 * SPIR-V profile needs (the SPIR-V target derives a profile from it; this module never
 * imports the compiler).
 */
import { SHADER_STAGE_COMPUTE, STYPE, SUBGROUP_OPERATION_BITS, PHYSICAL_DEVICE_TYPE_NAMES, apiVersion, formatApiVersion, type PhysicalDeviceType } from "./constants.js";
import type { VulkanLibrary } from "./ffi.js";
import { NativeArena } from "./native-arena.js";
import { parseMembers, STRUCT_DECLS, type StructName } from "./structs.js";

/** Features the runtime reports (Vulkan names; true = the device supports it). */
export const REPORTED_FEATURES = [
  "shaderInt64",
  "shaderFloat64",
  "shaderInt16",
  "shaderInt8",
  "shaderFloat16",
  "storageBuffer8BitAccess",
  "storageBuffer16BitAccess",
  "storagePushConstant8",
  "storagePushConstant16",
  "shaderBufferInt64Atomics",
  "shaderSharedInt64Atomics",
  "bufferDeviceAddress",
  "vulkanMemoryModel",
  "vulkanMemoryModelDeviceScope",
  "scalarBlockLayout",
  "variablePointers",
  "variablePointersStorageBuffer",
  "subgroupSizeControl",
  "computeFullSubgroups",
  "shaderIntegerDotProduct",
  "maintenance4",
  "shaderSubgroupExtendedTypes",
  // VK_EXT_shader_atomic_float (false when the device lacks the extension)
  "shaderBufferFloat32Atomics",
  "shaderBufferFloat32AtomicAdd",
  "shaderSharedFloat32Atomics",
  "shaderSharedFloat32AtomicAdd",
  // VkPhysicalDeviceFloatControlsProperties (properties, read on Vulkan 1.3 devices)
  "shaderSignedZeroInfNanPreserveFloat16",
  "shaderSignedZeroInfNanPreserveFloat32",
  "shaderSignedZeroInfNanPreserveFloat64",
] as const;
/** A device feature the Vulkan runtime reports (and that profiles can require). */
export type ReportedFeature = (typeof REPORTED_FEATURES)[number];

/** Vulkan compute limits a dispatch is checked against (VkPhysicalDeviceLimits; sizes in bytes). */
export interface VulkanLimits {
  readonly maxComputeWorkGroupSize: readonly [number, number, number];
  readonly maxComputeWorkGroupInvocations: number;
  readonly maxComputeWorkGroupCount: readonly [number, number, number];
  readonly maxComputeSharedMemorySize: number;
  readonly maxPushConstantsSize: number;
  readonly maxStorageBufferRange: number;
  readonly maxBoundDescriptorSets: number;
  readonly maxPerStageDescriptorStorageBuffers: number;
  readonly minStorageBufferOffsetAlignment: number;
  /** Nanoseconds per timestamp tick. */
  readonly timestampPeriod: number;
}

/** Identity, limits, features and subgroup facts of the Vulkan device a runtime uses. */
export interface VulkanDeviceInfo {
  /** Position in vkEnumeratePhysicalDevices order. */
  readonly index: number;
  readonly name: string;
  readonly type: PhysicalDeviceType;
  readonly vendorId: number;
  readonly deviceId: number;
  /** "major.minor.patch" of the device's apiVersion. */
  readonly apiVersion: string;
  readonly driverVersion: number;
  /** The default subgroup width (VkPhysicalDeviceSubgroupProperties.subgroupSize). */
  readonly subgroupSize: number;
  /** Range selectable with subgroupSizeControl (min = max = subgroupSize without it). */
  readonly subgroupSizeRange: { readonly min: number; readonly max: number };
  /** Subgroup operations supported in compute shaders, e.g. "basic", "arithmetic". */
  readonly subgroupOperations: readonly string[];
  readonly limits: VulkanLimits;
  readonly features: Readonly<Record<ReportedFeature, boolean>>;
  /** The queue family used for dispatches, and whether it can write timestamps. */
  readonly computeQueueFamily: number;
  readonly timestamps: boolean;
  /** Meaningful bits of a timestamp on that queue (0 = no timestamps). */
  readonly timestampValidBits: number;
}

/** Facts a SPIR-V profile needs, as plain data (named like TargetFacts where they match). */
export interface VulkanProfileFacts {
  /** "vulkan1.1" … "vulkan1.3": the device version, capped at what SPIR-V targets know. */
  readonly environment: string;
  readonly deviceName: string;
  readonly subgroupSize: number;
  readonly subgroupSizeRange: { readonly min: number; readonly max: number };
  readonly subgroupOperations: readonly string[];
  readonly limits: {
    readonly maxWorkgroupSize: readonly [number, number, number];
    readonly maxFlatWorkgroupSize: number;
    readonly maxWorkgroupCount: readonly [number, number, number];
    readonly maxWorkgroupStorageBytes: number;
    readonly maxArgumentBlockBytes: number;
    readonly maxStorageBufferRange: number;
  };
  readonly features: Readonly<Record<ReportedFeature, boolean>>;
}

export function profileFactsOf(info: VulkanDeviceInfo): VulkanProfileFacts {
  const [major, minor] = info.apiVersion.split(".").map(Number) as [number, number];
  const capped = major > 1 || minor >= 3 ? 3 : minor;
  return {
    environment: `vulkan1.${capped}`,
    deviceName: info.name,
    subgroupSize: info.subgroupSize,
    subgroupSizeRange: { ...info.subgroupSizeRange },
    subgroupOperations: [...info.subgroupOperations],
    limits: {
      maxWorkgroupSize: [...info.limits.maxComputeWorkGroupSize],
      maxFlatWorkgroupSize: info.limits.maxComputeWorkGroupInvocations,
      maxWorkgroupCount: [...info.limits.maxComputeWorkGroupCount],
      maxWorkgroupStorageBytes: info.limits.maxComputeSharedMemorySize,
      maxArgumentBlockBytes: info.limits.maxPushConstantsSize,
      maxStorageBufferRange: info.limits.maxStorageBufferRange,
    },
    features: { ...info.features },
  };
}

/** The features2 chain in native memory: pass `head` to vkCreateDevice to enable it. */
export interface FeatureChain {
  readonly head: bigint;
  /** Device extensions whose feature structs are in the chain: enable them with it. */
  readonly extensions: readonly string[];
  /** Every VkBool32 of the chain by member name (names are unique across the structs). */
  readonly all: Readonly<Record<string, boolean>>;
  /** Turns a supported feature off before the chain is handed to vkCreateDevice. */
  disable(name: string): void;
}

const FEATURE_STRUCTS: readonly (readonly [StructName, number, number])[] = [
  // [struct, sType, minimum device minor version (1.x)]
  ["VkPhysicalDeviceVulkan11Features", STYPE.PHYSICAL_DEVICE_VULKAN_1_1_FEATURES, 2],
  ["VkPhysicalDeviceVulkan12Features", STYPE.PHYSICAL_DEVICE_VULKAN_1_2_FEATURES, 2],
  ["VkPhysicalDeviceVulkan13Features", STYPE.PHYSICAL_DEVICE_VULKAN_1_3_FEATURES, 3],
];

/** Feature structs of device extensions: [struct, sType, extension name]. */
const EXTENSION_FEATURE_STRUCTS: readonly (readonly [StructName, number, string])[] = [
  ["VkPhysicalDeviceShaderAtomicFloatFeaturesEXT", STYPE.PHYSICAL_DEVICE_SHADER_ATOMIC_FLOAT_FEATURES_EXT, "VK_EXT_shader_atomic_float"],
];

/** Names of the device extensions the physical device supports. */
export function deviceExtensions(lib: VulkanLibrary, arena: NativeArena, physicalDevice: bigint): Set<string> {
  const count = arena.bytes(4);
  if (lib.vk.vkEnumerateDeviceExtensionProperties(physicalDevice, null, count, null) !== 0) return new Set();
  const n = arena.readU32(count);
  if (n === 0) return new Set();
  const props = arena.bytes(n * lib.structs.VkExtensionProperties.size);
  const r = lib.vk.vkEnumerateDeviceExtensionProperties(physicalDevice, null, count, props);
  if (r !== 0 && r !== 5) return new Set(); // VK_INCOMPLETE: use what came back
  const names = new Set<string>();
  for (let i = 0; i < arena.readU32(count); i++) names.add(arena.readStruct<{ extensionName: string }>("VkExtensionProperties", props, i).extensionName);
  return names;
}

/**
 * Queries VkPhysicalDeviceFeatures2 plus the Vulkan 1.1/1.2/1.3 feature structs the device
 * version allows (the per-version structs exist from device version 1.2 on), plus the
 * feature structs of the supported extensions in EXTENSION_FEATURE_STRUCTS.
 */
export function queryFeatureChain(
  lib: VulkanLibrary,
  arena: NativeArena,
  physicalDevice: bigint,
  deviceApiVersion: number,
  extensions: ReadonlySet<string> = deviceExtensions(lib, arena, physicalDevice),
): FeatureChain {
  const links: { name: StructName; ptr: bigint }[] = [];
  const chained: string[] = [];
  let next: bigint | null = null;
  const link = (name: StructName, sType: number) => {
    const ptr: bigint = arena.struct(name, { sType, pNext: next });
    links.unshift({ name, ptr });
    next = ptr;
  };
  for (const [name, sType, extension] of [...EXTENSION_FEATURE_STRUCTS].reverse()) {
    if (!extensions.has(extension)) continue;
    link(name, sType);
    chained.unshift(extension);
  }
  for (const [name, sType, minMinor] of [...FEATURE_STRUCTS].reverse()) {
    if (deviceApiVersion >= apiVersion(1, minMinor)) link(name, sType);
  }
  const head = arena.struct("VkPhysicalDeviceFeatures2", { sType: STYPE.PHYSICAL_DEVICE_FEATURES_2, pNext: next });
  lib.vk.vkGetPhysicalDeviceFeatures2(physicalDevice, head);

  // Byte offset of every VkBool32 member, to read and clear them in place.
  const offsets = new Map<string, bigint>();
  const collect = (name: StructName, base: bigint, skip: number) => {
    const type = lib.structs[name];
    for (const m of parseMembers(declOf(name)).slice(skip)) offsets.set(m.name, base + BigInt(type.members![m.name]!.offset));
  };
  collect("VkPhysicalDeviceFeatures", head + BigInt(lib.structs.VkPhysicalDeviceFeatures2.members!.features!.offset), 0);
  for (const l of links) collect(l.name, l.ptr, 2); // skip sType, pNext

  const all: Record<string, boolean> = {};
  for (const [name, at] of offsets) all[name] = arena.readU32(at) !== 0;
  return {
    head,
    extensions: chained,
    all,
    disable(name: string) {
      const at = offsets.get(name);
      if (at !== undefined) arena.view(at, 4).fill(0);
    },
  };
}

function declOf(name: StructName): string {
  return STRUCT_DECLS.find(([n]) => n === name)![1];
}

interface RawLimits {
  maxComputeWorkGroupSize: number[];
  maxComputeWorkGroupInvocations: number;
  maxComputeWorkGroupCount: number[];
  maxComputeSharedMemorySize: number;
  maxPushConstantsSize: number;
  maxStorageBufferRange: number;
  maxBoundDescriptorSets: number;
  maxPerStageDescriptorStorageBuffers: number;
  minStorageBufferOffsetAlignment: number | bigint;
  timestampPeriod: number;
}

interface RawProperties {
  apiVersion: number;
  driverVersion: number;
  vendorID: number;
  deviceID: number;
  deviceType: number;
  deviceName: string;
  limits: RawLimits;
}

/** Reads everything `VulkanDeviceInfo` reports about one physical device. */
export function describePhysicalDevice(lib: VulkanLibrary, physicalDevice: bigint, index: number): VulkanDeviceInfo {
  const arena = new NativeArena(lib);
  try {
    // Size-control properties are core only from 1.3, so they are chained only on such devices.
    const readProperties = (withSizeControl: boolean) => {
      const floatControls = withSizeControl
        ? arena.struct("VkPhysicalDeviceFloatControlsProperties", { sType: STYPE.PHYSICAL_DEVICE_FLOAT_CONTROLS_PROPERTIES })
        : null;
      const sizeControl = withSizeControl
        ? arena.struct("VkPhysicalDeviceSubgroupSizeControlProperties", { sType: STYPE.PHYSICAL_DEVICE_SUBGROUP_SIZE_CONTROL_PROPERTIES, pNext: floatControls })
        : null;
      const subgroup = arena.struct("VkPhysicalDeviceSubgroupProperties", { sType: STYPE.PHYSICAL_DEVICE_SUBGROUP_PROPERTIES, pNext: sizeControl });
      const props2 = arena.struct("VkPhysicalDeviceProperties2", { sType: STYPE.PHYSICAL_DEVICE_PROPERTIES_2, pNext: subgroup });
      lib.vk.vkGetPhysicalDeviceProperties2(physicalDevice, props2);
      const raw = arena.readStruct<{ subgroupSize: number; supportedStages: number; supportedOperations: number }>("VkPhysicalDeviceSubgroupProperties", subgroup);
      // Operations count for compute only when the compute stage is among the supported stages.
      const sg = { subgroupSize: raw.subgroupSize, supportedOperations: raw.supportedStages & SHADER_STAGE_COMPUTE ? raw.supportedOperations : 0 };
      const sizes = sizeControl
        ? arena.readStruct<{ minSubgroupSize: number; maxSubgroupSize: number }>("VkPhysicalDeviceSubgroupSizeControlProperties", sizeControl)
        : { minSubgroupSize: sg.subgroupSize, maxSubgroupSize: sg.subgroupSize };
      const floats = floatControls
        ? arena.readStruct<Record<"shaderSignedZeroInfNanPreserveFloat16" | "shaderSignedZeroInfNanPreserveFloat32" | "shaderSignedZeroInfNanPreserveFloat64", number>>("VkPhysicalDeviceFloatControlsProperties", floatControls)
        : undefined;
      return { props: arena.readStruct<{ properties: RawProperties }>("VkPhysicalDeviceProperties2", props2).properties, sg, sizes, floats };
    };
    let read = readProperties(false);
    if (read.props.apiVersion >= apiVersion(1, 3)) read = readProperties(true);
    const { props, sg, sizes, floats } = read;

    const chain = queryFeatureChain(lib, arena, physicalDevice, props.apiVersion);
    const properties: Record<string, boolean> = floats ? Object.fromEntries(Object.entries(floats).map(([k, v]) => [k, v !== 0])) : {};
    const features = Object.fromEntries(REPORTED_FEATURES.map((f) => [f, chain.all[f] === true || properties[f] === true])) as Record<ReportedFeature, boolean>;

    const queue = findComputeQueueFamily(lib, arena, physicalDevice);
    const l = props.limits;
    return {
      index,
      name: props.deviceName,
      type: PHYSICAL_DEVICE_TYPE_NAMES[props.deviceType] ?? "other",
      vendorId: props.vendorID,
      deviceId: props.deviceID,
      apiVersion: formatApiVersion(props.apiVersion),
      driverVersion: props.driverVersion,
      subgroupSize: sg.subgroupSize,
      subgroupSizeRange: { min: sizes.minSubgroupSize, max: sizes.maxSubgroupSize },
      subgroupOperations: SUBGROUP_OPERATION_BITS.filter(([, bit]) => (sg.supportedOperations & bit) !== 0).map(([n]) => n),
      limits: {
        maxComputeWorkGroupSize: triple(l.maxComputeWorkGroupSize),
        maxComputeWorkGroupInvocations: l.maxComputeWorkGroupInvocations,
        maxComputeWorkGroupCount: triple(l.maxComputeWorkGroupCount),
        maxComputeSharedMemorySize: l.maxComputeSharedMemorySize,
        maxPushConstantsSize: l.maxPushConstantsSize,
        maxStorageBufferRange: l.maxStorageBufferRange,
        maxBoundDescriptorSets: l.maxBoundDescriptorSets,
        maxPerStageDescriptorStorageBuffers: l.maxPerStageDescriptorStorageBuffers,
        minStorageBufferOffsetAlignment: Number(l.minStorageBufferOffsetAlignment),
        timestampPeriod: l.timestampPeriod,
      },
      features,
      computeQueueFamily: queue?.index ?? -1,
      timestamps: (queue?.timestampValidBits ?? 0) > 0,
      timestampValidBits: queue?.timestampValidBits ?? 0,
    };
  } finally {
    arena.free();
  }
}

/** The device's raw apiVersion number (for version checks). */
export function deviceApiVersionOf(info: VulkanDeviceInfo): number {
  const [major, minor, patch] = info.apiVersion.split(".").map(Number) as [number, number, number];
  return (apiVersion(major, minor) | patch) >>> 0;
}

/** The first queue family with compute support, or undefined. */
export function findComputeQueueFamily(
  lib: VulkanLibrary,
  arena: NativeArena,
  physicalDevice: bigint,
): { index: number; timestampValidBits: number } | undefined {
  const count = arena.bytes(4);
  lib.vk.vkGetPhysicalDeviceQueueFamilyProperties(physicalDevice, count, null);
  const n = arena.readU32(count);
  const families = arena.bytes(n * lib.structs.VkQueueFamilyProperties.size);
  lib.vk.vkGetPhysicalDeviceQueueFamilyProperties(physicalDevice, count, families);
  const compute: { index: number; timestampValidBits: number; computeOnly: boolean }[] = [];
  for (let i = 0; i < arena.readU32(count); i++) {
    const f = arena.readStruct<{ queueFlags: number; queueCount: number; timestampValidBits: number }>("VkQueueFamilyProperties", families, i);
    if ((f.queueFlags & QUEUE_COMPUTE) !== 0 && f.queueCount > 0) compute.push({ index: i, timestampValidBits: f.timestampValidBits, computeOnly: (f.queueFlags & QUEUE_GRAPHICS) === 0 });
  }
  return pickComputeQueueFamily(compute);
}

const QUEUE_GRAPHICS = 0x1;
const QUEUE_COMPUTE = 0x2;

/**
 * The queue family for dispatches among the compute-capable ones: a compute-only family when
 * the device has one with timestamps (NVIDIA's runs small scalar kernels up to 17 % faster on
 * the H200 than the graphics+compute family), else the first compute family.
 */
export function pickComputeQueueFamily<F extends { readonly index: number; readonly timestampValidBits: number; readonly computeOnly: boolean }>(families: readonly F[]): { index: number; timestampValidBits: number } | undefined {
  const chosen = families.find((f) => f.computeOnly && f.timestampValidBits > 0) ?? families[0];
  return chosen && { index: chosen.index, timestampValidBits: chosen.timestampValidBits };
}

function triple(a: readonly number[]): [number, number, number] {
  return [a[0]!, a[1]!, a[2]!];
}
