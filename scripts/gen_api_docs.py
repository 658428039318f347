#!/usr/bin/python3
"""Writes the API reference docs/api/<header>.md for every public header include/ctorch/*.h, and the
index docs/api/README.md, from the headers themselves: each function's prototype (the CT_API lines, and
the pointwise.h lines that CT_DECLARE_* macros expand to), the comment before its group, the torch name
it mirrors (derived by the naming rules of docs/ARCHITECTURE.md and checked against the installed torch
1.13: a name torch does not have is marked ctorch-only), its options struct with the fields' comments,
the errors its comment names, and whether its C form is an argument-checking macro.

docs/api/pointwise.md (the op table's ops) is written by scripts/pointwise_doc.c; pointwise.h's page here
covers the ops declared by hand and links it.

    /usr/bin/python3 scripts/gen_api_docs.py          # rewrite docs/api (make docs)
    /usr/bin/python3 scripts/gen_api_docs.py --check  # exit 1 when a committed page differs (make check)

Needs torch (the names are checked against it): run it with the Python that has torch 1.13."""
import os
import re
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
INC = os.path.join(ROOT, "include", "ctorch")
OUT = os.path.join(ROOT, "docs", "api")

# Headers whose page is not written here: the op table (documented by pointwise.md) and the C macros
# generated from it.
TABLE_HEADERS = {
    "pointwise_ops.h": "the op table: every regular pointwise op, one line each; reference: [pointwise.md](pointwise.md)",
    "pointwise_args.h": "generated C macros of the table's binary ops (C numbers as operands); reference: [pointwise.md](pointwise.md)",
}
# The page name of a header; pointwise.md is the op table's page, so pointwise.h's own is pointwise_h.md.
PAGE = {"pointwise.h": "pointwise_h.md"}

