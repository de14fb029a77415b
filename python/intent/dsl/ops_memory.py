"""Memory and effects: buffers, explicit gather/unique_store/scatter_reduce with validity,
atomics on element addresses, RNG, histogram and the ragged-group helpers."""
from __future__ import annotations

from . import types as T
from .emitter import Raw
from .lower import is_runtime
from .ops import BOOL, INDEX, describe
from .ops_values import need_dtype, shape_arg
from .ops_reduce import operand_values


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
