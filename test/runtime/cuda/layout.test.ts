/** Native layouts the bindings rely on, and pure pieces of the JIT handoff (no driver needed). */
import { test } from "node:test";
import assert from "node:assert/strict";
import { cudaLibraryName, imageBytes, jitOptionArrays, maxParameterBytes, processorOf, selectCudaDevice, LIBRARY_ENV_VAR } from "../../../src/runtime/cuda/index.js";
import { wallTimeOf } from "../../../src/runtime/cuda/jit.js";
import { LoomError } from "../../../src/core/errors.js";

test("JIT options: one CUjit_option id per 8-byte value slot, logs by address, sizes by value", () => {
  const a = jitOptionArrays({ optimizationLevel: 3, maxRegisters: 64, lineInfo: true, verbose: true }, 0x1000n, 0x2000n, 4096);
  // CU_JIT_WALL_TIME 2, INFO_LOG_BUFFER 3, its size 4, ERROR_LOG_BUFFER 5, its size 6, OPTIMIZATION_LEVEL 7, MAX_REGISTERS 0, GENERATE_LINE_INFO 13, LOG_VERBOSE 12
  assert.deepEqual([...a.ids], [2, 3, 4, 5, 6, 7, 0, 13, 12]);
  assert.deepEqual([...a.values], [0n, 0x1000n, 4096n, 0x2000n, 4096n, 3n, 64n, 1n, 1n]);
  assert.equal(a.values.BYTES_PER_ELEMENT, 8); // void *optionValues[]
  assert.equal(a.ids.BYTES_PER_ELEMENT, 4); // CUjit_option is an int enum
  assert.equal(a.ids[a.slot.infoSize], 4);
  assert.equal(a.ids[a.slot.errorSize], 6);
  assert.deepEqual([...jitOptionArrays({}, 1n, 2n, 8).ids], [2, 3, 4, 5, 6]);
});

test("the driver's wall time is a float in the low bytes of its void * slot", () => {
  const values = new BigUint64Array(2);
  new DataView(values.buffer).setFloat32(8, 7.25, true);
  assert.equal(wallTimeOf(values, 1), 7.25);
});

test("images: PTX text gets its NUL, cubin (ELF) and fatbin bytes pass unchanged", () => {
  const ptx = imageBytes(".version 8.0");
  assert.equal(ptx.kind, "ptx");
  assert.equal(ptx.bytes.at(-1), 0);
  assert.equal(ptx.bytes.byteLength, 13);
  const raw = new TextEncoder().encode(".entry k");
  const asBytes = imageBytes(raw);
  assert.equal(asBytes.bytes.byteLength, raw.byteLength + 1);
  assert.equal(asBytes.bytes.at(-1), 0);
  const terminated = new Uint8Array([46, 0]);
  assert.equal(imageBytes(terminated).bytes, terminated);
  const elf = new Uint8Array([0x7f, 0x45, 0x4c, 0x46, 2, 1]);
  assert.deepEqual(imageBytes(elf), { bytes: elf, kind: "cubin" });
  const fatbin = new Uint8Array([0x50, 0xed, 0x55, 0xba, 1, 0]);
  assert.equal(imageBytes(fatbin).kind, "fatbin");
});

test("the parameter limit and processor names follow the compute capability", () => {
  assert.equal(maxParameterBytes(9, 13000), 32764);
  assert.equal(maxParameterBytes(9, 12000), 4096);
  assert.equal(maxParameterBytes(6, 13000), 4096);
  assert.equal(processorOf(9, 0), "sm_90");
  assert.equal(processorOf(8, 6), "sm_86");
});

test("the driver library is libcuda.so.1 unless LOOM_CUDA_LIBRARY says otherwise", () => {
  assert.equal(cudaLibraryName("linux", {}), "libcuda.so.1");
  assert.equal(cudaLibraryName("win32", {}), "nvcuda.dll");
  assert.equal(cudaLibraryName("linux", { [LIBRARY_ENV_VAR]: "/opt/x/libcuda.so" }), "/opt/x/libcuda.so");
});

test("device selection: index, name substring, default 0; unknown ones list the devices", () => {
  const devices = [
    { index: 0, name: "NVIDIA A100" },
    { index: 1, name: "NVIDIA H200" },
  ];
  assert.equal(selectCudaDevice(devices, undefined, "LOOM_CUDA_DEVICE"), 0);
  assert.equal(selectCudaDevice(devices, "1", "LOOM_CUDA_DEVICE"), 1);
  assert.equal(selectCudaDevice(devices, 1, "options.device"), 1);
  assert.equal(selectCudaDevice(devices, " h200 ", "LOOM_CUDA_DEVICE"), 1);
  assert.throws(
    () => selectCudaDevice(devices, "2", "LOOM_CUDA_DEVICE"),
    (e: unknown) => e instanceof LoomError && e.status === "not-found" && /LOOM_CUDA_DEVICE = 2.*0: NVIDIA A100; 1: NVIDIA H200/.test(e.message),
  );
  assert.throws(() => selectCudaDevice(devices, "v100", "options.device"), (e: unknown) => e instanceof LoomError && e.status === "not-found");
  assert.throws(() => selectCudaDevice(devices, -1, "options.device"), (e: unknown) => e instanceof LoomError && e.status === "invalid-argument");
  assert.throws(() => selectCudaDevice([], undefined, "x"), (e: unknown) => e instanceof LoomError && e.status === "not-found");
});
