/*
 * A stand-in for libcuda.so.1 with the driver API's exact C signatures, so the CUDA runtime's
 * bindings (koffi declarations, out-parameters, JIT option arrays, the kernelParams block) run
 * on a machine without a GPU. "Device memory" is host memory; kernels are C functions picked
 * by entry name and read their arguments from the parameter block by the ABI of docs/abi.md.
 * It checks what a real driver checks where a mistake would otherwise pass silently.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef int CUresult;
typedef int CUdevice;
typedef unsigned long long CUdeviceptr;

enum { OK = 0, INVALID_VALUE = 1, NOT_INITIALIZED = 3, INVALID_DEVICE = 101, INVALID_CONTEXT = 201, INVALID_PTX = 218,
       INVALID_HANDLE = 400, NOT_FOUND = 500, ILLEGAL_ADDRESS = 700, CAPTURE_INVALIDATED = 901 };

static int initialized;
static int sticky;            /* a "kernel fault" every later call reports */
static void *current_ctx;
static int primary_refs[2];
static int ctx_token[2] = {0x11, 0x22};

/* What the last launch passed, for the tests to read back. */
struct last_launch { unsigned grid[3], block[3], shared; unsigned long long stream; int params_null; int extra_null; char name[64]; unsigned char block_bytes[256]; };
static struct last_launch last;
int fake_last_launch(struct last_launch *out) { *out = last; return (int)sizeof last; }
int fake_launch_count;
int fake_get_launch_count(void) { return fake_launch_count; }
int fake_reset(void) { sticky = 0; fake_launch_count = 0; return 0; }

CUresult cuInit(unsigned flags) { if (flags != 0) return INVALID_VALUE; initialized = 1; return OK; }
CUresult cuDriverGetVersion(int *v) { *v = 13000; return OK; }
CUresult cuDeviceGetCount(int *n) { if (!initialized) return NOT_INITIALIZED; *n = 2; return OK; }
CUresult cuDeviceGet(CUdevice *d, int ordinal) { if (ordinal < 0 || ordinal > 1) return INVALID_DEVICE; *d = ordinal; return OK; }
CUresult cuDeviceGetName(char *name, int len, CUdevice d) {
  if (d < 0 || d > 1) return INVALID_DEVICE;
  snprintf(name, (size_t)len, "%s", d == 0 ? "Fake Ampere A100" : "Fake NVIDIA H200");
  return OK;
}
CUresult cuDeviceGetAttribute(int *pi, int attrib, CUdevice d) {
  if (d < 0 || d > 1) return INVALID_DEVICE;
  switch (attrib) {
    case 1: *pi = 1024; return OK;            /* max threads per block */
    case 2: case 3: *pi = 1024; return OK;    /* block dims */
    case 4: *pi = 64; return OK;
    case 5: *pi = 2147483647; return OK;      /* grid dims */
    case 6: case 7: *pi = 65535; return OK;
    case 8: *pi = 49152; return OK;
    case 9: *pi = 65536; return OK;
    case 10: *pi = 32; return OK;
    case 12: *pi = 65536; return OK;
    case 13: return INVALID_VALUE;            /* clock rate: "deprecated" here, must read as 0 */
    case 16: *pi = d == 0 ? 108 : 132; return OK;
    case 33: *pi = 0x3b; return OK;
    case 34: *pi = 0; return OK;
    case 36: *pi = 2619000; return OK;
    case 37: *pi = 6144; return OK;
    case 38: *pi = 52428800; return OK;
    case 39: *pi = 2048; return OK;
    case 50: *pi = 0; return OK;
    case 75: *pi = d == 0 ? 8 : 9; return OK;
    case 76: *pi = 0; return OK;
    case 81: *pi = 233472; return OK;
    case 82: *pi = 65536; return OK;
    case 97: *pi = d == 0 ? 166912 : 232448; return OK;
    case 106: *pi = 32; return OK;
    default: *pi = 0; return OK;
  }
}
CUresult cuDeviceTotalMem_v2(size_t *bytes, CUdevice d) { *bytes = d == 0 ? 42949672960ull : 150754820096ull; return OK; }
/* As on the H200: a kernel fault is sticky for the process; retaining a primary context
   again reports it (fake_reset stands for a new process). */