# Names that the rules cannot derive: C name -> (torch text shown, dotted path checked in torch 1.13).
# A path of None means ctorch-only (the text says what stands in torch for it, if anything); "" a Python
# expression (str, repr, print, exceptions) with nothing in torch to look up.
OVERRIDES = {
    # types / errors / dtypes
    "ct_scalar_bool": ("a Python bool", ""), "ct_scalar_int": ("a Python int", ""),
    "ct_scalar_double": ("a Python float", ""), "ct_scalar_complex": ("a Python complex", ""),
    "ct_last_error": ("the exception's class", ""), "ct_last_error_message": ("str(exception)", ""),
    "ct_error_kind_name": ("type(exception).__name__", ""),
    "ct_dtype_itemsize": ("torch.empty((), dtype=dt).element_size()", "torch.Tensor.element_size"),
    "ct_dtype_is_floating_point": ("dtype.is_floating_point", "torch.float32.is_floating_point"),
    "ct_dtype_is_complex": ("dtype.is_complex", "torch.float32.is_complex"),
    "ct_dtype_is_signed": ("dtype.is_signed", "torch.float32.is_signed"),
    "ct_dtype_name": ("str(dtype)", ""), "ct_dtype_legacy_type_name": ("Tensor.type()", "torch.Tensor.type"),
    "ct_dtype_parse": ("getattr(torch, name)", ""),
    "ct_dtype_to_complex": ("", None), "ct_dtype_to_real": ("", None),
    "ct_device_parse": ("torch.device(str)", "torch.device"),
    "ct_device_from_ordinal": ("torch.device(int)", "torch.device"),
    "ct_device_str": ("str(device)", ""), "ct_device_repr": ("repr(device)", ""),
    "ct_device_equal": ("device == other", ""),
    "ct_device_make": ("torch.device(type, index)", "torch.device"),
    "ct_cuda_is_available": ("torch.cuda.is_available", "torch.cuda.is_available"),
    "ct_layout_name": ("str(layout)", ""), "ct_memory_format_name": ("str(memory_format)", ""),
    # indexing
    "ct_index_items": ("Tensor[index]", "torch.Tensor.__getitem__"),
    "ct_index_put_items_": ("Tensor[index] = value", "torch.Tensor.__setitem__"),
    # joining
    "ct_atleast_1d_list": ("torch.atleast_1d(*tensors)", "torch.atleast_1d"),
    "ct_atleast_2d_list": ("torch.atleast_2d(*tensors)", "torch.atleast_2d"),
    "ct_atleast_3d_list": ("torch.atleast_3d(*tensors)", "torch.atleast_3d"),
    "ct_repeat_interleave_tensor": ("torch.repeat_interleave(t, repeats: Tensor, dim)", "torch.repeat_interleave"),
    "ct_repeat_interleave_repeats": ("torch.repeat_interleave(repeats)", "torch.repeat_interleave"),
    "ct_scatter_value": ("torch.scatter(t, dim, index, value)", "torch.scatter"),
    "ct_scatter_value_": ("Tensor.scatter_(dim, index, value)", "torch.Tensor.scatter_"),
    "ct_scatter_value_out": ("torch.scatter(t, dim, index, value, out=)", "torch.scatter"),
    "ct_index_put_tensors_": ("Tensor.index_put_", "torch.Tensor.index_put_"),
    "ct_nonzero_tuple": ("torch.nonzero(t, as_tuple=True)", "torch.nonzero"),
    "ct_where_cond": ("torch.where(condition)", "torch.where"),
    "ct_histogram_bins": ("torch.histogram(t, bins_tensor)", "torch.histogram"),
    "ct_histogram_bins_out": ("torch.histogram(t, bins_tensor, out=)", "torch.histogram"),
    "ct_one_hot": ("torch.nn.functional.one_hot", "torch.nn.functional.one_hot"),
    # tensor
    "ct_ndim": ("Tensor.ndim", "torch.Tensor.ndim"),
    "ct_size_at": ("Tensor.size(dim)", "torch.Tensor.size"),
    "ct_stride_at": ("Tensor.stride(dim)", "torch.Tensor.stride"),
    "ct_sizes": ("Tensor.size()", "torch.Tensor.size"), "ct_strides": ("Tensor.stride()", "torch.Tensor.stride"),
    "ct_shape_of": ("Tensor.shape", "torch.Tensor.shape"),
    "ct_dtype_of": ("Tensor.dtype", "torch.Tensor.dtype"), "ct_device_of": ("Tensor.device", "torch.Tensor.device"),
    "ct_layout_of": ("Tensor.layout", "torch.Tensor.layout"),
    "ct_requires_grad": ("Tensor.requires_grad", "torch.Tensor.requires_grad"),
    "ct_shape_numel": ("torch.Size.numel", "torch.Size.numel"), "ct_shape_count": ("torch.Size.count", "torch.Size.count"),
    "ct_shape_index": ("torch.Size.index", "torch.Size.index"), "ct_shape_str": ("repr(torch.Size)", ""),
    "ct_untyped_storage": ("Tensor.storage().untyped()", "torch.Tensor.storage"),
    "ct_refcount": ("sys.getrefcount", None),
    # storage
    "ct_storage_new": ("torch.UntypedStorage(nbytes, device=)", "torch.UntypedStorage"),
    "ct_storage_from_blob": ("torch.UntypedStorage over caller memory", None),
    "ct_storage_nbytes": ("UntypedStorage.nbytes", "torch.UntypedStorage.nbytes"),
    "ct_storage_data_ptr": ("UntypedStorage.data_ptr", "torch.UntypedStorage.data_ptr"),
    "ct_storage_device": ("UntypedStorage.device", "torch.UntypedStorage.device"),
    "ct_storage_to_dtype": ("TypedStorage.to / .float() ...", "torch.TypedStorage.float"),
    "ct_empty_cache": ("", None),
    # creation
    "ct_tensor_from_data": ("torch.tensor(numpy array) / torch.from_numpy (copied)", "torch.tensor"),
    "ct_tensor_literal": ("torch.tensor(data)", "torch.tensor"),
    "ct_wrapped_scalar": ("a Python number operand", ""),
    "ct_is_wrapped_number": ("", None),
    "ct_eye_m": ("torch.eye(n, m)", "torch.eye"), "ct_arange_end": ("torch.arange(end)", "torch.arange"),
    # conversion
    "ct_to_dtype": ("Tensor.to(dtype)", "torch.Tensor.to"), "ct_to_other": ("Tensor.to(other)", "torch.Tensor.to"),
    "ct_item_double": ("float(Tensor.item())", "torch.Tensor.item"),
    "ct_item_int64": ("int(Tensor.item())", "torch.Tensor.item"),
    "ct_item_bool": ("bool(Tensor.item())", "torch.Tensor.item"),
    "ct_item_complex": ("complex(Tensor.item())", "torch.Tensor.item"),
    "ct_get_item": ("t[i, j, ...] (read)", "torch.Tensor.__getitem__"),
    "ct_set_item": ("t[i, j, ...] = v", "torch.Tensor.__setitem__"),
    "ct_copy_to_buffer": ("Tensor.numpy() / tolist() into a C buffer", "torch.Tensor.numpy"),
    # views
    "ct_squeeze_dim": ("torch.squeeze(t, dim)", "torch.squeeze"),
    "ct_squeeze_dims": ("torch 1.13 squeezes one dim per call", None),
    "ct_split_with_sizes": ("torch.split(t, [sizes], dim)", "torch.split"),
    "ct_tensor_split_indices": ("torch.tensor_split(t, [indices], dim)", "torch.tensor_split"),
    "ct_slice": ("t[..., start:end:step] along dim", "torch.Tensor.__getitem__"),
    "ct_set_storage_": ("Tensor.set_(storage, offset, size, stride)", "torch.Tensor.set_"),
    # reductions and scans
    "ct_max_dim": ("torch.max(t, dim, keepdim)", "torch.max"), "ct_min_dim": ("torch.min(t, dim, keepdim)", "torch.min"),
    "ct_max_dim_out": ("torch.max(t, dim, keepdim, out=(values, indices))", "torch.max"),
    "ct_min_dim_out": ("torch.min(t, dim, keepdim, out=(values, indices))", "torch.min"),
    # sorting and selection
    "ct_median_dim": ("torch.median(t, dim, keepdim)", "torch.median"),
    "ct_nanmedian_dim": ("torch.nanmedian(t, dim, keepdim)", "torch.nanmedian"),
    "ct_median_dim_out": ("torch.median(t, dim, keepdim, out=(values, indices))", "torch.median"),
    "ct_nanmedian_dim_out": ("torch.nanmedian(t, dim, keepdim, out=(values, indices))", "torch.nanmedian"),
    "ct_quantile_scalar": ("torch.quantile(t, q: float)", "torch.quantile"),
    "ct_quantile_scalar_out": ("torch.quantile(t, q: float, out=)", "torch.quantile"),
    "ct_nanquantile_scalar": ("torch.nanquantile(t, q: float)", "torch.nanquantile"),
    "ct_nanquantile_scalar_out": ("torch.nanquantile(t, q: float, out=)", "torch.nanquantile"),
    "ct_searchsorted_scalar": ("torch.searchsorted(sorted_sequence, number)", "torch.searchsorted"),
    "ct_searchsorted_scalar_out": ("torch.searchsorted(sorted_sequence, number, out=)", "torch.searchsorted"),
    "ct_bucketize_scalar": ("torch.bucketize(number, boundaries)", "torch.bucketize"),
    "ct_bucketize_scalar_out": ("torch.bucketize(number, boundaries, out=)", "torch.bucketize"),
    "ct_softmax": ("torch.softmax / Tensor.softmax", "torch.softmax"),
    "ct_softmax_out": ("torch.softmax(..., out=)", "torch.softmax"),
    "ct_log_softmax": ("torch.log_softmax / Tensor.log_softmax", "torch.log_softmax"),
    "ct_log_softmax_out": ("torch.log_softmax(..., out=)", "torch.log_softmax"),
    # pointwise
    "ct_normal_tensor_scalar": ("torch.normal(mean: Tensor, std: float)", "torch.normal"),
    "ct_normal_scalar_tensor": ("torch.normal(mean: float, std: Tensor)", "torch.normal"),
    "ct_normal_size": ("torch.normal(mean, std, size)", "torch.normal"),
    "ct_bernoulli_p": ("torch.bernoulli(t, p)", "torch.bernoulli"),
    "ct_bernoulli_tensor_": ("Tensor.bernoulli_(p: Tensor)", "torch.Tensor.bernoulli_"),
    "ct_random_to_": ("Tensor.random_(to)", "torch.Tensor.random_"),
    "ct_random_from_to_": ("Tensor.random_(from, to)", "torch.Tensor.random_"),
    "ct_random_from_": ("Tensor.random_(from, None)", "torch.Tensor.random_"),
    "ct_generator_create": ("torch.Generator(device)", "torch.Generator"),
    "ct_generator_device": ("Generator.device", "torch.Generator.device"),
    "ct_generator_manual_seed_u64": ("Generator.manual_seed (seeds up to 2^64 - 1)", "torch.Generator.manual_seed"),
    "ct_generator_manual_seed_scalar": ("Generator.manual_seed(any Python number)", "torch.Generator.manual_seed"),
    "ct_manual_seed_u64": ("torch.manual_seed (seeds up to 2^64 - 1)", "torch.manual_seed"),
    "ct_manual_seed_scalar": ("torch.manual_seed(any Python number)", "torch.manual_seed"),
    "ct_default_generator": ("torch.default_generator", "torch.default_generator"),
    "ct_fork_rng_begin": ("with torch.random.fork_rng(): (entering)", "torch.random.fork_rng"),
    "ct_fork_rng_end": ("with torch.random.fork_rng(): (leaving)", "torch.random.fork_rng"),
    "ct_fork_rng": ("torch.random.fork_rng", "torch.random.fork_rng"),
    # printing
    "ct_to_string": ("repr(t)", ""), "ct_print": ("print(t)", ""), "ct_fprint": ("print(t, file=f)", ""),
    "ct_tolist_repr": ("repr(t.tolist())", "torch.Tensor.tolist"),
    # products
    "ct_tensordot_dims": ("torch.tensordot(a, b, dims=(dims_a, dims_b))", "torch.tensordot"),
    "ct_tensordot_dims_out": ("torch.tensordot(a, b, dims=(dims_a, dims_b), out=out)", "torch.tensordot"),
    "ct_item_repr": ("repr(t.item())", "torch.Tensor.item"),
    "ct_size_repr": ("repr(t.size())", "torch.Tensor.size"),
    "ct_stride_repr": ("repr(t.stride())", "torch.Tensor.stride"),
    "ct_scalar_repr": ("repr(number)", ""),
    "ct_get_printoptions": ("torch._tensor_str.PRINT_OPTS", "torch._tensor_str.PRINT_OPTS"),
}
# Prefixes whose functions are methods of another torch class: ct_<prefix>_X -> <class>.X.
CLASS_PREFIXES = [("ct_storage_", "torch.UntypedStorage", "UntypedStorage"),
                  ("ct_generator_", "torch.Generator", "Generator"),
                  ("ct_special_", "torch.special", "torch.special"),
                  ("ct_linalg_", "torch.linalg", "torch.linalg")]

