"""Every entry of the core tables (pointwise, reductions, scans, creation, conversion, views, basics, queries,
matmul) again with its tensors on the meta device, as ops_meta.py runs the index tables (its _on_meta: the
arguments drawn as the original entry draws them, every tensor moved to "meta" on both sides, the result's
geometry (shape, strides, dtype, device) or torch 1.13's error kind and message compared). torch's structured
meta functions check shapes and dtypes but run no kernel: no "not implemented for" refusal, no scalar's
checked conversion, no zero divisor (ct_pw_op.kernel_check). ops_reduce's entries run without their
conversion of complex values (its conv's .raw): a meta result holds none.

_SKIP lists the entries ctorch does not match on meta yet (NOT YET), by reason, each with a replay line
(`CTORCH_META_SKIPPED=1 run.py --seed S --op NAME@meta --only K`: CTORCH_META_SKIPPED=1 runs them too)."""
import os

import ops_basics
import ops_convert
import ops_create
import ops_matmul
import ops_pw_arith
import ops_pw_binary
import ops_pw_compare
import ops_pw_elem
import ops_pw_math
import ops_query
import ops_reduce
import ops_scan
import ops_view
from harness import Op
from ops_meta import _on_meta

# torch 1.13 runs some ops on meta through their Python references (torch/_refs, registered as Meta kernels by
# torch/_decomp): the references' own checks and messages ("expected predicate to be bool"), the layout of the
# prims' results (core/out_wrapper.h's ct__prims_elementwise_strides) and out_wrapper's out= rules (_maybe_resize_out,
# then _safe_copy_out's "Attempting to cast from ... but this can't be cast because it is not safe!"). floor_divide,
# masked_fill, where, nan_to_num.out, mvlgamma.out, logit and isnan, remainder with a number first, run theirs
# (ct__pw_ref_run, meta_check, ref_strides, meta_inplace_noop in src/ops/pointwise/pw.h; where_meta,
# nan_to_num_meta_out, mvlgamma_check's ref, logit_ref_strides' replay of the reference's chain). Empty: every entry
# matches.
_REFS_OPS = {}

_OTHER = {
    "tensor_from_data": ("the entry builds its tensor from a Python buffer: no ctorch argument moves to meta",
                         "--seed 1308612728 --op tensor_from_data@meta --only 0"),
    "from_blob": ("the entry builds its tensor from a Python buffer: no ctorch argument moves to meta",
                  "--seed 1308612728 --op from_blob@meta --only 0"),
}
_SKIP = {}
_SKIP.update({n: ("torch runs its Python reference on meta", r) for n, r in _REFS_OPS.items()})
_SKIP.update(_OTHER)


def _every_dim(t):
    """t with dim=[] passed as None. torch 1.13's meta_nansum reduces no dim for dim=[] and every dim for None
    (its CPU kernel: every dim for both; nanmean runs it); ctorch's C API has one form, empty dims, which means
    every dim."""
    return lambda x, dim=None, *a, **k: t(x, None if dim == [] else dim, *a, **k)


def _variant(op):
    t, c = getattr(op.torch, "raw", op.torch), getattr(op.ct, "raw", op.ct)  # ops_reduce: no value conversion
    t = _every_dim(t) if op.name.startswith(("nansum", "nanmean")) else t
    return Op(op.name + "@meta", op.gen, torch=_on_meta(t, False), ct=_on_meta(c, True),
              weight=0.1 * op.weight, min_cases=1, values=False, null_check=False)  # one case each in `make diff`: ~3 s


_TABLES = (ops_pw_binary.OPS, ops_pw_arith.OPS, ops_pw_math.OPS, ops_pw_compare.OPS, ops_pw_elem.OPS, ops_reduce.OPS,
           ops_scan.OPS, ops_create.OPS, ops_convert.OPS, ops_view.OPS, ops_basics.OPS, ops_query.OPS, ops_matmul.OPS)
_RUN_SKIPPED = os.environ.get("CTORCH_META_SKIPPED") == "1"  # exploration, not `make diff`: the _SKIP entries too
OPS = [_variant(op) for table in _TABLES for op in table if _RUN_SKIPPED or op.name not in _SKIP]
