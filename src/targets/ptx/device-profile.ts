/**
 * `profileFromDevice`: the PTX profile of a live CUDA device. `CudaRuntime.profileFacts()`
 * (loomc/runtime/cuda) reports what cuDeviceGetAttribute says about the device as plain data;
 * this maps it onto `createPtxProfile`: the newest PTX target the device runs (`sm_90` for
 * compute capability 9.x and later: PTX is JIT-compiled forward, `sm_80` for 8.x), and the
 * device's own block, grid, shared-memory and parameter limits. The runtime never imports the
 * compiler; the target reads the runtime's facts by their shape.
 */
import { LoomError } from "../../core/errors.js";
import { deviceFacts } from "../../core/validate.js";
import type { TargetEnvironment } from "../../core/target.js";
import { createPtxProfile, DEFAULT_LIMITS, WARP_SIZE, type PtxProfile, type PtxTargetName } from "./profile.js";

/** What a CUDA runtime reports about its device (CudaRuntime.profileFacts() has this shape). */
export interface CudaDeviceFacts {
  readonly deviceName: string;
  readonly computeCapability: readonly [number, number];
  readonly subgroupSize: number;
  readonly limits: {
    readonly maxWorkgroupSize: readonly [number, number, number];
    readonly maxFlatWorkgroupSize: number;
    readonly maxWorkgroupCount: readonly [number, number, number];
    readonly maxWorkgroupStorageBytes: number;
    readonly maxArgumentBlockBytes: number;
  };
}

/** What profileFromDevice reads from a runtime (a CudaRuntime, or plain data in tests). */
export interface CudaFactsSource {
  /** Device facts (compute capability, limits, warp size) of the runtime's device. */
  profileFacts(): CudaDeviceFacts;
}

/** The PTX target for a compute capability, or undefined below sm_80. */
export function ptxTargetFor([major, minor]: readonly [number, number]): PtxTargetName | undefined {
  if (major >= 9) return "sm_90";
  if (major === 8 && minor >= 0) return "sm_80";
  return undefined;
}

/** A PTX profile for the device `runtime` drives. Throws `LoomError("invalid-argument")` for a non-runtime or bad options, `LoomError("failed-precondition")` for a device below sm_80 or with a warp size other than 32. */
export function profileFromDevice(env: TargetEnvironment, runtime: CudaFactsSource, options: { readonly identifier?: string } = {}): PtxProfile {
  const facts = deviceFacts(runtime, options, "CudaRuntime");
  const target = ptxTargetFor(facts.computeCapability);
  if (!target) {
    throw new LoomError("failed-precondition", `profileFromDevice: '${facts.deviceName}' is compute capability ${facts.computeCapability.join(".")}; the PTX target needs 8.0 or newer`);
  }
  if (facts.subgroupSize !== WARP_SIZE) throw new LoomError("failed-precondition", `profileFromDevice: '${facts.deviceName}' reports a warp of ${facts.subgroupSize}; PTX kernels assume ${WARP_SIZE}`);
  const l = facts.limits;
  return createPtxProfile(env, {
    identifier: options.identifier ?? `cuda:${facts.deviceName}`,
    identity: {
      target,
      limits: {
        maxThreadsPerBlock: l.maxFlatWorkgroupSize,
        maxBlockDim: [...l.maxWorkgroupSize],
        maxGridDim: [...l.maxWorkgroupCount],
        // loom's PTX declares workgroup memory statically, which CUDA caps at 48 KiB whatever the opt-in.
        maxSharedMemoryPerBlock: Math.min(l.maxWorkgroupStorageBytes, DEFAULT_LIMITS.maxSharedMemoryPerBlock),
        maxParameterBytes: l.maxArgumentBlockBytes,
      },
    },
  });
}
