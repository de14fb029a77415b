"""The named ops of the language (`intent.<op>(...)` inside a kernel), one function per op:
argument checking in the surface's own terms and the KIR op (canonical, or a surface shorthand
that `kir normalize` rewrites) with its declared result type. Called by OpLowering.call_marker."""
from __future__ import annotations

from typing import List

from . import types as T
from .emitter import Raw
from .errors import not_implemented
from .lower import is_runtime
from .ops import BOOL, INDEX, UNARY_MATH, RecordValue, describe

# ---- domains ---------------------------------------------------------------------------------


def op_domain(o, node, begin, end=None, step=1):
    if end is None:
        begin, end = 0, begin
    b, e = o.index(begin, node), o.index(end, node)
    ops = [b, e]
    ext = o.extent(e) - o.extent(b)
    if not (isinstance(step, int) and not isinstance(step, bool) and step == 1):
        if isinstance(step, int) and step <= 0:
            raise o.error(node, f"a domain's step must be positive, got {step} (reverse order is written with an "
                                f"explicit forward counter: i = n - 1 - ordinal)", "L3.1")
        s = o.index(step, node)
        ops.append(s)
        ext = T.Extent.floordiv(ext + o.extent(s) - T.Extent.const(1), o.extent(s))
    if ext.constant() is not None and ext.constant() < 0:
        ext = T.Extent.const(0)
    return o.emit1("domain", ops, T.DomainT(ext), hint="d")


def op_indices(o, node, d):
    if not (is_runtime(d) and isinstance(d.type, T.DomainT)):
        raise o.error(node, f"intent.indices takes a domain or subregion, got {describe(d)}", "L3.4")
    return o.indices(d, node)


# ---- values ----------------------------------------------------------------------------------


def need_dtype(o, node, d, what="dtype"):
    if not isinstance(d, T.DType):
        raise o.error(node, f"{what} must be an intent dtype (intent.f32, ...), got {describe(d)}", "L4.14")
    return d


def op_cast(o, node, x, dtype):
    d = need_dtype(o, node, dtype)
    if not is_runtime(x):
        return o.const(x, d, node)
    if T.element(x.type) is None:
        raise o.error(node, f"intent.cast takes a scalar or tensor, got {x.type.kir()}", "L4.14")
    if T.element(x.type) is d:
        return x
    return o.emit1("cast", [x], T.with_dtype(x.type, d), hint=x.name + "_" + d.name)


def op_bitcast(o, node, x, dtype):
    d = need_dtype(o, node, dtype)
    x = o.value(x, None, node)
    return o.emit1("bitcast", [x], T.with_dtype(x.type, d), hint=x.name + "_bits")


def shape_arg(o, node, shape) -> T.Shape:
    if is_runtime(shape) or not isinstance(shape, tuple):
        if isinstance(shape, int) or is_runtime(shape):
            shape = (shape,)
        else:
            raise o.error(node, f"a shape is a tuple of extents, got {describe(shape)}", "L4.9")
    out = []
    for e in shape:
        if is_runtime(e):
            out.append(o.extent(o.index(e, node)))
        elif isinstance(e, int) and not isinstance(e, bool) and e >= 0:
            out.append(T.Extent.const(e))
        else:
            raise o.error(node, f"an extent is a non-negative int or an index value, got {describe(e)}", "L4.9")
    return tuple(out)


def op_full(o, node, shape, fill, dtype=None):
    shp = shape_arg(o, node, shape)
    if dtype is None:
        if not is_runtime(fill):
            raise o.error(node, "intent.full needs dtype= when the fill is a Python constant", "L4.9")
        d = T.element(fill.type)
    else:
        d = need_dtype(o, node, dtype)
    f = o.value(fill, d, node)
    if f.type != T.ScalarT(d):
        raise o.error(node, f"the fill of intent.full is a {d.name} scalar, got {f.type.kir()}", "L4.9")
    return o.emit1("full", [f], T.TensorT(d, shp), hint="full")


