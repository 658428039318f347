"""torch with the BLAS configuration ctorch chooses by itself, so that a benchmark compares libraries, not
settings: where ctorch's rule (src/kernels/cpu/blas.h) names an OpenBLAS core type for this CPU,
OPENBLAS_CORETYPE is set to it while torch is imported (torch's OpenBLAS loads with it) and removed again;
ctorch itself runs without any variable. Import this module before torch."""
import os


def cpu_flags():
    try:
        for line in open("/proc/cpuinfo"):
            if line.startswith("flags"):
                return set(line.split(":", 1)[1].split())
    except OSError:
        pass
    return set()


def ctorch_coretype(flags):
    """ct__blas_coretype_choice's rule, for torch's side: the user's setting stands; AVX-512 F/BW/VL/DQ
    picks SkylakeX (Cooperlake with AVX512_BF16); anything else leaves OpenBLAS's own detection."""
    if "OPENBLAS_CORETYPE" in os.environ:
        return None
    if {"avx512f", "avx512bw", "avx512vl", "avx512dq"} <= flags:
        return "Cooperlake" if "avx512_bf16" in flags else "SkylakeX"
    return None


CORE = ctorch_coretype(cpu_flags())
if CORE:
    os.environ["OPENBLAS_CORETYPE"] = CORE
import torch  # noqa: E402,F401

if CORE:
    del os.environ["OPENBLAS_CORETYPE"]
