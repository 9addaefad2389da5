/**
 * The devices the harness runs cases on (docs/harness.md): one small interface, `HarnessDevice`,
 * and one provider per runtime (`vulkan`, `cuda`). A provider opens a device, says which target
 * and profile kernels compile for, and moves bytes and launches; `runCase` and `loom run` use
 * nothing else. A new device (a simulator, WebGPU) is one provider and one line in `PROVIDERS`.
 */
import { LoomError, type LaunchConfig } from "../index.js";
import { createSpirvTargetEnvironment, profileFromDevice } from "../targets/spirv/index.js";
import { createPtxProfile, createPtxTargetEnvironment, KNOWN_TARGETS as PTX_TARGETS, type PtxTargetName } from "../targets/ptx/index.js";
import { packArguments, VulkanRuntime, type ArgValue as VulkanArg, type VulkanBuffer } from "../runtime/vulkan/index.js";
import { CudaRuntime, type ArgValue as CudaArg, type CudaBuffer } from "../runtime/cuda/index.js";
import type { DeviceKernel, DeviceTarget } from "./device.js";
import { SIM_PROVIDER } from "./device-sim.js";
import { WEBGPU_PROVIDER } from "./device-webgpu.js";
import { INTERP_PROVIDER } from "./device-interp.js";

/** Device memory the harness fills and reads back. */
export interface HarnessBuffer {
  readonly byteLength: number;
  /** Writes `bytes` at the start of the buffer. */
  upload(bytes: Uint8Array): void;
  /** The buffer's contents (waits for work that writes it). */
  download(): Uint8Array;
  /** Frees the memory. */
  destroy(): void;
}

/** A kernel loaded on a device, ready to launch. */
export interface LoadedKernel {
  /**
   * Launches `launch` (workgroup count and size, workgroup storage) with one value per device
   * argument, in `launch(…)` order, and waits. With `timed`, also returns the device time of
   * the kernel in nanoseconds where the device can measure it.
   */
  dispatch(launch: LaunchConfig, args: readonly (HarnessBuffer | number | bigint)[], timed: boolean): { readonly dispatched: boolean; readonly gpuNs?: number };
  /** Frees the kernel (its module or pipeline). */
  destroy(): void;
}

/** One live device: what to compile for, and allocate / upload / launch / download. */
export interface HarnessDevice {
  /** The provider's name: "vulkan", "cuda". */
  readonly kind: string;
  /** The device's own name, e.g. "llvmpipe (LLVM 19.1.7, 256 bits)", "NVIDIA H200". */
  readonly name: string;
  /** One line for summaries, e.g. "Vulkan 1.3.289, subgroup 8". */
  readonly description: string;
  /** The environment, the device's own profile and the artifact format kernels are emitted in. */
  readonly target: DeviceTarget;
  /** Subgroup width a launch runs with when its profile leaves it open. */
  readonly defaultSubgroupSize: number;
  /** Plain facts about the device for JSON output. */
  readonly info: unknown;
  /** Zero-filled device memory of `byteLength` bytes. */
  createBuffer(byteLength: number): HarnessBuffer;
  /** Loads a kernel compiled for `target` (its executable, interface record and slots). */
  load(kernel: DeviceKernel): LoadedKernel;
  /** Frees everything made through the device (a no-op for a wrapped runtime the caller owns). */
  destroy(): void;
}

/** Opens devices of one kind (docs/harness.md "Adding a device"). */
export interface DeviceProvider {
  readonly kind: string;
  /** One line for `loom run --help`. */
  readonly summary: string;
  /**
   * Opens the device. `selector` picks one (an index or part of its name; the runtime's own
   * environment variable otherwise). A missing driver or device is a LoomError
   * ("failed-precondition" or "not-found") whose message names what is missing.
   */
  open(selector?: string): HarnessDevice;
}

// ---- Vulkan -------------------------------------------------------------------------------

let spirvEnv: ReturnType<typeof createSpirvTargetEnvironment> | undefined;
/** One SPIR-V environment per process (profiles must come from the environment they compile for). */
export function spirvEnvironment(): ReturnType<typeof createSpirvTargetEnvironment> {
  return (spirvEnv ??= createSpirvTargetEnvironment());
}