ERROR_WORDS = re.compile(r"Error\b|error|\bfail|refus|not implemented|not allowed|must |Overflow|out of range")


def load_torch():
    try:
        import torch  # noqa: F401
        return torch
    except ImportError:
        sys.exit("gen_api_docs.py: needs torch 1.13 (run it with /usr/bin/python3): the torch names are checked")


TORCH = None


_MISSING = object()


def torch_lookup(path):
    """The object at a dotted path (torch.X, torch.Tensor.X, torch.float32.is_complex, ...), or _MISSING."""
    obj = TORCH
    for p in path.split(".")[1:]:
        obj = getattr(obj, p, _MISSING)
        if obj is _MISSING:
            break
    return obj


def torch_has(path):
    return torch_lookup(path) is not _MISSING


def torch_callable(path):
    return callable(torch_lookup(path))


def torch_enum(value):
    """The torch object a dtype / layout / memory-format enum value names (CT_FLOAT32: torch.float32)."""
    name = value[3:].lower()
    obj = getattr(TORCH, name, None)
    if isinstance(obj, (TORCH.dtype, TORCH.layout, TORCH.memory_format)):
        return f"`torch.{name}`"
    return ""


def torch_name(c):
    """(text, checked): the torch API a C function mirrors; checked False marks it ctorch-only."""
    if c in OVERRIDES:
        text, path = OVERRIDES[c]
        if path is None:
            return text, False
        if path == "":
            return text, True
        if not torch_has(path):
            sys.exit(f"gen_api_docs.py: the override of {c} names {path}, which torch {TORCH.__version__} lacks")
        return text, True
    base = c[3:]
    if base.endswith("_out"):
        text, ok = torch_name("ct_" + base[:-4])
        if ok and text.startswith("torch.") and "(" not in text:
            return text.split(" / ")[0] + "(..., out=)", True
        return (text + " (out=)" if ok else text), ok
    if base.endswith("_") and not base.endswith("__"):
        if torch_has("torch.Tensor." + base):
            return "Tensor." + base, True
        for prefix, cls, shown in CLASS_PREFIXES:
            if c.startswith(prefix) and torch_has(cls + "." + c[len(prefix):]):
                return shown + "." + c[len(prefix):], True
        return "", False
    for prefix, cls, shown in CLASS_PREFIXES:
        if c.startswith(prefix):
            name = c[len(prefix):]
            if torch_has(cls + "." + name):
                return shown + "." + name, True
    names = []
    if torch_callable("torch." + base):
        names.append("torch." + base)
    if torch_has("torch.Tensor." + base):
        names.append("Tensor." + base)
    if names:
        return " / ".join(names), True
    return "", False


