"""Entries for errors whose text or kind is easy to get subtly wrong: torch's dispatcher message for ops
without a Meta kernel (word for word, every backend line), bernoulli_'s expand message (the tensor's type
as Python prints it), and manual_seed's exception class for each kind of bad float seed."""
import numpy as np
import torch

import ctorch as C
import ops_reduce
import ops_scan
import ops_sort
from harness import A, Op

_DTYPES = [torch.float32, torch.float64, torch.int64, torch.int32, torch.bool, torch.complex64, torch.bfloat16,
           torch.float16, torch.uint8]


def gen_meta(g):
    """Shapes with something to scan: torch refuses those (empty or 0-dim meta scans just give geometry,
    which ops_scan covers)."""
    shape = g.choice([(3,), (2, 3), (1, 4, 2)])
    return A(shape, g.choice(_DTYPES), g.choice([0, -1]))


def _meta_case(lib, op):
    def run(shape, dtype, dim):
        empty = torch.empty if lib is torch else C.empty
        m = empty(shape, dtype=dtype, device="meta")
        if op == "item":
            return (lib.item if lib is C else lambda t: t.item())(empty((), dtype=dtype, device="meta"))
        if op == "equal":
            return lib.equal(m, m)
        if op in ("var", "std"):
            if lib is torch:
                return getattr(torch, op)(m, dim, out=torch.empty(()))
            out = C.empty(())
            C.check(C.lib().fn("ct_%s_out" % op)(out, m, ops_reduce.vopts(dim)))
            return out
        if op == "count_nonzero":  # no Meta kernel in torch 1.13 (every shape)
            if lib is torch:
                return torch.count_nonzero(m, dim)
            return C.own(C.lib().fn("ct_count_nonzero")(m, ops_reduce.ropts(dim)))
        if lib is torch:
            return getattr(torch, op)(m, dim)
        return (ops_scan.ct_lcse if op == "logcumsumexp" else ops_scan.ct_ext(op))(m, dim)
    return run


def gen_bernoulli_expand(g):
    pd = g.choice(_DTYPES[:2] + [torch.bfloat16, torch.float16, torch.int64, torch.bool, torch.complex64])
    return A(g.choice([torch.float32, torch.float64, torch.bfloat16, torch.int32]), pd,
             g.choice([(3,), ()]), g.choice([(2, 3), (1, 1, 3), (4, 2, 3)]))


def _bern_torch(sdt, pdt, sshape, pshape):
    return torch.zeros(sshape, dtype=sdt).bernoulli_(torch.full(pshape, 0.5).to(pdt))


def _bern_ct(sdt, pdt, sshape, pshape):
    x = C.zeros(sshape, dtype=sdt)
    C.check(C.lib().ct_bernoulli_tensor_(x, C.to(C.full(pshape, 0.5), pdt), None))
    return x


def gen_bernoulli_meta(g):
    """p on the meta device: torch's meta fallback refuses an in-place op on real data; a meta self checks
    nothing (shapes that do not broadcast, any dtype, any p)."""
    sdev, pdev = g.choice([("cpu", "meta"), ("meta", "cpu"), ("meta", "meta")])
    return A(sdev, pdev, g.choice([(3,), (2, 3), (0,)]), g.choice([(), (3,), (5,)]),
             g.choice([torch.float32, torch.bool, torch.complex64, torch.int8]), g.choice([0.5, 1.5, -1.0]))


def _bern_meta(lib):
    def run(sdev, pdev, sshape, pshape, sdt, p):
        if lib is torch:
            x = torch.zeros(sshape, device=sdev, dtype=sdt)
            return x.bernoulli_(torch.full(pshape, p, device=pdev)) if pshape != (5,) else x.bernoulli_(p)
        x = C.zeros(sshape, device=sdev, dtype=sdt)
        if pshape == (5,):  # the scalar form
            C.check(C.lib().ct_bernoulli_(x, p, None))
        else:
            C.check(C.lib().ct_bernoulli_tensor_(x, C.full(pshape, p, device=pdev), None))
        return x
    return run


def gen_angle_meta(g):
    return A(g.choice([torch.float32, torch.complex64, torch.int64, torch.float64]), g.choice(["meta", "cpu"]),
             g.choice(["meta", "cpu"]), g.choice([(3,), (2, 2), ()]), g.choice([(5,), (3,), ()]))


