#!/usr/bin/python3
"""Writes src/core/meta_messages.c: torch 1.13's full dispatcher message ("Could not run 'aten::X' with
arguments from the 'Meta' backend. ... is only available for these backends: [...] ... registered at ...")
for each op that ctorch refuses on the meta device because torch has no Meta kernel for it.
The text lists torch's own build (backends, source lines), so it is copied from torch, not composed.
Run with /usr/bin/python3 (torch 1.13); `make check` compares the committed file with a fresh run."""
import sys
import torch

m = torch.empty(3, device="meta")
_m33 = torch.empty(3, 3, device="meta")
_c33 = torch.empty(3, 3, device="meta", dtype=torch.complex64)
CASES = {
    "aten::_local_scalar_dense": lambda: torch.empty((), device="meta").item(),
    "aten::equal": lambda: torch.equal(m, m),
    "aten::is_set_to": lambda: m.is_set_to(m),
    "aten::_logcumsumexp": lambda: torch.logcumsumexp(m, 0),
    "aten::_cummax_helper": lambda: torch.cummax(m, 0),
    "aten::_cummin_helper": lambda: torch.cummin(m, 0),
    "aten::var.correction_out": lambda: torch.var(m, 0, out=torch.empty(())),
    "aten::std.correction_out": lambda: torch.std(m, 0, out=torch.empty(())),
    "aten::count_nonzero.dim_IntList": lambda: torch.count_nonzero(m),
    "aten::multinomial": lambda: torch.multinomial(m, 2),
    "aten::narrow_copy.out": lambda: torch.narrow_copy(m, 0, 0, 1, out=torch.empty(1, device="meta")),
    # sorting and selection (src/ops/sort)
    "aten::kthvalue.values": lambda: torch.kthvalue(m, 1),
    "aten::median": lambda: torch.median(m),
    "aten::median.dim_values": lambda: torch.median(m, 0),
    "aten::mode": lambda: torch.mode(m),
    "aten::_unique2": lambda: torch.unique(m),
    "aten::unique_dim": lambda: torch.unique(m, dim=0),
    "aten::unique_consecutive": lambda: torch.unique_consecutive(m),
    # h6-meta2: argsort with stable= (every ct_argsort call) is aten::argsort.stable, no Meta kernel
    "aten::argsort.stable": lambda: torch.argsort(m, stable=True),
    "aten::searchsorted.Tensor": lambda: torch.searchsorted(m, m),
    "aten::searchsorted.Tensor_out": lambda: torch.searchsorted(m, m, out=torch.empty(3, dtype=torch.long)),
    "aten::searchsorted.Scalar": lambda: torch.searchsorted(m, 1),
    "aten::bucketize.Tensor": lambda: torch.bucketize(m, m),
    "aten::bucketize.Tensor_out": lambda: torch.bucketize(m, m, out=torch.empty(3, dtype=torch.long)),
    "aten::bucketize.Scalar": lambda: torch.ops.aten.bucketize.Scalar(1, m),
    # index ops (index.h) without a Meta kernel; out= forms given a meta out
    "aten::nonzero": lambda: torch.nonzero(m),
    "aten::nonzero.out": lambda: torch.nonzero(torch.ones(3), out=torch.empty(0, dtype=torch.long, device="meta")),
    "aten::masked_select": lambda: torch.masked_select(m, m > 0),
    "aten::masked_select.out": lambda: torch.masked_select(torch.ones(3), torch.ones(3) > 0,
                                                           out=torch.empty(0, device="meta")),
    "aten::take": lambda: torch.take(m, torch.zeros(1, dtype=torch.long, device="meta")),
    "aten::take.out": lambda: torch.take(torch.ones(3), torch.zeros(1, dtype=torch.long),
                                         out=torch.empty(0, device="meta")),
    "aten::bincount": lambda: torch.bincount(torch.zeros(3, dtype=torch.long, device="meta")),
    "aten::histc": lambda: torch.histc(m),
    "aten::histc.out": lambda: torch.histc(torch.ones(3), out=torch.empty(0, device="meta")),
    "aten::histogram.bin_ct": lambda: torch.histogram(m),
    "aten::histogram.bin_ct_out": lambda: torch.histogram(torch.ones(3), 4, out=(torch.empty(4, device="meta"),
                                                                                 torch.empty(5))),
    "aten::histogram.bins_tensor": lambda: torch.histogram(m, torch.arange(5., device="meta")),
    "aten::histogram.bins_tensor_out": lambda: torch.histogram(torch.ones(3), torch.arange(5.),
                                                               out=(torch.empty(4, device="meta"), torch.empty(5))),
    # linear algebra (src/ops/linalg): the legacy cholesky has no Meta kernel
    "aten::cholesky": lambda: torch.cholesky(torch.empty(3, 3, device="meta")),
    "aten::cholesky.out": lambda: torch.cholesky(torch.ones(3, 3), out=torch.empty(0, device="meta")),
    # not a meta kernel: angle's out= on the CPU given a meta input asks the CPU backend to resize its out
    "aten::_resize_output_": lambda: torch.angle(m, out=torch.zeros(5)),
    # h6-la: the linear algebra ops without a Meta kernel (their out= forms given meta tensors)
    "aten::cholesky_inverse": lambda: torch.cholesky_inverse(_m33),
    "aten::cholesky_inverse.out": lambda: torch.cholesky_inverse(_m33, out=_m33),
    "aten::linalg_solve_triangular": lambda: torch.linalg.solve_triangular(_m33, _m33, upper=True),
    "aten::linalg_solve_triangular.out": lambda: torch.linalg.solve_triangular(_m33, _m33, upper=True, out=_m33),
    "aten::geqrf": lambda: torch.geqrf(_m33),
    "aten::geqrf.a": lambda: torch.geqrf(_m33, out=(_m33, m)),
    "aten::linalg_householder_product": lambda: torch.linalg.householder_product(_m33, m),
    "aten::linalg_householder_product.out": lambda: torch.linalg.householder_product(_m33, m, out=_m33),
    "aten::ormqr": lambda: torch.ormqr(_m33, m, _m33),
    "aten::ormqr.out": lambda: torch.ormqr(_m33, m, _m33, out=_m33),
    "aten::linalg_eig": lambda: torch.linalg.eig(_m33),
    "aten::linalg_eig.out": lambda: torch.linalg.eig(_m33, out=(_c33, _c33)),
    "aten::linalg_lstsq.out": lambda: torch.linalg.lstsq(_m33, _m33),
    "aten::linalg_matrix_exp": lambda: torch.linalg.matrix_exp(_m33),
    # h7-lameta: cholesky_solve runs its checks on meta, then dispatches its helper
    "aten::_cholesky_solve_helper": lambda: torch.cholesky_solve(_m33, _m33),
    # h7-pwmeta: logcumsumexp's out= form dispatches the out= overload of its helper
    "aten::_logcumsumexp.out": lambda: torch.logcumsumexp(m, 0, out=torch.empty(3, device="meta")),
    # h8-mmmeta: tensordot's out= form (inner's out= form dispatches it) has no Meta kernel
    "aten::tensordot.out": lambda: torch.tensordot(_m33, _m33, 1, out=_m33),
}