def op_zeros(o, node, shape, dtype):
    return op_full(o, node, shape, 0, dtype)


def op_select(o, node, cond, a, b):
    rt = [v for v in (a, b) if is_runtime(v)]
    like = T.element(rt[0].type) if rt else None
    c, x, y = o.elementwise([cond, a, b], node, same_dtype=False)
    if T.element(c.type) is not BOOL:
        raise o.error(node, f"the condition of intent.select is bool, got {c.type.kir()}", "L4.14")
    x, y = o.elementwise([x if is_runtime(a) else a, y if is_runtime(b) else b], node, like=like)
    x, y = o.broadcast_to(x, T.shape_of(c.type), node), o.broadcast_to(y, T.shape_of(c.type), node)
    return o.emit1("select", [c, x, y], x.type)


def binary(name):
    def op(o, node, a, b, **attrs):
        x, y = o.elementwise([a, b], node)
        return o.emit1(name, [x, y], x.type, {k: v for k, v in attrs.items() if v} or None)
    return op


op_maximum = binary("max")
op_minimum = binary("min")
op_rem = binary("rem")
op_pow = binary("pow")


def op_div(o, node, a, b):
    return binary("div")(o, node, a, b)


def op_fdiv(o, node, lhs, rhs, *, approximate=False, flush_to_zero=False):
    options(o, node, approximate=approximate, flush_to_zero=flush_to_zero)
    return binary("div")(o, node, lhs, rhs, approximate=approximate, flush_to_zero=flush_to_zero)


def options(o, node, **opts):
    for k, v in opts.items():
        if not isinstance(v, bool):
            raise o.error(node, f"'{k}' is a constexpr bool, got {describe(v)}", "L4.5")


def unary(name):
    def op(o, node, x, **attrs):
        options(o, node, **attrs)
        x = o.value(x, None, node) if is_runtime(x) else x
        if not is_runtime(x):
            raise o.error(node, f"intent.{name} takes a runtime scalar or tensor; the Python constant {x!r} has no "
                                f"dtype (use intent.cast)", "L4.3")
        d = T.element(x.type)
        if d is None or (not d.is_float and name not in ("abs",)):
            raise o.error(node, f"intent.{name} takes a floating scalar or tensor, got {x.type.kir()}", "L4.3")
        return o.emit1(name, [x], x.type, {k: v for k, v in attrs.items() if v} or None, hint=name)
    return op


for _n in UNARY_MATH:
    globals()["op_" + _n] = unary(_n)


def op_exp2(o, node, value, *, approximate=False, flush_to_zero=False):
    return unary("exp2")(o, node, value, approximate=approximate, flush_to_zero=flush_to_zero)


def op_tanh(o, node, value, *, approximate=False):
    return unary("tanh")(o, node, value, approximate=approximate)


def op_reshape(o, node, x, shape):
    shp = shape_arg(o, node, shape)
    return o.emit1("reshape", [x], T.TensorT(x.type.dtype, shp), hint=x.name + "_r")


def op_transpose(o, node, x, perm=None):
    if not (is_runtime(x) and isinstance(x.type, T.TensorT)):
        raise o.error(node, f"intent.transpose takes a ranked tensor, got {describe(x)}", "L4.7")
    r = x.type.rank
    perm = list(reversed(range(r))) if perm is None else list(perm)
    if sorted(perm) != list(range(r)):
        raise o.error(node, f"{perm} is not a permutation of the {r} axes", "L4.7")
    return o.emit1("transpose", [x], T.TensorT(x.type.dtype, tuple(x.type.shape[p] for p in perm)),
                   {"perm": perm}, hint=x.name + "_t")


op_permute = op_transpose


def op_join(o, node, lhs, rhs):
    x, y = o.elementwise([lhs, rhs], node)
    if x.type != y.type:
        raise o.error(node, f"intent.join stacks two values of one type, got {x.type.kir()} and {y.type.kir()}",
                      "L4.10")
    return o.emit1("join", [x, y], T.TensorT(T.element(x.type), T.shape_of(x.type) + (T.Extent.const(2),)))


