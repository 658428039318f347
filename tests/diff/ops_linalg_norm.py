"""Entries for include/ctorch/linalg_norm.h against torch 1.13 (conventions: ops_linalg.py's docstring)."""
OPS = []
