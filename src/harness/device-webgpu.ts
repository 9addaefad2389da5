/**
 * The `webgpu` device (docs/harness.md "webgpu"): kernels compiled to WGSL for the adapter's
 * own profile (`profileFromAdapter`) and run through Node's `webgpu` package (Dawn) with
 * loomc/runtime/webgpu. Dawn picks its Vulkan driver from the loader
 * (VK_ICD_FILENAMES=/usr/lib/chromium/vk_swiftshader_icd.json selects SwiftShader).
 *
 * WebGPU is asynchronous and HarnessDevice is not: the runtime lives on a worker thread
 * (webgpu-worker.ts) and each call here posts one request and blocks on a shared counter
 * until the worker has answered, so `runCase` drives WebGPU like any other device.
 */
import { MessageChannel, receiveMessageOnPort, Worker, type MessagePort } from "node:worker_threads";
import { LoomError, type LoomStatus } from "../index.js";
import { createWgslProfile, createWgslTargetEnvironment, profileFromAdapter } from "../targets/wgsl/index.js";
import type { WebGpuProfileFacts } from "../runtime/webgpu/index.js";
import type { DeviceProvider, HarnessBuffer, HarnessDevice } from "./devices.js";
import type { WebGpuAnswer, WebGpuRequest } from "./webgpu-worker.js";

/** How long one request may take before the device is given up (a SwiftShader dispatch of a big case is seconds). */
const REQUEST_TIMEOUT_MS = ((v) => (Number.isSafeInteger(v) && v > 0 ? v : 300_000))(Number(process.env.LOOM_WEBGPU_TIMEOUT_MS));

let wgslEnv: ReturnType<typeof createWgslTargetEnvironment> | undefined;
function wgslEnvironment(): ReturnType<typeof createWgslTargetEnvironment> {
  return (wgslEnv ??= createWgslTargetEnvironment());
}

/** The worker thread and a blocking request/answer channel to it. */
class WebGpuThread {
  private readonly worker: Worker;
  private readonly port: MessagePort;
  private readonly sequence: Int32Array;
  private seq = 0;
  private closed = false;

  constructor() {
    const signal = new SharedArrayBuffer(4);
    const { port1, port2 } = new MessageChannel();
    this.port = port1;
    this.sequence = new Int32Array(signal);
    this.worker = new Worker(new URL("./webgpu-worker.js", import.meta.url), { workerData: { port: port2, signal }, transferList: [port2] });
    // Neither keeps the process alive once the harness is done with the device.
    this.worker.unref();
    this.port.unref();
  }

  /** Sends one request and waits for its answer; a worker error is rethrown as a LoomError. */
  call(request: WebGpuRequest, transfer: ArrayBuffer[] = []): unknown {
    if (this.closed) {
      // Freeing after the device is gone (cleanup after a failure) has nothing left to do.
      if (request.op === "destroyBuffer" || request.op === "destroyKernel" || request.op === "close") return undefined;
      throw new LoomError("failed-precondition", "the WebGPU device was destroyed");
    }
    const seq = ++this.seq;
    this.port.postMessage({ seq, request }, transfer);
    const deadline = Date.now() + REQUEST_TIMEOUT_MS;
    for (;;) {
      const now = Atomics.load(this.sequence, 0);
      if (now === seq) break;
      if (now === -1) {
        const failure = receiveMessageOnPort(this.port)?.message as WebGpuAnswer | undefined;
        this.close();
        throw new LoomError("internal", failure?.error?.message ?? "the WebGPU worker stopped");
      }
      const left = deadline - Date.now();
      if (left <= 0) {
        this.close();
        throw new LoomError("resource-exhausted", `the WebGPU device did not answer '${request.op}' within ${REQUEST_TIMEOUT_MS} ms (LOOM_WEBGPU_TIMEOUT_MS raises the limit)`);
      }
      Atomics.wait(this.sequence, 0, now, Math.min(left, 1000));
    }
    const message = receiveMessageOnPort(this.port)?.message as WebGpuAnswer | undefined;
    if (!message || message.seq !== seq) throw new LoomError("internal", `the WebGPU worker answered out of order (expected #${seq})`);
    if (message.error) throw new LoomError((message.error.status ?? "internal") as LoomStatus, message.error.message);
    return message.value;
  }

