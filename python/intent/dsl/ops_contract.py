"""Contractions: dot/matvec/vecmat/matmul/outer, generic contract, scaled and sparse contracts
with their closed formats, quantize and quantized_dot."""
from __future__ import annotations

from . import types as T
from .emitter import Raw
from .lower import is_runtime
from .ops import describe
from .ops_values import need_dtype


# ---- contracts ---------------------------------------------------------------------------------


def same_numeric(o, node, a, b, what):
    for v in (a, b):
        if not (is_runtime(v) and isinstance(v.type, T.TensorT)):
            raise o.error(node, f"{what} takes ranked tensors, got {describe(v)}", "L10.1")
    if a.type.dtype is not b.type.dtype:
        raise o.error(node, f"{what}: lhs is {a.type.dtype.name} and rhs {b.type.dtype.name}; cast one explicitly",
                      "L10.2")


def core(o, node, what, a_core, b_core, a, b, acc_dtype, attrs, result_core):
    same_numeric(o, node, a, b, what)
    acc = need_dtype(o, node, acc_dtype, "acc_dtype")
    ra, rb = a.type.rank - len(a_core), b.type.rank - len(b_core)
    if ra < 0 or rb < 0:
        raise o.error(node, f"{what} needs rank >= {len(a_core)} and >= {len(b_core)}, got {a.type.kir()} and "
                            f"{b.type.kir()}", "L10.1")
    batch = o.broadcast_shape([a.type.shape[:ra], b.type.shape[:rb]], node)
    return batch, acc


def op_matmul(o, node, lhs, rhs, *, acc_dtype, transpose_lhs=False, transpose_rhs=False):
    batch, acc = core(o, node, "intent.matmul", "MK", "KN", lhs, rhs, acc_dtype, {}, None)
    (m, k1) = lhs.type.shape[-2:] if not transpose_lhs else tuple(reversed(lhs.type.shape[-2:]))
    (k2, n) = rhs.type.shape[-2:] if not transpose_rhs else tuple(reversed(rhs.type.shape[-2:]))
    if k1 != k2:
        raise o.error(node, f"matmul: K extents {k1} and {k2} differ (K is never broadcast)", "L10.1")
    attrs = {"acc_dtype": Raw(acc.name)}
    if transpose_lhs:
        attrs["transpose_lhs"] = True
    if transpose_rhs:
        attrs["transpose_rhs"] = True
    return o.emit1("matmul", [lhs, rhs], T.TensorT(acc, batch + (m, n)), attrs, hint="mm")


def op_matvec(o, node, matrix, vector, *, acc_dtype, transpose=False):
    batch, acc = core(o, node, "intent.matvec", "MK", "K", matrix, vector, acc_dtype, {}, None)
    m, k = matrix.type.shape[-2:] if not transpose else tuple(reversed(matrix.type.shape[-2:]))
    if k != vector.type.shape[-1]:
        raise o.error(node, f"matvec: K extents {k} and {vector.type.shape[-1]} differ", "L10.1")
    attrs = {"acc_dtype": Raw(acc.name)}
    if transpose:
        attrs["transpose"] = True
    return o.emit1("matvec", [matrix, vector], T.TensorT(acc, batch + (m,)), attrs, hint="mv")


def op_vecmat(o, node, vector, matrix, *, acc_dtype, transpose=False):
    batch, acc = core(o, node, "intent.vecmat", "K", "KN", vector, matrix, acc_dtype, {}, None)
    k, n = matrix.type.shape[-2:] if not transpose else tuple(reversed(matrix.type.shape[-2:]))
    if k != vector.type.shape[-1]:
        raise o.error(node, f"vecmat: K extents {vector.type.shape[-1]} and {k} differ", "L10.1")
    attrs = {"acc_dtype": Raw(acc.name)}
    if transpose:
        attrs["transpose"] = True
    return o.emit1("vecmat", [vector, matrix], T.TensorT(acc, batch + (n,)), attrs, hint="vm")


def op_dot(o, node, lhs, rhs, *, acc_dtype):
    same_numeric(o, node, lhs, rhs, "intent.dot")
    acc = need_dtype(o, node, acc_dtype, "acc_dtype")
    if lhs.type.rank != 1 or rhs.type.rank != 1 or lhs.type.shape != rhs.type.shape:
        raise o.error(node, f"intent.dot takes two rank-1 tensors of one extent, got {lhs.type.kir()} and "
                            f"{rhs.type.kir()}", "L10.1")
    return o.emit1("dot", [lhs, rhs], T.TensorT(acc, ()), {"acc_dtype": Raw(acc.name)}, hint="dot")


