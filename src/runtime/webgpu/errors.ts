/**
 * WebGPU reports errors asynchronously through error scopes; this runtime wraps every group of
 * calls that can fail in one scope per filter and turns what comes back into a `WebGpuError`,
 * a LoomError that carries the implementation's text (Tint's messages, Dawn's validation chain).
 */
import { LoomError, type LoomStatus } from "../../core/errors.js";
import type { GpuDeviceLike } from "./gpu.js";

/** Which error scope caught the error, or "device-lost" / "compilation". */
export type WebGpuErrorKind = "validation" | "out-of-memory" | "internal" | "device-lost" | "compilation";

const STATUS: Readonly<Record<WebGpuErrorKind, LoomStatus>> = {
  validation: "invalid-argument",
  compilation: "invalid-argument",
  "out-of-memory": "resource-exhausted",
  internal: "internal",
  "device-lost": "failed-precondition",
};

/** A WebGPU failure (device, validation, out-of-memory or lost device) as a {@link LoomError}, with WebGPU's own error text. */
export class WebGpuError extends LoomError {
  constructor(
    readonly kind: WebGpuErrorKind,
    /** What the WebGPU implementation said, verbatim. */
    readonly gpuMessage: string,
    what: string,
  ) {
    super(STATUS[kind], `${what}: WebGPU ${kind} error: ${gpuMessage}`);
  }
}

const FILTERS = ["validation", "out-of-memory", "internal"] as const;

/**
 * Runs `body` inside one error scope per filter and throws the first error any of them caught
 * (after popping all three, so the device's scope stack stays balanced). A LoomError `body`
 * throws itself (Tint's compilation messages, our own checks) wins: it says more.
 */
export async function scoped<T>(device: GpuDeviceLike, what: string, body: () => T | Promise<T>): Promise<T> {
  for (const f of FILTERS) device.pushErrorScope(f);
  let value: T | undefined;
  let thrown: unknown;
  let threw = false;
  try {
    value = await body();
  } catch (e) {
    threw = true;
    thrown = e;
  }
  // Scopes pop in reverse order of pushing.
  const caught: (WebGpuError | undefined)[] = [];
  for (const f of [...FILTERS].reverse()) {
    const error = await device.popErrorScope();
    if (error) caught.push(new WebGpuError(f, error.message, what));
  }
  if (threw && thrown instanceof LoomError) throw thrown;
  const first = caught.reverse().find((e) => e !== undefined);
  if (first) throw first;
  if (threw) {
    // Some implementations throw synchronously (TypeError for a malformed descriptor, OperationError from *Async).
    throw new WebGpuError("validation", (thrown as Error)?.message ?? String(thrown), what);
  }
  return value as T;
}
