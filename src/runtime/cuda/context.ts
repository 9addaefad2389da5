/**
 * The state every object of one CudaRuntime shares: the driver, the retained primary context,
 * the device facts, the runtime's stream, and whether the context is still usable. `check`
 * is the one place a CUresult becomes a CudaError; an error that loses the context (a kernel
 * fault, see cu-result.ts) also marks it lost, after which every call is refused.
 */
import { LoomError } from "../../core/errors.js";
import { cudaError, losesContext } from "./cu-result.js";
import type { CudaDeviceInfo } from "./device.js";
import type { CudaLibrary } from "./ffi.js";

export type ContextState = "live" | "lost" | "destroyed";

export interface CudaContext {
  readonly lib: CudaLibrary;
  readonly device: number;
  readonly handle: bigint;
  readonly info: CudaDeviceInfo;
  /** The runtime's stream (CU_STREAM_DEFAULT flags, so it is ordered with synchronous copies). */
  stream: bigint;
  state: ContextState;
  /** The CUresult name that lost the context. */
  lostBy?: string;
}

/** The context last made current by any runtime in this thread (JS runs on one). */
let current: bigint | undefined;

/** Throws a CudaError unless `code` is CUDA_SUCCESS; marks the context lost when the error loses it. */
export function check(ctx: CudaContext, code: number, what: string, detail?: string, jitLog?: string): void {
  if (code === 0) return;
  const error = cudaError(code, what, detail, jitLog);
  if (losesContext(code) && ctx.state === "live") {
    ctx.state = "lost";
    ctx.lostBy = error.cuResult;
  }
  throw error;
}

/** Refuses work on a lost or destroyed context, then makes it current (cuCtxSetCurrent only when it changed). */
export function enter(ctx: CudaContext, what: string): void {
  if (ctx.state !== "live") {
    throw new LoomError(
      "failed-precondition",
      ctx.state === "lost"
        ? `${what}: the CUDA context of device ${ctx.device} was lost after ${ctx.lostBy ?? "a kernel fault"}; destroy every CudaRuntime on this device and create a new one`
        : `${what}: the CudaRuntime was destroyed`,
    );
  }
  makeCurrent(ctx);
}

/** Makes the context current whatever its state (for releasing objects of a lost context). */
export function makeCurrent(ctx: CudaContext): void {
  if (current !== ctx.handle) {
    check(ctx, ctx.lib.cu.cuCtxSetCurrent(ctx.handle), "cuCtxSetCurrent");
    current = ctx.handle;
  }
}

/** Forgets the current-context cache (after the context is released). */
export function leave(ctx: CudaContext): void {
  if (current === ctx.handle) {
    ctx.lib.cu.cuCtxSetCurrent(0n);
    current = undefined;
  }
}
