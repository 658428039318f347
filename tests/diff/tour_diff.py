"""The tour (examples/tour.c, `make run`) against PyTorch 1.13: every `>>> code` block it prints is run
in torch, in order and in one namespace (so in-place changes and the random stream carry over as in the
tour), and torch's output -- the repr of the last expression, or `Kind: message` for an exception --
must be what the tour printed below it. Lines `label: torch.Size([...]), stride (...), storage_offset
N, is_contiguous B` are checked the same way where the label is a torch expression.

  CTORCH_BUILD=build /usr/bin/python3 tests/diff/tour_diff.py

The last line is `tour: N checked, M differ`; the exit status is non-zero when any differ."""
import ast
import os
import re
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(ROOT, "bench"))
import blas_core  # noqa: E402,F401  (torch's OpenBLAS with the core the tour's ctorch picks by itself)
import torch  # noqa: E402

BUILD = os.environ.get("CTORCH_BUILD", os.path.join(ROOT, "build"))

# ctorch has no AssertionError kind: torch raises that one for a CUDA device it was not built with.
KIND_ALIASES = {("AssertionError", "Torch not compiled with CUDA enabled"): "RuntimeError"}
# shape lines whose label is prose: the expression it stands for (_last: the last >>> block's value)
LABELS = {"its layout follows the transposed input": "_last"}
SHAPE_LINE = re.compile(r"^\s*(.+?): (torch\.Size\(.*\), stride .*, storage_offset \d+, is_contiguous \w+)$")


def run_code(code, ns):
    """Runs code in ns: the repr of its last expression (or of the name its last statement assigns), or
    the error as "Kind: message"."""
    tree = ast.parse(code)
    last = tree.body[-1] if tree.body else None
    if isinstance(last, ast.Expr):
        tree.body.pop()
        last = last.value
    elif isinstance(last, ast.Assign) and len(last.targets) == 1 and isinstance(last.targets[0], ast.Name):
        last = ast.Name(last.targets[0].id, ast.Load())  # "x = ...": the tour shows x
    else:
        last = None
    try:
        exec(compile(tree, "<tour>", "exec"), ns)
        if last is None:
            return None
        value = eval(compile(ast.fix_missing_locations(ast.Expression(last)), "<tour>", "eval"), ns)
        ns["_last"] = value
        return repr(value)
    except Exception as e:  # noqa: BLE001 -- the tour shows errors as "Kind: message"
        msg = str(e).split("\n")[0]
        kind = KIND_ALIASES.get((type(e).__name__, msg), type(e).__name__)
        return "%s: %s" % (kind, msg)


def shape_text(t):
    return "%s, stride %s, storage_offset %d, is_contiguous %s" % (
        t.size(), t.stride(), t.storage_offset(), t.is_contiguous())


def main(program=os.path.join(BUILD, "examples", "tour"), suite="tour"):
    """Checks what `program` prints (the tour, or another program printing `>>> line` blocks)."""
    lines = subprocess.run([program], capture_output=True, text=True, check=True).stdout.split("\n")
    ns = {"torch": torch}
    checked, bad = 0, 0
    i = 0
    while i < len(lines):
        line = lines[i]
        if line.startswith(">>> "):
            want = run_code(line[4:], ns)
            got_lines = lines[i + 1:i + 1 + (want.count("\n") + 1 if want is not None else 0)]
            checked += 1
            if want is None or "\n".join(got_lines) != want:
                bad += 1
                print("DIFFER %s\n  torch:\n%s\n  tour:\n%s" % (line, want, "\n".join(got_lines)))
            i += 1 + len(got_lines)
            continue
        m = SHAPE_LINE.match(line)
        if m:
            label = re.sub(r" \(a copy\)$", "", m.group(1)).strip()
            label = LABELS.get(label, label)
            try:
                tree = ast.parse(label)
                stmt = tree.body[-1]
                if isinstance(stmt, ast.Assign):  # "y = torch.empty(2, 3, 4)": bind, then describe y
                    exec(compile(tree, "<tour>", "exec"), ns)
                    value = ns[stmt.targets[0].id]
                else:
                    value = eval(label, ns)
            except Exception as e:  # noqa: BLE001
                value = e
            checked += 1
            want = shape_text(value) if isinstance(value, torch.Tensor) else repr(value)
            if want != m.group(2):
                bad += 1
                print("DIFFER %s\n  torch: %s\n  tour:  %s" % (line, want, m.group(2)))
        elif line.startswith(">>>"):
            pass
        i += 1
    print("%s: %d checked, %d differ" % (suite, checked, bad))
    return 1 if bad or checked == 0 else 0


if __name__ == "__main__":
    sys.exit(main())