def _angle_meta(lib):
    """angle's out= checks the out's device itself; a meta input with a CPU out meets torch's dispatcher."""
    def run(dt, idev, odev, ishape, oshape):
        if lib is torch:
            out = torch.zeros(oshape, device=odev)
            torch.angle(torch.ones(ishape, dtype=dt, device=idev), out=out)
            return out
        out = C.zeros(oshape, device=odev)
        C.check(C.lib().ct_angle_out(out, C.ones(ishape, dtype=dt, device=idev)))
        return out
    return run


def gen_pow_scalar_out(g):
    return A(g.choice([2, 1, 0.5]), g.choice(["meta", "cpu"]), g.choice(["meta", "cpu"]), g.choice([(3,), (2, 2)]),
             g.choice([(5,), (3,), ()]))


def _pow_scalar_out(lib):
    """pow(Scalar, Tensor, out=): torch's structured resize_out checks the out's device before resizing it."""
    def run(base, edev, odev, eshape, oshape):
        if lib is torch:
            out = torch.zeros(oshape, device=odev)
            torch.pow(base, torch.ones(eshape, device=edev), out=out)
            return out
        out = C.zeros(oshape, device=odev)
        C.check(C.lib().ct_pow_out(out, C.wrapped_scalar(base), C.ones(eshape, device=edev)))
        return out
    return run


def gen_nan_to_num_int_overlap(g):
    return A(g.choice([torch.int64, torch.int32, torch.uint8]), g.choice([(0, 3), (2, 6), (1, 4), (3, 6)]),
             g.choice([(0, 3), (3, 6), (2, 5)]))


def _nan_to_num_int_overlap(lib):
    """nan_to_num of an integer tensor into an out= view of the same storage (one element shorter, so it is
    resized): torch resizes, then its copy_ refuses a partial overlap; ctorch refuses first (its out stays
    as it was), so the base tensor is compared, not the out."""
    def run(dt, src, dst):
        if lib is torch:
            a = torch.arange(6).to(dt)
            torch.nan_to_num(a[src[0]:src[1]], out=a[dst[0]:dst[1] - 1])
            return a
        a = C.to(C.arange_end(6), dt)
        out = C.slice(a, 0, dst[0], dst[1] - 1, 1)
        C.check(C.lib().ct_nan_to_num_out(out, C.slice(a, 0, src[0], src[1], 1), None))
        return a
    return run


def gen_over64(g):
    return A(g.choice([65, 70]), g.choice(["max", "min", "aminmax", "norm2"]), g.choice([0, -1]))


def _over64(lib):
    """Reductions along a dim of a tensor of more than 64 dims: torch's dim bitset refuses them."""
    def run(nd, op, dim):
        if lib is torch:
            t = torch.ones([1] * nd)
            if op == "aminmax":
                return torch.aminmax(t, dim=dim)[0]
            if op == "norm2":
                return torch.norm(t, dim=(0, 1))
            return getattr(torch, op)(t, dim)[0]
        t = C.ones([1] * nd)
        L = C.lib()
        if op == "norm2":
            return C.own(L.ct_norm(t, ops_reduce.nopts("fro", (0, 1))))
        a, b = C.empty(()), C.empty((), dtype=torch.int64 if op != "aminmax" else None)
        if op == "aminmax":
            C.check(L.ct_aminmax_out(a, b, t, ops_reduce.ropts(dim=dim)))
        else:
            C.check(L.fn("ct_%s_dim_out" % op)(a, b, t, dim, None))
        return a
    return run


def gen_seed(g):
    return A(g.choice([float("inf"), float("-inf"), float("nan"), 2.0 ** 64, -2.0 ** 63 - 4096.0, 1.7, -1.0]))


def _seed_torch(v):
    # torch.manual_seed(seed) is default_generator.manual_seed(int(seed)) (a fresh generator here)
    return torch.Generator().manual_seed(int(v)).initial_seed()


def _seed_ct(v):
    L = C.lib()
    g = L.ct_generator_create(C.device_arg("cpu"))
    try:
        C.check(L.ct_generator_manual_seed_scalar(g, C.ct_scalar.of(v)))
        return L.ct_generator_initial_seed(g)
    finally:
        L.ct_generator_release(g)