def split_lines(s):
    lines = s.split("\n")
    return [l + ("\n" if i < len(lines) - 1 else "") for i, l in enumerate(lines)]


def c_literal(l):
    return '"%s"' % l.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n")


def main():
    rows = []
    for op, f in CASES.items():
        try:
            f()
        except NotImplementedError as e:
            rows.append((op, str(e)))
        else:
            sys.exit("%s runs on meta in this torch" % op)
    print("/* Generated by scripts/gen_meta_messages.py from torch %s: do not edit. torch's dispatcher error for ops"
          % torch.__version__)
    print("   without a Meta kernel, word for word (it names torch's backends and source lines). */")
    print('#include "core/meta_messages.h"\n')
    # the messages share most lines (torch's fallback registrations): each distinct line is stored once
    pool, index = [], {}
    for _, msg in rows:
        for l in split_lines(msg):
            if l not in index:
                index[l] = len(pool)
                pool.append(l)
    print("static const char *const pool[] = {")
    for l in pool:
        print("    %s," % c_literal(l))
    print("};\n")
    for i, (op, msg) in enumerate(rows):
        ids = [index[l] for l in split_lines(msg)] + [-1]
        print("static const short msg%d[] = {%s};" % (i, ", ".join(map(str, ids))))
    print("\nconst ct_meta_message ct__meta_messages[] = {")
    for i, (op, msg) in enumerate(rows):
        print('    {"%s", pool, msg%d},' % (op, i))
    print("    {0, 0, 0},\n};")


main()
