#!/usr/bin/env python3
"""`make bench`: ctorch against PyTorch/libtorch on this machine, side by side, reported as ratios.

Each pair is run alternately (ctorch, torch, ctorch, torch, ...) and the median ratio is reported, since
clocks on this machine move between runs. Ratios > 1 mean ctorch is faster.
"""
import os
import statistics
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
BUILD = os.environ.get("CTORCH_BUILD", os.path.join(ROOT, "build"))
REPS = int(os.environ.get("BENCH_REPS", "5"))


def run_kv(cmd):
    out = subprocess.run(cmd, check=True, capture_output=True, text=True).stdout
    return {k: float(v) for k, v in (line.split()[:2] for line in out.splitlines() if line.strip())}


def build_libtorch_bench(name):
    src = os.path.join(ROOT, "bench", name + ".cpp")
    exe = os.path.join(BUILD, "bench", name)
    if not os.path.exists(exe) or os.path.getmtime(exe) < os.path.getmtime(src):
        os.makedirs(os.path.dirname(exe), exist_ok=True)
        print(f"building {name} against libtorch (once)...", flush=True)
        subprocess.run(["g++", "-O2", "-std=c++17", "-o", exe, src, "-I/usr/include/torch/csrc/api/include",
                        "-ltorch", "-ltorch_cpu", "-lc10"], check=True)
    return exe


def core():
    ct_exe = os.path.join(BUILD, "bench", "bench_core")
    lt_exe = build_libtorch_bench("libtorch_core")
    ct_ns, lt_ns = [], []
    for _ in range(REPS):
        ct = run_kv([ct_exe])
        lt = run_kv([lt_exe])
        ct_ns.append(ct["view_ns"])
        lt_ns.append(lt["view_ns"])
    ratios = [l / c for c, l in zip(ct_ns, lt_ns)]
    c_med, l_med = statistics.median(ct_ns), statistics.median(lt_ns)
    print(f"core: small view create+release  ctorch {c_med:7.1f} ns  libtorch {l_med:7.1f} ns  "
          f"ratio {statistics.median(ratios):5.2f}x  (target: < 100 ns)")
    # paired: each round runs both, so a round where the machine is slow is slow for both
    pairs = [(run_kv([ct_exe])["add1_ns"], run_kv([lt_exe])["add1_ns"]) for _ in range(max(REPS, 7))]
    ct_add = statistics.median(c for c, _ in pairs)
    lt_add = statistics.median(l for _, l in pairs)
    share = statistics.median(c / l for c, l in pairs)
    print(f"core: x + y on 1-element tensors  ctorch {ct_add:7.1f} ns  libtorch {lt_add:7.1f} ns  "
          f"ctorch takes {share:4.2f} of libtorch's time (median of {len(pairs)} paired runs; target: <= 0.20)")
    for key, n in (("conj1k_ns", "1K"), ("conj1m_ns", "1M")):
        print(f"core: conj() of a {n}-element complex64 tensor  ctorch {ct[key]:7.1f} ns  libtorch {lt[key]:7.1f} ns  "
              f"ratio {lt[key] / ct[key]:5.2f}x  (a view with the conjugate bit: O(1), no copy)")
    ct_bytes = ct["tensor_bytes"] + ct["storage_bytes"]
    lt_bytes = lt["tensor_bytes"] + lt["storage_bytes"]
    print(f"core: bytes of a 2-D tensor + storage  ctorch {ct_bytes:.0f} ({ct['tensor_bytes']:.0f} + "
          f"{ct['storage_bytes']:.0f})  libtorch TensorImpl+StorageImpl {lt_bytes:.0f} ({lt['tensor_bytes']:.0f} + "
          f"{lt['storage_bytes']:.0f})  ratio {ct_bytes / lt_bytes:.2f} (target: <= 0.55)")


SUITES = {"core": core}

# Suites contributed by other areas: standalone scripts run in turn if present.
EXTRA_SCRIPTS = ["pointwise.py", "reduce_bench.py", "print_bench.py", "random_bench.py", "scan_bench.py", "threads_load.py",
                 "join_bench.py", "sort_bench.py",
                 "gather_bench.py", "linalg_bench.py", "matmul_bench.py", "addr_bench.py"]

if __name__ == "__main__":
    wanted = sys.argv[1:] or list(SUITES) + EXTRA_SCRIPTS
    for name in wanted:
        if name in SUITES:
            SUITES[name]()
        else:
            path = os.path.join(ROOT, "bench", name)
            if os.path.exists(path):
                subprocess.run([sys.executable, path], check=True, env=dict(os.environ, CTORCH_BUILD=BUILD))
