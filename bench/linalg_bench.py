#!/usr/bin/env python3
"""Linear algebra: ctorch (through ctypes) and torch timed alternately in one process on the same inputs, at 1
and 2 threads; the median of the per-round ratios torch/ctorch is printed (> 1: ctorch faster).

Targets (issue 17): linalg.solve and linalg.inv of 512 x 512 >= 1.0x, svd of 256 x 256 >= 1.0x. Batches of
small matrices (10000 x 8x8, 1000 x 32x32) run on the library's pool and must give torch's bits ("close" there
means equal). `linalg_bench.py "x 8x8"` runs the cases whose label holds the argument. Both libraries
call the same LAPACK (Debian's OpenBLAS, OpenMP build) with the same drivers (getrf + getrs, gesdd), so the
ratios measure what lies around the calls (copies, workspaces, dispatch), except for the triangular solves
with many right-hand sides from 256 rows on (inv, solve, solve_triangular), which ctorch blocks over gemm
itself (src/ops/linalg/trsm_left.c). Each pair is checked to agree within assert_close's tolerances, or for
those solves, where rounding in another order moves an element past them, to be as accurate as torch's
(backward error at most twice torch's: "as accurate")."""
import ctypes
import sys

import blas_core  # noqa: F401  (torch's OpenBLAS gets the core type ctorch picks; before torch)
import torch  # noqa: E402

from bench_common import P, lib, paired, to_ct  # noqa: E402  (the same loader and timing)

PP = ctypes.POINTER(ctypes.c_void_p)


class SvdOpts(ctypes.Structure):
    _fields_ = [("reduced", ctypes.c_bool)]


for name, res, args in [("ct_linalg_solve", P, [P, P, P]), ("ct_linalg_inv", P, [P]), ("ct_linalg_det", P, [P]),
                        ("ct_linalg_svd", ctypes.c_int, [P, PP, PP, PP, P]), ("ct_linalg_svdvals", P, [P]),
                        ("ct_linalg_cholesky", P, [P, P]), ("ct_linalg_eigh", ctypes.c_int, [P, PP, PP, P]),
                        ("ct_copy_to_buffer", ctypes.c_int, [P, P, ctypes.c_int, ctypes.c_size_t])]:
    f = getattr(lib, name)
    f.restype, f.argtypes = res, args


# lu_factor and qr (two results through pointers), solve_triangular (upper passed positionally)
for name, res, args in [("ct_linalg_lu_factor", ctypes.c_int, [P, PP, PP, P]),
                        ("ct_linalg_qr", ctypes.c_int, [P, PP, PP, P]),
                        ("ct_linalg_solve_triangular", P, [P, P, ctypes.c_bool, P])]:
    f = getattr(lib, name)
    f.restype, f.argtypes = res, args


def two_out_call(fn, ca):
    """A call that returns two tensors through pointers (default options), both released."""
    def call():
        a, b = P(), P()
        fn(ca, ctypes.byref(a), ctypes.byref(b), None)
        lib.ct_release(a)
        lib.ct_release(b)
    return call


def two_out_check(fn, ca, compare):
    """The same call once, its two results given to compare(a, b) before they are released."""
    def run():
        a, b = P(), P()
        fn(ca, ctypes.byref(a), ctypes.byref(b), None)
        ok = compare(a.value, b.value)
        lib.ct_release(a)
        lib.ct_release(b)
        return ok
    return run


def values(ct, like):
    out = torch.empty(like.shape, dtype=like.dtype)
    lib.ct_copy_to_buffer(ct, out.data_ptr(), {torch.float32: 9, torch.float64: 10}[like.dtype],
                          out.numel() * out.element_size())
    return out


def close(ct, t, exact=False):
    if exact:
        return torch.equal(values(ct, t), t)
    try:
        torch.testing.assert_close(values(ct, t), t)
        return True
    except AssertionError:
        return False


def residual(a, x, b):
    """max |a x - b| / (max|a| max|x|) in float64: the backward error of a solution."""
    a, x, b = a.double(), x.double(), b.double()
    return ((a @ x - b).abs().max() / (a.abs().max() * x.abs().max())).item()


