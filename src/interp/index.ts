/**
 * The reference interpreter of Loom kernels: CPU execution of one dispatch, the oracle
 * device results are compared with (docs/interpreter.md).
 */
export { interpretDispatch, prepareInterpreter, InterpretedKernel, DEFAULT_MAX_STEPS, DEFAULT_MAX_SCRATCH_BYTES, type DispatchOptions, type DispatchReport, type KernelInput, type PrepareOptions } from "./dispatch.js";
export type { ArgValue, BufferArg } from "./args.js";
export { InterpretError, type InterpretFailure, type InvocationId } from "./errors.js";
export type { ConfigBinding } from "./compiler.js";
export { createReferenceEnvironment, createReferenceProfile, REFERENCE_ENVIRONMENT_NAME } from "./environment.js";
