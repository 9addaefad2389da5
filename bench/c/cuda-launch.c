/*
 * The C floor for one kernel launch, for bench/h200.ts: loads a PTX file, looks up an entry
 * whose parameters are one byte block (loom's PTX ABI), and times cuLaunchKernel of one
 * 32-thread block back to back, and launch + synchronize, on a stream created with the flags
 * loom's CudaRuntime uses for its own stream (CU_STREAM_DEFAULT) and on a non-blocking one.
 * Prints one JSON object (microseconds).
 *
 *   nvcc -O2 -o cuda-launch bench/c/cuda-launch.c -lcuda
 *   ./cuda-launch KERNEL.ptx ENTRY PARAM_BYTES [N]
 */
#include <cuda.h>
#include <string.h>
#include "timing.h"

#define CHECK(x) do { CUresult r_ = (x); if (r_ != CUDA_SUCCESS) { const char *s_ = "?"; cuGetErrorName(r_, &s_); fprintf(stderr, "%s: %s\n", #x, s_); return 1; } } while (0)

/* Back-to-back launches, then launch + synchronize, SAMPLES times each, on `stream`. */
static int time_stream(CUfunction fn, CUstream stream, void **params, int n, double *launch, double *synced) {
  for (int i = 0; i < 2000; i++) CHECK(cuLaunchKernel(fn, 1, 1, 1, 32, 1, 1, 0, stream, params, NULL));
  CHECK(cuStreamSynchronize(stream));
  for (int s = 0; s < SAMPLES; s++) {
    TIME_PER_ITERATION(&launch[s], n, CHECK(cuLaunchKernel(fn, 1, 1, 1, 32, 1, 1, 0, stream, params, NULL)), CHECK(cuStreamSynchronize(stream)));
    TIME_PER_ITERATION(&synced[s], n / 10, CHECK(cuLaunchKernel(fn, 1, 1, 1, 32, 1, 1, 0, stream, params, NULL)); CHECK(cuStreamSynchronize(stream)), (void)0);
  }
  return 0;
}

int main(int argc, char **argv) {
  if (argc < 4) { fprintf(stderr, "usage: %s KERNEL.ptx ENTRY PARAM_BYTES [N]\n", argv[0]); return 2; }
  int n = argc > 4 ? atoi(argv[4]) : 20000;
  FILE *f = fopen(argv[1], "rb");
  if (!f) { perror(argv[1]); return 2; }
  fseek(f, 0, SEEK_END);
  long size = ftell(f);
  rewind(f);
  char *ptx = calloc(1, size + 1);
  if (fread(ptx, 1, size, f) != (size_t)size) { fclose(f); return 2; }
  fclose(f);
  CUdevice dev; CUcontext ctx; CUmodule mod; CUfunction fn; CUstream blocking, nonBlocking;
  CHECK(cuInit(0));
  CHECK(cuDeviceGet(&dev, 0));
  CHECK(cuDevicePrimaryCtxRetain(&ctx, dev));
  CHECK(cuCtxSetCurrent(ctx));
  CHECK(cuModuleLoadData(&mod, ptx));
  CHECK(cuModuleGetFunction(&fn, mod, argv[2]));
  CHECK(cuStreamCreate(&blocking, CU_STREAM_DEFAULT));
  CHECK(cuStreamCreate(&nonBlocking, CU_STREAM_NON_BLOCKING));
  size_t bytes = (size_t)atoi(argv[3]);
  void *block = calloc(1, bytes < 8 ? 8 : bytes);
  void *params[] = { block };
  double launch[SAMPLES], synced[SAMPLES], launchNb[SAMPLES], syncedNb[SAMPLES];
  if (time_stream(fn, blocking, params, n, launch, synced) || time_stream(fn, nonBlocking, params, n, launchNb, syncedNb)) return 1;
  printf("{");
  print_samples("launchUs", launch);
  printf(", ");
  print_samples("launchAndSyncUs", synced);
  printf(", ");
  print_samples("nonBlockingLaunchUs", launchNb);
  printf(", ");
  print_samples("nonBlockingLaunchAndSyncUs", syncedNb);
  printf("}\n");
  return 0;
}