def check_solve(ct_fn, torch_fn, a, b):
    """"close" within assert_close's tolerances, else "as accurate" where ctorch's backward error is at most
    twice torch's (a different order of the same rounding: a float32 matrix of condition ~3000 moves some
    elements past assert_close's atol), else False. b None: the identity (inv)."""
    def run():
        r = ct_fn()
        t = torch_fn()
        x = values(r, t)
        lib.ct_release(r)
        try:
            torch.testing.assert_close(x, t)
            return "close"
        except AssertionError:
            pass
        rhs = torch.eye(a.shape[-1], dtype=a.dtype) if b is None else b
        return "as accurate" if residual(a, x, rhs) <= 2 * residual(a, t, rhs) else False
    return run


def one(fn, *args):
    def call():
        lib.ct_release(fn(*args))
    return call


def svd_call(cx, full):
    o = SvdOpts(not full)

    def call():
        u, s, v = P(), P(), P()
        lib.ct_linalg_svd(cx, ctypes.byref(u), ctypes.byref(s), ctypes.byref(v), ctypes.byref(o))
        for t in (u, s, v):
            lib.ct_release(t)
    return call


def check(ct_fn, torch_fn, exact=False):
    def run():
        r = ct_fn()
        ok = close(r, torch_fn(), exact)
        lib.ct_release(r)
        return ok
    return run


