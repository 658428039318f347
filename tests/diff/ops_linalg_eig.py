"""Entries for include/ctorch/linalg_eig.h against torch 1.13 (conventions: ops_linalg.py's docstring)."""
OPS = []
