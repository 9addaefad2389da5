/**
 * Device facts read through cuDeviceGetAttribute (no context needed), the plain-data facts a
 * PTX profile is built from (`profileFacts`), and device selection as a pure function.
 */
import { LoomError } from "../../core/errors.js";
import { DEVICE_ATTRIBUTE, MAX_PARAMETER_BYTES_LEGACY, MAX_PARAMETER_BYTES_VOLTA } from "./constants.js";
import type { CudaLibrary } from "./ffi.js";

/** Per-device CUDA limits a launch is checked against (threads, block and grid sizes, shared memory in bytes, parameter bytes). */
export interface CudaLimits {
  readonly maxThreadsPerBlock: number;
  readonly maxBlockDim: readonly [number, number, number];
  readonly maxGridDim: readonly [number, number, number];
  /** Shared memory a block gets without opting in (48 KiB). */
  readonly maxSharedMemoryPerBlock: number;
  /** Shared memory a block may opt in to (CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES); 227 KiB on sm_90. */
  readonly maxSharedMemoryPerBlockOptin: number;
  readonly maxSharedMemoryPerMultiprocessor: number;
  readonly maxRegistersPerBlock: number;
  readonly maxRegistersPerMultiprocessor: number;
  readonly maxThreadsPerMultiprocessor: number;
  readonly maxBlocksPerMultiprocessor: number;
  readonly totalConstantMemory: number;
  /** Largest kernel parameter buffer, i.e. explicit argument block. */
  readonly maxParameterBytes: number;
}

/** Identity and limits of the CUDA device a runtime uses. */
export interface CudaDeviceInfo {
  /** Ordinal for cuDeviceGet. */
  readonly index: number;
  readonly name: string;
  readonly computeCapability: readonly [major: number, minor: number];
  /** The PTX target the device runs natively, e.g. "sm_90". */
  readonly processor: string;
  readonly multiprocessorCount: number;
  readonly warpSize: number;
  /** Peak SM clock in kHz (0 when the driver no longer reports it). */
  readonly clockRateKHz: number;
  readonly memoryClockRateKHz: number;
  readonly memoryBusWidthBits: number;
  readonly l2CacheBytes: number;
  readonly totalMemoryBytes: number;
  /** e.g. "0000:3b:00.0". */
  readonly pciBusId: string;
  /** cuDriverGetVersion, e.g. 13000. */
  readonly driverVersion: number;
  readonly limits: CudaLimits;
}

/** What a PTX profile needs from the device (limit names follow the target contract's). */
export interface CudaProfileFacts {
  readonly deviceName: string;
  readonly processor: string;
  readonly computeCapability: readonly [number, number];
  /** Warp width: the fixed subgroup size of every PTX kernel. */
  readonly subgroupSize: number;
  readonly limits: {
    readonly maxWorkgroupSize: readonly [number, number, number];
    readonly maxFlatWorkgroupSize: number;
    readonly maxWorkgroupCount: readonly [number, number, number];
    readonly maxWorkgroupStorageBytes: number;
    readonly maxArgumentBlockBytes: number;
  };
}

export function profileFactsOf(info: CudaDeviceInfo): CudaProfileFacts {
  const l = info.limits;
  return {
    deviceName: info.name,
    processor: info.processor,
    computeCapability: info.computeCapability,
    subgroupSize: info.warpSize,
    limits: {
      maxWorkgroupSize: l.maxBlockDim,
      maxFlatWorkgroupSize: l.maxThreadsPerBlock,
      maxWorkgroupCount: l.maxGridDim,
      maxWorkgroupStorageBytes: Math.max(l.maxSharedMemoryPerBlock, l.maxSharedMemoryPerBlockOptin),
      maxArgumentBlockBytes: l.maxParameterBytes,
    },
  };
}

/** The PTX processor name of a compute capability: sm_90 for 9.0; 9.0 parts also run sm_90a code. */
export const processorOf = (major: number, minor: number): string => `sm_${major}${minor}`;

