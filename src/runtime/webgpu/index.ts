/**
 * loomc/runtime/webgpu: the WebGPU runtime handoff. Runs WGSL kernels on any WebGPU
 * implementation — a browser's `navigator.gpu` or Node's `webgpu` package (Dawn) — with buffers,
 * bind groups and the argument block laid out from each kernel's interface record (docs/abi.md),
 * timestamp queries where the device has them, and every WebGPU error as a LoomError carrying
 * the implementation's text. Imports only the foundation and the ABI: no compiler, no Node.
 */
export { WebGpuRuntime, COMPUTE_FEATURES, COMPUTE_LIMITS, type WebGpuRuntimeOptions, type WebGpuProfileFacts, type DispatchOptions, type DispatchResult } from "./runtime.js";
export { WebGpuBuffer, type BufferOptions } from "./buffer.js";
export { WebGpuKernel, type KernelLayout } from "./kernel.js";
export { WebGpuError, type WebGpuErrorKind } from "./errors.js";
export { packArguments, type ArgValue, type BufferArgument } from "./args.js";
export type { GpuEntry, GpuAdapterLike, GpuDeviceLike, GpuCompilationMessageLike } from "./gpu.js";
export { parseExecutableInterface, type ExecutableInterface, type KernelInterface, type InterfaceArgument, type BufferBinding } from "../../abi/index.js";
