/**
 * CUresult codes → names (cuda.h 13.0, `cudaError_enum`), which of them leave the context
 * unusable, and `CudaError`: a LoomError that carries the CUresult name and value, so every
 * driver failure says which CUDA_ERROR_… it was.
 */
import { LoomError, type LoomStatus } from "../../core/errors.js";

const RESULT_NAMES: ReadonlyMap<number, string> = new Map([
  [0, "CUDA_SUCCESS"],
  [1, "CUDA_ERROR_INVALID_VALUE"],
  [2, "CUDA_ERROR_OUT_OF_MEMORY"],
  [3, "CUDA_ERROR_NOT_INITIALIZED"],
  [4, "CUDA_ERROR_DEINITIALIZED"],
  [5, "CUDA_ERROR_PROFILER_DISABLED"],
  [6, "CUDA_ERROR_PROFILER_NOT_INITIALIZED"],
  [7, "CUDA_ERROR_PROFILER_ALREADY_STARTED"],
  [8, "CUDA_ERROR_PROFILER_ALREADY_STOPPED"],
  [34, "CUDA_ERROR_STUB_LIBRARY"],
  [46, "CUDA_ERROR_DEVICE_UNAVAILABLE"],
  [100, "CUDA_ERROR_NO_DEVICE"],
  [101, "CUDA_ERROR_INVALID_DEVICE"],
  [102, "CUDA_ERROR_DEVICE_NOT_LICENSED"],
  [200, "CUDA_ERROR_INVALID_IMAGE"],
  [201, "CUDA_ERROR_INVALID_CONTEXT"],
  [202, "CUDA_ERROR_CONTEXT_ALREADY_CURRENT"],
  [205, "CUDA_ERROR_MAP_FAILED"],
  [206, "CUDA_ERROR_UNMAP_FAILED"],
  [207, "CUDA_ERROR_ARRAY_IS_MAPPED"],
  [208, "CUDA_ERROR_ALREADY_MAPPED"],
  [209, "CUDA_ERROR_NO_BINARY_FOR_GPU"],
  [210, "CUDA_ERROR_ALREADY_ACQUIRED"],
  [211, "CUDA_ERROR_NOT_MAPPED"],
  [212, "CUDA_ERROR_NOT_MAPPED_AS_ARRAY"],
  [213, "CUDA_ERROR_NOT_MAPPED_AS_POINTER"],
  [214, "CUDA_ERROR_ECC_UNCORRECTABLE"],
  [215, "CUDA_ERROR_UNSUPPORTED_LIMIT"],
  [216, "CUDA_ERROR_CONTEXT_ALREADY_IN_USE"],
  [217, "CUDA_ERROR_PEER_ACCESS_UNSUPPORTED"],
  [218, "CUDA_ERROR_INVALID_PTX"],
  [219, "CUDA_ERROR_INVALID_GRAPHICS_CONTEXT"],
  [220, "CUDA_ERROR_NVLINK_UNCORRECTABLE"],
  [221, "CUDA_ERROR_JIT_COMPILER_NOT_FOUND"],
  [222, "CUDA_ERROR_UNSUPPORTED_PTX_VERSION"],
  [223, "CUDA_ERROR_JIT_COMPILATION_DISABLED"],
  [224, "CUDA_ERROR_UNSUPPORTED_EXEC_AFFINITY"],
  [225, "CUDA_ERROR_UNSUPPORTED_DEVSIDE_SYNC"],
  [226, "CUDA_ERROR_CONTAINED"],
  [300, "CUDA_ERROR_INVALID_SOURCE"],
  [301, "CUDA_ERROR_FILE_NOT_FOUND"],
  [302, "CUDA_ERROR_SHARED_OBJECT_SYMBOL_NOT_FOUND"],
  [303, "CUDA_ERROR_SHARED_OBJECT_INIT_FAILED"],
  [304, "CUDA_ERROR_OPERATING_SYSTEM"],
  [400, "CUDA_ERROR_INVALID_HANDLE"],
  [401, "CUDA_ERROR_ILLEGAL_STATE"],
  [402, "CUDA_ERROR_LOSSY_QUERY"],
  [500, "CUDA_ERROR_NOT_FOUND"],
  [600, "CUDA_ERROR_NOT_READY"],
  [700, "CUDA_ERROR_ILLEGAL_ADDRESS"],
  [701, "CUDA_ERROR_LAUNCH_OUT_OF_RESOURCES"],
  [702, "CUDA_ERROR_LAUNCH_TIMEOUT"],
  [703, "CUDA_ERROR_LAUNCH_INCOMPATIBLE_TEXTURING"],
  [704, "CUDA_ERROR_PEER_ACCESS_ALREADY_ENABLED"],
  [705, "CUDA_ERROR_PEER_ACCESS_NOT_ENABLED"],
  [708, "CUDA_ERROR_PRIMARY_CONTEXT_ACTIVE"],
  [709, "CUDA_ERROR_CONTEXT_IS_DESTROYED"],
  [710, "CUDA_ERROR_ASSERT"],
  [711, "CUDA_ERROR_TOO_MANY_PEERS"],
  [712, "CUDA_ERROR_HOST_MEMORY_ALREADY_REGISTERED"],
  [713, "CUDA_ERROR_HOST_MEMORY_NOT_REGISTERED"],
  [714, "CUDA_ERROR_HARDWARE_STACK_ERROR"],
  [715, "CUDA_ERROR_ILLEGAL_INSTRUCTION"],
  [716, "CUDA_ERROR_MISALIGNED_ADDRESS"],
  [717, "CUDA_ERROR_INVALID_ADDRESS_SPACE"],
  [718, "CUDA_ERROR_INVALID_PC"],
  [719, "CUDA_ERROR_LAUNCH_FAILED"],
  [720, "CUDA_ERROR_COOPERATIVE_LAUNCH_TOO_LARGE"],
  [721, "CUDA_ERROR_TENSOR_MEMORY_LEAK"],
  [800, "CUDA_ERROR_NOT_PERMITTED"],
  [801, "CUDA_ERROR_NOT_SUPPORTED"],
  [802, "CUDA_ERROR_SYSTEM_NOT_READY"],
  [803, "CUDA_ERROR_SYSTEM_DRIVER_MISMATCH"],
  [804, "CUDA_ERROR_COMPAT_NOT_SUPPORTED_ON_DEVICE"],
  [805, "CUDA_ERROR_MPS_CONNECTION_FAILED"],
  [806, "CUDA_ERROR_MPS_RPC_FAILURE"],
  [807, "CUDA_ERROR_MPS_SERVER_NOT_READY"],
  [808, "CUDA_ERROR_MPS_MAX_CLIENTS_REACHED"],
  [809, "CUDA_ERROR_MPS_MAX_CONNECTIONS_REACHED"],
  [810, "CUDA_ERROR_MPS_CLIENT_TERMINATED"],
  [811, "CUDA_ERROR_CDP_NOT_SUPPORTED"],
  [812, "CUDA_ERROR_CDP_VERSION_MISMATCH"],
  [900, "CUDA_ERROR_STREAM_CAPTURE_UNSUPPORTED"],
  [901, "CUDA_ERROR_STREAM_CAPTURE_INVALIDATED"],
  [902, "CUDA_ERROR_STREAM_CAPTURE_MERGE"],
  [903, "CUDA_ERROR_STREAM_CAPTURE_UNMATCHED"],
  [904, "CUDA_ERROR_STREAM_CAPTURE_UNJOINED"],
  [905, "CUDA_ERROR_STREAM_CAPTURE_ISOLATION"],
  [906, "CUDA_ERROR_STREAM_CAPTURE_IMPLICIT"],
  [907, "CUDA_ERROR_CAPTURED_EVENT"],
  [908, "CUDA_ERROR_STREAM_CAPTURE_WRONG_THREAD"],
  [909, "CUDA_ERROR_TIMEOUT"],
  [910, "CUDA_ERROR_GRAPH_EXEC_UPDATE_FAILURE"],
  [911, "CUDA_ERROR_EXTERNAL_DEVICE"],
  [912, "CUDA_ERROR_INVALID_CLUSTER_SIZE"],
  [913, "CUDA_ERROR_FUNCTION_NOT_LOADED"],
  [914, "CUDA_ERROR_INVALID_RESOURCE_TYPE"],
  [915, "CUDA_ERROR_INVALID_RESOURCE_CONFIGURATION"],
  [916, "CUDA_ERROR_KEY_ROTATION"],
  [999, "CUDA_ERROR_UNKNOWN"],
]);

