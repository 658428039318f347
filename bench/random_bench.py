#!/usr/bin/python3
"""rand / randn 16M elements: ctorch (build/bench/bench_random, at 1 and 2 OpenMP threads) against
torch 1.13; prints the best seconds of several rounds and the speedup torch_time / ctorch_time.
Rounds alternate between torch and ctorch so both see the same machine load; the load average is
printed because on a shared machine the 2-thread numbers need an idle second core.

Run: CTORCH_BUILD=build /usr/bin/python3 bench/random_bench.py [rounds]
"""
import os
import subprocess
import sys
import time

import torch

N = 16 << 20
REPS = 3  # per round


def torch_times():
    torch.set_num_threads(1)  # PyTorch's CPU generators are serial: one thread is its real speed
    torch.manual_seed(0)
    cases = {"rand_float32": lambda: torch.rand(N), "randn_float32": lambda: torch.randn(N),
             "randn_float64": lambda: torch.randn(N, dtype=torch.float64)}
    out = {}
    for name, f in cases.items():
        best = 1e30
        for _ in range(REPS):
            t0 = time.perf_counter()
            f()
            best = min(best, time.perf_counter() - t0)
        out[name] = best
    return out


def ctorch_times(tool, threads):
    env = dict(os.environ, OMP_NUM_THREADS=str(threads))
    p = subprocess.run([tool, str(N), str(REPS)], capture_output=True, text=True, env=env, check=True)
    return {line.split()[0]: float(line.split()[1]) for line in p.stdout.splitlines()}


def best(a, b):
    return {k: min(a[k], b[k]) for k in a} if a else b


def main():
    build = os.environ.get("CTORCH_BUILD", "build")
    tool = os.path.join(build, "bench", "bench_random")
    if not os.path.exists(tool):
        sys.exit(f"{tool} not found: build first (make build)")
    rounds = int(sys.argv[1]) if len(sys.argv) > 1 else 4
    theirs, ours = {}, {1: {}, 2: {}}
    for _ in range(rounds):
        theirs = best(theirs, torch_times())
        for t in (1, 2):
            ours[t] = best(ours[t], ctorch_times(tool, t))
    print(f"load average {os.getloadavg()[0]:.2f} on {os.cpu_count()} cpus; best of {rounds * REPS} runs each")
    print(f"{'op (16M elements)':<18} {'torch s':>9} {'ctorch 1T s':>12} {'ratio':>7} {'ctorch 2T s':>12} {'ratio':>7}")
    for name, t in theirs.items():
        o1, o2 = ours[1][name], ours[2][name]
        print(f"{name:<18} {t:9.4f} {o1:12.4f} {t / o1:6.2f}x {o2:12.4f} {t / o2:6.2f}x")


if __name__ == "__main__":
    main()