/** Reads one device's facts. `check` turns a failed CUresult into a CudaError. */
export function readDeviceInfo(lib: CudaLibrary, index: number, check: (code: number, what: string) => void): CudaDeviceInfo {
  const { cu } = lib;
  const cell = new Int32Array(1);
  check(cu.cuDeviceGet(cell, index), `cuDeviceGet(${index})`);
  const device = cell[0] ?? 0;
  const nameBytes = new Uint8Array(256);
  check(cu.cuDeviceGetName(nameBytes, nameBytes.byteLength, device), "cuDeviceGetName");
  const end = nameBytes.indexOf(0);
  const name = new TextDecoder().decode(nameBytes.subarray(0, end < 0 ? nameBytes.byteLength : end));
  // Attributes a driver stopped reporting (CUDA 13 deprecates the clock rates) read as 0.
  const attr = (a: number): number => (cu.cuDeviceGetAttribute(cell, a, device) === 0 ? (cell[0] ?? 0) : 0);
  const A = DEVICE_ATTRIBUTE;
  const total = new BigUint64Array(1);
  check(cu.cuDeviceTotalMem_v2(total, device), "cuDeviceTotalMem");
  const major = attr(A.COMPUTE_CAPABILITY_MAJOR);
  const minor = attr(A.COMPUTE_CAPABILITY_MINOR);
  const hex = (n: number, w: number) => n.toString(16).padStart(w, "0");
  return {
    index,
    name,
    computeCapability: [major, minor],
    processor: processorOf(major, minor),
    multiprocessorCount: attr(A.MULTIPROCESSOR_COUNT),
    warpSize: attr(A.WARP_SIZE),
    clockRateKHz: attr(A.CLOCK_RATE),
    memoryClockRateKHz: attr(A.MEMORY_CLOCK_RATE),
    memoryBusWidthBits: attr(A.GLOBAL_MEMORY_BUS_WIDTH),
    l2CacheBytes: attr(A.L2_CACHE_SIZE),
    totalMemoryBytes: Number(total[0] ?? 0n),
    pciBusId: `${hex(attr(A.PCI_DOMAIN_ID), 4)}:${hex(attr(A.PCI_BUS_ID), 2)}:${hex(attr(A.PCI_DEVICE_ID), 2)}.0`,
    driverVersion: lib.driverVersion,
    limits: {
      maxThreadsPerBlock: attr(A.MAX_THREADS_PER_BLOCK),
      maxBlockDim: [attr(A.MAX_BLOCK_DIM_X), attr(A.MAX_BLOCK_DIM_Y), attr(A.MAX_BLOCK_DIM_Z)],
      maxGridDim: [attr(A.MAX_GRID_DIM_X), attr(A.MAX_GRID_DIM_Y), attr(A.MAX_GRID_DIM_Z)],
      maxSharedMemoryPerBlock: attr(A.MAX_SHARED_MEMORY_PER_BLOCK),
      maxSharedMemoryPerBlockOptin: attr(A.MAX_SHARED_MEMORY_PER_BLOCK_OPTIN),
      maxSharedMemoryPerMultiprocessor: attr(A.MAX_SHARED_MEMORY_PER_MULTIPROCESSOR),
      maxRegistersPerBlock: attr(A.MAX_REGISTERS_PER_BLOCK),
      maxRegistersPerMultiprocessor: attr(A.MAX_REGISTERS_PER_MULTIPROCESSOR),
      maxThreadsPerMultiprocessor: attr(A.MAX_THREADS_PER_MULTIPROCESSOR),
      maxBlocksPerMultiprocessor: attr(A.MAX_BLOCKS_PER_MULTIPROCESSOR),
      totalConstantMemory: attr(A.TOTAL_CONSTANT_MEMORY),
      maxParameterBytes: maxParameterBytes(major, lib.driverVersion),
    },
  };
}

/** 32764 bytes on Volta+ with a CUDA 12.1+ driver, else 4096 (CUDA C++ Programming Guide, "Function Parameters"). */
export function maxParameterBytes(computeMajor: number, driverVersion: number): number {
  return computeMajor >= 7 && driverVersion >= 12010 ? MAX_PARAMETER_BYTES_VOLTA : MAX_PARAMETER_BYTES_LEGACY;
}

/** A CUDA device that could be selected: its ordinal and name. */
export interface CudaDeviceCandidate {
  readonly index: number;
  readonly name: string;
}

/** The environment variable that picks a device when the caller does not. */
export const DEVICE_ENV_VAR = "LOOM_CUDA_DEVICE";

/**
 * Returns the chosen ordinal: `selector` is an index ("1", 1) or a case-insensitive substring
 * of the device name ("h200"); without one, device 0. `source` names where the selector came
 * from, for messages. Throws LoomError "not-found" (listing the devices) when nothing matches.
 */
export function selectCudaDevice(candidates: readonly CudaDeviceCandidate[], selector: string | number | undefined, source: string): number {
  const list = () => candidates.map((c) => `${c.index}: ${c.name}`).join("; ") || "none";
  if (candidates.length === 0) throw new LoomError("not-found", "the CUDA driver reports no device");
  const text = typeof selector === "number" ? String(selector) : (selector ?? "").trim();
  if (text === "") return candidates[0]?.index ?? 0;
  if (/^\d+$/.test(text)) {
    const c = candidates.find((d) => d.index === Number(text));
    if (!c) throw new LoomError("not-found", `${source} = ${text}: no CUDA device with that index; devices: ${list()}`);
    return c.index;
  }
  if (typeof selector === "number") throw new LoomError("invalid-argument", `${source} must be a non-negative integer index or a name, got ${selector}`);
  const needle = text.toLowerCase();
  const match = candidates.find((c) => c.name.toLowerCase().includes(needle));
  if (!match) throw new LoomError("not-found", `${source} = '${text}' matches no CUDA device name; devices: ${list()}`);
  return match.index;
}