def op_outer(o, node, lhs, rhs):
    same_numeric(o, node, lhs, rhs, "intent.outer")
    if lhs.type.rank != 1 or rhs.type.rank != 1:
        raise o.error(node, "intent.outer takes two rank-1 tensors", "L10.3")
    return o.emit1("outer", [lhs, rhs], T.TensorT(lhs.type.dtype, lhs.type.shape + rhs.type.shape), hint="outer")


def op_contract(o, node, lhs, rhs, *, reduce, batch=(), acc_dtype):
    same_numeric(o, node, lhs, rhs, "intent.contract")
    acc = need_dtype(o, node, acc_dtype, "acc_dtype")
    pairs = [tuple(p) for p in reduce]
    bpairs = [tuple(p) for p in batch]
    if not pairs:
        raise o.error(node, "contract needs at least one reduce pair", "L10.4")
    for p in pairs + bpairs:
        if len(p) != 2 or not all(isinstance(i, int) for i in p) or not (0 <= p[0] < lhs.type.rank) or \
                not (0 <= p[1] < rhs.type.rank):
            raise o.error(node, f"axis pair {p} is not a pair of lhs/rhs axes", "L10.4")
        if lhs.type.shape[p[0]] != rhs.type.shape[p[1]]:
            raise o.error(node, f"paired axes {p} have extents {lhs.type.shape[p[0]]} and {rhs.type.shape[p[1]]}",
                          "L10.4")
    red_l = {p[0] for p in pairs}
    red_r = {p[1] for p in pairs}
    bat_r = {p[1] for p in bpairs}
    shape = [e for i, e in enumerate(lhs.type.shape) if i not in red_l]
    shape += [e for i, e in enumerate(rhs.type.shape) if i not in red_r and i not in bat_r]
    return o.emit1("contract", [lhs, rhs], T.TensorT(acc, tuple(shape)),
                   {"reduce": [list(p) for p in pairs], "batch": [list(p) for p in bpairs]}, hint="acc")


# ---- scaled, sparse and quantized contracts -------------------------------------------------------------

def format_name(o, node, f, kinds, what):
    name = f.name if isinstance(f, (T.DType, Format)) else f if isinstance(f, str) else None
    if name not in kinds:
        raise o.error(node, f"{what} is one of {', '.join(kinds)}, got {describe(f)}", "L11.1")
    return name


class Format:
    """A closed format schema: `intent.sparse.two_of_four`, `intent.quant.q8_k`, ..."""

    def __init__(self, name: str):
        self.name = name

    def __call__(self, *args, **kwargs):
        if args or kwargs:
            raise TypeError(f"{self.name} has no parameters")
        return self

    def __repr__(self) -> str:
        return f"intent format {self.name}"


def scaled_check(o, node, lhs, lhs_scale, rhs, rhs_scale):
    for v, r, what in ((lhs, 3, "lhs [M, G, C]"), (lhs_scale, 2, "lhs_scale [M, G]"), (rhs, 3, "rhs [G, C, N]"),
                       (rhs_scale, 2, "rhs_scale [N, G]")):
        if not (is_runtime(v) and isinstance(v.type, T.TensorT) and v.type.rank == r):
            raise o.error(node, f"scaled contract: {what} is a rank-{r} tensor, got {describe(v)}", "L11.1")


def op_scaled_contract(o, node, lhs, lhs_scale, rhs, rhs_scale, *, lhs_format, rhs_format, lhs_group_size,
                       rhs_group_size, reduce=((1, 0), (2, 1)), batch=(), acc_dtype):
    scaled_check(o, node, lhs, lhs_scale, rhs, rhs_scale)
    acc = need_dtype(o, node, acc_dtype, "acc_dtype")
    fmts = ("e2m1", "e4m3", "e5m2")
    attrs = {"lhs_format": Raw(format_name(o, node, lhs_format, fmts, "lhs_format")),
             "rhs_format": Raw(format_name(o, node, rhs_format, fmts, "rhs_format")),
             "lhs_group_size": lhs_group_size, "rhs_group_size": rhs_group_size,
             "reduce": [list(p) for p in reduce], "batch": [list(p) for p in batch]}
    return o.emit1("scaled_contract", [lhs, lhs_scale, rhs, rhs_scale],
                   T.TensorT(acc, (lhs.type.shape[0], rhs.type.shape[2])), attrs, hint="acc")


