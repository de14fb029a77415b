"""The named ops of the language (`intent.<op>(...)` inside a kernel), one function per op:
argument checking in the surface's own terms and the KIR op (canonical, or a surface shorthand
that `kir normalize` rewrites) with its declared result type. Called by OpLowering.call_marker."""
from __future__ import annotations

from typing import List

from . import types as T
from .emitter import Raw
from .errors import not_implemented
from .lower import is_runtime
from .ops import BOOL, INDEX, UNARY_MATH, Dim, RecordValue, describe

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
        return o.emit1("reduce." + kind, [x], T.value_type(acc, shape), attrs,
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


def structured_operands(o, node, value, identity, axes_of, what, rule):
    """The source (a tensor, or a tuple of tensors as one KIR tuple) and the identity of a generic
    reduce or scan, with the accumulator type: per component, the source's dtype and its shape
    less the reduced axes (a scalar when none remain); a scalar identity of a tensor accumulator
    is filled to its shape (L7.1, L7.4)."""
    comps = list(value) if isinstance(value, tuple) else None
    if comps is None and is_runtime(value) and isinstance(value.type, T.TupleT):
        comps = o.unpack(value, None, node)
        src = value
    elif comps is not None:
        src = None
    else:
        src = tensor_arg(o, node, value, what)
        comps = [src]
    for c in comps:
        if not (is_runtime(c) and isinstance(c.type, T.TensorT)):
            raise o.error(node, f"{what}: every source component is a ranked tensor, got {describe(c)}", rule)
    axes = axes_of(comps[0])
    for c in comps[1:]:
        if axes_of(c) != axes or any(c.type.shape[a] != comps[0].type.shape[a] for a in axes):
            raise o.error(node, f"{what}: the source components differ on the reduced axes ({c.type.kir()} against "
                                f"{comps[0].type.kir()})", rule)
    idents = list(identity) if isinstance(identity, tuple) else [identity]
    if len(idents) != len(comps):
        raise o.error(node, f"{what}: the identity has {len(idents)} components, the source {len(comps)}", "L7.4")
    ivals = []
    for c, i in zip(comps, idents):
        shape = tuple(e for k, e in enumerate(c.type.shape) if k not in axes_of(c))
        iv = o.value(i, c.type.dtype, node)
        if isinstance(iv.type, T.ScalarT) and shape:
            iv = o.emit1("full", [iv], T.TensorT(iv.type.dtype, shape), hint="identity")
        want = T.value_type(c.type.dtype, shape)
        if iv.type != want:
            raise o.error(node, f"{what}: an identity component has type {iv.type.kir()}; its accumulator is "
                                f"{want.kir()}", "L7.4")
        ivals.append(iv)
    if len(comps) == 1 and not isinstance(value, tuple) and not (is_runtime(value) and isinstance(value.type, T.TupleT)):
        return src, ivals[0], comps, axes
    if src is None:
        src = o.make_tuple(tuple(comps), node)
    ident = o.make_tuple(tuple(ivals), node)
    return src, ident, comps, axes


def captures(o, node, combine_operands):
    ops = combine_operands if isinstance(combine_operands, tuple) else (combine_operands,)
    return [o.value(c, None, node) for c in ops]


def op_reduce(o, node, value, *, axis, identity, combine, combine_operands=()):
    src, ident, comps, axes = structured_operands(o, node, value, identity, lambda c: axes_arg(o, node, c, axis),
                                                  "intent.reduce", "L7.1")
    caps = captures(o, node, combine_operands)
    acc_t = ident.type
    name = o.fl.program.combine_helper(o.fl, combine, [acc_t, acc_t] + [c.type for c in caps], acc_t, node)
    return o.emit1("reduce", [src, ident] + caps, acc_t, {"axes": axes, "combine": Raw("@" + name)}, hint="red")


def op_scan(o, node, value, *, axis, identity, combine, inclusive=True, reverse=False, combine_operands=()):
    options(o, node, inclusive=inclusive, reverse=reverse)
    src, ident, comps, axes = structured_operands(o, node, value, identity,
                                                  lambda c: axes_arg(o, node, c, axis, many=False), "intent.scan",
                                                  "L8.1")
    caps = captures(o, node, combine_operands)
    acc_t = ident.type
    name = o.fl.program.combine_helper(o.fl, combine, [acc_t, acc_t] + [c.type for c in caps], acc_t, node)
    attrs = {"axis": axes[0], "combine": Raw("@" + name), "inclusive": inclusive, "reverse": reverse}
    if isinstance(acc_t, T.TupleT):
        result = T.TupleT(tuple(T.TensorT(T.element(a), c.type.shape) for a, c in zip(acc_t.items, comps)))
    else:
        result = T.TensorT(T.element(acc_t), comps[0].type.shape)
    return o.emit1("scan", [src, ident] + caps, result, attrs, hint="scan")


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


# ---- region fold and region scan ------------------------------------------------------------------

SLICE = T.Extent.symbol("%__slice")  # stands for the compiler-chosen slice extent while specializing


def region_sources(o, node, source, axis, what):
    srcs = list(source) if isinstance(source, tuple) else [source]
    if not srcs:
        raise o.error(node, f"{what} needs at least one source", "L9.1")
    vals = []
    extent = None
    for s in srcs:
        v = o.value(s, None, node)
        if not isinstance(v.type, T.TensorT):
            raise o.error(node, f"{what}: a source component is a ranked tensor, got {v.type.kir()}", "L9.1")
        if not isinstance(axis, int) or not -v.type.rank <= axis < v.type.rank:
            raise o.error(node, f"{what}: axis {axis!r} is not an axis of {v.type.kir()}", "L9.1")
        e = v.type.shape[axis % v.type.rank]
        if extent is not None and e != extent:
            raise o.error(node, f"{what}: the source components have extents {extent} and {e} on the axis", "L9.1")
        extent = e
        vals.append(v)
    slices = []
    for v in vals:
        a = axis % v.type.rank
        slices.append(T.TensorT(v.type.dtype, v.type.shape[:a] + (SLICE,) + v.type.shape[a + 1:]))
    return vals, slices, extent


def operand_values(o, node, operands):
    ops = list(operands) if isinstance(operands, tuple) else [operands]
    out = []
    for x in ops:
        if is_runtime(x) or isinstance(x, (tuple, RecordValue)):
            out.append(o.value(x, None, node))
        else:
            raise o.error(node, f"region operands are runtime values; the constexpr {x!r} is captured by the helper "
                                f"itself", "L9.1")
    return out


def op_region_fold(o, node, *, source, axis, summarize, combine, identity, operands=()):
    prog = o.fl.program
    vals, slices, _ = region_sources(o, node, source, axis, "region_fold")
    caps = operand_values(o, node, operands)
    ident = o.value(identity, None, node)
    s_t = ident.type
    sname, sres = prog.typed_helper(o.fl, summarize, slices + [c.type for c in caps], node, "summarize", "L9.1")
    if sres != s_t:
        raise o.error(node, f"summarize returns {sres.kir()} but the identity has type {s_t.kir()}", "L9.1")
    cname, cres = prog.typed_helper(o.fl, combine, [s_t, s_t], node, "combine", "L9.3")
    if cres != s_t:
        raise o.error(node, f"combine returns {cres.kir()}; the summary is {s_t.kir()}", "L9.3")
    attrs = {"axis": axis % vals[0].type.rank, "summarize": Raw("@" + sname), "combine": Raw("@" + cname),
             "segments": [len(vals), 1, len(caps)]}
    return o.emit1("region_fold", vals + [ident] + caps, s_t, attrs, hint="fold")


def op_region_scan(o, node, *, source, axis, summarize, combine, identity, initial_state, apply, emit, operands=()):
    prog = o.fl.program
    vals, slices, extent = region_sources(o, node, source, axis, "region_scan")
    caps = operand_values(o, node, operands)
    ident = o.value(identity, None, node)
    init = o.value(initial_state, None, node)
    tr, st = ident.type, init.type
    sname, sres = prog.typed_helper(o.fl, summarize, slices + [c.type for c in caps], node, "summarize", "L9.5")
    if sres != tr:
        raise o.error(node, f"summarize returns {sres.kir()} but the identity (a transition) has type {tr.kir()}",
                      "L9.5")
    cname, cres = prog.typed_helper(o.fl, combine, [tr, tr], node, "combine", "L9.5")
    if cres != tr:
        raise o.error(node, f"combine returns {cres.kir()}; the transition is {tr.kir()}", "L9.5")
    aname, ares = prog.typed_helper(o.fl, apply, [tr, st], node, "apply", "L9.5")
    if ares != st:
        raise o.error(node, f"apply returns {ares.kir()}; the state is {st.kir()}", "L9.5")
    ename, eres = prog.typed_helper(o.fl, emit, slices + [st] + [c.type for c in caps], node, "emit", "L9.5",
                                    extra={str(SLICE): extent})
    attrs = {"axis": axis % vals[0].type.rank, "summarize": Raw("@" + sname), "combine": Raw("@" + cname),
             "apply": Raw("@" + aname), "emit": Raw("@" + ename), "segments": [len(vals), 1, 1, len(caps)]}
    outs = o.em.op("region_scan", vals + [ident, init] + caps, [eres, st], attrs, ["outputs", "final_state"])
    return tuple(outs)


# ---- buffers, explicit gathers and scatters ----------------------------------------------------------

def op_buffer(o, node, shape, *, dtype, init=None):
    """A kernel-local logical buffer (L15.4); `init` is a scalar fill, a tensor, or None (undefined)."""
    d = need_dtype(o, node, dtype)
    shp = shape_arg(o, node, shape)
    ops = []
    if init is not None:
        v = o.value(init, d, node)
        if T.element(v.type) is not d or (isinstance(v.type, T.TensorT) and v.type.shape != shp):
            raise o.error(node, f"a buffer's init is a {d.name} scalar or a {T.TensorT(d, shp).kir()} tensor, got "
                                f"{v.type.kir()}", "L15.4")
        ops.append(v)
    return o.emit1("buffer.alloc", ops, T.BufferT(d, shp), hint="buf")


def paired_relation(o, node, base, coords, valid):
    """An index relation whose tensor coordinates (and validity) broadcast together, NumPy-style:
    one point per element of their common shape (L15.1). Domains stand for their indices."""
    if T.element(base.type) is None or not isinstance(base.type, (T.TensorT, T.ViewT, T.BufferT)):
        raise o.error(node, f"{describe(base)} is not a tensor, view or buffer", "L15.3")
    rank = base.type.rank
    if len(coords) != rank:
        raise o.error(node, f"{base.type.kir()} has rank {rank} and takes {rank} coordinates, got {len(coords)}",
                      "L15.1")
    vals = []
    for c in coords:
        if is_runtime(c) and isinstance(c.type, T.DomainT):
            c = o.indices(c, node)
        if is_runtime(c) and isinstance(c.type, T.TensorT):
            if not c.type.dtype.is_int:
                raise o.error(node, f"coordinates are integers, got {c.type.kir()}", "L15.1")
            vals.append(c)
        else:
            vals.append(o.index(c, node))
    shapes = [T.shape_of(v.type) for v in vals]
    vmask = None
    if valid is not None:
        vmask = o.value(valid, BOOL, node)
        if T.element(vmask.type) is not BOOL:
            raise o.error(node, f"valid is bool, got {vmask.type.kir()}", "L15.2")
        shapes.append(T.shape_of(vmask.type))
    shape = o.broadcast_shape(shapes, node)
    ops = [o.broadcast_to(v, shape, node) if isinstance(v.type, T.TensorT) else v for v in vals]
    if vmask is not None:
        ops.append(o.broadcast_to(vmask, shape, node) if isinstance(vmask.type, T.TensorT) else vmask)
    return o.emit1("relation", ops, T.RelationT(rank, shape, vmask is not None), hint="rel"), shape


def op_gather(o, node, source, *coords, valid=None, fill=None):
    """source[c0, c1, ...] with coordinates paired elementwise; invalid points read `fill` (L15.2)."""
    if not is_runtime(source):
        raise o.error(node, f"intent.gather reads a tensor, view or buffer, got {describe(source)}", "L15.3")
    rel, shape = paired_relation(o, node, source, coords, valid)
    ops = [source, rel]
    if valid is not None:
        if fill is None:
            raise o.error(node, "a gather with valid= needs the fill= its invalid points read", "L15.2")
        ops.append(o.value(fill, source.type.dtype, node))
    elif fill is not None:
        raise o.error(node, "fill= is only for a gather with valid=", "L15.2")
    from .ops import LOADS
    return o.emit1(LOADS[type(source.type)], ops, T.value_type(source.type.dtype, shape), hint="g")


def op_unique_store(o, node, dest, *coords, value, valid=None):
    """dest[c...] = value through a relation the author asserts is injective (L15.3)."""
    rel, shape = paired_relation(o, node, dest, coords, valid)
    o.store(dest, None, value, node, rel=rel, op="unique_store")


def op_scatter_reduce(o, node, dest, *coords, value, combine, operands=()):
    """dest[c...] = combine(dest[c...], value, operands...) per point, colliding points combined (L15.3)."""
    rel, shape = paired_relation(o, node, dest, coords, None)
    if not isinstance(dest.type, (T.ViewT, T.BufferT)) or (isinstance(dest.type, T.ViewT) and dest.type.access == "In"):
        raise o.error(node, f"scatter_reduce writes an Out/InOut view or a buffer, got {dest.type.kir()}", "L15.3")
    v = o.value(value, dest.type.dtype, node)
    v = o.broadcast_to(v, shape, node) if shape else v
    caps = operand_values(o, node, operands)
    el = T.ScalarT(dest.type.dtype)
    name = o.fl.program.combine_helper(o.fl, combine, [el, el] + [c.type for c in caps], el, node)
    o.em.op("scatter_reduce", [dest, rel, v] + caps, [], {"combine": Raw("@" + name)})


# ---- atomics ---------------------------------------------------------------------------------------

ORDERS = {"load": ("relaxed", "acquire"), "store": ("relaxed", "release"),
          "rmw": ("relaxed", "acquire", "release", "acq_rel")}


def address(o, node, addr, what):
    from .ops import Address
    if not isinstance(addr, Address):
        raise o.error(node, f"{what} takes an element address `view[i, j]` or `buffer[i]`", "L16.1")
    base = addr.base
    if not (is_runtime(base) and isinstance(base.type, (T.ViewT, T.BufferT))):
        raise o.error(node, f"{what}: atomics address views and buffers, got {describe(base)}", "L16.1")
    rel = o.relation(base, addr.items, node)
    if rel.type.shape:
        raise o.error(node, f"{what}: an atomic addresses one element, got a block of shape "
                            f"[{', '.join(map(str, rel.type.shape))}]", "L16.1")
    return base, rel


def order_attr(o, node, order, kind):
    if order not in ORDERS[kind]:
        raise o.error(node, f"order {order!r} is not allowed here; use one of {', '.join(ORDERS[kind])}", "L16.1")
    return Raw(order)


def op_atomic_load(o, node, addr, *, order="relaxed"):
    base, rel = address(o, node, addr, "intent.atomic.load")
    return o.emit1("atomic.load", [base, rel], T.ScalarT(base.type.dtype), {"order": order_attr(o, node, order, "load")},
                   hint="old")


def op_atomic_store(o, node, addr, value, *, order="relaxed"):
    base, rel = address(o, node, addr, "intent.atomic.store")
    v = o.value(value, base.type.dtype, node)
    o.em.op("atomic.store", [base, rel, v], [], {"order": order_attr(o, node, order, "store")})


def rmw(kind):
    def op(o, node, addr, value, *, order="relaxed"):
        base, rel = address(o, node, addr, f"intent.atomic.{kind}")
        v = o.value(value, base.type.dtype, node)
        return o.emit1("atomic.rmw", [base, rel, v], T.ScalarT(base.type.dtype),
                       {"kind": Raw(kind), "order": order_attr(o, node, order, "rmw")}, hint="old")
    return op


for _k in ("exchange", "add", "max", "min", "and", "or", "xor"):
    globals()["op_atomic_" + _k] = rmw(_k)


def op_atomic_compare_exchange(o, node, addr, expected, desired, *, order="relaxed"):
    base, rel = address(o, node, addr, "intent.atomic.compare_exchange")
    d = base.type.dtype
    e, v = o.value(expected, d, node), o.value(desired, d, node)
    rt = T.RecordT((("old_value", T.ScalarT(d)), ("success", T.ScalarT(BOOL))))
    return o.emit1("atomic.compare_exchange", [base, rel, e, v], rt, {"order": order_attr(o, node, order, "rmw")},
                   hint="cas")


# ---- RNG and histogram -------------------------------------------------------------------------------

def rng_operands(o, node, seed, counter):
    s = o.value(seed, T.DTYPES["u64"], node)
    if s.type != T.ScalarT(T.DTYPES["u64"]):
        raise o.error(node, f"the seed is a u64 scalar, got {s.type.kir()}", "L17.1")
    c = o.value(counter, T.DTYPES["u64"], node) if not is_runtime(counter) else counter
    if is_runtime(c) and isinstance(c.type, T.DomainT):
        c = o.indices(c, node)
    if T.element(c.type) not in (T.DTYPES["u64"], INDEX):
        raise o.error(node, f"the counter is u64 or index, got {c.type.kir()}", "L17.1")
    return s, c


def op_random_bits(o, node, seed, counter):
    s, c = rng_operands(o, node, seed, counter)
    return o.emit1("random.bits", [s, c], T.with_dtype(c.type, T.DTYPES["u32"]), hint="bits")


def op_random_uniform(o, node, seed, counter, dtype=None):
    d = need_dtype(o, node, dtype if dtype is not None else T.DTYPES["f32"])
    if d.name not in ("f16", "bf16", "f32", "f64"):
        raise o.error(node, f"uniform produces f16, bf16, f32 or f64, not {d.name}", "L17.2")
    s, c = rng_operands(o, node, seed, counter)
    return o.emit1("random.uniform", [s, c], T.with_dtype(c.type, d), hint="u")


def op_histogram(o, node, values, *, bins, valid=True, count_dtype=None):
    if not (is_runtime(values) and isinstance(values.type, T.TensorT) and values.type.dtype.is_int):
        raise o.error(node, f"histogram counts an integer tensor, got {describe(values)}", "L13.1")
    if isinstance(bins, int) and bins <= 0:
        raise o.error(node, f"bins is positive, got {bins}", "L13.1")
    b = o.index(bins, node)
    d = need_dtype(o, node, count_dtype if count_dtype is not None else T.DTYPES["u32"], "count_dtype")
    if not d.is_int:
        raise o.error(node, f"count_dtype is an integer dtype, got {d.name}", "L13.1")
    v = o.value(valid, BOOL, node)
    if isinstance(v.type, T.TensorT):
        v = o.broadcast_to(v, values.type.shape, node)
    return o.emit1("histogram", [values, b, v], T.TensorT(d, (o.extent(b),)), hint="hist")


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


# ---- ragged relations (surface helpers over subregions, L14.1) ------------------------------------------

def op_members(o, node, source, offsets, group):
    """source[offsets[group]:offsets[group + 1]]: the members of one ragged group."""
    if not (is_runtime(source) and isinstance(source.type, T.DomainT)):
        raise o.error(node, f"members takes a domain or subregion as its source, got {describe(source)}", "L14.1")
    if not (is_runtime(offsets) and isinstance(offsets.type, (T.ViewT, T.TensorT, T.BufferT))
            and offsets.type.rank == 1 and offsets.type.dtype.is_int):
        raise o.error(node, f"offsets is a rank-1 integer view or tensor, got {describe(offsets)}", "L14.1")
    g = o.index(group, node)
    one = o.const(1, INDEX, node)
    g1 = o.emit1("add", [g, one], T.ScalarT(INDEX), hint="next")
    lo = o.index(o.subscript(offsets, [g], node), node)
    hi = o.index(o.subscript(offsets, [g1], node), node)
    return o.emit1("subregion", [source, lo, hi], T.DomainT(o.extent(hi) - o.extent(lo), True), hint="members")


def op_ragged(o, node, source, offsets, group, mapping=None):
    """The logical members of a ragged group: mapping[members] when a mapping is given, else the
    members' source coordinates."""
    m = op_members(o, node, source, offsets, group)
    if mapping is None:
        return o.indices(m, node)
    return o.subscript(mapping, [m], node)


# ---- not lowered yet: loud, located errors ---------------------------------------------------------

for _name in ():
    def _missing(o, node, *a, _n=_name, **k):
        raise o.error(node, not_implemented("intent." + _n.replace("atomic_", "atomic.").replace("random_", "random.")))
    globals()["op_" + _name] = _missing