CUresult cuDevicePrimaryCtxRetain(void **ctx, CUdevice d) { if (d < 0 || d > 1) return INVALID_DEVICE; if (sticky) return sticky; primary_refs[d]++; *ctx = &ctx_token[d]; return OK; }
CUresult cuDevicePrimaryCtxRelease_v2(CUdevice d) { if (d < 0 || d > 1 || primary_refs[d] == 0) return INVALID_CONTEXT; --primary_refs[d]; return OK; }
int fake_primary_refs(int d) { return primary_refs[d]; }
CUresult cuCtxSetCurrent(void *ctx) { current_ctx = ctx; return OK; }
#define NEED_CTX() do { if (!current_ctx) return INVALID_CONTEXT; if (sticky) return sticky; } while (0)
CUresult cuCtxSynchronize(void) { NEED_CTX(); return OK; }
CUresult cuMemGetInfo_v2(size_t *f, size_t *t) { NEED_CTX(); *f = 1000; *t = 2000; return OK; }

CUresult cuMemAlloc_v2(CUdeviceptr *p, size_t n) { NEED_CTX(); if (n == 0) return INVALID_VALUE; void *m = malloc(n); memset(m, 0xcd, n); *p = (CUdeviceptr)(uintptr_t)m; return OK; }
CUresult cuMemFree_v2(CUdeviceptr p) { NEED_CTX(); free((void *)(uintptr_t)p); return OK; }
CUresult cuMemcpyHtoD_v2(CUdeviceptr d, const void *s, size_t n) { NEED_CTX(); memcpy((void *)(uintptr_t)d, s, n); return OK; }
CUresult cuMemcpyDtoH_v2(void *d, CUdeviceptr s, size_t n) { NEED_CTX(); memcpy(d, (void *)(uintptr_t)s, n); return OK; }
CUresult cuMemcpyDtoD_v2(CUdeviceptr d, CUdeviceptr s, size_t n) { NEED_CTX(); memmove((void *)(uintptr_t)d, (void *)(uintptr_t)s, n); return OK; }
CUresult cuMemsetD8_v2(CUdeviceptr d, unsigned char v, size_t n) { NEED_CTX(); memset((void *)(uintptr_t)d, v, n); return OK; }
CUresult cuMemsetD32_v2(CUdeviceptr d, unsigned v, size_t n) { NEED_CTX(); for (size_t i = 0; i < n; i++) ((unsigned *)(uintptr_t)d)[i] = v; return OK; }

struct module { char *text; };
struct function { struct module *m; char name[64]; int max_dynamic; };

/* JIT options as the driver reads them: values in void* slots, sizes and wall time written back. */
static void jit_logs(unsigned n, const int *opts, void **vals, const char *info, const char *error) {
  for (unsigned i = 0; i < n; i++) {
    if (opts[i] == 3 || opts[i] == 5) {
      const char *msg = opts[i] == 3 ? info : error;
      unsigned cap = 0;
      for (unsigned j = 0; j < n; j++) if (opts[j] == opts[i] + 1) cap = (unsigned)(uintptr_t)vals[j];
      if (cap > 0 && msg) { snprintf((char *)vals[i], cap, "%s", msg); }
      for (unsigned j = 0; j < n; j++) if (opts[j] == opts[i] + 1) vals[j] = (void *)(uintptr_t)(msg && cap ? strlen(msg) + 1 : 0);
    }
    if (opts[i] == 2) { float ms = 1.25f; memcpy(&vals[i], &ms, sizeof ms); }
  }
}