def op_record(o, node, **fields):
    if not fields:
        raise o.error(node, "a record has at least one field", "L4.12")
    return RecordValue(fields.keys(), fields.values())


# ---- reductions and scans ---------------------------------------------------------------------


def axes_arg(o, node, x, axis, many=True) -> List[int]:
    r = x.type.rank
    axes = list(axis) if isinstance(axis, tuple) else [axis]
    if not axes or not all(isinstance(a, int) and not isinstance(a, bool) for a in axes):
        raise o.error(node, f"axis is a constant int{' or a non-empty tuple of ints' if many else ''}, "
                            f"got {axis!r}", "L7.6")
    out = []
    for a in axes:
        if not -r <= a < r:
            raise o.error(node, f"axis {a} is out of range for rank {r}", "L7.6")
        out.append(a % r)
    if len(set(out)) != len(out):
        raise o.error(node, f"axis {axis} names an axis twice", "L7.6")
    return out


def tensor_arg(o, node, x, what):
    if not (is_runtime(x) and isinstance(x.type, T.TensorT)):
        raise o.error(node, f"{what} takes a ranked tensor, got {describe(x)}", "L7.6")
    return x


def builtin_reduce(kind):
    def op(o, node, value, *, axis, acc_dtype=None):
        x = tensor_arg(o, node, value, f"intent.reduce.{kind}")
        axes = axes_arg(o, node, x, axis)
        d = x.type.dtype
        if kind == "sum":
            acc = need_dtype(o, node, acc_dtype, "acc_dtype") if acc_dtype is not None else T.default_sum_accumulator(d)
            if acc is None:
                raise o.error(node, f"reduce.sum of {d.name} has no default accumulator: give acc_dtype", "L7.6")
        elif kind == "max":
            acc = need_dtype(o, node, acc_dtype, "acc_dtype") if acc_dtype is not None else d
        else:
            if acc_dtype is not None:
                raise o.error(node, f"reduce.{kind} takes no acc_dtype", "L7.6")
            if d is not BOOL:
                raise o.error(node, f"reduce.{kind} takes a bool tensor, got {x.type.kir()}", "L7.6")
            acc = BOOL
        shape = tuple(e for i, e in enumerate(x.type.shape) if i not in axes)
        attrs = {"axis": axes if len(axes) > 1 or isinstance(axis, tuple) else axes[0]}
        if acc_dtype is not None:
            attrs["acc_dtype"] = Raw(acc.name)
        return o.emit1("reduce." + kind, [x], T.value_type(acc, shape) if shape else T.TensorT(acc, ()), attrs,
                       hint=kind)
    return op


for _k in ("sum", "max", "any", "all"):
    globals()["op_reduce_" + _k] = builtin_reduce(_k)


def op_arg_reduce_max(o, node, value, *, axis):
    x = tensor_arg(o, node, value, "intent.arg_reduce.max")
    (a,) = axes_arg(o, node, x, axis, many=False)
    shape = tuple(e for i, e in enumerate(x.type.shape) if i != a)
    outs = o.em.op("arg_reduce.max", [x], [T.value_type(x.type.dtype, shape), T.value_type(INDEX, shape)],
                   {"axis": a}, ["amax", "argmax"])
    return tuple(outs)


def prefix(kind):
    def op(o, node, value, *, axis, inclusive=True, reverse=False, acc_dtype=None):
        x = tensor_arg(o, node, value, f"intent.{kind}")
        (a,) = axes_arg(o, node, x, axis, many=False)
        options(o, node, inclusive=inclusive, reverse=reverse)
        d = x.type.dtype
        if acc_dtype is not None:
            acc = need_dtype(o, node, acc_dtype, "acc_dtype")
        else:
            acc = T.default_sum_accumulator(d) if kind == "cumsum" else d
            if acc is None:
                raise o.error(node, f"{kind} of {d.name} has no default accumulator: give acc_dtype", "L8.2")
        attrs = {"axis": axis}
        if not inclusive:
            attrs["inclusive"] = False
        if reverse:
            attrs["reverse"] = True
        if acc_dtype is not None:
            attrs["acc_dtype"] = Raw(acc.name)
        return o.emit1(kind, [x], T.TensorT(acc, x.type.shape), attrs, hint=kind)
    return op


