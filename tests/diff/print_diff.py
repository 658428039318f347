#!/usr/bin/python3
"""Differential printing test: every repr ctorch writes must equal torch 1.13's, character for character.

Builds tests/diff/print_gen.c against $CTORCH_BUILD/libctorch.a (default: build), lets it print
random tensors with random print options (one spec line each, see print_gen.c), rebuilds each tensor
in torch from its exact bytes and geometry, and compares repr(t) (or the exception) with ctorch's.

    CTORCH_BUILD=build /usr/bin/python3 tests/diff/print_diff.py [--seed N] [--cases N]
"""
import argparse
import math
import os
import random
import subprocess
import sys
import tempfile

import torch

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def build_generator(build_dir, out_dir):
    exe = os.path.join(out_dir, "print_gen")
    lib = os.path.join(build_dir, "libctorch.a")
    if not os.path.exists(lib):
        sys.exit(f"print_diff: {lib} not found; run `make build` first")
    cmd = [os.environ.get("CC", "cc"), "-std=c11", "-O1", "-D_GNU_SOURCE", "-Wall", "-Wextra", "-Werror",
           "-I", os.path.join(ROOT, "include"), "-I", os.path.join(ROOT, "src"),
           os.path.join(ROOT, "tests", "diff", "print_gen.c"), lib,
           # the static library's own dependencies (CMakeLists.txt's CT_LINK_DEPS: SLEEF, dlopen for the BLAS
           # module and libgomp)
           "-lsleef", "-ldl", "-lm", "-lpthread", "-lrt", "-o", exe]
    subprocess.run(cmd, check=True)
    return exe


def ints(field):
    return [] if field == "-" else [int(x) for x in field.split(",")]


def rebuild(dtype_name, device, shape, strides, offset, data_hex):
    dtype = getattr(torch, dtype_name.split(".")[1])
    numel = math.prod(shape)
    need = offset + 1 + sum((s - 1) * st for s, st in zip(shape, strides)) if numel else 0
    if device == "meta":
        base = torch.empty(need, dtype=dtype, device="meta")
    elif data_hex == "-":
        base = torch.empty(0, dtype=dtype)
    else:
        base = torch.frombuffer(bytearray.fromhex(data_hex), dtype=torch.uint8).view(dtype)
    return base.as_strided(shape, strides, offset)


def torch_repr(t):
    try:
        return "OK:" + repr(t)
    except Exception as e:  # the same failure must come out of ctorch
        return f"ERR:{type(e).__name__}:{e}"


def decode(result):
    kind, _, rest = result.partition(":")
    if kind == "ERR":
        name, _, msg = rest.partition(":")
        return f"ERR:{name}:" + (bytes.fromhex(msg).decode() if msg != "-" else "")
    return "OK:" + (bytes.fromhex(rest).decode() if rest != "-" else "")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--seed", type=int, default=int(os.environ.get("CTORCH_SEED", random.randrange(1 << 32))))
    ap.add_argument("--cases", type=int, default=3000)
    ap.add_argument("--show", type=int, default=5, help="mismatches to print")
    args = ap.parse_args()
    build_dir = os.environ.get("CTORCH_BUILD", "build")
    print(f"print_diff: seed {args.seed}, {args.cases} cases (replay with --seed {args.seed})")
    with tempfile.TemporaryDirectory() as tmp:
        exe = build_generator(build_dir, tmp)
        lines = subprocess.run([exe, str(args.seed), str(args.cases)], check=True, capture_output=True,
                               text=True).stdout.splitlines()
    if len(lines) != args.cases:
        sys.exit(f"print_diff: generator wrote {len(lines)} cases, expected {args.cases}")
    failed = 0
    for line in lines:
        (cid, prec, thr, edge, lw, sci, default, dtype, device, rg, shape, strides, offset, data,
         result) = line.split("\t")
        torch.set_printoptions(precision=int(prec), threshold=math.inf if thr == "inf" else int(thr),
                               edgeitems=int(edge), linewidth=int(lw),
                               sci_mode={"0": None, "1": True, "2": False}[sci])
        torch.set_default_dtype(getattr(torch, default.split(".")[1]))
        t = rebuild(dtype, device, ints(shape), ints(strides), int(offset), data)
        if rg == "1":
            t.requires_grad_(True)
        want, got = torch_repr(t), decode(result)
        if want != got:
            failed += 1
            if failed <= args.show:
                print(f"--- case {cid}: {dtype} shape ({shape}) strides ({strides}) offset {offset} device {device} "
                      f"precision {prec} threshold {thr} edgeitems {edge} linewidth {lw} sci_mode {sci} "
                      f"default {default} requires_grad {rg}")
                print("torch:  " + repr(want))
                print("ctorch: " + repr(got))
    torch.set_printoptions(profile="default")
    torch.set_default_dtype(torch.float32)
    print(f"print_diff: {len(lines) - failed}/{len(lines)} identical" + (f", {failed} differ" if failed else ""))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