static CUresult load(struct module **out, const void *image, unsigned n, const int *opts, void **vals) {
  const char *text = image;
  if (memcmp(text, "\x7f" "ELF", 4) == 0) text += 4; /* our fake cubin: ELF magic + the PTX */
  if (strstr(text, "FAKE_SYNTAX_ERROR") || strstr(text, "%undefined_register")) {
    jit_logs(n, opts, vals, "", "ptxas application ptx input, line 7; error   : Unknown symbol 'FAKE_SYNTAX_ERROR'");
    return INVALID_PTX;
  }
  jit_logs(n, opts, vals, "ptxas info    : 0 bytes gmem", "");
  struct module *m = calloc(1, sizeof *m);
  m->text = strdup(text);
  *out = m;
  return OK;
}
CUresult cuModuleLoadDataEx(struct module **m, const void *image, unsigned n, int *opts, void **vals) { NEED_CTX(); return load(m, image, n, opts, vals); }
CUresult cuModuleLoadData(struct module **m, const void *image) { NEED_CTX(); return load(m, image, 0, NULL, NULL); }
CUresult cuModuleUnload(struct module *m) { if (!m) return INVALID_HANDLE; free(m->text); free(m); return OK; }
CUresult cuModuleGetFunction(struct function **f, struct module *m, const char *name) {
  NEED_CTX();
  char needle[80];
  snprintf(needle, sizeof needle, ".entry %s(", name);
  char needle2[80];
  snprintf(needle2, sizeof needle2, ".entry %s\n", name);
  if (!strstr(m->text, needle) && !strstr(m->text, needle2)) return NOT_FOUND;
  struct function *fn = calloc(1, sizeof *fn);
  fn->m = m;
  snprintf(fn->name, sizeof fn->name, "%s", name);
  fn->max_dynamic = 49152;
  *f = fn;
  return OK;
}
CUresult cuFuncGetAttribute(int *pi, int attrib, struct function *f) {
  NEED_CTX();
  switch (attrib) {
    case 0: *pi = strcmp(f->name, "heavy") == 0 ? 256 : 1024; return OK;
    case 1: *pi = strcmp(f->name, "heavy") == 0 ? 1024 : 0; return OK;
    case 4: *pi = 18; return OK;
    case 5: *pi = 80; return OK;
    case 6: *pi = 90; return OK;
    case 8: *pi = f->max_dynamic; return OK;
    default: *pi = 0; return OK;
  }
}
int fake_max_dynamic;
CUresult cuFuncSetAttribute(struct function *f, int attrib, int value) { NEED_CTX(); if (attrib == 8) { if (value > 232448) return INVALID_VALUE; f->max_dynamic = value; fake_max_dynamic = value; } return OK; }
int fake_get_max_dynamic(void) { return fake_max_dynamic; }

/* Kernels. saxpy(x: buffer @0, y: buffer @16, a: f32 @32, n: index @40): y[i] = a*x[i] + y[i]. */
static void run_saxpy(const unsigned char *p, unsigned long long threads) {
  CUdeviceptr x, y; unsigned long long xlen, ylen; float a; long long n;
  memcpy(&x, p, 8); memcpy(&xlen, p + 8, 8); memcpy(&y, p + 16, 8); memcpy(&ylen, p + 24, 8); memcpy(&a, p + 32, 4); memcpy(&n, p + 40, 8);
  for (long long i = 0; i < n && (unsigned long long)i < threads; i++) {
    if ((unsigned long long)(i + 1) * 4 > xlen || (unsigned long long)(i + 1) * 4 > ylen) { sticky = ILLEGAL_ADDRESS; return; }
    float *yy = (float *)(uintptr_t)y; const float *xx = (const float *)(uintptr_t)x;
    yy[i] = a * xx[i] + yy[i];
  }
}

/* saxpy4: four elements per thread. */
static void run_saxpy4(const unsigned char *p, unsigned long long threads) {
  long long n; memcpy(&n, p + 40, 8);
  unsigned char q[48]; memcpy(q, p, 48);
  long long limit = (long long)(threads * 4) < n ? (long long)(threads * 4) : n;
  memcpy(q + 40, &limit, 8);
  run_saxpy(q, (unsigned long long)limit);
}
/* reduce_u32(x @0, out @16, n @32): out[0] += sum x (mod 2^32). */
static void run_reduce(const unsigned char *p) {
  CUdeviceptr x, out; long long n; memcpy(&x, p, 8); memcpy(&out, p + 16, 8); memcpy(&n, p + 32, 8);
  unsigned s = 0; for (long long i = 0; i < n; i++) s += ((const unsigned *)(uintptr_t)x)[i];
  *(unsigned *)(uintptr_t)out += s;
}

