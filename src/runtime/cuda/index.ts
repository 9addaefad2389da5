/**
 * loomc/runtime/cuda: the CUDA driver handoff (issue 14). Loads libcuda.so.1 lazily through
 * koffi, retains a device's primary context, loads PTX (through the driver's JIT) or cubins,
 * and launches kernels with the explicit argument block of language.md §7 packed from the
 * kernel-interface record. It never imports the compiler; everything crossing in is plain data.
 */
export { CudaRuntime, type CudaRuntimeOptions, type DispatchResult, type CubinCache, type CachedKernel } from "./runtime.js";
export { CudaBuffer } from "./buffer.js";
export { CudaModule, CudaKernel, type LaunchShape, type LaunchOptions, type KernelOptions, type CudaFunctionAttributes } from "./kernel.js";
export { CudaStream, CudaEvent, CudaGraph } from "./stream.js";
export { packArguments, type ArgValue, type BufferArgument } from "./args.js";
/** The bits of a number as f16 (5, 10) or bf16 (8, 7), rounded to nearest even: the packer's encoding. */
export { minifloatBits as halfBits } from "../../abi/index.js";
export { kernelInterface, checkKernelInterface, ARGUMENT_SIZE_ALIGN, type CudaKernelInterface, type CudaInterfaceArgument, type CudaArgumentType } from "./interface.js";
export { jitOptionArrays, imageBytes, type JitOptions, type JitResult, type CubinResult } from "./jit.js";
export { CudaError, cuResultName, losesContext, CU_RESULT_NAMES } from "./cu-result.js";
export { selectCudaDevice, maxParameterBytes, processorOf, DEVICE_ENV_VAR, type CudaDeviceInfo, type CudaLimits, type CudaProfileFacts, type CudaDeviceCandidate } from "./device.js";
export { cudaLibraryName, LIBRARY_ENV_VAR } from "./ffi.js";
