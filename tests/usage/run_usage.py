#!/usr/bin/env python3
"""The usage programs (k-means, standardise, softmax, EMA; each in C and C++) built against an INSTALLED
ctorch, once through `pkg-config --cflags --libs ctorch` and once through CMake's find_package(ctorch),
run, and compared with the same computation in torch 1.13.

Usage: /usr/bin/python3 tests/usage/run_usage.py BUILD_DIR       (installs BUILD_DIR into a temporary prefix)
       /usr/bin/python3 tests/usage/run_usage.py --prefix PREFIX   (an existing install)

Each program prints sections `name =` followed by repr(tensor) at precision 8. A section is read back
into a tensor and must have torch's dtype and shape, and values equal to torch's (integers and bools
exactly, floats within torch.testing.assert_close's default tolerances for the dtype). The C and the C++
program of one computation must print exactly the same text."""
import os
import re
import shutil
import subprocess
import sys
import tempfile

import torch

HERE = os.path.dirname(os.path.abspath(__file__))
PROGRAMS = ["kmeans", "standardize", "softmax", "ema"]


# ---- the same computations in torch (the scripts in the programs' header comments) ----
def ref_kmeans():
    torch.manual_seed(0)
    centers = torch.tensor([[0., 0.], [2., 2.], [-2., 2.]])
    x = (torch.randn(3, 10, 2) + centers.unsqueeze(1)).reshape(30, 2)
    c = x.view(3, 10, 2)[:, 0]
    d = ((x.unsqueeze(1) - c.unsqueeze(0)) ** 2).sum(2)
    labels = d.argmin(1)
    # What a torch user would write without the one-hot trick: boolean masks per cluster.
    counts = torch.bincount(labels, minlength=3).float()
    centroids = torch.stack([x[labels == j].mean(0) for j in range(3)])
    return {"labels": labels, "counts": counts, "centroids": centroids, "inertia": d.amin(1).sum()}


def ref_standardize():
    torch.manual_seed(0)
    x = torch.randn(8, 4) * 3 + 1
    z = (x - x.mean(0)) / x.std(0)
    return {"z": z, "z_mean": z.mean(0), "z_std": z.std(0)}


def ref_softmax():
    torch.manual_seed(0)
    logits = torch.randn(4, 5) * 2
    p = torch.softmax(logits, 1)
    return {"p": p, "p_sum": p.sum(1), "p_argmax": p.argmax(1)}


def ref_ema():
    torch.manual_seed(0)
    ema = torch.zeros(3)
    for step in range(20):
        x = torch.randn(3) + 0.1 * step
        ema = 0.9 * ema + 0.1 * x
    return {"ema": ema, "ema_corrected": ema / (1 - 0.9 ** 20)}


REFERENCES = {"kmeans": ref_kmeans, "standardize": ref_standardize, "softmax": ref_softmax, "ema": ref_ema}


def sections(text):
    """{'name': 'repr text'} from the `name =` headers of a program's output."""
    out, name, lines = {}, None, []
    for line in text.splitlines():
        m = re.fullmatch(r"(\w+) =", line)
        if m:
            if name:
                out[name] = "\n".join(lines).strip()
            name, lines = m.group(1), []
        else:
            lines.append(line)
    if name:
        out[name] = "\n".join(lines).strip()
    return out


def parse_repr(text):
    return eval(text, {"__builtins__": {}}, {"tensor": torch.tensor, "torch": torch,
                                             "inf": float("inf"), "nan": float("nan")})


def compare(label, output, expected):
    got = sections(output)
    if set(got) != set(expected):
        raise AssertionError(f"{label}: sections {sorted(got)}, expected {sorted(expected)}")
    for name, want in expected.items():
        t = parse_repr(got[name])
        if t.dtype != want.dtype or t.shape != want.shape:
            raise AssertionError(f"{label}: {name}: {t.dtype} {tuple(t.shape)}, torch gives "
                                 f"{want.dtype} {tuple(want.shape)}")
        torch.testing.assert_close(t, want, msg=lambda m: f"{label}: {name}: {m}\n{got[name]}\n{want}")


def run(cmd, **kw):
    r = subprocess.run(cmd, capture_output=True, text=True, timeout=600, **kw)
    if r.returncode != 0:
        raise RuntimeError(f"{' '.join(cmd)} exited {r.returncode}\n{r.stdout}{r.stderr}")
    return r.stdout


def main():
    args = sys.argv[1:]
    if len(args) not in (1, 2) or (len(args) == 2 and args[0] != "--prefix"):
        sys.exit(__doc__)
    work = tempfile.mkdtemp(prefix="ctorch-usage-")
    try:
        if len(args) == 2:
            prefix = os.path.abspath(args[1])
        else:
            prefix = os.path.join(work, "prefix")
            run(["cmake", "--install", os.path.abspath(args[0]), "--prefix", prefix])
        libdir = os.path.dirname(next(os.path.join(d, f) for d, _, fs in os.walk(prefix)
                                      for f in fs if f == "libctorch.so"))
        exes = {}  # (way, program, language) -> path

        # pkg-config, as the README tells a user to build.
        env = dict(os.environ, PKG_CONFIG_PATH=os.path.join(libdir, "pkgconfig"))
        flags = run(["pkg-config", "--cflags", "--libs", "ctorch"], env=env).split()
        pc_dir = os.path.join(work, "pkgconfig-build")
        os.makedirs(pc_dir)
        for prog in PROGRAMS:
            for lang, compiler, std in (("c", os.environ.get("CC", "cc"), "-std=c11"),
                                        ("cpp", os.environ.get("CXX", "c++"), "-std=c++17")):
                exe = os.path.join(pc_dir, f"{prog}_{lang}")
                run([compiler, std, "-Wall", "-Wextra", "-Wpedantic", "-Werror",
                     os.path.join(HERE, f"{prog}.{lang}"), "-o", exe] + flags + ["-lm"])
                exes[("pkg-config", prog, lang)] = exe

        # CMake, find_package(ctorch) and the imported target ctorch::ctorch.
        cm_dir = os.path.join(work, "cmake-build")
        run(["cmake", "-S", HERE, "-B", cm_dir, f"-DCMAKE_PREFIX_PATH={prefix}", "-DCMAKE_BUILD_TYPE=Release"])
        run(["cmake", "--build", cm_dir, "-j", "2"])
        for prog in PROGRAMS:
            for lang in ("c", "cpp"):
                exes[("cmake", prog, lang)] = os.path.join(cm_dir, f"{prog}_{lang}")

        run_env = dict(os.environ)
        run_env.pop("LD_LIBRARY_PATH", None)  # the programs find the library through the .pc's rpath / CMake's
        passed = failed = 0
        for prog in PROGRAMS:
            expected = REFERENCES[prog]()
            outputs = {}
            for way in ("pkg-config", "cmake"):
                for lang in ("c", "cpp"):
                    label = f"{prog}.{lang} ({way})"
                    try:
                        out = run([exes[(way, prog, lang)]], env=run_env)
                        compare(label, out, expected)
                        outputs[(way, lang)] = out
                        print(f"ok      {label}")
                        passed += 1
                    except Exception as e:  # report every program, then fail
                        print(f"FAILED  {label}: {e}")
                        failed += 1
            texts = set(outputs.values())
            if len(texts) > 1:
                print(f"FAILED  {prog}: the C and C++ programs print different text")
                failed += 1
        print(f"usage: {passed} passed, {failed} failed")
        return 1 if failed else 0
    finally:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
