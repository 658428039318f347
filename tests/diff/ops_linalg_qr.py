"""Entries for include/ctorch/linalg_qr.h against torch 1.13 (conventions: ops_linalg.py's docstring)."""
OPS = []