def op_scaled_matmul(o, node, lhs, lhs_scale, rhs, rhs_scale, *, lhs_format, rhs_format, group_size, acc_dtype):
    scaled_check(o, node, lhs, lhs_scale, rhs, rhs_scale)
    acc = need_dtype(o, node, acc_dtype, "acc_dtype")
    fmts = ("e2m1", "e4m3", "e5m2")
    attrs = {"lhs_format": Raw(format_name(o, node, lhs_format, fmts, "lhs_format")),
             "rhs_format": Raw(format_name(o, node, rhs_format, fmts, "rhs_format")),
             "group_size": group_size, "acc_dtype": Raw(acc.name)}
    return o.emit1("scaled_matmul", [lhs, lhs_scale, rhs, rhs_scale],
                   T.TensorT(acc, (lhs.type.shape[0], rhs.type.shape[2])), attrs, hint="acc")


SPARSE = ("two_of_four", "one_of_two")


def op_sparse_contract(o, node, compressed, metadata, rhs, *, format, reduce, batch=(), acc_dtype):
    for v in (compressed, metadata, rhs):
        if not (is_runtime(v) and isinstance(v.type, T.TensorT)):
            raise o.error(node, f"sparse contract takes ranked tensors, got {describe(v)}", "L12.1")
    acc = need_dtype(o, node, acc_dtype, "acc_dtype")
    pairs, bpairs = [tuple(p) for p in reduce], [tuple(p) for p in batch]
    red_l, red_r, bat_r = {p[0] for p in pairs}, {p[1] for p in pairs}, {p[1] for p in bpairs}
    shape = [e for i, e in enumerate(compressed.type.shape) if i not in red_l]
    shape += [e for i, e in enumerate(rhs.type.shape) if i not in red_r and i not in bat_r]
    attrs = {"format": Raw(format_name(o, node, format, SPARSE, "format")), "reduce": [list(p) for p in pairs],
             "batch": [list(p) for p in bpairs]}
    return o.emit1("sparse_contract", [compressed, metadata, rhs], T.TensorT(acc, tuple(shape)), attrs, hint="acc")


def op_sparse_matmul(o, node, compressed, metadata, rhs, *, format, acc_dtype):
    for v in (compressed, metadata, rhs):
        if not (is_runtime(v) and isinstance(v.type, T.TensorT) and v.type.rank == 2):
            raise o.error(node, f"sparse_matmul takes rank-2 tensors, got {describe(v)}", "L12.1")
    acc = need_dtype(o, node, acc_dtype, "acc_dtype")
    attrs = {"format": Raw(format_name(o, node, format, SPARSE, "format")), "acc_dtype": Raw(acc.name)}
    return o.emit1("sparse_matmul", [compressed, metadata, rhs],
                   T.TensorT(acc, (compressed.type.shape[0], rhs.type.shape[1])), attrs, hint="acc")


def op_quantize(o, node, values, *, format):
    if format_name(o, node, format, ("q8_k",), "format") != "q8_k" or not (
            is_runtime(values) and isinstance(values.type, T.TensorT) and values.type.dtype.name == "f32"):
        raise o.error(node, f"quantize takes an f32 tensor [..., K], got {describe(values)}", "L11.3")
    *lead, k = values.type.shape
    lead = tuple(lead)
    rec = T.RecordT((("d", T.TensorT(T.DTYPES["f32"], lead + (T.Extent.floordiv(k, T.Extent.const(256)),))),
                     ("qs", T.TensorT(T.DTYPES["i8"], lead + (k,))),
                     ("bsums", T.TensorT(T.DTYPES["i16"], lead + (T.Extent.floordiv(k, T.Extent.const(16)),)))))
    return o.emit1("quantize", [values], rec, {"format": Raw("q8_k")}, hint="q")


def op_quantized_dot(o, node, lhs, rhs, *, lhs_format, rhs_format, acc_dtype):
    lf = format_name(o, node, lhs_format, ("q4_k",), "lhs_format")
    rf = format_name(o, node, rhs_format, ("q8_k",), "rhs_format")
    acc = need_dtype(o, node, acc_dtype, "acc_dtype")
    lhs, rhs = o.value(lhs, None, node), o.value(rhs, None, node)
    if not (isinstance(lhs.type, T.RecordT) and isinstance(rhs.type, T.RecordT) and lhs.type.field("d")
            and rhs.type.field("d")):
        raise o.error(node, "quantized_dot takes a q4_k record and a q8_k record", "L11.3")
    shape = lhs.type.field("d").shape[:-1] + rhs.type.field("d").shape[:-1]
    return o.emit1("quantized_dot", [lhs, rhs], T.TensorT(acc, shape), {"lhs_format": Raw(lf), "rhs_format": Raw(rf)},
                   hint="qdot")