struct captured { struct function *f; unsigned g[3], b[3], shared; unsigned char params[256]; int has_params; };
struct graph { struct captured items[512]; int n; };
static struct graph *capturing;
static void *capture_stream;

static CUresult launch_now(struct function *f, const unsigned *g, const unsigned *b, unsigned shared, const unsigned char *params) {
  fake_launch_count++;
  if (strcmp(f->name, "saxpy") == 0 && params) run_saxpy(params, (unsigned long long)g[0] * b[0]);
  if (strcmp(f->name, "saxpy4") == 0 && params) run_saxpy4(params, (unsigned long long)g[0] * b[0]);
  if (strcmp(f->name, "reduce_u32") == 0 && params) run_reduce(params);
  if (strcmp(f->name, "fault") == 0) sticky = ILLEGAL_ADDRESS; /* reported by the next call, like an async fault */
  (void)shared;
  return OK;
}

/* CUlaunchConfig of cuda.h 12+: dims, shared bytes, stream, attributes (none used by loom). */
struct launch_config { unsigned grid[3], block[3], shared; void *stream; void *attrs; unsigned num_attrs; };
CUresult cuLaunchKernel(struct function *f, unsigned gx, unsigned gy, unsigned gz, unsigned bx, unsigned by, unsigned bz,
                        unsigned shared, void *stream, void **kernelParams, void **extra);
CUresult cuLaunchKernelEx(const struct launch_config *c, struct function *f, void **kernelParams, void **extra) {
  if (!c || c->num_attrs != 0) return INVALID_VALUE;
  return cuLaunchKernel(f, c->grid[0], c->grid[1], c->grid[2], c->block[0], c->block[1], c->block[2], c->shared, c->stream, kernelParams, extra);
}

CUresult cuLaunchKernel(struct function *f, unsigned gx, unsigned gy, unsigned gz, unsigned bx, unsigned by, unsigned bz,
                        unsigned shared, void *stream, void **kernelParams, void **extra) {
  NEED_CTX();
  if (!f) return INVALID_HANDLE;
  if ((unsigned long long)bx * by * bz > 1024 || gx == 0 || gy == 0 || gz == 0) return INVALID_VALUE;
  if (shared > (unsigned)f->max_dynamic) return INVALID_VALUE;
  last.grid[0] = gx; last.grid[1] = gy; last.grid[2] = gz;
  last.block[0] = bx; last.block[1] = by; last.block[2] = bz;
  last.shared = shared; last.stream = (unsigned long long)(uintptr_t)stream;
  last.params_null = kernelParams == NULL; last.extra_null = extra == NULL;
  snprintf(last.name, sizeof last.name, "%s", f->name);
  memset(last.block_bytes, 0, sizeof last.block_bytes);
  if (kernelParams) memcpy(last.block_bytes, kernelParams[0], 48); /* the block is the one parameter */
  unsigned g[3] = {gx, gy, gz}, b[3] = {bx, by, bz};
  if (capturing && stream == capture_stream) {
    if (capturing->n == 512) return INVALID_VALUE; /* the fake keeps 512 nodes */
    struct captured *c = &capturing->items[capturing->n++];
    c->f = f; memcpy(c->g, g, sizeof g); memcpy(c->b, b, sizeof b); c->shared = shared; c->has_params = kernelParams != NULL;
    if (kernelParams) memcpy(c->params, kernelParams[0], sizeof c->params); /* params are copied at launch */
    return OK;
  }
  return launch_now(f, g, b, shared, kernelParams ? (const unsigned char *)kernelParams[0] : NULL);
}

