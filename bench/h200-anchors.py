"""Same-run anchors for bench/h200.ts: what a CUDA user would otherwise run, timed like loom.

Prints one JSON object. Every shape gets >= 0.5 s of sustained load first (the H200's SM clock
drops to 345 MHz within seconds of light load), then 20 timed runs with CUDA events; medians
with min and max. TF32 is off for every f32 matrix product.

  python3 bench/h200-anchors.py [--quick]
"""
import json, statistics, sys, time

import torch

QUICK = "--quick" in sys.argv
REPEAT = 5 if QUICK else 20
WARM_S = 0.1 if QUICK else 0.5
torch.backends.cuda.matmul.allow_tf32 = False
torch.backends.cudnn.allow_tf32 = False
dev = torch.device("cuda")


def timed(fn):
    end = time.perf_counter() + WARM_S
    while time.perf_counter() < end:
        for _ in range(10):
            fn()
        torch.cuda.synchronize()
    times = []
    for _ in range(REPEAT):
        a, b = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
        a.record(); fn(); b.record(); b.synchronize()
        times.append(a.elapsed_time(b))
    return {"medianMs": statistics.median(times), "minMs": min(times), "maxMs": max(times)}


def bw(entry, nbytes):
    entry["gbPerS"] = nbytes / (entry["medianMs"] * 1e6)
    return entry


def flops(entry, n):
    entry["tflops"] = n / (entry["medianMs"] * 1e9)
    return entry


out = {"device": torch.cuda.get_device_name(), "torch": torch.__version__, "anchors": {}}
A = out["anchors"]
N = 1 << (24 if QUICK else 28)
x = torch.randn(N, device=dev)
y = torch.randn(N, device=dev)
A["torch_add_saxpy"] = bw(timed(lambda: y.add_(x, alpha=2.5)), 12 * N)
A["torch_sum"] = bw(timed(lambda: x.sum()), 4 * N)
xi = torch.randint(-1000, 1000, (N,), device=dev, dtype=torch.int32)
A["torch_sum_int32"] = bw(timed(lambda: xi.sum()), 4 * N)
A["torch_copy"] = bw(timed(lambda: y.copy_(x)), 8 * N)
del xi
for n in ([4096] if QUICK else [4096, 8192]):
    m = torch.randn(n, n, device=dev)
    o = torch.empty(n, n, device=dev)
    A[f"torch_copy_{n}x{n}"] = bw(timed(lambda: o.copy_(m)), 8 * n * n)
    A[f"torch_transpose_{n}x{n}"] = bw(timed(lambda: o.copy_(m.t())), 8 * n * n)
    del m, o
for rows in ([4096] if QUICK else [4096, 32768]):
    s = torch.randn(rows, 1024, device=dev)
    A[f"torch_softmax_{rows}x1024"] = bw(timed(lambda: torch.softmax(s, dim=1)), 8 * rows * 1024)
    del s
mn = 1024 if QUICK else 4096
a = torch.randn(mn, mn, device=dev)
b = torch.randn(mn, mn, device=dev)
A[f"torch_mm_f32_{mn}"] = flops(timed(lambda: torch.mm(a, b)), 2 * mn**3)

try:
    import triton
    import triton.language as tl

    out["triton"] = triton.__version__

    @triton.jit
    def saxpy_kernel(x_ptr, y_ptr, n, alpha, BLOCK: tl.constexpr):
        offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
        mask = offs < n
        xv = tl.load(x_ptr + offs, mask=mask)
        yv = tl.load(y_ptr + offs, mask=mask)
        tl.store(y_ptr + offs, alpha * xv + yv, mask=mask)

    A["triton_saxpy"] = bw(timed(lambda: saxpy_kernel[(triton.cdiv(N, 1024),)](x, y, N, 2.5, BLOCK=1024)), 12 * N)

    @triton.jit
    def softmax_kernel(out_ptr, in_ptr, in_stride, out_stride, n_cols, BLOCK: tl.constexpr):
        row = tl.program_id(0)
        cols = tl.arange(0, BLOCK)
        mask = cols < n_cols
        v = tl.load(in_ptr + row * in_stride + cols, mask=mask, other=-float("inf"))
        v = v - tl.max(v, axis=0)
        e = tl.exp(v)
        tl.store(out_ptr + row * out_stride + cols, e / tl.sum(e, axis=0), mask=mask)

    for rows in ([4096] if QUICK else [4096, 32768]):
        s = torch.randn(rows, 1024, device=dev)
        o = torch.empty_like(s)
        A[f"triton_softmax_{rows}x1024"] = bw(timed(lambda: softmax_kernel[(rows,)](o, s, s.stride(0), o.stride(0), 1024, BLOCK=1024, num_warps=4)), 8 * rows * 1024)
        del s, o

    @triton.jit
    def matmul_kernel(a_ptr, b_ptr, c_ptr, M, N, K, BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr, GROUP: tl.constexpr):
        pid = tl.program_id(0)
        grid_m = tl.cdiv(M, BM)
        grid_n = tl.cdiv(N, BN)
        group = pid // (GROUP * grid_n)
        first_m = group * GROUP
        size_m = min(grid_m - first_m, GROUP)
        pm = first_m + (pid % (GROUP * grid_n)) % size_m
        pn = (pid % (GROUP * grid_n)) // size_m
        rm = pm * BM + tl.arange(0, BM)
        rn = pn * BN + tl.arange(0, BN)
        rk = tl.arange(0, BK)
        acc = tl.zeros((BM, BN), dtype=tl.float32)
        for k in range(0, K, BK):
            av = tl.load(a_ptr + rm[:, None] * K + (k + rk)[None, :])
            bv = tl.load(b_ptr + (k + rk)[:, None] * N + rn[None, :])
            acc = tl.dot(av, bv, acc, input_precision="ieee")
        tl.store(c_ptr + rm[:, None] * N + rn[None, :], acc)

    c = torch.empty(mn, mn, device=dev)
    best = None
    configs = [(128, 128, 32, 8, 3), (128, 128, 16, 8, 4), (128, 64, 32, 4, 4), (64, 128, 32, 4, 4), (128, 256, 16, 8, 3)]
    tried = {}
    for bm, bn, bk, warps, stages in configs:
        try:
            launch = lambda: matmul_kernel[(triton.cdiv(mn, bm) * triton.cdiv(mn, bn),)](a, b, c, mn, mn, mn, BM=bm, BN=bn, BK=bk, GROUP=8, num_warps=warps, num_stages=stages)
            r = flops(timed(launch), 2 * mn**3)
            ok = torch.allclose(c, torch.mm(a, b), rtol=1e-3, atol=1e-2)
            tried[f"{bm}x{bn}x{bk}/w{warps}/s{stages}"] = {"tflops": r["tflops"], "correct": ok}
            if ok and (best is None or r["tflops"] > best["tflops"]):
                best = {**r, "config": f"{bm}x{bn}x{bk}/w{warps}/s{stages}"}
        except Exception as e:  # a config past the shared-memory limit, say
            tried[f"{bm}x{bn}x{bk}/w{warps}/s{stages}"] = {"error": str(e)[:200]}
    A[f"triton_mm_f32_ieee_{mn}"] = {**(best or {}), "configs": tried}
except Exception as e:
    out["tritonError"] = repr(e)[:500]

print(json.dumps(out, indent=1))