# ---------------------------------------------------------------- reading a header

def conditional_lines(lines):
    """Splits a header into the lines C sees outside the checking-macro block, and that block's lines.
    C++-only branches and the CT_API definition are dropped."""
    keep, cblock, stack = [], [], []
    for line in lines:
        s = line.strip()
        if s.startswith("#if"):
            if "!defined(__cplusplus) && !defined(CT_BUILDING_LIBRARY)" in s:
                stack.append("cblock")
            elif s.startswith("#ifdef __cplusplus") or s.startswith("#if defined(_WIN32)"):
                stack.append("skip")
            else:
                stack.append("keep")
            continue
        if s.startswith("#else"):
            stack[-1] = {"keep": "skip", "skip": "keep", "cblock": "cblock"}[stack[-1]]
            continue
        if s.startswith("#elif"):
            continue
        if s.startswith("#endif"):
            stack.pop()
            continue
        if "skip" in stack:
            continue
        (cblock if "cblock" in stack else keep).append(line)
    return keep, cblock


def items(lines):
    """Tokens of a header's lines: ('blank',), ('comment', text), ('define', name, params, body),
    ('decl', text), ('invoke', name, arg)."""
    out, i = [], 0
    while i < len(lines):
        s = lines[i].strip()
        if not s:
            out.append(("blank",))
            i += 1
        elif s.startswith("/*"):
            buf = [s]
            while "*/" not in buf[-1]:
                i += 1
                buf.append(lines[i].rstrip())
            i += 1
            text = "\n".join(buf)
            out.append(("comment", clean_comment(text)))
        elif s.startswith("#define"):
            buf = [s]
            while buf[-1].endswith("\\"):
                i += 1
                buf.append(lines[i].strip())
            i += 1
            full = " ".join(b.rstrip("\\").strip() for b in buf)
            m = re.match(r"#define\s+(\w+)(\([^)]*\))?\s*(.*)", full)
            out.append(("define", m.group(1), m.group(2) or "", m.group(3)))
        elif s.startswith("#") or s in ("}", 'extern "C" {'):
            i += 1
        elif re.match(r"^[A-Z_][A-Z0-9_]*\(.*\)$", s):
            m = re.match(r"^(\w+)\((.*)\)$", s)
            out.append(("invoke", m.group(1), m.group(2)))
            i += 1
        else:
            buf, depth = [], 0
            while i < len(lines):
                ln = lines[i].rstrip()
                buf.append(ln)
                code = re.sub(r"/\*.*?\*/", "", ln)
                depth += code.count("{") - code.count("}")
                i += 1
                if depth == 0 and code.rstrip().endswith((";", "}")):
                    break
            out.append(("decl", "\n".join(buf)))
    return out


