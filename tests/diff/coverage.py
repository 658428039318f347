"""What a full differential run (no --op) must cover, checked by run.py, which fails the run otherwise:

- every function the op headers declare (after preprocessing, so the ones generated from the op table
  count) must have been called through the bridge, unless NOT_OPS lists it with the reason;
- every op of the pointwise op table (include/ctorch/pointwise_ops.h) must have a differential case for
  each of its forms (an op declared by hand: a case named after it), and every pointwise function must
  belong to a table entry, whose torch name must exist in torch.

So an op added to a header or to the table without a differential entry is caught."""
import os
import re
import subprocess

import torch

import ctorch as C

HEADERS = ["view.h", "create.h", "convert.h", "pointwise.h", "scan.h", "reduce.h", "join.h", "index.h", "sort.h", "linalg.h"]
# declared in those headers but not ops with a torch counterpart to compare against
NOT_OPS = {
    "ct_set_num_threads": "a setting (the unit tests and every diff run at 1 and 2 threads use it)",
    "ct_get_num_threads": "a setting",
}
for _f in ("ct_item_double", "ct_item_int64", "ct_item_bool", "ct_item_complex"):
    NOT_OPS[_f] = "a C convenience over ct_item (which the item entries test) that returns one C type; " \
                  "tests/unit/test_convert.c"


def declared(header):
    """The functions declared in include/ctorch/<header> itself (not in the headers it includes)."""
    path = os.path.join(C.HEADER_DIR, header)
    out = subprocess.run(["cc", "-E", "-I", os.path.dirname(C.HEADER_DIR), path],
                         capture_output=True, text=True, check=True).stdout
    mine, names = False, set()
    for line in out.split("\n"):
        m = re.match(r'^# \d+ "([^"]+)"', line)
        if m:
            mine = os.path.basename(m.group(1)) == header
        elif mine:  # prototypes; not the calls in an inline function's body (`x = ct_f(`, `return ct_f(`)
            names.update(m.group(1) for m in re.finditer(r"\b(ct_[a-z0-9_]+)\s*\(", line)
                         if not re.search(r"(?:[=(,!]|\breturn)\s*$", line[:m.start()]))
    return names & set(C.PROTOTYPES)


def uncalled(called):
    """{header: [functions]} declared in HEADERS that no case called (called: names the bridge resolved)."""
    missing = {}
    for h in HEADERS:
        for f in sorted(declared(h) - set(called) - set(NOT_OPS)):
            missing.setdefault(h, []).append(f)
    return missing


# ---- the pointwise op table ----
# The functions of each form of include/ctorch/pointwise_ops.h, as suffixes of ct_<name>.
FORM_SUFFIXES = {"UNARY": ("", "_", "_out"), "UNARY_NO_INPLACE": ("", "_out"), "BINARY": ("", "_", "_out"),
                 "BINARY_NO_INPLACE": ("", "_out"), "ALPHA": ("", "_", "_out")}
_TABLE_SNIPPET = """#include "ctorch/pointwise_ops.h"
#define ROW_OP(name, form, torch, kind) @OP name form torch @
#define ROW_ALIAS(name, form, torch, target) @ALIAS name form torch @
#define ROW_IRREGULAR(name, torch) @IRREGULAR name - torch @
CT_POINTWISE_OPS(ROW_OP, ROW_ALIAS, ROW_IRREGULAR)
"""


def pointwise_table():
    """The table's entries in order, as (entry, name, form, torch name): entry "OP", "ALIAS" or
    "IRREGULAR" (whose form is None)."""
    out = subprocess.run(["cc", "-E", "-P", "-I", os.path.dirname(C.HEADER_DIR), "-x", "c", "-"],
                         input=_TABLE_SNIPPET, capture_output=True, text=True, check=True).stdout
    rows = re.findall(r'@\s*(OP|ALIAS|IRREGULAR)\s+(\w+)\s+(\w+|-)\s+"([^"]*)"\s*@', out)
    return [(e, n, None if f == "-" else f, t) for e, n, f, t in rows]


def table_gaps(case_names):
    """What the table asks of the suite and the headers and does not get, as lines to report:
    forms of table ops without a differential case (case_names: the names of the suite's Op entries),
    pointwise.h functions in no table entry, torch names torch 1.13 lacks."""
    table = pointwise_table()
    cases, gaps = set(case_names), []
    declared_pw = declared("pointwise.h") - set(NOT_OPS)
    in_table = set()
    for _entry, name, form, torch_name in table:
        wanted = [name + s for s in FORM_SUFFIXES[form]] if form else [name]
        missing = [w for w in wanted if w not in cases]
        if missing:
            gaps.append("the op table lists %s, which has no differential case %s" % (name, ", ".join(missing)))
        in_table.update("ct_" + name + s for s in ("", "_", "_out"))
        obj = torch
        for part in torch_name.split(".")[1:]:
            obj = getattr(obj, part, None)
        if not torch_name.startswith("torch.") or obj is None:
            gaps.append("the op table gives %s the torch name %s, which torch does not have" % (name, torch_name))
    for f in sorted(declared_pw - in_table):
        gaps.append("include/ctorch/pointwise.h declares %s, which is in no entry of the op table" % f)
    return gaps