static int stream_counter = 100;
CUresult cuStreamCreate(void **s, unsigned flags) { NEED_CTX(); if (flags > 1) return INVALID_VALUE; *s = (void *)(uintptr_t)(stream_counter++ * 16 + flags); return OK; }
CUresult cuStreamDestroy_v2(void *s) { (void)s; return OK; }
CUresult cuStreamSynchronize(void *s) { NEED_CTX(); (void)s; return OK; }
struct event { int recorded; int stamp; };
CUresult cuEventCreate(struct event **e, unsigned flags) { NEED_CTX(); (void)flags; *e = calloc(1, sizeof **e); return OK; }
CUresult cuEventDestroy_v2(struct event *e) { free(e); return OK; }
CUresult cuEventRecord(struct event *e, void *s) { NEED_CTX(); (void)s; e->recorded = 1; e->stamp = fake_launch_count; return OK; }
CUresult cuEventSynchronize(struct event *e) { NEED_CTX(); return e->recorded ? OK : INVALID_HANDLE; }
/* Each launch between the events "takes" 0.5 ms. */
CUresult cuEventElapsedTime_v2(float *ms, struct event *a, struct event *b) { NEED_CTX(); if (!a->recorded || !b->recorded) return INVALID_HANDLE; *ms = 0.5f * (float)(b->stamp - a->stamp); return OK; }

CUresult cuStreamBeginCapture_v2(void *s, unsigned mode) { NEED_CTX(); if (!s || mode > 2) return INVALID_VALUE; capturing = calloc(1, sizeof *capturing); capture_stream = s; return OK; }
CUresult cuStreamEndCapture(void *s, struct graph **g) { if (s != capture_stream || !capturing) return INVALID_VALUE; *g = capturing; capturing = NULL; capture_stream = NULL; return OK; }
CUresult cuGraphInstantiateWithFlags(struct graph **exec, struct graph *g, unsigned long long flags) {
  NEED_CTX(); if (flags) return INVALID_VALUE;
  struct graph *copy = malloc(sizeof *copy); memcpy(copy, g, sizeof *copy); *exec = copy; return OK;
}
CUresult cuGraphLaunch(struct graph *exec, void *s) {
  NEED_CTX(); (void)s;
  for (int i = 0; i < exec->n; i++) { struct captured *c = &exec->items[i]; launch_now(c->f, c->g, c->b, c->shared, c->has_params ? c->params : NULL); }
  return OK;
}
CUresult cuGraphExecDestroy(struct graph *exec) { free(exec); return OK; }
CUresult cuGraphDestroy(struct graph *g) { free(g); return OK; }

struct link { char *ptx; unsigned char *cubin; size_t size; };
static unsigned link_n; static int *link_opts; static void **link_vals;
CUresult cuLinkCreate_v2(unsigned n, int *opts, void **vals, struct link **out) {
  NEED_CTX();
  struct link *l = calloc(1, sizeof *l);
  /* A real linker keeps the option arrays and writes the logs when it runs; keep the pointers. */
  link_n = n; link_opts = opts; link_vals = vals;
  *out = l;
  return OK;
}
CUresult cuLinkAddData_v2(struct link *l, int type, void *data, size_t size, const char *name, unsigned n, int *o, void **v) {
  NEED_CTX(); (void)name; (void)n; (void)o; (void)v;
  if (type != 1) return INVALID_VALUE;
  if (size == 0 || ((char *)data)[size - 1] != 0) return INVALID_VALUE; /* PTX must be NUL-terminated */
  if (strstr(data, "FAKE_SYNTAX_ERROR")) {
    jit_logs(link_n, link_opts, link_vals, "", "ptxas application ptx input, line 7; error   : Unknown symbol 'FAKE_SYNTAX_ERROR'");
    return INVALID_PTX;
  }
  l->ptx = strdup(data);
  return OK;
}
CUresult cuLinkComplete(struct link *l, void **cubin, size_t *size) {
  NEED_CTX();
  if (!l->ptx) return INVALID_VALUE;
  jit_logs(link_n, link_opts, link_vals, "ptxas info    : Used 18 registers", "");
  size_t n = strlen(l->ptx);
  l->cubin = malloc(n + 5); memcpy(l->cubin, "\x7f" "ELF", 4); memcpy(l->cubin + 4, l->ptx, n + 1);
  l->size = n + 5; *cubin = l->cubin; *size = l->size;
  return OK;
}
CUresult cuLinkDestroy(struct link *l) { free(l->ptx); free(l->cubin); memset(l, 0xee, sizeof *l); free(l); return OK; }