def clean_comment(text):
    text = text.strip()
    text = re.sub(r"^/\*+", "", text)
    text = re.sub(r"\*+/$", "", text)
    # keep indented example lines as they are, join the prose
    return "\n".join(l.strip() if not l.startswith("     ") else l.rstrip() for l in text.split("\n")).strip()


def expand_declare_macros(toks):
    """Replaces invocations of the CT_DECLARE_* macros (pointwise.h) with the prototypes they declare."""
    macros = {t[1]: (t[2], t[3]) for t in toks if t[0] == "define" and t[1].startswith("CT_DECLARE_")}
    out = []
    for t in toks:
        if t[0] == "invoke" and t[1] in macros:
            params, body = macros[t[1]]
            pname = params.strip("()").strip()
            body = re.sub(r"\b%s\b" % pname, t[2].strip(), body).replace("##", "")
            for proto in [p.strip() + ";" for p in body.split(";") if p.strip()]:
                out.append(("decl", proto))
        else:
            out.append(t)
    return out


def prose(text):
    """A comment as Markdown prose: C names, and C calls with their balanced arguments, in code spans."""
    out, i = [], 0
    for m in re.finditer(r"(?<![`\w])(?:ct_\w+|CT_[A-Z0-9_]+)", text):
        if m.start() < i:
            continue
        end = m.end()
        if end < len(text) and text[end] == "(":
            depth, j = 0, end
            while j < len(text):
                depth += {"(": 1, ")": -1}.get(text[j], 0)
                j += 1
                if depth == 0:
                    break
            if depth == 0 and "\n" not in text[end:j] and "`" not in text[end:j]:
                end = j
        while end < len(text) and text[end] == "*":  # ct_tensor* (a pointer type)
            end += 1
        out.append(plain(text[i:m.start()]) + "`" + text[m.start():end] + "`")
        i = end
    return "".join(out) + plain(text[i:])


def plain(text):
    """Prose outside code spans: a C `*` (pointers, *out) is no Markdown emphasis."""
    return text.replace("*", "\\*")


def render_comment(text):
    """A comment as Markdown: prose through prose(), its indented example lines as a C code block."""
    out, code, bullet = [], [], False
    for line in text.split("\n"):
        if line.startswith("     ") and bullet:  # a list item's next line
            out.append("  " + prose(line.strip()))
            continue
        if line.startswith("     "):
            code.append(line[5:])
            continue
        bullet = line.startswith("- ")
        if code:
            out.append("\n```c\n" + "\n".join(code) + "\n```\n")
            code = []
        out.append(prose(line))
    if code:
        out.append("\n```c\n" + "\n".join(code) + "\n```")
    return "\n".join(out)


def cell(text):
    """Comment text for a table cell."""
    return prose(text).replace("|", "\\|")


def fn_name(decl):
    m = re.search(r"(\w+)\s*\(", decl.replace("CT_API", ""))
    return m.group(1)


def one_line(decl):
    d = re.sub(r"\s+", " ", decl.replace("CT_API", "")).strip()
    return d.replace("( ", "(").replace(" )", ")")


