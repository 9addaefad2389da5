/**
 * The few Vulkan enum values the runtime uses, copied from vulkan_core.h (Vulkan 1.3).
 * Grouped by the enum they come from so each can be checked against the header by name.
 */

/** VkStructureType */
export const STYPE = {
  APPLICATION_INFO: 0,
  INSTANCE_CREATE_INFO: 1,
  DEVICE_QUEUE_CREATE_INFO: 2,
  DEVICE_CREATE_INFO: 3,
  SUBMIT_INFO: 4,
  MEMORY_ALLOCATE_INFO: 5,
  FENCE_CREATE_INFO: 8,
  QUERY_POOL_CREATE_INFO: 11,
  BUFFER_CREATE_INFO: 12,
  SHADER_MODULE_CREATE_INFO: 16,
  PIPELINE_CACHE_CREATE_INFO: 17,
  PIPELINE_SHADER_STAGE_CREATE_INFO: 18,
  COMPUTE_PIPELINE_CREATE_INFO: 29,
  PIPELINE_LAYOUT_CREATE_INFO: 30,
  DESCRIPTOR_SET_LAYOUT_CREATE_INFO: 32,
  DESCRIPTOR_POOL_CREATE_INFO: 33,
  DESCRIPTOR_SET_ALLOCATE_INFO: 34,
  WRITE_DESCRIPTOR_SET: 35,
  COMMAND_POOL_CREATE_INFO: 39,
  COMMAND_BUFFER_ALLOCATE_INFO: 40,
  COMMAND_BUFFER_BEGIN_INFO: 42,
  MEMORY_BARRIER: 46,
  PHYSICAL_DEVICE_VULKAN_1_1_FEATURES: 49,
  PHYSICAL_DEVICE_VULKAN_1_2_FEATURES: 51,
  PHYSICAL_DEVICE_VULKAN_1_3_FEATURES: 53,
  PHYSICAL_DEVICE_FEATURES_2: 1000059000,
  PHYSICAL_DEVICE_PROPERTIES_2: 1000059001,
  MEMORY_ALLOCATE_FLAGS_INFO: 1000060000,
  MEMORY_DEDICATED_ALLOCATE_INFO: 1000127001,
  PHYSICAL_DEVICE_SUBGROUP_PROPERTIES: 1000094000,
  PHYSICAL_DEVICE_SUBGROUP_SIZE_CONTROL_PROPERTIES: 1000225000,
  PHYSICAL_DEVICE_FLOAT_CONTROLS_PROPERTIES: 1000197000,
  BUFFER_DEVICE_ADDRESS_INFO: 1000244001,
  PHYSICAL_DEVICE_SHADER_ATOMIC_FLOAT_FEATURES_EXT: 1000260000,
} as const;

/** VK_MAKE_API_VERSION(0, major, minor, 0) */
export function apiVersion(major: number, minor: number): number {
  return ((major << 22) | (minor << 12)) >>> 0;
}

export function formatApiVersion(v: number): string {
  return `${(v >>> 22) & 0x7f}.${(v >>> 12) & 0x3ff}.${v & 0xfff}`;
}

/** VkPhysicalDeviceType, by value. */
export const PHYSICAL_DEVICE_TYPE_NAMES = ["other", "integrated-gpu", "discrete-gpu", "virtual-gpu", "cpu"] as const;
export type PhysicalDeviceType = (typeof PHYSICAL_DEVICE_TYPE_NAMES)[number];

/** VkSubgroupFeatureFlagBits, in bit order. */
export const SUBGROUP_OPERATION_BITS: readonly (readonly [string, number])[] = [
  ["basic", 0x1],
  ["vote", 0x2],
  ["arithmetic", 0x4],
  ["ballot", 0x8],
  ["shuffle", 0x10],
  ["shuffle-relative", 0x20],
  ["clustered", 0x40],
  ["quad", 0x80],
];

export const MEMORY_PROPERTY_DEVICE_LOCAL = 0x1;
export const MEMORY_PROPERTY_HOST_VISIBLE = 0x2;
export const MEMORY_PROPERTY_HOST_COHERENT = 0x4;
export const MEMORY_PROPERTY_HOST_CACHED = 0x8;
export const MEMORY_ALLOCATE_DEVICE_ADDRESS_BIT = 0x2;
export const BUFFER_USAGE_TRANSFER_SRC = 0x1;
export const BUFFER_USAGE_TRANSFER_DST = 0x2;
export const BUFFER_USAGE_STORAGE_BUFFER = 0x20;
export const BUFFER_USAGE_SHADER_DEVICE_ADDRESS = 0x20000;
export const SHARING_MODE_EXCLUSIVE = 0;
export const DESCRIPTOR_TYPE_STORAGE_BUFFER = 7;
export const SHADER_STAGE_COMPUTE = 0x20;
/** VkPipelineShaderStageCreateFlagBits */
export const PIPELINE_SHADER_STAGE_CREATE_REQUIRE_FULL_SUBGROUPS = 0x2;
export const PIPELINE_BIND_POINT_COMPUTE = 1;
export const COMMAND_POOL_CREATE_RESET_COMMAND_BUFFER = 0x2;
export const COMMAND_BUFFER_LEVEL_PRIMARY = 0;
export const COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT = 0x1;
export const PIPELINE_STAGE_TOP_OF_PIPE = 0x1;
export const PIPELINE_STAGE_COMPUTE_SHADER = 0x800;
export const PIPELINE_STAGE_TRANSFER = 0x1000;
export const PIPELINE_STAGE_HOST = 0x4000;
export const ACCESS_SHADER_READ = 0x20;
export const ACCESS_SHADER_WRITE = 0x40;
export const ACCESS_TRANSFER_READ = 0x800;
export const ACCESS_TRANSFER_WRITE = 0x1000;
export const ACCESS_HOST_READ = 0x2000;
export const QUERY_TYPE_TIMESTAMP = 2;
export const QUERY_RESULT_64 = 0x1;
export const QUERY_RESULT_WAIT = 0x2;
/** VK_WHOLE_SIZE = ~0ULL */
export const WHOLE_SIZE = 0xffff_ffff_ffff_ffffn;
/** The SPIR-V magic number, first word of every module (little-endian here). */
export const SPIRV_MAGIC = 0x07230203;
