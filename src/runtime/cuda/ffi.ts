/**
 * The binding layer: loads libcuda lazily through koffi and declares the driver entry points
 * the runtime calls, by the symbol cuda.h maps each name to (the `_v2` ones where it does).
 * Handles and pointers cross as BigInt (koffi 3), `CUdevice` as int, `CUdeviceptr` and sizes as
 * uint64; out-parameters are native scratch memory (see scratch.ts), so no declaration below
 * needs koffi to marshal a struct.
 */
import { LoomError } from "../../core/errors.js";
import { loadKoffi, type KoffiModule } from "./koffi.js";

/** Entry points bound by exactly this symbol; every one returns a CUresult (`int32_t`). */
const COMMANDS = {
  cuInit: "(uint32_t flags)",
  cuDriverGetVersion: "(void *pVersion)",
  cuDeviceGetCount: "(void *pCount)",
  cuDeviceGet: "(void *pDevice, int32_t ordinal)",
  cuDeviceGetName: "(void *name, int32_t len, int32_t dev)",
  cuDeviceGetAttribute: "(void *pi, int32_t attrib, int32_t dev)",
  cuDeviceTotalMem_v2: "(void *bytes, int32_t dev)",
  cuDevicePrimaryCtxRetain: "(void *pctx, int32_t dev)",
  cuDevicePrimaryCtxRelease_v2: "(int32_t dev)",
  cuCtxSetCurrent: "(void *ctx)",
  cuCtxSynchronize: "()",
  cuMemGetInfo_v2: "(void *free, void *total)",
  cuMemAlloc_v2: "(void *dptr, uint64_t bytesize)",
  cuMemFree_v2: "(uint64_t dptr)",
  cuMemcpyHtoD_v2: "(uint64_t dst, void *src, uint64_t bytes)",
  cuMemcpyDtoH_v2: "(void *dst, uint64_t src, uint64_t bytes)",
  cuMemcpyDtoD_v2: "(uint64_t dst, uint64_t src, uint64_t bytes)",
  cuMemsetD8_v2: "(uint64_t dst, uint8_t value, uint64_t count)",
  cuMemsetD32_v2: "(uint64_t dst, uint32_t value, uint64_t count)",
  cuModuleLoadDataEx: "(void *module, void *image, uint32_t numOptions, void *options, void *optionValues)",
  cuModuleLoadData: "(void *module, void *image)",
  cuModuleUnload: "(void *hmod)",
  cuModuleGetFunction: "(void *hfunc, void *hmod, const char *name)",
  cuFuncGetAttribute: "(void *pi, int32_t attrib, void *hfunc)",
  cuFuncSetAttribute: "(void *hfunc, int32_t attrib, int32_t value)",
  // The per-launch call: handles and pointers as uint64_t (BigInt in, no pointer conversion), which koffi crosses faster than void *.
  cuLaunchKernel:
    "(uint64_t f, uint32_t gridDimX, uint32_t gridDimY, uint32_t gridDimZ, uint32_t blockDimX, uint32_t blockDimY, uint32_t blockDimZ, uint32_t sharedMemBytes, uint64_t hStream, uint64_t kernelParams, uint64_t extra)",
  cuStreamCreate: "(void *phStream, uint32_t flags)",
  cuStreamDestroy_v2: "(void *hStream)",
  cuStreamSynchronize: "(void *hStream)",
  cuEventCreate: "(void *phEvent, uint32_t flags)",
  cuEventDestroy_v2: "(void *hEvent)",
  cuEventRecord: "(void *hEvent, void *hStream)",
  cuEventSynchronize: "(void *hEvent)",
  cuStreamBeginCapture_v2: "(void *hStream, uint32_t mode)",
  cuStreamEndCapture: "(void *hStream, void *phGraph)",
  cuGraphInstantiateWithFlags: "(void *phGraphExec, void *hGraph, uint64_t flags)",
  cuGraphLaunch: "(void *hGraphExec, void *hStream)",
  cuGraphExecDestroy: "(void *hGraphExec)",
  cuGraphDestroy: "(void *hGraph)",
  cuLinkCreate_v2: "(uint32_t numOptions, void *options, void *optionValues, void *stateOut)",
  cuLinkAddData_v2:
    "(void *state, uint32_t type, void *data, uint64_t size, const char *name, uint32_t numOptions, void *options, void *optionValues)",
  cuLinkComplete: "(void *state, void *cubinOut, void *sizeOut)",
  cuLinkDestroy: "(void *state)",
} as const;