def parse_struct(decl):
    """typedef struct/enum X {...} X; -> (kind, name, [(field, type, comment)])."""
    m = re.match(r"\s*typedef\s+(struct|enum)\s+(\w+)\s*\{(.*)\}\s*(\w+)\s*;", decl, re.S)
    if not m:
        return None
    kind, name, body = m.group(1), m.group(4), m.group(3)
    fields, depth = [], 0
    for line in body.split("\n"):
        com = re.search(r"/\*(.*?)\*/", line)
        code = re.sub(r"/\*.*?\*/", "", line).strip().rstrip(",;")
        if "{" in code:  # a nested union: one field, named at its closing brace
            depth += 1
            continue
        if depth:
            if code.startswith("}"):
                depth -= 1
                fields.append((code[1:].strip(), "union", com.group(1).strip() if com else ""))
            continue
        if not code:
            if com and fields:
                fields[-1] = (fields[-1][0], fields[-1][1], (fields[-1][2] + " " + com.group(1).strip()).strip())
            continue
        if kind == "enum":
            fields.append((code.split("=")[0].strip(), code.split("=")[1].strip() if "=" in code else "",
                           com.group(1).strip() if com else ""))
        else:
            fm = re.match(r"(.*?[\s*])([\w, ]+)$", code)
            ctype, names = (fm.group(1).strip(), fm.group(2)) if fm else (code, "")
            if "(" in code:  # a function pointer field
                ctype, names = code, re.search(r"\(\*(\w+)\)", code).group(1)
            fields.append((names.strip(), ctype, com.group(1).strip() if com else ""))
    return kind, name, fields


# ---------------------------------------------------------------- the model of a page

class Group:
    def __init__(self, comment):
        self.comment = comment
        self.decls = []    # function prototypes
        self.types = []    # (kind, name, fields, code)
        self.others = []   # other typedefs, as code
        self.macros = []   # (name, params)


def header_model(path):
    lines = open(path).read().split("\n")
    keep, cblock = conditional_lines(lines)
    toks = expand_declare_macros(items(keep))
    ctoks = items(cblock)
    checked = {}   # ct_X -> set of notes
    ck_bodies = {t[1]: t[3] for t in ctoks if t[0] == "define"}
    for t in ctoks:
        if t[0] == "define" and t[1].startswith("ct_"):
            body = t[3] + " " + ck_bodies.get("CT__CK_" + t[1], "")
            notes = []
            if "CT_ARG(" in body:
                notes.append("operands may be C numbers")
            elif "CT_NUM(" in body:
                notes.append("numbers as C values")
            checked[t[1]] = notes
    # public macros of the C block (CT_NUM, CT_TENSOR, ...), with the comment just above each
    cmacros, last = [], None
    for t in ctoks:
        if t[0] == "comment":
            last = t[1]
        elif t[0] == "define" and re.match(r"CT_[A-Z0-9]", t[1]) and not t[1].startswith("CT__"):
            cmacros.append((t[1], t[2], last))
        elif t[0] == "blank":
            last = None

    intro, sections, cur_title, cur = None, [], None, []
    group = None
    pending = None
    for n, t in enumerate(toks):
        kind = t[0]
        if kind == "comment":
            if intro is None and not sections and not cur and group is None:
                intro = t[1]
                continue
            title = re.match(r"^[=-]{3,}\s*(.*?)\s*[=-]{3,}$", t[1])
            if title:
                sections.append((cur_title, cur))
                cur_title, cur, group, pending = title.group(1), [], None, None
                continue
            group, pending = None, t[1]
            nxt = toks[n + 1] if n + 1 < len(toks) else ("blank",)
            if nxt[0] in ("blank", "comment"):
                cur.append(("text", t[1]))
                pending = None
        elif kind == "blank":
            group, pending = None, None
        elif kind in ("decl", "define"):
            if kind == "define":
                if not re.match(r"CT_[A-Z0-9]", t[1]) or t[1].startswith(("CT__", "CT_DECLARE_", "CT_API")) \
                        or t[1].startswith("CTORCH_") or t[1] in ("CT_POINTWISE_DECLARE",):
                    continue
            if group is None:
                group = Group(pending)
                pending = None
                cur.append(("group", group))
            if kind == "define":
                group.macros.append((t[1], t[2]))
            elif t[1].lstrip().startswith("CT_API"):
                group.decls.append(t[1])
            else:
                st = parse_struct(t[1])
                if st:
                    group.types.append(st + (t[1],))
                elif t[1].strip().startswith("typedef"):
                    group.others.append(t[1])
        elif kind == "invoke":
            if t[1] == "CT_POINTWISE_OPS":
                cur.append(("text", "The regular ops of the table `pointwise_ops.h` are declared here from it: "
                                    "their reference is [pointwise.md](pointwise.md)."))
    sections.append((cur_title, cur))
    return intro, sections, checked, cmacros


# ---------------------------------------------------------------- writing a page

