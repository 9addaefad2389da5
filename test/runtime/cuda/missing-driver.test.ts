/**
 * Without the driver, CudaRuntime.create is a LoomError naming the library. Runs on every
 * machine: the library path is one that cannot exist. On this GPU-less machine the real
 * libcuda.so.1 is missing too, which is checked when koffi says so.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { createRequire } from "node:module";
import { LoomError } from "../../../src/core/errors.js";
import { CudaRuntime, LIBRARY_ENV_VAR } from "../../../src/runtime/cuda/index.js";

function withLibrary<T>(file: string | undefined, fn: () => T): T {
  const saved = process.env[LIBRARY_ENV_VAR];
  if (file === undefined) delete process.env[LIBRARY_ENV_VAR];
  else process.env[LIBRARY_ENV_VAR] = file;
  try {
    return fn();
  } finally {
    if (saved === undefined) delete process.env[LIBRARY_ENV_VAR];
    else process.env[LIBRARY_ENV_VAR] = saved;
  }
}

test("a missing driver library is failed-precondition naming it", () => {
  const file = "/nonexistent/loom-test/libcuda.so.1";
  const calls: (() => unknown)[] = [() => CudaRuntime.create(), () => CudaRuntime.listDevices()];
  for (const call of calls) {
    assert.throws(
      () => withLibrary(file, call),
      (e: unknown) => e instanceof LoomError && e.status === "failed-precondition" && e.message.includes(`cannot load the CUDA driver ${file}`) && /NVIDIA driver/.test(e.message),
    );
  }
});

test("the default library is libcuda.so.1, and its absence says so", (t) => {
  let present = true;
  try {
    (createRequire(import.meta.url)("koffi") as { load(f: string): unknown }).load("libcuda.so.1");
  } catch {
    present = false;
  }
  if (present) {
    // A machine with the driver: nothing to check here (bench/cuda-smoke.ts runs on it).
    t.diagnostic("libcuda.so.1 is present; the missing-driver message is checked on machines without it");
    return;
  }
  assert.throws(
    () => withLibrary(undefined, () => CudaRuntime.create()),
    (e: unknown) => e instanceof LoomError && e.status === "failed-precondition" && e.message.includes("cannot load the CUDA driver libcuda.so.1"),
  );
});

test("options are checked before the driver is touched", () => {
  assert.throws(() => CudaRuntime.create(null as never), (e: unknown) => e instanceof LoomError && e.status === "invalid-argument");
});
