"""The value ops of the language: domains and indices, casts, full/zeros, select, pointwise
binary ops and unary math with their options, reshape/transpose/join and records. One function
per op (`op_<name>`, found by OpLowering.call_marker) with the KIR it emits and its result type."""
from __future__ import annotations

from . import types as T
from .lower import is_runtime
from .ops import BOOL, UNARY_MATH, Dim, RecordValue, describe


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
    x = o.rt(x)
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
        if isinstance(shape, (int, Dim)) or is_runtime(shape):
            shape = (shape,)
        else:
            raise o.error(node, f"a shape is a tuple of extents, got {describe(shape)}", "L4.9")
    out = []
    for e in shape:
        if isinstance(e, Dim):
            out.append(e.extent)
        elif is_runtime(e):
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
    x, y = o.elementwise([a, b], node)
    c = o.value(cond, BOOL, node)
    if T.element(c.type) is not BOOL:
        raise o.error(node, f"the condition of intent.select is bool, got {c.type.kir()}", "L4.14")
    shape = o.broadcast_shape([T.shape_of(c.type), T.shape_of(x.type)], node)
    if shape:
        c, x, y = (o.broadcast_to(v, shape, node) for v in (c, x, y))
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
        x = o.rt(x)
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