def errors_of(comment):
    if not comment:
        return []
    flat = re.sub(r"\s+", " ", comment)
    clauses, depth, start = [], 0, 0
    for i, ch in enumerate(flat):  # split at ". " and "; " outside parentheses and quotes
        depth += {"(": 1, ")": -1}.get(ch, 0)
        if depth == 0 and ch in ".;" and flat[i + 1:i + 2] == " " and flat.count('"', 0, i) % 2 == 0:
            clauses.append(flat[start:i + 1].strip())
            start = i + 1
    clauses.append(flat[start:].strip())
    return [c[:-1] + "." if c.endswith(";") else c for c in clauses if c and ERROR_WORDS.search(c)]


def opts_type(decl):
    m = re.search(r"const\s+(?:struct\s+)?(ct_\w+_opts|ct_print_options|ct_tensor_opts)\s*\*\s*\w*\s*\)\s*;", decl)
    return m.group(1) if m else None


def write_page(hname, model, struct_pages, stats):
    intro, sections, checked, cmacros = model
    page = PAGE.get(hname, hname[:-2] + ".md")
    out = [f"# `ctorch/{hname}`", "",
           "<!-- Generated by scripts/gen_api_docs.py from include/ctorch/%s. Do not edit: `make docs` rewrites" % hname,
           "     this file, and `make check` fails when it is out of date. -->", ""]
    if intro:
        out += [render_comment(intro), ""]
    if hname == "pointwise.h":
        out += ["The ops of the op table (`pointwise_ops.h`: neg, add, mul, sin, eq, ...) are listed in "
                "[pointwise.md](pointwise.md); this page covers the rest of the header.", ""]
    out += ["Columns: the C function; the torch 1.13 API it mirrors (*ctorch only* where torch has none: "
            "names are derived by the rules of [docs/ARCHITECTURE.md](../ARCHITECTURE.md) and checked "
            "against torch 1.13); its options struct (the last parameter; `NULL` or a zeroed struct means "
            "torch's defaults); its C form (*checked*: a macro of the same name checks the arguments' "
            "types at compile time, [args.h](args.md)).", ""]
    for title, entries in sections:
        if title:
            out += [f"## {title[0].upper() + title[1:]}", ""]
        for kind, e in entries:
            if kind == "text":
                out += [render_comment(e), ""]
                continue
            g = e
            if g.comment:
                out += [render_comment(g.comment), ""]
            for (tkind, tname, fields, code) in g.types:
                struct_pages[tname] = page
                out += [f"<a id=\"{tname}\"></a>**`{tname}`** ({tkind})", ""]
                if tkind == "struct":
                    out += ["| field | type | meaning |", "|---|---|---|"]
                    for f, ct, c in fields:
                        out.append(f"| `{f}` | `{ct}` | {cell(c)} |")
                else:
                    out += ["| value | number | meaning |", "|---|---|---|"]
                    for f, v, c in fields:
                        out.append(f"| `{f}` | {v} | {cell(c) or torch_enum(f)} |")
                out.append("")
            if g.others:
                out += ["```c"] + [re.sub(r"[ \t]+", " ", o.strip()) for o in g.others] + ["```", ""]
            if g.macros:
                out += ["Macros: " + ", ".join(f"`{n}{p}`" for n, p in g.macros), ""]
            if g.decls:
                out += ["```c"] + [one_line(d) for d in g.decls] + ["```", ""]
                out += ["| C | torch | options | C form |", "|---|---|---|---|"]
                for d in g.decls:
                    name = fn_name(d)
                    tn, ok = torch_name(name)
                    stats["functions"] += 1
                    if ok:
                        shown = tn if tn.startswith("a ") else f"`{tn}`"
                    else:
                        stats["ctorch_only"].append(name)
                        shown = "*ctorch only*" + (f" ({tn})" if tn else "")
                    ot = opts_type(d)
                    opt = f"[`{ot}`]({{{ot}}})" if ot else ""
                    form = ""
                    if name in checked:
                        form = "checked" + (": " + ", ".join(checked[name]) if checked[name] else "")
                    out.append(f"| `{name}` | {shown} | {opt} | {form} |")
                out.append("")
                errs = errors_of(g.comment) if hname != "error.h" else []  # error.h's comments are about errors
                if errs:
                    out += ["Errors named: " + " ".join(prose(s) for s in errs), ""]
    if cmacros:
        out += ["## C conveniences (macros, C only)", ""]
        for name, params, com in cmacros:
            line = f"- `{name}{params}`"
            if com:
                line += ": " + prose(re.sub(r"\s+", " ", com))
            out.append(line)
        out.append("")
    return page, out


def render_links(text, struct_pages, page):
    def link(m):
        target = struct_pages.get(m.group(1))
        if not target:
            return ""
        return ("" if target == page else target) + "#" + m.group(1)
    return re.sub(r"\{(ct_\w+)\}", link, text)


