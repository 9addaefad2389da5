/**
 * loomc/runtime/hsa: the raw HSA handoff for AMD GPUs (docs/runtime-hsa.md). koffi bindings
 * to libhsa-runtime64.so.1: agents and memory pools, an HSACO loaded from memory, kernel
 * objects, kernarg segments packed from loom's kernel-interface record plus the code object
 * v5 hidden arguments, AQL dispatch and completion signals. It never imports the compiler.
 */
export { HsaRuntime, HsaBuffer, HsaExecutable, type HsaKernel, type HsaMemoryPool, type HsaLaunchOptions } from "./runtime.js";
export { profileFromAgent, parseIsaName, type HsaAgentInfo, type AmdgpuProfileData } from "./profile.js";
export { packExplicitArguments, kernargSegment, type ArgValue, type BufferArgument, type LaunchDims } from "./kernarg.js";
export { dispatchPacket, DISPATCH_HEADER, PACKET_BYTES, type DispatchPacketFields } from "./aql.js";
export { readHsacoMetadata, type HsacoMetadata, type HsacoKernelMetadata, type HiddenArgument } from "./metadata.js";
export { HsaError, hsaStatusName, HSA_STATUS_NAMES } from "./status.js";
export { hsaLibraryName, LIBRARY_ENV_VAR } from "./ffi.js";
