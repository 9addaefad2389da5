/**
 * VkResult codes → names, and `check`, which turns a failed Vulkan call into a `VulkanError`
 * (a LoomError that carries the VkResult name and value). Names are from vulkan_core.h 1.3.
 */
import { LoomError, type LoomStatus } from "../../core/errors.js";

const RESULT_NAMES: ReadonlyMap<number, string> = new Map([
  [0, "VK_SUCCESS"],
  [1, "VK_NOT_READY"],
  [2, "VK_TIMEOUT"],
  [3, "VK_EVENT_SET"],
  [4, "VK_EVENT_RESET"],
  [5, "VK_INCOMPLETE"],
  [-1, "VK_ERROR_OUT_OF_HOST_MEMORY"],
  [-2, "VK_ERROR_OUT_OF_DEVICE_MEMORY"],
  [-3, "VK_ERROR_INITIALIZATION_FAILED"],
  [-4, "VK_ERROR_DEVICE_LOST"],
  [-5, "VK_ERROR_MEMORY_MAP_FAILED"],
  [-6, "VK_ERROR_LAYER_NOT_PRESENT"],
  [-7, "VK_ERROR_EXTENSION_NOT_PRESENT"],
  [-8, "VK_ERROR_FEATURE_NOT_PRESENT"],
  [-9, "VK_ERROR_INCOMPATIBLE_DRIVER"],
  [-10, "VK_ERROR_TOO_MANY_OBJECTS"],
  [-11, "VK_ERROR_FORMAT_NOT_SUPPORTED"],
  [-12, "VK_ERROR_FRAGMENTED_POOL"],
  [-13, "VK_ERROR_UNKNOWN"],
  [-1000069000, "VK_ERROR_OUT_OF_POOL_MEMORY"],
  [-1000072003, "VK_ERROR_INVALID_EXTERNAL_HANDLE"],
  [-1000161000, "VK_ERROR_FRAGMENTATION"],
  [-1000257000, "VK_ERROR_INVALID_OPAQUE_CAPTURE_ADDRESS"],
  [1000297000, "VK_PIPELINE_COMPILE_REQUIRED"],
  [-1000011001, "VK_ERROR_VALIDATION_FAILED_EXT"],
  [-1000012000, "VK_ERROR_INVALID_SHADER_NV"],
  [-1000174001, "VK_ERROR_NOT_PERMITTED_KHR"],
  [-1000338000, "VK_ERROR_COMPRESSION_EXHAUSTED_EXT"],
]);

/** The `VK_…` name of a VkResult code, or `VkResult(<code>)` for an unknown one. */
export function vkResultName(code: number): string {
  return RESULT_NAMES.get(code) ?? `VkResult(${code})`;
}

/** Which LoomError status a failed VkResult maps to. */
function statusOf(code: number): LoomStatus {
  switch (code) {
    case -1: // out of host memory
    case -2: // out of device memory
    case -10: // too many objects
    case -12: // fragmented pool
    case -1000069000: // out of pool memory
    case -1000161000: // fragmentation
      return "resource-exhausted";
    case -3: // initialization failed
    case -6: // layer not present
    case -7: // extension not present
    case -8: // feature not present
    case -9: // incompatible driver
      return "failed-precondition";
    default:
      return "internal";
  }
}

/** A Vulkan call failed; `vkResult` is the VkResult name, `code` its value. */
export class VulkanError extends LoomError {
  constructor(
    status: LoomStatus,
    message: string,
    readonly vkResult: string,
    readonly code: number,
  ) {
    super(status, message);
  }
}

/**
 * Throws a VulkanError unless `result` is VK_SUCCESS. `what` names the call and object, e.g.
 * "vkCreateComputePipelines (entry 'saxpy')".
 */
export function check(result: number, what: string): void {
  if (result === 0) return;
  const name = vkResultName(result);
  throw new VulkanError(statusOf(result), `${what} failed: ${name} (${result})`, name, result);
}
