"""Every entry of the indexing, gathering, joining and sorting tables again with its tensors on the meta
device (issue 16: the index ops' meta rows). The arguments are drawn and materialized as the original
entry draws them, then every tensor (index tensors, out= tensors and tensor lists included) is moved to
"meta" on both sides with Tensor.to, and the call is compared as the harness compares any call: the
result's geometry (shape, strides, dtype, device; meta tensors hold no values) or torch's error kind and
message, word for word. torch's meta kernels check shapes and dtypes but not index ranges, and ops whose
result size depends on the data (nonzero, masked_select, unique, ...) have no meta kernel: torch's
dispatcher message (src/core/meta_messages.c)."""
import glob
import importlib
import os

import torch

import ctorch as C
import ops_gather
import ops_index
import ops_join
import ops_sort
from harness import Op

# Entries not run on meta (name: reason, with a replay line). Empty: every entry of the four tables matches
# torch 1.13's meta path (issue 16's NOT YET list is closed).
_SKIP = {}


def _moved(obj, ct):
    if isinstance(obj, torch.Tensor) and not ct:
        return obj.to("meta")
    if ct and isinstance(obj, C.Tensor):
        return C.to(obj, device="meta")
    if isinstance(obj, list):
        return [_moved(o, ct) for o in obj]
    if isinstance(obj, tuple):
        return tuple(_moved(o, ct) for o in obj)
    return obj


def _on_meta(fn, ct):
    """fn with every tensor argument moved to meta, keyword arguments (out=, upper=, ...) too."""
    return lambda *args, **kw: fn(*_moved(args, ct), **{k: _moved(v, ct) for k, v in kw.items()})


def _variant(op):
    return Op(op.name + "@meta", op.gen, torch=_on_meta(op.torch, False), ct=_on_meta(op.ct, True),
              weight=0.1 * op.weight, min_cases=3, values=False, null_check=False)


_TABLES = (ops_index.OPS, ops_gather.OPS, ops_join.OPS, ops_sort.OPS)
if os.environ.get("CTORCH_META_ALL") == "1":  # exploration, not `make diff`: every table's entries on meta
    _TABLES = [importlib.import_module(os.path.basename(f)[:-3]).OPS
               for f in sorted(glob.glob(os.path.join(os.path.dirname(__file__), "ops_*.py")))
               if not f.endswith(("ops_meta.py", "ops_alias.py"))]
OPS = [_variant(op) for table in _TABLES for op in table if op.name not in _SKIP and not op.name.endswith("@meta")]