class VulkanHarnessBuffer implements HarnessBuffer {
  constructor(readonly buffer: VulkanBuffer) {}
  get byteLength(): number {
    return this.buffer.byteLength;
  }
  upload(bytes: Uint8Array): void {
    this.buffer.upload(bytes);
  }
  download(): Uint8Array {
    return this.buffer.download();
  }
  destroy(): void {
    this.buffer.destroy();
  }
}

/** A HarnessDevice over a Vulkan runtime; `owned: false` leaves the runtime open on destroy. */
export function vulkanDevice(rt: VulkanRuntime, options: { readonly owned?: boolean } = {}): HarnessDevice {
  const info = rt.deviceInfo();
  const env = spirvEnvironment();
  return {
    kind: "vulkan",
    name: info.name,
    description: `Vulkan ${info.apiVersion}, subgroup ${info.subgroupSize}`,
    target: { environment: env, profile: profileFromDevice(env, rt), artifactFormat: "spirv" },
    defaultSubgroupSize: info.subgroupSize,
    info,
    createBuffer: (bytes) => new VulkanHarnessBuffer(rt.createBuffer(bytes)),
    load(kernel) {
      const vk = rt.createKernel(kernel.executable, kernel.record, kernel.exportName);
      return {
        dispatch(launch, args, timed) {
          const buffers: VulkanBuffer[] = [];
          const values: VulkanArg[] = args.map((a) => {
            if (!(a instanceof VulkanHarnessBuffer)) return a as number | bigint;
            buffers.push(a.buffer);
            return vk.bufferArgument(a.buffer);
          });
          const argBlock = packArguments(kernel.slots, values, kernel.interface.argumentBlockBytes);
          const r = rt.dispatch(vk, { workgroupCount: launch.workgroupCount, argBlock, buffers, ...(timed ? { timestamps: true } : {}) });
          return r.gpuNs === undefined ? { dispatched: r.dispatched } : { dispatched: r.dispatched, gpuNs: r.gpuNs };
        },
        destroy: () => vk.destroy(),
      };
    },
    destroy() {
      if (options.owned !== false) rt.destroy();
    },
  };
}

const VULKAN: DeviceProvider = {
  kind: "vulkan",
  summary: "a Vulkan 1.3 device through the loader (LOOM_VULKAN_DEVICE picks one: an index or part of its name)",
  open(selector) {
    try {
      return vulkanDevice(VulkanRuntime.create(selector === undefined ? {} : { device: /^\d+$/.test(selector) ? Number(selector) : selector }));
    } catch (e) {
      // The loader is there but no driver is: say how to get one.
      if (e instanceof LoomError && /INCOMPATIBLE_DRIVER|no (Vulkan )?(physical )?devices?|INITIALIZATION_FAILED/i.test(e.message)) {
        throw new LoomError(e.status, `${e.message}: no Vulkan driver is installed (for the CPU driver lavapipe: apt-get install mesa-vulkan-drivers; VK_ICD_FILENAMES, if set, must name a driver's ICD JSON)`);
      }
      throw e;
    }
  },
};

// ---- CUDA ---------------------------------------------------------------------------------

let ptxEnv: ReturnType<typeof createPtxTargetEnvironment> | undefined;
/** One PTX environment per process. */
export function ptxEnvironment(): ReturnType<typeof createPtxTargetEnvironment> {
  return (ptxEnv ??= createPtxTargetEnvironment());
}

/** The newest PTX profile a compute capability runs: sm_90 for 9.x and later, sm_80 for 8.x. */
export function ptxTargetFor(computeCapability: readonly [number, number]): PtxTargetName {
  const sm = computeCapability[0] * 10 + computeCapability[1];
  const known = PTX_TARGETS.filter((t) => /^sm_\d+$/.test(t) && Number(t.slice(3)) <= sm).sort((a, b) => Number(b.slice(3)) - Number(a.slice(3)));
  const best = known[0];
  if (!best) throw new LoomError("failed-precondition", `compute capability ${computeCapability.join(".")} is older than every PTX profile (${PTX_TARGETS.join(", ")})`);
  return best;
}

