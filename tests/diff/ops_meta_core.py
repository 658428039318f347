"""Every entry of the core tables (pointwise, reductions, scans, creation, conversion, views, basics, queries,
matmul) again with its tensors on the meta device, as ops_meta.py runs the index tables (its _on_meta)."""
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

_SKIP = {}


def _variant(op):
    return Op(op.name + "@meta", op.gen, torch=_on_meta(op.torch, False), ct=_on_meta(op.ct, True),
              weight=0.1 * op.weight, min_cases=3, values=False, null_check=False)


_TABLES = (ops_pw_binary.OPS, ops_pw_arith.OPS, ops_pw_math.OPS, ops_pw_compare.OPS, ops_pw_elem.OPS, ops_reduce.OPS,
           ops_scan.OPS, ops_create.OPS, ops_convert.OPS, ops_view.OPS, ops_basics.OPS, ops_query.OPS, ops_matmul.OPS)
OPS = [_variant(op) for table in _TABLES for op in table if op.name not in _SKIP]
