/**
 * The reference interpreter of Loom kernels: CPU execution of one dispatch, the oracle
 * device results are compared with (docs/interpreter.md).
 */
export { interpretDispatch, prepareInterpreter, InterpretedKernel, type DispatchOptions, type DispatchReport } from "./dispatch.js";
export type { ArgValue } from "./args.js";
export { InterpretError, type InterpretFailure } from "./errors.js";
export { createReferenceEnvironment, createReferenceProfile } from "./environment.js";