def index_page(rows, stats):
    out = ["# ctorch API reference", "",
           "<!-- Generated by scripts/gen_api_docs.py. Do not edit: `make docs` rewrites this file, and `make check`",
           "     fails when it is out of date. -->", "",
           "One page per public header (`#include <ctorch.h>` includes them all). Each lists the header's "
           "functions with their prototypes, the torch 1.13 API each mirrors, its options struct and fields, "
           "the errors its comment names and whether its C form checks its arguments at compile time. The "
           "naming rules (`ct_X` is `torch.X` / `Tensor.X`, `ct_X_` is `Tensor.X_`, `ct_X_out` is "
           "`torch.X(..., out=)`, `ct_special_X` is `torch.special.X`) and the argument conventions are in "
           "[docs/ARCHITECTURE.md](../ARCHITECTURE.md), \"API conventions\"; a page of torch lines and their C "
           "lines: [docs/FROM_PYTORCH.md](../FROM_PYTORCH.md).", "",
           "Every function reports failure the same way: it returns `NULL` (or a non-zero `ct_status`), "
           "records torch's exception class (`ct_last_error()`) and message (`ct_last_error_message()`) and "
           "leaves its arguments unchanged; a `NULL` tensor argument returns `NULL` and keeps the error "
           "already recorded (or records a ValueError naming the argument when none is). The errors listed "
           "on each page are the ones the header's comments name; the rest are torch's own checks.", "",
           "| header | page | functions | what |", "|---|---|---|---|"]
    out += rows
    out += ["", f"{stats['functions']} functions, {len(stats['ctorch_only'])} of them without a torch "
            "counterpart (ownership, C buffers, C strings, ...). The C++ layer, `include/ctorch.hpp` (a RAII "
            "tensor, operators, exceptions), is not covered here: its header is its reference.", "",
            "Regenerate: `make docs` (or `/usr/bin/python3 scripts/gen_api_docs.py`); `scripts/gen_api_docs.py "
            "--check` fails when a committed page differs.", ""]
    return out


def generate():
    global TORCH
    TORCH = load_torch()
    files = {}
    struct_pages = {}
    stats = {"functions": 0, "ctorch_only": []}
    rows = []
    pages = []
    for hname in sorted(os.listdir(INC)):
        if not hname.endswith(".h"):
            continue
        path = os.path.join(INC, hname)
        if hname in TABLE_HEADERS:
            rows.append(f"| `{hname}` | [pointwise.md](pointwise.md) | | {TABLE_HEADERS[hname]} |")
            continue
        model = header_model(path)
        before = stats["functions"]
        page, out = write_page(hname, model, struct_pages, stats)
        pages.append((page, out))
        what = re.sub(r"\s+", " ", model[0] or "").split(". ")[0].rstrip(".")
        rows.append(f"| `{hname}` | [{page}]({page}) | {stats['functions'] - before} | {prose(what).replace('|', '/')} |")
        if hname == "pointwise.h":
            rows.append("| (the op table's ops) | [pointwise.md](pointwise.md) | | every regular pointwise op: "
                        "prototypes, torch name, promotion, dtypes (scripts/pointwise_doc.c) |")
    for page, out in pages:
        files[page] = render_links("\n".join(out).rstrip("\n") + "\n", struct_pages, page)
    files["README.md"] = "\n".join(index_page(rows, stats)).rstrip("\n") + "\n"
    return files


def from_pytorch_missing():
    """The C code spans of docs/FROM_PYTORCH.md's numbered rows that tests/usage/from_pytorch.c lacks (the
    page's C lines must be the ones that compile)."""
    page = open(os.path.join(ROOT, "docs", "FROM_PYTORCH.md")).read()
    prog = re.sub(r"\s+", " ", open(os.path.join(ROOT, "tests", "usage", "from_pytorch.c")).read())
    missing, rows = [], 0
    for line in page.split("\n"):
        m = re.match(r"^\| (\d+) \|.*\| (`.*`) \|$", line)
        if not m:
            continue
        rows += 1
        for span in re.findall(r"`([^`]+)`", m.group(2)):
            if re.sub(r"\s+", " ", span) not in prog:
                missing.append(f"line {m.group(1)}: {span}")
    if rows < 60:
        missing.append(f"only {rows} numbered rows")
    return missing


def main(argv):
    check = "--check" in argv
    files = generate()
    stale = []
    missing = from_pytorch_missing()
    if missing:
        print("docs/FROM_PYTORCH.md has C lines that tests/usage/from_pytorch.c lacks:\n  " + "\n  ".join(missing),
              file=sys.stderr)
        return 1
    for name, text in sorted(files.items()):
        path = os.path.join(OUT, name)
        old = open(path).read() if os.path.exists(path) else None
        if old == text:
            continue
        if check:
            stale.append(name)
        else:
            with open(path + ".tmp", "w") as f:
                f.write(text)
            os.replace(path + ".tmp", path)
    if stale:
        print("docs/api is out of date (%s): run make docs or /usr/bin/python3 scripts/gen_api_docs.py"
              % ", ".join(stale), file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
