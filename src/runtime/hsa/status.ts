/** hsa_status_t values (hsa.h, hsa_ext_amd.h) and the error that carries one. */
import { LoomError, type LoomStatus } from "../../core/errors.js";

/** Names of the `hsa_status_t` codes, by value. */
export const HSA_STATUS_NAMES: Readonly<Record<number, string>> = {
  0x0: "HSA_STATUS_SUCCESS",
  0x1: "HSA_STATUS_INFO_BREAK",
  0x1000: "HSA_STATUS_ERROR",
  0x1001: "HSA_STATUS_ERROR_INVALID_ARGUMENT",
  0x1002: "HSA_STATUS_ERROR_INVALID_QUEUE_CREATION",
  0x1003: "HSA_STATUS_ERROR_INVALID_ALLOCATION",
  0x1004: "HSA_STATUS_ERROR_INVALID_AGENT",
  0x1005: "HSA_STATUS_ERROR_INVALID_REGION",
  0x1006: "HSA_STATUS_ERROR_INVALID_SIGNAL",
  0x1007: "HSA_STATUS_ERROR_INVALID_QUEUE",
  0x1008: "HSA_STATUS_ERROR_OUT_OF_RESOURCES",
  0x1009: "HSA_STATUS_ERROR_INVALID_PACKET_FORMAT",
  0x100a: "HSA_STATUS_ERROR_RESOURCE_FREE",
  0x100b: "HSA_STATUS_ERROR_NOT_INITIALIZED",
  0x100c: "HSA_STATUS_ERROR_REFCOUNT_OVERFLOW",
  0x100d: "HSA_STATUS_ERROR_INCOMPATIBLE_ARGUMENTS",
  0x100e: "HSA_STATUS_ERROR_INVALID_INDEX",
  0x100f: "HSA_STATUS_ERROR_INVALID_ISA",
  0x1010: "HSA_STATUS_ERROR_INVALID_CODE_OBJECT",
  0x1011: "HSA_STATUS_ERROR_INVALID_EXECUTABLE",
  0x1012: "HSA_STATUS_ERROR_FROZEN_EXECUTABLE",
  0x1013: "HSA_STATUS_ERROR_INVALID_SYMBOL_NAME",
  0x1014: "HSA_STATUS_ERROR_VARIABLE_ALREADY_DEFINED",
  0x1015: "HSA_STATUS_ERROR_VARIABLE_UNDEFINED",
  0x1016: "HSA_STATUS_ERROR_EXCEPTION",
  0x1017: "HSA_STATUS_ERROR_INVALID_ISA_NAME",
  0x1018: "HSA_STATUS_ERROR_INVALID_CODE_SYMBOL",
  0x1019: "HSA_STATUS_ERROR_INVALID_EXECUTABLE_SYMBOL",
  0x1020: "HSA_STATUS_ERROR_INVALID_FILE",
  0x1021: "HSA_STATUS_ERROR_INVALID_CODE_OBJECT_READER",
  0x1022: "HSA_STATUS_ERROR_INVALID_CACHE",
  0x1023: "HSA_STATUS_ERROR_INVALID_WAVEFRONT",
  0x1024: "HSA_STATUS_ERROR_INVALID_SIGNAL_GROUP",
  0x1025: "HSA_STATUS_ERROR_INVALID_RUNTIME_STATE",
  0x1026: "HSA_STATUS_ERROR_FATAL",
};

/** The name of an `hsa_status_t` code, or `hsa_status_t 0x…` for a code with no known name. */
export function hsaStatusName(code: number): string {
  return HSA_STATUS_NAMES[code] ?? `hsa_status_t 0x${code.toString(16)}`;
}

/** Which LoomError status an HSA failure maps to. */
function loomStatusOf(code: number): LoomStatus {
  switch (code) {
    case 0x1001:
    case 0x100d:
    case 0x1013:
      return "invalid-argument";
    case 0x1003:
    case 0x1008:
      return "resource-exhausted";
    case 0x100f:
    case 0x1010:
    case 0x1017:
      return "failed-precondition";
    default:
      return "internal";
  }
}

/** An HSA call that returned an error status. */
export class HsaError extends LoomError {
  constructor(
    readonly code: number,
    readonly call: string,
    detail: string,
    status: LoomStatus = loomStatusOf(code),
  ) {
    super(status, `${call} failed with ${hsaStatusName(code)}${detail ? ` (${detail})` : ""}`);
  }
}
