/**
 * The thread that owns Dawn for the `webgpu` device (device-webgpu.ts). WebGPU is asynchronous
 * and the harness's device interface is not, so the asynchronous runtime runs here and the
 * harness thread waits for each answer: requests arrive on `port`, each answer is posted back
 * and then announced by storing the request's sequence number in `signal` (Atomics.notify).
 */
import { workerData, type MessagePort } from "node:worker_threads";
import { LoomError } from "../index.js";
import { WebGpuRuntime, type ArgValue, type GpuEntry, type WebGpuBuffer, type WebGpuKernel } from "../runtime/webgpu/index.js";
import type { ExecutableInterface } from "../runtime/webgpu/index.js";

/** A request from the harness thread. */
export type WebGpuRequest =
  | { readonly op: "open"; readonly powerPreference?: "low-power" | "high-performance" }
  | { readonly op: "createBuffer"; readonly byteLength: number }
  | { readonly op: "upload"; readonly buffer: number; readonly bytes: Uint8Array }
  | { readonly op: "download"; readonly buffer: number }
  | { readonly op: "destroyBuffer"; readonly buffer: number }
  | { readonly op: "createKernel"; readonly wgsl: Uint8Array; readonly record: ExecutableInterface; readonly entry: string }
  | { readonly op: "dispatch"; readonly kernel: number; readonly workgroupCount: readonly number[]; readonly args: readonly (number | bigint | { readonly buffer: number })[]; readonly timed: boolean }
  | { readonly op: "destroyKernel"; readonly kernel: number }
  | { readonly op: "close" };

/** An answer: `value` on success, or the error's status and message. */
export type WebGpuAnswer = { readonly seq: number; readonly value?: unknown; readonly error?: { readonly status?: string; readonly message: string } };

const { port, signal } = workerData as { port: MessagePort; signal: SharedArrayBuffer };
const sequence = new Int32Array(signal);

// Dawn's entry object must stay referenced for as long as its adapters and devices live.
let gpu: GpuEntry | undefined;
let runtime: WebGpuRuntime | undefined;
const buffers = new Map<number, WebGpuBuffer>();
const kernels = new Map<number, WebGpuKernel>();
let nextHandle = 1;

function live(): WebGpuRuntime {
  if (!runtime) throw new LoomError("failed-precondition", "the WebGPU device is not open");
  return runtime;
}

function lookup<T>(map: Map<number, T>, handle: number, what: string): T {
  const v = map.get(handle);
  if (v === undefined) throw new LoomError("invalid-argument", `no ${what} #${handle} on the WebGPU device`);
  return v;
}

async function handle(request: WebGpuRequest): Promise<unknown> {
  switch (request.op) {
    case "open": {
      let mod: { create(options: string[]): unknown };
      try {
        mod = (await import("webgpu")) as unknown as { create(options: string[]): unknown };
      } catch (e) {
        throw new LoomError("failed-precondition", `the npm package 'webgpu' (Dawn) does not load: ${(e as Error).message}`);
      }
      gpu = mod.create([]) as GpuEntry;
      runtime = await WebGpuRuntime.create({ gpu, ...(request.powerPreference ? { powerPreference: request.powerPreference } : {}) });
      return { facts: runtime.profileFacts(), timestamps: runtime.timestampsAvailable };
    }
    case "createBuffer": {
      const h = nextHandle++;
      buffers.set(h, live().createBuffer(request.byteLength));
      return h;
    }
    case "upload":
      lookup(buffers, request.buffer, "buffer").upload(request.bytes);
      return undefined;
    case "download":
      return await lookup(buffers, request.buffer, "buffer").download();
    case "destroyBuffer":
      lookup(buffers, request.buffer, "buffer").destroy();
      buffers.delete(request.buffer);
      return undefined;
    case "createKernel": {
      const h = nextHandle++;
      kernels.set(h, await live().createKernel(request.wgsl, request.record, request.entry));
      return h;
    }
    case "dispatch": {
      const kernel = lookup(kernels, request.kernel, "kernel");
      const bound: WebGpuBuffer[] = [];
      const args: ArgValue[] = request.args.map((a) => {
        if (typeof a !== "object") return a;
        const b = lookup(buffers, a.buffer, "buffer");
        bound.push(b);
        return kernel.bufferArgument(b);
      });
      const r = await live().dispatch(kernel, { workgroupCount: request.workgroupCount, args, buffers: bound, ...(request.timed ? { timestamps: true } : {}) });
      return r.gpuNs === undefined ? { dispatched: r.dispatched } : { dispatched: r.dispatched, gpuNs: r.gpuNs };
    }
    case "destroyKernel":
      lookup(kernels, request.kernel, "kernel").destroy();
      kernels.delete(request.kernel);
      return undefined;
    case "close":
      runtime?.destroy();
      runtime = undefined;
      buffers.clear();
      kernels.clear();
      return undefined;
  }
}

port.on("message", (message: { seq: number; request: WebGpuRequest }) => {
  void handle(message.request).then(
    (value) => answer({ seq: message.seq, value }),
    (e: unknown) => answer({ seq: message.seq, error: e instanceof LoomError ? { status: e.status, message: e.message } : { message: e instanceof Error ? e.message : String(e) } }),
  );
});

// A failure outside a request ends the thread: say so, so the harness thread stops waiting.
process.on("uncaughtException", (e) => {
  port.postMessage({ seq: -1, error: { status: "internal", message: `the WebGPU worker failed: ${e instanceof Error ? e.message : String(e)}` } } satisfies WebGpuAnswer);
  Atomics.store(sequence, 0, -1);
  Atomics.notify(sequence, 0);
});

function answer(a: WebGpuAnswer): void {
  port.postMessage(a);
  Atomics.store(sequence, 0, a.seq);
  Atomics.notify(sequence, 0);
}
