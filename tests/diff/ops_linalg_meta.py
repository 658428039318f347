"""Every entry of the linear algebra tables (ops_linalg*.py) again with its tensors on the meta device, as
ops_meta.py runs the index tables (its _variant: the arguments drawn as the original entry draws them, every
tensor moved to "meta" on both sides, the result's geometry (shape, strides, dtype, device) or torch's error
kind and message compared). torch 1.13 has meta kernels for the structured linalg ops (det, slogdet, inv,
solve, cholesky, svd, eigh, lu_factor, lu, lu_unpack, lu_solve, triangular_solve, qr; no per-dtype kernel check
there: a float16 det has a meta result) and runs its composites (pinv, matrix_rank, matrix_power, tensorinv,
tensorsolve, cond, matrix_norm, ...) over them; the others (eig, lstsq, geqrf, householder_product, ormqr,
matrix_exp, cholesky_inverse, solve_triangular, the legacy cholesky) refuse a meta tensor with the dispatcher's
message (src/core/meta_messages.c), cholesky_solve after its checks (at _cholesky_solve_helper), eigvals_out
where it copies A to the CPU, the legacy complex svd_out at conj_physical_. Entries whose table functions reduce
the results to values (svd's, eigh's and qr's phase-normalised vectors and reconstructions, 1 / cond) run here
on the raw results."""
import torch

import ops_linalg
import ops_linalg_eig
import ops_linalg_lu
import ops_linalg_norm
import ops_linalg_qr
from harness import Op
from ops_linalg import _c_in, _eopts, _outs, _ref, _results, _t_in, ct_linalg_svd_opts
from ops_linalg_norm import _cond_ct, _cond_torch
from ops_linalg_qr import _conj_bit, ct_linalg_qr_opts, ct_qr_opts, ct_svd_opts
from ops_meta import _on_meta

# Entries not run on meta (name: reason). Empty: every entry of the five linalg tables matches torch 1.13 there
# (issue 17's NOT YET list is closed). Replay a failure with `--seed S --op NAME@meta`.
_SKIP = {}


def _t_svd(x, conj, full, out=None):
    return tuple(torch.linalg.svd(_t_in(x, conj), full_matrices=full, out=out))


def _c_svd(x, conj, full, out=None):
    o = _ref(ct_linalg_svd_opts(not full))
    return _results("ct_linalg_svd", 3, _c_in(x, conj), opts=o) if out is None else \
        _outs("ct_linalg_svd_out", out, _c_in(x, conj), o)


def _t_eigh(x, conj, uplo, out=None):
    return tuple(torch.linalg.eigh(_t_in(x, conj), **({} if uplo is None else {"UPLO": uplo}), out=out))


def _c_eigh(x, conj, uplo, out=None):
    return _results("ct_linalg_eigh", 2, _c_in(x, conj), opts=_eopts(uplo)) if out is None else \
        _outs("ct_linalg_eigh_out", out, _c_in(x, conj), _eopts(uplo))


def _t_qr(x, conj, mode, out=None):
    return tuple(torch.linalg.qr(_t_in(x, conj), **({} if mode is None else {"mode": mode}), out=out))


def _c_qr(x, conj, mode, out=None):
    o = _ref(ct_linalg_qr_opts(None if mode is None else mode.encode()))
    return _results("ct_linalg_qr", 2, _c_in(x, conj), opts=o) if out is None else \
        _outs("ct_linalg_qr_out", list(out), _c_in(x, conj), o)


def _t_qr_legacy(x, conj, some, out=None):
    return tuple(torch.qr(_t_in(x, conj), some, out=out))


def _c_qr_legacy(x, conj, some, out=None):
    o = _ref(ct_qr_opts(not some))
    return _results("ct_qr", 2, _c_in(x, conj), opts=o) if out is None else \
        _outs("ct_qr_out", list(out), _c_in(x, conj), o)


def _t_svd_legacy(x, conj, some, uv, out=None):
    U, S, V = torch.svd(_t_in(x, conj), some, uv, out=out)
    return U, S, V, _conj_bit(V)


def _c_svd_legacy(x, conj, some, uv, out=None):
    o = _ref(ct_svd_opts(not some, not uv))
    U, S, V = _results("ct_svd", 3, _c_in(x, conj), opts=o) if out is None else \
        _outs("ct_svd_out", list(out), _c_in(x, conj), o)
    return U, S, V, _conj_bit(V)


# the raw calls of the entries whose table functions compute on the results' values
_RAW = {name + sfx: fns for name, fns in (("linalg_svd", (_t_svd, _c_svd)), ("linalg_svd_out", (_t_svd, _c_svd)),
                                          ("linalg_eigh", (_t_eigh, _c_eigh)), ("linalg_eigh_out", (_t_eigh, _c_eigh)),
                                          ("linalg_qr", (_t_qr, _c_qr)), ("linalg_qr_out", (_t_qr, _c_qr)),
                                          ("qr", (_t_qr_legacy, _c_qr_legacy)), ("qr_out", (_t_qr_legacy, _c_qr_legacy)),
                                          ("svd", (_t_svd_legacy, _c_svd_legacy)),
                                          ("svd_out", (_t_svd_legacy, _c_svd_legacy)),
                                          ("linalg_cond_svd_singular", (_cond_torch, _cond_ct)))
        for sfx in ("", "_f64")}


def _variant(op):
    t, c = _RAW.get(op.name, (op.torch, op.ct))
    return Op(op.name + "@meta", op.gen, torch=_on_meta(t, False), ct=_on_meta(c, True),
              weight=0.1 * op.weight, min_cases=3, values=False, null_check=False)


_TABLES = (ops_linalg.OPS, ops_linalg_lu.OPS, ops_linalg_qr.OPS, ops_linalg_eig.OPS, ops_linalg_norm.OPS)
OPS = [_variant(op) for table in _TABLES for op in table if op.name not in _SKIP]
