/** CUresult names, statuses and context loss (no driver needed). */
import { test } from "node:test";
import assert from "node:assert/strict";
import { LoomError } from "../../../src/core/errors.js";
import { CU_RESULT_NAMES, CudaError, cuResultName, losesContext } from "../../../src/runtime/cuda/index.js";
import { cudaError } from "../../../src/runtime/cuda/cu-result.js";

test("every CUresult the runtime may see has its cuda.h name", () => {
  const expected: [number, string][] = [
    [0, "CUDA_SUCCESS"],
    [1, "CUDA_ERROR_INVALID_VALUE"],
    [2, "CUDA_ERROR_OUT_OF_MEMORY"],
    [3, "CUDA_ERROR_NOT_INITIALIZED"],
    [34, "CUDA_ERROR_STUB_LIBRARY"],
    [100, "CUDA_ERROR_NO_DEVICE"],
    [200, "CUDA_ERROR_INVALID_IMAGE"],
    [209, "CUDA_ERROR_NO_BINARY_FOR_GPU"],
    [218, "CUDA_ERROR_INVALID_PTX"],
    [222, "CUDA_ERROR_UNSUPPORTED_PTX_VERSION"],
    [400, "CUDA_ERROR_INVALID_HANDLE"],
    [500, "CUDA_ERROR_NOT_FOUND"],
    [700, "CUDA_ERROR_ILLEGAL_ADDRESS"],
    [701, "CUDA_ERROR_LAUNCH_OUT_OF_RESOURCES"],
    [716, "CUDA_ERROR_MISALIGNED_ADDRESS"],
    [719, "CUDA_ERROR_LAUNCH_FAILED"],
    [901, "CUDA_ERROR_STREAM_CAPTURE_INVALIDATED"],
    [999, "CUDA_ERROR_UNKNOWN"],
  ];
  for (const [code, name] of expected) assert.equal(cuResultName(code), name);
  assert.equal(cuResultName(12345), "CUresult(12345)");
  // The table is a bijection of names that all follow cuda.h's spelling.
  const names = [...CU_RESULT_NAMES.values()];
  assert.equal(new Set(names).size, names.length);
  for (const n of names) assert.match(n, /^CUDA_(SUCCESS|ERROR_[A-Z0-9_]+)$/);
  assert.ok(CU_RESULT_NAMES.size >= 100);
});

test("a driver error is a LoomError carrying the CUresult name, value and status", () => {
  const e = cudaError(218, "loadModule", "line 3: syntax error", "line 3: syntax error");
  assert.ok(e instanceof LoomError && e instanceof CudaError);
  assert.equal(e.cuResult, "CUDA_ERROR_INVALID_PTX");
  assert.equal(e.code, 218);
  assert.equal(e.status, "invalid-argument");
  assert.equal(e.jitLog, "line 3: syntax error");
  assert.equal(e.message, "loadModule failed: CUDA_ERROR_INVALID_PTX (218): line 3: syntax error");
  assert.equal(e.contextLost, false);
  assert.equal(cudaError(2, "cuMemAlloc").status, "resource-exhausted");
  assert.equal(cudaError(100, "cuInit").status, "failed-precondition");
  assert.equal(cudaError(500, "cuModuleGetFunction('k')").status, "not-found");
});

test("kernel faults lose the context and say what to do", () => {
  for (const code of [700, 710, 715, 716, 719]) assert.ok(losesContext(code), cuResultName(code));
  for (const code of [1, 2, 218, 500, 701]) assert.ok(!losesContext(code), cuResultName(code));
  const e = cudaError(700, "cuStreamSynchronize");
  assert.equal(e.contextLost, true);
  assert.match(e.message, /CUDA_ERROR_ILLEGAL_ADDRESS \(700\); the CUDA context is lost: destroy every CudaRuntime on this device and create a new one/);
});