  close(): void {
    if (this.closed) return;
    this.closed = true;
    void this.worker.terminate();
    this.port.close();
  }
}

class WebGpuHarnessBuffer implements HarnessBuffer {
  constructor(
    private readonly thread: WebGpuThread,
    readonly handle: number,
    readonly byteLength: number,
  ) {}
  upload(bytes: Uint8Array): void {
    this.thread.call({ op: "upload", buffer: this.handle, bytes });
  }
  download(): Uint8Array {
    return this.thread.call({ op: "download", buffer: this.handle }) as Uint8Array;
  }
  destroy(): void {
    this.thread.call({ op: "destroyBuffer", buffer: this.handle });
  }
}

function openWebGpu(powerPreference?: "low-power" | "high-performance"): HarnessDevice {
  const thread = new WebGpuThread();
  let opened: { facts: WebGpuProfileFacts; timestamps: boolean };
  try {
    opened = thread.call({ op: "open", ...(powerPreference ? { powerPreference } : {}) }) as typeof opened;
  } catch (e) {
    thread.close();
    throw e;
  }
  const { facts } = opened;
  const env = wgslEnvironment();
  const profile = createWgslProfile(env, profileFromAdapter(facts, "webgpu-adapter"));
  const a = facts.adapter;
  const name = a.description || [a.vendor, a.architecture, a.device].filter(Boolean).join(" ") || "WebGPU adapter";
  const subgroup = facts.limits.minSubgroupSize;
  return {
    kind: "webgpu",
    name,
    description: `WebGPU (Dawn), ${facts.features.length ? facts.features.join(" ") : "no optional features"}${subgroup ? `, subgroup ${subgroup}-${facts.limits.maxSubgroupSize ?? subgroup}` : ""}${opened.timestamps ? "" : ", no timestamps"}`,
    target: { environment: env, profile, artifactFormat: "wgsl" },
    // WGSL has no fixed subgroup width; the smallest the adapter may use (4 when it says none).
    defaultSubgroupSize: subgroup ?? 4,
    info: { adapter: a, features: facts.features, limits: facts.limits, timestamps: opened.timestamps },
    createBuffer: (byteLength) => new WebGpuHarnessBuffer(thread, thread.call({ op: "createBuffer", byteLength }) as number, byteLength),
    load(kernel) {
      const handle = thread.call({ op: "createKernel", wgsl: kernel.executable, record: kernel.record, entry: kernel.exportName }) as number;
      return {
        dispatch(launch, args, timed) {
          const values = args.map((v) => (v instanceof WebGpuHarnessBuffer ? { buffer: v.handle } : (v as number | bigint)));
          return thread.call({ op: "dispatch", kernel: handle, workgroupCount: launch.workgroupCount, args: values, timed }) as { dispatched: boolean; gpuNs?: number };
        },
        destroy: () => void thread.call({ op: "destroyKernel", kernel: handle }),
      };
    },
    destroy() {
      try {
        thread.call({ op: "close" });
      } finally {
        thread.close();
      }
    },
  };
}

export const WEBGPU_PROVIDER: DeviceProvider = {
  kind: "webgpu",
  summary: "a WebGPU adapter through Node's 'webgpu' package (Dawn; WGSL); --device-index low-power|high-performance picks the power preference",
  open(selector) {
    if (selector !== undefined && selector !== "low-power" && selector !== "high-performance") {
      throw new LoomError("invalid-argument", `the webgpu device is chosen by power preference ('low-power' or 'high-performance'), not '${selector}'`);
    }
    return openWebGpu(selector);
  },
};