/**
 * Entry points with a newer symbol that the 13.0 header maps the name to; the older symbol
 * (same signature) is the fallback for drivers before it.
 */
const VERSIONED = {
  cuEventElapsedTime: { symbols: ["cuEventElapsedTime_v2", "cuEventElapsedTime"], params: "(void *pMilliseconds, void *hStart, void *hEnd)" },
} as const;

/**
 * Entry points a driver may lack: bound when present, the runtime falls back without them.
 * cuLaunchKernelEx (CUDA 12.0+) takes the launch shape as a struct in native memory that a
 * kernel keeps and rewrites in place, so a launch crosses koffi with 4 arguments instead of 11.
 */
const OPTIONAL = {
  cuLaunchKernelEx: "(uint64_t config, uint64_t f, uint64_t kernelParams, uint64_t extra)",
} as const;

/** A native pointer or handle (0n = null), or a scalar. */
export type NativeArg = bigint | number | string | null | ArrayBufferView;

export type Cu = { readonly [K in keyof typeof COMMANDS | keyof typeof VERSIONED]: (...args: NativeArg[]) => number } & {
  readonly [K in keyof typeof OPTIONAL]?: (...args: NativeArg[]) => number;
};

export interface CudaLibrary {
  readonly koffi: KoffiModule;
  readonly cu: Cu;
  /** The file that was opened. */
  readonly file: string;
  /** cuDriverGetVersion, e.g. 13000 for CUDA 13.0. */
  readonly driverVersion: number;
}

/** Overrides the driver library's path. */
export const LIBRARY_ENV_VAR = "LOOM_CUDA_LIBRARY";

/** The driver library to open: $LOOM_CUDA_LIBRARY, else the platform's file name. */
export function cudaLibraryName(platform: string = process.platform, env: NodeJS.ProcessEnv = process.env): string {
  const override = env[LIBRARY_ENV_VAR];
  if (override) return override;
  return platform === "win32" ? "nvcuda.dll" : "libcuda.so.1";
}

const loaded = new Map<string, CudaLibrary>();

/**
 * Loads koffi and the CUDA driver (once per file) and runs cuInit(0). Throws LoomError:
 * "unimplemented" without koffi; "failed-precondition" naming the library when it cannot be
 * opened or lacks an entry point; a CudaError (e.g. CUDA_ERROR_NO_DEVICE) when cuInit fails.
 */
export function loadCuda(check: (code: number, what: string) => void): CudaLibrary {
  const file = cudaLibraryName();
  const hit = loaded.get(file);
  if (hit) return hit;
  const koffi = loadKoffi();
  let lib: ReturnType<KoffiModule["load"]>;
  try {
    lib = koffi.load(file);
  } catch (e) {
    throw new LoomError(
      "failed-precondition",
      `cannot load the CUDA driver ${file} (${(e as Error).message.split("\n")[0]}): the CUDA runtime needs an NVIDIA GPU and its driver ` +
        `(${file} comes with the NVIDIA driver, not with the CUDA toolkit); set ${LIBRARY_ENV_VAR} to use another path`,
    );
  }
  const cu: Record<string, unknown> = {};
  const bind = (symbol: string, params: string): boolean => {
    try {
      cu[symbol] = lib.func(`int32_t ${symbol}${params}`);
      return true;
    } catch {
      return false;
    }
  };
  for (const [name, params] of Object.entries(COMMANDS)) {
    if (!bind(name, params)) {
      throw new LoomError("failed-precondition", `the CUDA driver ${file} does not export ${name}; a driver for CUDA 12.0 or newer is required`);
    }
  }
  for (const [name, { symbols, params }] of Object.entries(VERSIONED)) {
    const symbol = symbols.find((s) => bind(s, params));
    if (symbol === undefined) throw new LoomError("failed-precondition", `the CUDA driver ${file} exports none of ${symbols.join(", ")}`);
    cu[name] = cu[symbol];
  }
  for (const [name, params] of Object.entries(OPTIONAL)) bind(name, params);
  const typed = cu as Cu;
  check(typed.cuInit(0), "cuInit");
  const version = new Int32Array(1);
  check(typed.cuDriverGetVersion(new Uint8Array(version.buffer)), "cuDriverGetVersion");
  const result: CudaLibrary = { koffi, cu: typed, file, driverVersion: version[0] ?? 0 };
  loaded.set(file, result);
  return result;
}
