"""Entries for include/ctorch/linalg_lu.h against torch 1.13 (conventions: ops_linalg.py's docstring)."""
OPS = []
