/**
 * loomc/runtime/sim: an AMDGPU ISA simulator as a device (docs/runtime-sim.md). It loads an
 * HSACO (code object v5/v6) from memory, decodes its gfx11 (RDNA3, wave32) or gfx9
 * (gfx90a / gfx94x, wave64) machine code and runs dispatches on the CPU. It imports only
 * src/core and src/abi: it never sees the compiler.
 */
export { SimRuntime, SimBuffer, SimModule, SimKernelHandle, type SimRuntimeOptions, type SimLaunchOptions } from "./runtime.js";
export { type ArgValue, type BufferArgument, packFromInterface, packFromMetadata } from "./args.js";
export { loadCodeObject, familyOfProcessor, type CodeObject, type SimKernel, type KernelArgMetadata, type KernelDescriptorFields, type IsaFamily } from "./code-object.js";
export { decodeInstruction, decodeRange, type Instruction, type Format } from "./decode.js";
export { DEFAULT_INSTRUCTION_BUDGET, type DispatchShape, type DispatchStats } from "./dispatch.js";