# Sizes whose product passes 2^63 - 1 beside a 0: no elements, and torch 1.13 makes such tensors (c10
# multiplies sizes in 64 unsigned bits with a sticky overflow). What the ops do with them (results or
# messages) is where wrapped int64 arithmetic shows; fuzz input F7 found flatten's.
_HUGE = 5787354564543905791  # 3 * _HUGE < 2^64, > 2^63 - 1

_HUGE_CASES = ["empty", "empty_overflow", "empty_strided_numel", "clone", "flip", "cumsum", "flatten_wrap",
               "flatten_all", "split", "repeat_symint", "cat_wrap", "reshape", "permute_contig", "mean0", "mean2",
               "sort0", "index_select", "view_infer", "view_u64", "unflatten_u64", "reshape_symint_stride",
               "reshape_symint_numel", "view_of_symint_numel", "split_piece_sum", "unsqueeze_symint",
               "flatten_symint"]
_BIG = 6908528427954061507  # 9 * _BIG passes 2^64; 2 * _BIG wraps below -2^62 (SymInt's own range)


def gen_huge(g):
    return A(g.choice(_HUGE_CASES), g.choice([torch.float32, torch.int64, torch.bool]))


def _huge(lib):
    """Each case on a (_HUGE, 3, 0) tensor (or creating one); torch and ctorch side by side, so that a case
    reads the same in both."""
    def run(case, dt):
        t = lib.zeros((_HUGE, 3, 0), dtype=dt)
        ct = lib is C
        if case == "empty":
            return lib.empty((3, _HUGE, 0), dtype=dt)
        if case == "empty_overflow":
            return lib.empty((1 << 62, 5, 0), dtype=dt)
        if case == "empty_strided_numel":
            return lib.empty_strided((1 << 62, 5, 1), (0, 0, 0), dtype=dt)
        if case == "clone":
            return lib.clone(t) if ct else t.clone()
        if case == "flip":
            return C._t("ct_flip", t, C._dims([0])) if ct else t.flip(0)
        if case == "cumsum":
            return C._t("ct_cumsum", t, 0, None) if ct else torch.cumsum(t, 0)
        if case == "flatten_wrap":
            return lib.flatten(t, 0, 1) if ct else t.flatten(0, 1)
        if case == "flatten_all":
            return lib.flatten(t) if ct else t.flatten()
        if case == "split":
            return (lib.split(t, 1 << 62, 0) if ct else t.split(1 << 62, 0))[-1]
        if case == "repeat_symint":
            x = lib.broadcast_to(lib.zeros((1,), dtype=dt), (_HUGE,)) if ct else torch.zeros(1, dtype=dt).expand(_HUGE)
            return C._t("ct_repeat", x, C.shape_arg([2]).s) if ct else x.repeat(2)
        if case == "cat_wrap":
            return C._t("ct_cat", C.tensors_arg([t, t]).s, 0) if ct else torch.cat([t, t], 0)
        if case == "reshape":
            return lib.reshape(t, (3, _HUGE, 0)) if ct else t.reshape(3, _HUGE, 0)
        if case == "permute_contig":
            return lib.contiguous(lib.permute(t, (2, 0, 1))) if ct else t.permute(2, 0, 1).contiguous()
        if case in ("mean0", "mean2"):
            if dt != torch.float32:
                t = lib.zeros((_HUGE, 3, 0)) if ct else torch.zeros(_HUGE, 3, 0)
            d = 0 if case == "mean0" else 2
            return C._t("ct_mean", t, ops_reduce.ropts(d)) if ct else t.mean(d)
        if case == "sort0":
            return ops_sort.c_sort(t, 0)[0] if ct else t.sort(0)[0]
        if case == "index_select":
            i = C.tensor_from_data(np.array([0, 2]), torch.int64) if ct else torch.tensor([0, 2])
            return C._t("ct_index_select", t, 1, i) if ct else t.index_select(1, i)
        z = lib.zeros((0,), dtype=dt)
        if case == "view_u64":
            return lib.view(z, (9, _BIG, 0, 2)) if ct else z.view(9, _BIG, 0, 2)
        if case == "unflatten_u64":
            return lib.unflatten(z, 0, (9, _BIG, 0, 2)) if ct else z.unflatten(0, (9, _BIG, 0, 2))
        if case == "reshape_symint_stride":
            return lib.reshape(z, (9, _BIG, 0, 2)) if ct else z.reshape(9, _BIG, 0, 2)
        v = lib.view(z, (3, _BIG // 2, 0)) if ct else z.view(3, _BIG // 2, 0)
        if case == "reshape_symint_numel":
            return lib.reshape(v, (_BIG // 2, 3, 0)) if ct else v.reshape(_BIG // 2, 3, 0)
        if case == "view_of_symint_numel":
            return lib.view(v, (_BIG // 2, 3, 0)) if ct else v.view(_BIG // 2, 3, 0)
        if case == "unsqueeze_symint":
            return C._t("ct_unsqueeze", v, 0) if ct else v.unsqueeze(0)
        if case == "flatten_symint":
            return lib.flatten(v, 0, 1) if ct else v.flatten(0, 1)
        if case == "split_piece_sum":  # a view at storage offset 2302842809318020502, summed
            piece = (C.tensor_split(v, 3, 1) if ct else torch.tensor_split(v, 3, 1))[2]
            return C._t("ct_sum", piece, None) if ct else piece.sum()
        return lib.view(t, (-1,)) if ct else t.view(-1)
    return run


OPS = [
    Op("meta_item", gen_meta, torch=_meta_case(torch, "item"), ct=_meta_case(C, "item"), values=False, weight=0.2, min_cases=20),
    Op("meta_equal", gen_meta, torch=_meta_case(torch, "equal"), ct=_meta_case(C, "equal"), values=False, weight=0.2, min_cases=20),
    Op("meta_scans", gen_meta, torch=_meta_case(torch, "logcumsumexp"), ct=_meta_case(C, "logcumsumexp"), values=False, weight=0.2,
       min_cases=20),
    Op("meta_cummax", gen_meta, torch=_meta_case(torch, "cummax"), ct=_meta_case(C, "cummax"), values=False, weight=0.2,
       min_cases=20),
    Op("meta_cummin", gen_meta, torch=_meta_case(torch, "cummin"), ct=_meta_case(C, "cummin"), values=False, weight=0.2,
       min_cases=20),
    Op("meta_count_nonzero", gen_meta, torch=_meta_case(torch, "count_nonzero"), ct=_meta_case(C, "count_nonzero"),
       values=False, weight=0.2, min_cases=10),
    Op("meta_var_out", gen_meta, torch=_meta_case(torch, "var"), ct=_meta_case(C, "var"), values=False, weight=0.2,
       min_cases=10),
    Op("meta_std_out", gen_meta, torch=_meta_case(torch, "std"), ct=_meta_case(C, "std"), values=False, weight=0.2,
       min_cases=10),
    Op("bernoulli_expand", gen_bernoulli_expand, torch=_bern_torch, ct=_bern_ct, weight=0.2, min_cases=30),
    Op("bernoulli_meta_p", gen_bernoulli_meta, torch=_bern_meta(torch), ct=_bern_meta(C), values=False, weight=0.2,
       min_cases=20),
    Op("angle_out_meta", gen_angle_meta, torch=_angle_meta(torch), ct=_angle_meta(C), values=False, weight=0.2,
       min_cases=30),
    Op("pow_scalar_out_device", gen_pow_scalar_out, torch=_pow_scalar_out(torch), ct=_pow_scalar_out(C), values=False,
       weight=0.2, min_cases=30),
    Op("nan_to_num_int_overlap", gen_nan_to_num_int_overlap, torch=_nan_to_num_int_overlap(torch),
       ct=_nan_to_num_int_overlap(C), weight=0.2, min_cases=20),
    Op("reduce_over_64_dims", gen_over64, torch=_over64(torch), ct=_over64(C), values=False, weight=0.1, min_cases=10,
       null_check=False),
    Op("manual_seed_float", gen_seed, torch=_seed_torch, ct=_seed_ct, weight=0.1, min_cases=20),
    Op("huge_sizes_beside_zero", gen_huge, torch=_huge(torch), ct=_huge(C), values=False, weight=0.1, min_cases=60,
       null_check=False),
]
