#!/usr/bin/env python3
"""Products (issue 17): ctorch (through ctypes) and torch timed alternately in one process on the same
inputs, at 1 and 2 threads; the median of the per-round ratios torch/ctorch is printed (> 1: ctorch faster).

Both libraries run the same OpenBLAS in this process (torch reaches Debian's OpenMP build through
libblas.so.3, ctorch loads libopenblas.so.0 by dlopen: one copy, one soname). torch is given the same
kernel choice as ctorch: where ctorch's decision (src/kernels/cpu/blas.h) names a core type for this CPU,
OPENBLAS_CORETYPE is set to it before torch is imported; ctorch itself runs without any variable.

Cases and targets: sgemm and dgemm 256/1024/2048 (>= 1.0x torch and >= 0.85 of one core's FMA peak at
one thread, the peak measured here by bench_fma_peak), bmm 64 x 128^3 (>= 1.2x), bmm 10000 x 8x8 (>= 3x),
matmul (64, 512) x (512, 512) in float16 and bfloat16 (>= 1.0x; torch 1.13's CPU refuses float16 products:
reported, not timed), einsum "bij,bjk->bik" (>= 1.0x). Each pair is checked for identical bits."""
import ctypes
import os
import statistics
import subprocess
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
BUILD = os.environ.get("CTORCH_BUILD", os.path.join(ROOT, "build"))
REPS = int(os.environ.get("BENCH_REPS", "7"))


from blas_core import CORE  # noqa: E402  (sets torch's OpenBLAS core type, then imports torch)
import torch  # noqa: E402
from bench_common import paired  # noqa: E402

lib = ctypes.CDLL(os.path.join(BUILD, "libctorch.so"))
P = ctypes.c_void_p


class Shape(ctypes.Structure):
    _fields_ = [("data", ctypes.POINTER(ctypes.c_int64)), ("ndim", ctypes.c_int64)]


class Tensors(ctypes.Structure):
    _fields_ = [("data", ctypes.POINTER(P)), ("n", ctypes.c_int64)]


DT = {torch.float32: 9, torch.float64: 10, torch.float16: 7, torch.bfloat16: 8}
for name, res, args in [("ct_tensor_from_data", P, [P, ctypes.c_int, Shape, P]), ("ct_release", None, [P]),
                        ("ct_set_num_threads", None, [ctypes.c_int]), ("ct_mm", P, [P, P]),
                        ("ct_mm_out", ctypes.c_int, [P, P, P]), ("ct_bmm_out", ctypes.c_int, [P, P, P]),
                        ("ct_matmul", P, [P, P]), ("ct_einsum", P, [ctypes.c_char_p, Tensors]),
                        ("ct_data_ptr", P, [P]), ("ct_last_error_message", ctypes.c_char_p, [])]:
    f = getattr(lib, name)
    f.restype, f.argtypes = res, args


def shape(*dims):
    return Shape((ctypes.c_int64 * max(len(dims), 1))(*dims), len(dims))


def to_ct(t):
    t = t.contiguous()
    return lib.ct_tensor_from_data(t.data_ptr(), DT[t.dtype], shape(*t.shape), None)


def same_bits(ct, t):
    n = t.numel() * t.element_size()
    return bytes((ctypes.c_char * n).from_address(lib.ct_data_ptr(ct))) == t.contiguous().view(torch.uint8).numpy().tobytes()


def fma_peak():
    exe = os.path.join(BUILD, "bench", "bench_fma_peak")
    if not os.path.exists(exe):
        return None, None
    out = subprocess.run([exe], capture_output=True, text=True).stdout.split()
    try:
        return float(out[1]), float(out[3])
    except (IndexError, ValueError):
        return None, None


