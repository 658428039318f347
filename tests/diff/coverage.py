"""Which public op functions no differential case called: every function that the op headers declare
(after preprocessing, so the ones generated from the headers' op lists count) must have been called
through the bridge during a full run (no --op), unless it is listed in NOT_OPS with the reason. run.py
fails such a run, so an op added to a header without a differential entry is caught."""
import os
import re
import subprocess

import ctorch as C

HEADERS = ["view.h", "create.h", "convert.h", "pointwise.h", "scan.h", "reduce.h"]
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
        elif mine:
            names.update(re.findall(r"\b(ct_[a-z0-9_]+)\s*\(", line))
    return names & set(C.PROTOTYPES)


def uncalled(called):
    """{header: [functions]} declared in HEADERS that no case called (called: names the bridge resolved)."""
    missing = {}
    for h in HEADERS:
        for f in sorted(declared(h) - set(called) - set(NOT_OPS)):
            missing.setdefault(h, []).append(f)
    return missing
