"""Reductions, scans and region ops: the builtin reduce.sum/max/any/all, arg_reduce.max,
cumsum/cummax, generic reduce and scan (also over tuples) with helper combines, and
region_fold/region_scan with helper summarize/combine/apply/emit."""
from __future__ import annotations

from typing import List

from . import types as T
from .emitter import Raw
from .lower import is_runtime
from .ops import BOOL, INDEX, RecordValue, describe
from .ops_values import need_dtype, options


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