class CudaHarnessBuffer implements HarnessBuffer {
  constructor(readonly buffer: CudaBuffer) {}
  get byteLength(): number {
    return this.buffer.byteLength;
  }
  upload(bytes: Uint8Array): void {
    this.buffer.upload(bytes);
  }
  download(): Uint8Array {
    return this.buffer.download();
  }
  destroy(): void {
    this.buffer.destroy();
  }
}

/** A HarnessDevice over a CUDA runtime; `owned: false` leaves the runtime open on destroy. */
export function cudaDevice(rt: CudaRuntime, options: { readonly owned?: boolean } = {}): HarnessDevice {
  const info = rt.deviceInfo();
  const env = ptxEnvironment();
  const target = ptxTargetFor(info.computeCapability);
  const l = info.limits;
  const profile = createPtxProfile(env, {
    identifier: `cuda-${info.processor}`,
    identity: {
      target,
      limits: {
        maxThreadsPerBlock: l.maxThreadsPerBlock,
        maxBlockDim: l.maxBlockDim,
        maxGridDim: l.maxGridDim,
        maxSharedMemoryPerBlock: l.maxSharedMemoryPerBlock,
        maxParameterBytes: l.maxParameterBytes,
      },
    },
  });
  return {
    kind: "cuda",
    name: info.name,
    description: `CUDA ${info.processor}${info.processor === target ? "" : ` (compiled for ${target})`}, driver ${info.driverVersion}, warp ${info.warpSize}`,
    target: { environment: env, profile, artifactFormat: "ptx" },
    defaultSubgroupSize: info.warpSize,
    info,
    createBuffer: (bytes) => new CudaHarnessBuffer(rt.createBuffer(bytes)),
    load(kernel) {
      // loom's PTX declares its workgroup memory statically (docs/ptx.md): no dynamic shared memory.
      const k = rt.createKernel(kernel.executable, kernel.interface, { dynamicSharedMemory: false });
      return {
        dispatch(launch, args, timed) {
          const values: CudaArg[] = args.map((a) => (a instanceof CudaHarnessBuffer ? a.buffer : (a as number | bigint)));
          const r = rt.dispatch(k, { workgroupCount: launch.workgroupCount, workgroupSize: launch.workgroupSize, args: values, ...(timed ? { timing: true } : {}) });
          return r.gpuMs === undefined ? { dispatched: r.launched } : { dispatched: r.launched, gpuNs: r.gpuMs * 1e6 };
        },
        destroy: () => k.module.destroy(),
      };
    },
    destroy() {
      if (options.owned !== false) rt.destroy();
    },
  };
}

const CUDA: DeviceProvider = {
  kind: "cuda",
  summary: "an NVIDIA GPU through libcuda.so.1 (LOOM_CUDA_DEVICE picks one; LOOM_CUDA_LIBRARY overrides the driver path)",
  open(selector) {
    return cudaDevice(CudaRuntime.create(selector === undefined ? {} : { device: /^\d+$/.test(selector) ? Number(selector) : selector }));
  },
};

// ---- the providers ------------------------------------------------------------------------

/** Every device provider by kind; a new device joins with one line here. */
const PROVIDERS: Record<string, DeviceProvider> = {
  vulkan: VULKAN,
  cuda: CUDA,
  sim: SIM_PROVIDER,
  webgpu: WEBGPU_PROVIDER,
  interp: INTERP_PROVIDER,
};

/** The provider of `kind`, or undefined. */
export function findDeviceProvider(kind: string): DeviceProvider | undefined {
  return Object.hasOwn(PROVIDERS, kind) ? PROVIDERS[kind] : undefined;
}

/** Known device kinds, in registration order. */
export function deviceKinds(): string[] {
  return Object.keys(PROVIDERS);
}

/** Adds a provider (tests, embedders); a taken kind is refused. */
export function registerDeviceProvider(provider: DeviceProvider): void {
  if (Object.hasOwn(PROVIDERS, provider.kind)) throw new LoomError("already-exists", `device provider '${provider.kind}' registered twice`);
  PROVIDERS[provider.kind] = provider;
}