def cases():
    """(label, target, flops, ctorch call, torch call, check)."""
    torch.manual_seed(0)
    out = []
    for dt, tag in ((torch.float32, "sgemm"), (torch.float64, "dgemm")):
        for n in (256, 1024, 2048):
            a, b = torch.randn(n, n, dtype=dt), torch.randn(n, n, dtype=dt)
            ca, cb, co, to = to_ct(a), to_ct(b), to_ct(torch.empty(n, n, dtype=dt)), torch.empty(n, n, dtype=dt)
            out.append((f"{tag} {n}, out=", 1.0, 2.0 * n ** 3,
                        (lambda co, ca, cb: lambda: lib.ct_mm_out(co, ca, cb))(co, ca, cb),
                        (lambda a, b, to: lambda: torch.mm(a, b, out=to))(a, b, to),
                        (lambda co, to: lambda: same_bits(co, to))(co, to)))
    for (bs, n), target in (((64, 128), 1.2), ((10000, 8), 3.0)):
        a, b = torch.randn(bs, n, n), torch.randn(bs, n, n)
        ca, cb, co, to = to_ct(a), to_ct(b), to_ct(torch.empty(bs, n, n)), torch.empty(bs, n, n)
        out.append((f"bmm {bs} x {n}^3 f32, out=", target, 2.0 * bs * n ** 3,
                    (lambda co, ca, cb: lambda: lib.ct_bmm_out(co, ca, cb))(co, ca, cb),
                    (lambda a, b, to: lambda: torch.bmm(a, b, out=to))(a, b, to),
                    (lambda co, to: lambda: same_bits(co, to))(co, to)))
    for dt in (torch.float16, torch.bfloat16):
        a, b = torch.randn(64, 512).to(dt), torch.randn(512, 512).to(dt)
        ca, cb = to_ct(a), to_ct(b)
        try:
            torch.matmul(a, b)
        except RuntimeError as e:  # float16: torch 1.13's CPU has no half product
            r = lib.ct_matmul(ca, cb)
            msg = lib.ct_last_error_message().decode() if not r else "computed"
            print(f"  note: matmul (64,512)x(512,512) {str(dt)[6:]}: torch refuses ({e}); ctorch: {msg}")
            continue
        holder = {}

        def ct_call(ca=ca, cb=cb, holder=holder):
            if "r" in holder:
                lib.ct_release(holder["r"])
            holder["r"] = lib.ct_matmul(ca, cb)

        tres = {}

        def t_call(a=a, b=b, tres=tres):
            tres["r"] = torch.matmul(a, b)

        out.append((f"matmul (64,512)x(512,512) {str(dt)[6:]}", 1.0, 2.0 * 64 * 512 * 512, ct_call, t_call,
                    (lambda holder, tres: lambda: same_bits(holder["r"], tres["r"]))(holder, tres)))
    a, b = torch.randn(64, 128, 128), torch.randn(64, 128, 128)
    ca, cb = to_ct(a), to_ct(b)
    arr = (P * 2)(ca, cb)
    ts = Tensors(ctypes.cast(arr, ctypes.POINTER(P)), 2)
    holder, tres = {}, {}

    def e_ct(holder=holder):
        if "r" in holder:
            lib.ct_release(holder["r"])
        holder["r"] = lib.ct_einsum(b"bij,bjk->bik", ts)

    def e_t(tres=tres):
        tres["r"] = torch.einsum("bij,bjk->bik", a, b)

    out.append(("einsum bij,bjk->bik 64x128^3", 1.0, 2.0 * 64 * 128 ** 3, e_ct, e_t,
                lambda: same_bits(holder["r"], tres["r"])))
    return out


def main():
    print("matmul: ratio = torch time / ctorch time (median of paired rounds); > 1 means ctorch is faster")
    print(f"  OpenBLAS core type set for both: {CORE or 'none (OpenBLAS detects this CPU itself)'}; "
          f"torch {torch.__version__}")
    only = os.environ.get("BENCH_ONLY")  # a substring of the labels to run, for one case alone
    all_cases = [c for c in cases() if not only or only in c[0]]
    for threads in (1, 2):
        lib.ct_set_num_threads(threads)
        torch.set_num_threads(threads)
        p32, p64 = fma_peak() if threads == 1 else (None, None)
        if threads == 1:
            print(f"-- 1 thread; one core's FMA peak (bench_fma_peak, measured now): "
                  f"{'%.1f GFLOP/s fp32, %.1f fp64' % (p32, p64) if p32 else 'not measured (build bench_fma_peak)'}")
        else:
            print("-- 2 threads")
        for label, target, flops, ct_call, torch_call, check in all_cases:
            # 2 threads: each library's turn starts with the other's threads settled (bench_common.paired)
            r, tc, tt = paired(ct_call, torch_call)
            same = "" if check is None else ("  bit-identical" if check() else "  RESULTS DIFFER")
            gf = flops / tc / 1e9
            peak = p64 if "dgemm" in label else p32
            share = f" = {gf / peak:4.2f} of peak" if peak and ("gemm" in label) else ""
            flag = "ok " if r >= target else "LOW"
            print(f"  {flag} {label:34s} {r:5.2f}x  ctorch {tc * 1e3:8.2f} ms ({gf:6.1f} GFLOP/s{share})  "
                  f"torch {tt * 1e3:8.2f} ms (target >= {target}x){same}")
    lib.ct_set_num_threads(0)


if __name__ == "__main__":
    sys.exit(main())