op_cumsum = prefix("cumsum")
op_cummax = prefix("cummax")


def op_reduce(o, node, value, *, axis, identity, combine, combine_operands=()):
    from .kernel import Helper
    x = tensor_arg(o, node, value, "intent.reduce")
    axes = axes_arg(o, node, x, axis)
    if not isinstance(combine, Helper):
        raise o.error(node, f"combine is an @intent.fn helper, got {describe(combine)}", "L7.2")
    shape = tuple(e for i, e in enumerate(x.type.shape) if i not in axes)
    ident = o.value(identity, x.type.dtype, node)
    if isinstance(ident.type, T.ScalarT) and shape:
        ident = o.emit1("full", [ident], T.TensorT(ident.type.dtype, shape), hint="identity")
    acc_t = ident.type
    if T.element(acc_t) is not x.type.dtype or T.shape_of(acc_t) != shape:
        raise o.error(node, f"the identity has type {acc_t.kir()}; the accumulator of this reduce is "
                            f"{T.value_type(x.type.dtype, shape).kir() if shape else x.type.dtype.name}", "L7.4")
    caps = [o.value(c, None, node) for c in (combine_operands if isinstance(combine_operands, tuple)
                                             else (combine_operands,))]
    name = o.fl.program.combine_helper(o.fl, combine, [acc_t, acc_t] + [c.type for c in caps], acc_t, node)
    return o.emit1("reduce", [x, ident] + caps, acc_t, {"axes": axes, "combine": Raw("@" + name)}, hint="red")


def op_scan(o, node, value, *, axis, identity, combine, inclusive=True, reverse=False, combine_operands=()):
    from .kernel import Helper
    x = tensor_arg(o, node, value, "intent.scan")
    (a,) = axes_arg(o, node, x, axis, many=False)
    options(o, node, inclusive=inclusive, reverse=reverse)
    if not isinstance(combine, Helper):
        raise o.error(node, f"combine is an @intent.fn helper, got {describe(combine)}", "L8.1")
    shape = tuple(e for i, e in enumerate(x.type.shape) if i != a)
    ident = o.value(identity, x.type.dtype, node)
    if isinstance(ident.type, T.ScalarT) and shape:
        ident = o.emit1("full", [ident], T.TensorT(ident.type.dtype, shape), hint="identity")
    acc_t = ident.type
    caps = [o.value(c, None, node) for c in (combine_operands if isinstance(combine_operands, tuple)
                                             else (combine_operands,))]
    name = o.fl.program.combine_helper(o.fl, combine, [acc_t, acc_t] + [c.type for c in caps], acc_t, node)
    attrs = {"axis": a, "combine": Raw("@" + name), "inclusive": inclusive, "reverse": reverse}
    return o.emit1("scan", [x, ident] + caps, T.TensorT(T.element(acc_t), x.type.shape), attrs, hint="scan")


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


# ---- not lowered yet: loud, located errors ---------------------------------------------------------

for _name in ("region_fold", "region_scan", "scaled_matmul", "scaled_contract", "sparse_matmul", "sparse_contract",
              "quantize", "quantized_dot", "histogram", "gather", "scatter_reduce", "unique_store", "buffer",
              "atomic_load", "atomic_store", "atomic_add", "atomic_compare_exchange", "random_bits", "random_uniform",
              "ragged", "members"):
    def _missing(o, node, *a, _n=_name, **k):
        raise o.error(node, not_implemented("intent." + _n.replace("atomic_", "atomic.").replace("random_", "random.")))
    globals()["op_" + _name] = _missing
