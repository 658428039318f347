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
import torch

import ctorch as C
from harness import A, Op
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




# ---- mixed devices: cpu and meta tensors in one call ----
# The out= and in-place entries of the pointwise, reduction, scan and product tables again, some of their tensors
# moved to meta and the others left on the CPU. c10 dispatches such a call to meta, so torch 1.13 runs the op's
# meta function and its out= wrapper: TensorIterator's device rule (one CPU scalar for the binary ops: "Trying to
# pass too many CPU scalars to non-CPU kernel!", else "Expected all tensors to be on the same device, but found at
# least two devices, meta and cpu!"), a structured op's resize_out ("Expected out tensor to have device cpu, but
# got meta instead") and check_inplace ("Bad in-place call: input tensor device cpu and output tensor device meta
# should match") against the tensor whose options its meta function passes, or a Python reference computing on its
# inputs' device before out_wrapper's copy ("Attempting to copy from device cpu to device meta, but cross-device
# copies are not allowed!"). Which tensors move is drawn per case (the first argument: a number the mask comes from):
# any subset but all and none, or, for the entries whose torch kernel is a Python reference (_REF_NAMES), the out=
# tensor (in-place self) alone or every tensor but it.
def _moved_some(obj, ct, mask, k):
    """obj with the tensors whose position (in argument order, k[0] counting) is set in mask moved to meta."""
    if isinstance(obj, torch.Tensor if not ct else C.Tensor):
        i = k[0]
        k[0] += 1
        if not (mask >> i) & 1:
            return obj
        return obj.to("meta") if not ct else C.to(obj, device="meta")
    if isinstance(obj, list):
        return [_moved_some(o, ct, mask, k) for o in obj]
    if isinstance(obj, tuple):
        return tuple(_moved_some(o, ct, mask, k) for o in obj)
    return obj


def _count(obj, ct):
    if isinstance(obj, torch.Tensor if not ct else C.Tensor):
        return 1
    if isinstance(obj, (list, tuple)):
        return sum(_count(o, ct) for o in obj)
    return 0


def _target(op, n, has_out_kw):
    """Position of the out= tensor (the in-place self) among the call's n tensors: the entries pass out= as a keyword
    (last), as their first parameter (o / out) or last."""
    if op.name.split("[")[0].endswith("_") or not n:
        return 0
    if has_out_kw:
        return n - 1
    first = op.torch.__code__.co_varnames[:1] if hasattr(op.torch, "__code__") else ()
    return 0 if first in (("o",), ("out",)) else n - 1


def _mixed_mask(draw, n, target, structured):
    """Which of the n tensors go to meta (bit i: tensor i): never all or none of them (the @meta variants and the
    plain tables run those); structured: the target alone, or every tensor but it."""
    if n < 2:
        return (1 << n) - 1
    if structured:
        return (1 << target) if draw % 2 else ((1 << n) - 1) & ~(1 << target)
    return draw % ((1 << n) - 2) + 1


def _on_mixed(op, fn, ct, structured):
    def run(draw, *args, **kw):
        n = _count([list(args), list(kw.values())], ct)
        mask, k = _mixed_mask(draw, n, _target(op, n, "out" in kw), structured), [0]
        args = _moved_some(list(args), ct, mask, k)
        kw = {key: _moved_some(v, ct, mask, k) for key, v in kw.items()}
        return fn(*args, **kw)
    return run


def _mixed_gen(gen):
    def g2(g):
        spec = gen(g)
        if not isinstance(spec, A):
            spec = A(*spec)
        return A(g.int(0, 1 << 20), *spec.args, **spec.kw)
    return g2


# Ops torch 1.13 runs on meta through Python references: their inputs on two devices meet the reference's own checks
# (prims' check_same_device, floor_divide's divisor rule), so their cases keep the inputs on one device. With CPU
# inputs and a meta out, the reference computes on the CPU: its own checks, then its steps' CPU kernels' (a Python
# number's checked scalar_tensor and fmod's zero divisor in floor_divide, clamp's conversion of eps in float32 for
# float16 in logit, where's conversion of the replacements and signbit's complex refusal in nan_to_num: pw.h's
# ref_device and ref_cpu_check, nan_to_num_ref_cpu_ok), before out_wrapper's "Attempting to copy from device cpu to
# device meta".
_REF_NAMES = ("abs", "absolute", "floor_divide", "logical_and", "logical_or", "logical_xor", "logical_not", "where",
              "nan_to_num", "logit", "special_logit", "mvlgamma", "special_multigammaln", "conj_physical")

# Entries that do not match torch with mixed devices yet (NOT YET), by reason, each with a replay line
# (`CTORCH_META_SKIPPED=1 run.py --seed S --op NAME@mixed --only K`): none now.
_MIXED_SKIP = {}


def _mixed(op):
    t, c = getattr(op.torch, "raw", op.torch), getattr(op.ct, "raw", op.ct)
    structured = op.name.rsplit("_", 1)[0] in _REF_NAMES or op.name.rstrip("_") in _REF_NAMES
    return Op(op.name + "@mixed", _mixed_gen(op.gen), torch=_on_mixed(op, t, False, structured),
              ct=_on_mixed(op, c, True, structured), weight=0.1 * op.weight, min_cases=1, values=False,
              null_check=False)


_MIXED_TABLES = (ops_pw_binary.OPS, ops_pw_arith.OPS, ops_pw_math.OPS, ops_pw_compare.OPS, ops_pw_elem.OPS,
                 ops_reduce.OPS, ops_scan.OPS, ops_matmul.OPS)
OPS += [_mixed(op) for table in _MIXED_TABLES for op in table
        if ("_out" in op.name or op.name.split("[")[0].endswith("_")) and op.name not in _SKIP
        and (_RUN_SKIPPED or op.name not in _MIXED_SKIP)]