/** Every CUresult this runtime names, for tests and docs. */
export const CU_RESULT_NAMES: ReadonlyMap<number, string> = RESULT_NAMES;

/** The CUresult's name; unknown codes (a newer driver) read `CUresult(<n>)`. */
export function cuResultName(code: number): string {
  return RESULT_NAMES.get(code) ?? `CUresult(${code})`;
}

/**
 * Errors after which the context cannot be used again (cuda.h: "the process must be terminated
 * and relaunched" for this context): a kernel fault, a trap, an uncorrectable memory error.
 */
const CONTEXT_LOST: ReadonlySet<number> = new Set([214, 220, 700, 702, 709, 710, 714, 715, 716, 717, 718, 719, 721, 810, 911]);

/** Whether the CUresult `code` leaves the CUDA context unusable (kernel fault, trap, uncorrectable ECC error), so the runtime must be recreated. */
export function losesContext(code: number): boolean {
  return CONTEXT_LOST.has(code);
}

/** Which LoomError status a failed CUresult maps to. */
export function statusOfResult(code: number): LoomStatus {
  switch (code) {
    case 1: // invalid value
    case 400: // invalid handle
      return "invalid-argument";
    case 2: // out of memory
    case 701: // launch out of resources
    case 720: // cooperative launch too large
      return "resource-exhausted";
    case 500: // not found (symbol)
      return "not-found";
    case 3: // not initialized
    case 4: // deinitialized
    case 34: // stub library
    case 46: // device unavailable
    case 100: // no device
    case 101: // invalid device
    case 209: // no binary for GPU
    case 221: // JIT compiler not found
    case 222: // unsupported PTX version
    case 223: // JIT disabled
    case 803: // system driver mismatch
    case 804: // compat not supported
      return "failed-precondition";
    case 200: // invalid image
    case 218: // invalid PTX
      return "invalid-argument";
    case 801: // not supported
      return "unimplemented";
    case 909: // timeout
      return "cancelled";
    default:
      return "internal";
  }
}

/** A CUDA driver call failed; `cuResult` is the CUresult name, `code` its value. */
export class CudaError extends LoomError {
  constructor(
    status: LoomStatus,
    message: string,
    readonly cuResult: string,
    readonly code: number,
    /** The driver's JIT error log, when the call compiled PTX. */
    readonly jitLog?: string,
  ) {
    super(status, message);
  }

  /** True when the failure left the CUDA context unusable (see docs/runtime-cuda.md). */
  get contextLost(): boolean {
    return losesContext(this.code);
  }
}

/** The CudaError for `code`, from a call described by `what` (e.g. "cuModuleGetFunction('saxpy')"). */
export function cudaError(code: number, what: string, detail = "", jitLog?: string): CudaError {
  const name = cuResultName(code);
  const lost = losesContext(code) ? "; the CUDA context is lost: destroy every CudaRuntime on this device and create a new one" : "";
  return new CudaError(statusOfResult(code), `${what} failed: ${name} (${code})${detail ? `: ${detail}` : ""}${lost}`, name, code, jitLog);
}
