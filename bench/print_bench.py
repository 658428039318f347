#!/usr/bin/python3
"""Printing speed against torch 1.13: repr of arange(n, dtype=float32).reshape(r, c) / 7 for a
1000x1000 tensor (summarized) and a 100x100 one printed in full (profile "full"), the same tensors bench/bench_print.c prints.
Checks the strings are identical, then prints the time per repr and the ratio torch / ctorch.

    CTORCH_BUILD=build /usr/bin/python3 bench/print_bench.py
"""
import os
import subprocess
import sys
import timeit

import torch


def main():
    exe = os.path.join(os.environ.get("CTORCH_BUILD", "build"), "bench", "bench_print")
    tensors = {
        "print_1000x1000_summarized": torch.arange(1000 * 1000, dtype=torch.float32).reshape(1000, 1000) / 7,
        "print_100x100_full": torch.arange(100 * 100, dtype=torch.float32).reshape(100, 100) / 7,
    }
    ours = subprocess.run([exe, "--print"], check=True, capture_output=True, text=True).stdout
    theirs = repr(tensors["print_1000x1000_summarized"]) + "\n"
    torch.set_printoptions(profile="full")
    theirs += repr(tensors["print_100x100_full"]) + "\n"
    torch.set_printoptions(profile="default")
    if ours != theirs:
        sys.exit("print_bench: ctorch's repr differs from torch's")
    times = {}
    for line in subprocess.run([exe], check=True, capture_output=True, text=True).stdout.splitlines():
        name, us = line.split()
        times[name] = float(us)
    print(f"{'case':30} {'torch us':>10} {'ctorch us':>10} {'torch/ctorch':>13}")
    for name, t in tensors.items():
        n = 200 if "summarized" in name else 5
        torch.set_printoptions(profile="default" if "summarized" in name else "full")
        torch_us = min(timeit.repeat(lambda: repr(t), number=n, repeat=5)) / n * 1e6
        print(f"{name:30} {torch_us:10.1f} {times[name]:10.1f} {torch_us / times[name]:12.1f}x")
    torch.set_printoptions(profile="default")


if __name__ == "__main__":
    main()
