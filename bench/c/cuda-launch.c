/*
 * The C floor for one kernel launch, for bench/h200.ts: loads a PTX file, looks up an entry
 * whose parameters are one byte block (loom's PTX ABI), and times cuLaunchKernel of one
 * 32-thread block back to back, and launch + synchronize. Prints one JSON object.
 *
 *   nvcc -O2 -o cuda-launch bench/c/cuda-launch.c -lcuda
 *   ./cuda-launch KERNEL.ptx ENTRY PARAM_BYTES [N]
 */
#include <cuda.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define CHECK(x) do { CUresult r_ = (x); if (r_ != CUDA_SUCCESS) { const char *s_ = "?"; cuGetErrorName(r_, &s_); fprintf(stderr, "%s: %s\n", #x, s_); return 1; } } while (0)

static double now_us(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return t.tv_sec * 1e6 + t.tv_nsec / 1e3;
}

static int cmp(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return x < y ? -1 : x > y;
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
  CUdevice dev; CUcontext ctx; CUmodule mod; CUfunction fn; CUstream stream;
  CHECK(cuInit(0));
  CHECK(cuDeviceGet(&dev, 0));
  CHECK(cuDevicePrimaryCtxRetain(&ctx, dev));
  CHECK(cuCtxSetCurrent(ctx));
  CHECK(cuModuleLoadData(&mod, ptx));
  CHECK(cuModuleGetFunction(&fn, mod, argv[2]));
  CHECK(cuStreamCreate(&stream, CU_STREAM_NON_BLOCKING));
  size_t bytes = (size_t)atoi(argv[3]);
  void *block = calloc(1, bytes < 8 ? 8 : bytes);
  void *params[] = { block };
  double samples[5], synced[5];
  for (int i = 0; i < 2000; i++) CHECK(cuLaunchKernel(fn, 1, 1, 1, 32, 1, 1, 0, stream, params, NULL));
  CHECK(cuStreamSynchronize(stream));
  for (int s = 0; s < 5; s++) {
    double t0 = now_us();
    for (int i = 0; i < n; i++) CHECK(cuLaunchKernel(fn, 1, 1, 1, 32, 1, 1, 0, stream, params, NULL));
    samples[s] = (now_us() - t0) / n;
    CHECK(cuStreamSynchronize(stream));
    t0 = now_us();
    for (int i = 0; i < n / 10; i++) {
      CHECK(cuLaunchKernel(fn, 1, 1, 1, 32, 1, 1, 0, stream, params, NULL));
      CHECK(cuStreamSynchronize(stream));
    }
    synced[s] = (now_us() - t0) / (n / 10);
  }
  qsort(samples, 5, sizeof(double), cmp);
  qsort(synced, 5, sizeof(double), cmp);
  printf("{\"launchUs\": {\"median\": %.3f, \"min\": %.3f, \"max\": %.3f}, \"launchAndSyncUs\": {\"median\": %.3f, \"min\": %.3f, \"max\": %.3f}}\n",
         samples[2], samples[0], samples[4], synced[2], synced[0], synced[4]);
  return 0;
}