def cases():
    torch.manual_seed(0)
    out = []
    for dt in (torch.float32, torch.float64):
        n = 512
        a = torch.randn(n, n, dtype=dt) + n ** 0.5 * torch.eye(n, dtype=dt)
        b = torch.randn(n, n, dtype=dt)
        ca, cb = to_ct(a), to_ct(b)
        tag = "f32" if dt == torch.float32 else "f64"
        out += [
            (f"linalg.solve 512x512 {tag}", 1.0, one(lib.ct_linalg_solve, ca, cb, None),
             lambda a=a, b=b: torch.linalg.solve(a, b),
             check_solve(lambda ca=ca, cb=cb: lib.ct_linalg_solve(ca, cb, None), lambda a=a, b=b: torch.linalg.solve(a, b),
                         a, b)),
            (f"linalg.inv 512x512 {tag}", 1.0, one(lib.ct_linalg_inv, ca), lambda a=a: torch.linalg.inv(a),
             check_solve(lambda ca=ca: lib.ct_linalg_inv(ca), lambda a=a: torch.linalg.inv(a), a, None)),
            (f"linalg.det 512x512 {tag}", None, one(lib.ct_linalg_det, ca), lambda a=a: torch.linalg.det(a), None),
        ]
        s = torch.randn(256, 256, dtype=dt)
        cs = to_ct(s)
        out += [
            (f"linalg.svd 256x256 {tag}", 1.0, svd_call(cs, True), lambda s=s: torch.linalg.svd(s), None),
            (f"linalg.svdvals 256x256 {tag}", None, one(lib.ct_linalg_svdvals, cs), lambda s=s: torch.linalg.svdvals(s),
             check(lambda cs=cs: lib.ct_linalg_svdvals(cs), lambda s=s: torch.linalg.svdvals(s))),
        ]
        spd = a @ a.mT
        cspd = to_ct(spd)
        out.append((f"linalg.cholesky 512x512 {tag}", None, one(lib.ct_linalg_cholesky, cspd, None),
                    lambda spd=spd: torch.linalg.cholesky(spd), None))
        for nb, k in ((10000, 8), (1000, 32)):  # batches on the pool (ct__la_for_each_matrix), bit for bit
            ba = torch.randn(nb, k, k, dtype=dt) + k ** 0.5 * torch.eye(k, dtype=dt)
            bb = torch.randn(nb, k, k, dtype=dt)
            cba, cbb = to_ct(ba), to_ct(bb)
            out += [
                (f"linalg.inv {nb} x {k}x{k} {tag}", None, one(lib.ct_linalg_inv, cba),
                 lambda ba=ba: torch.linalg.inv(ba),
                 check(lambda cba=cba: lib.ct_linalg_inv(cba), lambda ba=ba: torch.linalg.inv(ba), True)),
                (f"linalg.solve {nb} x {k}x{k} {tag}", None, one(lib.ct_linalg_solve, cba, cbb, None),
                 lambda ba=ba, bb=bb: torch.linalg.solve(ba, bb),
                 check(lambda cba=cba, cbb=cbb: lib.ct_linalg_solve(cba, cbb, None),
                       lambda ba=ba, bb=bb: torch.linalg.solve(ba, bb), True)),
                (f"linalg.det {nb} x {k}x{k} {tag}", None, one(lib.ct_linalg_det, cba),
                 lambda ba=ba: torch.linalg.det(ba),
                 check(lambda cba=cba: lib.ct_linalg_det(cba), lambda ba=ba: torch.linalg.det(ba), True)),
            ]
        sb = torch.randn(64, 8, 8, dtype=dt) + 8 * torch.eye(8, dtype=dt)
        csb = to_ct(sb)
        out.append((f"linalg.inv 64 x 8x8 {tag}", None, one(lib.ct_linalg_inv, csb), lambda sb=sb: torch.linalg.inv(sb),
                    check(lambda csb=csb: lib.ct_linalg_inv(csb), lambda sb=sb: torch.linalg.inv(sb))))
        # lu family
        tri = torch.randn(n, n, dtype=dt).triu() * 0.1 + 2 * torch.eye(n, dtype=dt)
        ctri = to_ct(tri)
        out += [
            (f"linalg.lu_factor 512x512 {tag}", None, two_out_call(lib.ct_linalg_lu_factor, ca),
             lambda a=a: torch.linalg.lu_factor(a),
             two_out_check(lib.ct_linalg_lu_factor, ca, lambda lu, piv, a=a: close(lu, torch.linalg.lu_factor(a)[0]))),
            (f"linalg.solve_triangular 512 {tag}", None, one(lib.ct_linalg_solve_triangular, ctri, cb, True, None),
             lambda tri=tri, b=b: torch.linalg.solve_triangular(tri, b, upper=True),
             check_solve(lambda ctri=ctri, cb=cb: lib.ct_linalg_solve_triangular(ctri, cb, True, None),
                         lambda tri=tri, b=b: torch.linalg.solve_triangular(tri, b, upper=True), tri, b)),
        ]
        # batched small QR, one LAPACK workspace query per batch (apply_geqrf / apply_orgqr), bit for bit
        q8 = torch.randn(10000, 8, 8, dtype=dt)
        cq8 = to_ct(q8)
        out.append((f"linalg.qr 10000 x 8x8 {tag}", None, two_out_call(lib.ct_linalg_qr, cq8),
                    lambda q8=q8: torch.linalg.qr(q8),
                    two_out_check(lib.ct_linalg_qr, cq8,
                                  lambda q, r, a=q8: all(close(c, t, True) for c, t in zip((q, r), torch.linalg.qr(a))))))
    return out


def main():
    print("linalg: ratio = torch time / ctorch time (median of paired rounds); > 1 means ctorch is faster")
    only = sys.argv[1] if len(sys.argv) > 1 else None  # a substring of the labels to run ("x 8x8")
    all_cases = cases()
    for threads in (1, 2):
        lib.ct_set_num_threads(threads)
        torch.set_num_threads(threads)
        print(f"-- {threads} thread(s)")
        for label, target, ct_call, torch_call, chk in all_cases:
            if only and only not in label:
                continue
            # 2 threads: each library's turn starts with the other's threads settled (bench_common.paired)
            r, tc, tt = paired(ct_call, torch_call)
            verdict = None if chk is None else chk()
            same = "" if chk is None else "  " + (verdict if isinstance(verdict, str) else "close" if verdict
                                                   else "RESULTS DIFFER")
            goal = f"(target >= {target}x)" if target else ""
            flag = "   " if not target else ("ok " if r >= target else "LOW")
            print(f"  {flag} {label:30s} {r:6.2f}x  ctorch {tc * 1e3:8.2f} ms  torch {tt * 1e3:8.2f} ms {goal}{same}")
    lib.ct_set_num_threads(0)


if __name__ == "__main__":
    sys.exit(main())
