"""Lowering of expressions and ops: every named op of the language and its surface shorthands,
with the result type the KIR text must declare. One method per op family; surface shorthands
(matmul, reduce.sum, cumsum, ...) are emitted as KIR surface ops, which `kir normalize` rewrites to
their one canonical form (L19.1); pointwise broadcasts are made explicit here (L4.1)."""
from __future__ import annotations

import ast
import builtins
import math
import struct
from typing import List, Optional, Sequence

from . import types as T
from .emitter import Raw, Value
from .errors import not_implemented
from .lower import assigned_names, is_runtime, Scope
from .surface import Forbidden, Marker, Namespace

INDEX = T.DTYPES["index"]
BOOL = T.DTYPES["bool"]

BINOPS = {ast.Add: "add", ast.Sub: "sub", ast.Mult: "mul", ast.Div: "div", ast.BitAnd: "and", ast.BitOr: "or",
          ast.BitXor: "xor", ast.LShift: "shl", ast.RShift: "shr", ast.Pow: "pow"}
CMPS = {ast.Lt: "lt", ast.LtE: "le", ast.Gt: "gt", ast.GtE: "ge", ast.Eq: "eq", ast.NotEq: "ne"}
LOADS = {T.ViewT: "view.load", T.TensorT: "gather", T.BufferT: "buffer.load"}
UNARY_MATH = {"exp", "exp2", "log", "log1p", "lgamma", "sin", "asin", "cos", "tanh", "floor", "erf", "erfc", "i0",
              "rsqrt", "sqrt", "sigmoid", "abs"}


def float_text(v: float, d: T.DType) -> str:
    """The literal of `v` rounded to nearest-even in dtype `d`, spelled so it reads back exactly."""
    if math.isnan(v):
        return "nan"
    if math.isinf(v):
        return "inf" if v > 0 else "-inf"
    if d.name == "f64":
        r = v
    elif d.name == "f32":
        r = struct.unpack("<f", struct.pack("<f", v))[0]
    elif d.name == "f16":
        r = struct.unpack("<e", struct.pack("<e", v))[0]
    elif d.name == "bf16":
        bits = struct.unpack("<I", struct.pack("<f", v))[0]
        bits = (bits + 0x7FFF + ((bits >> 16) & 1)) & 0xFFFF0000
        r = struct.unpack("<f", struct.pack("<I", bits))[0]
    else:
        r = v
    if r == int(r) and abs(r) < 2 ** 53:
        return repr(float(r)) if r != 0 or math.copysign(1, r) > 0 else "-0.0"
    return float(r).hex()


class OpLowering:
    def __init__(self, fl):
        self.fl = fl
        self.em = fl.em

    def error(self, node, msg, rule=""):
        return self.fl.error(node, msg, rule)

    def emit1(self, name, operands, result, attrs=None, hint="t"):
        return self.em.op(name, list(operands), [result], attrs, [hint])[0]

    # -- constants ---------------------------------------------------------------------------------
    def const(self, v, d: T.DType, node) -> Value:
        if isinstance(v, bool) or d.name == "bool":
            if d.name != "bool":
                raise self.error(node, f"a bool constant cannot be a {d.name}: cast it explicitly", "L4.14")
            text = Raw("true" if v else "false")
        elif d.is_float or d.kind == "small":
            if not isinstance(v, (int, float)):
                raise self.error(node, f"{v!r} is not a number", "L4.14")
            text = Raw(float_text(float(v), d))
        else:
            if isinstance(v, float):
                if v != int(v):
                    raise self.error(node, f"the float {v!r} is not an integer constant of {d.name}: cast explicitly "
                                           f"with intent.cast", "L4.14")
                v = int(v)
            text = int(v)
        key = ("const", d.name, text.text if isinstance(text, Raw) else text)
        c = self.fl.scope.cached(key)
        if c is not None:
            return c
        hint = "c" + (str(v).replace("-", "m").replace(".", "_") if isinstance(v, int) and not isinstance(v, bool)
                      else "")
        c = self.emit1("const", [], T.ScalarT(d), {"value": text}, hint)
        self.fl.scope.cache[key] = c
        return c

    def rt(self, v):
        return self.dim(v.base, v.axis, v.hint) if isinstance(v, Dim) else v

    def index(self, v, node) -> Value:
        """An index scalar from an index value or a Python int."""
        v = self.rt(v)
        if is_runtime(v):
            if isinstance(v.type, T.ScalarT) and v.type.dtype.is_int:
                if v.type.dtype is not INDEX:
                    return self.emit1("cast", [v], T.ScalarT(INDEX), hint=v.name + "_idx")
                return v
            raise self.error(node, f"an index must be an integer scalar, got {v.type.kir()}", "L3.1")
        if isinstance(v, bool) or not isinstance(v, int):
            raise self.error(node, f"an index must be an integer, got {v!r}", "L3.1")
        return self.const(v, INDEX, node)

    def extent(self, v: Value) -> T.Extent:
        """kir's extent of an index value (mirrors Context::extent_of in the verifier)."""
        if isinstance(v, Dim):
            return v.extent
        if isinstance(v, int):
            return T.Extent.const(v)
        if v.op == "const" and isinstance(v.attrs.get("value"), int):
            return T.Extent.const(v.attrs["value"])
        if v.op == "dim":
            return T.shape_of(v.operands[0].type)[v.attrs["axis"]]
        if v.op in ("add", "sub", "mul") and isinstance(v.type, T.ScalarT) and v.type.dtype.is_int:
            a, b = self.extent(v.operands[0]), self.extent(v.operands[1])
            return a + b if v.op == "add" else a - b if v.op == "sub" else a * b
        return T.Extent.symbol("%" + v.name)

    def value(self, v, like: Optional[T.DType], node) -> Value:
        """A runtime value from v; Python numbers take the dtype `like`."""
        v = self.rt(v)
        if is_runtime(v):
            return v
        if isinstance(v, (bool, int, float)):
            if like is None:
                like = BOOL if isinstance(v, bool) else (INDEX if isinstance(v, int) else None)
                if like is None:
                    raise self.error(node, f"the Python constant {v!r} has no dtype here: give it one with "
                                           f"intent.cast({v!r}, intent.f32)", "L4.14")
            return self.const(v, like, node)
        if isinstance(v, tuple):
            return self.make_tuple(v, node)
        if isinstance(v, RecordValue):
            return self.make_record(v, node)
        raise self.error(node, f"{v!r} is not a value of the language", "L4.14")

    # -- shapes and broadcast -------------------------------------------------------------------------
    def broadcast_shape(self, shapes: Sequence[T.Shape], node) -> T.Shape:
        rank = max((len(s) for s in shapes), default=0)
        out: List[T.Extent] = []
        for i in range(rank):
            cur = None
            for s in shapes:
                k = i - (rank - len(s))
                if k < 0:
                    continue
                e = s[k]
                if cur is None or cur.constant() == 1:
                    cur = e
                elif e == cur or e.constant() == 1:
                    continue
                else:
                    both_dynamic = cur.constant() is None and e.constant() is None
                    raise self.error(node, f"extents {cur} and {e} do not broadcast"
                                           + (" (two different dynamic extents are not provably equal)"
                                              if both_dynamic else ""), "L4.2" if both_dynamic else "L4.1")
            out.append(cur)
        return tuple(out)

    def broadcast_to(self, v: Value, shape: T.Shape, node) -> Value:
        src = T.shape_of(v.type)
        if isinstance(v.type, T.TensorT) and src == tuple(shape):
            return v
        if isinstance(v.type, T.ScalarT) and not shape:
            return v
        dims = list(range(len(shape) - len(src), len(shape)))
        self.broadcast_shape([src, shape], node)
        return self.emit1("broadcast", [v], T.TensorT(v.type.dtype, tuple(shape)), {"dims": dims},
                          v.name + "_b")

    def elementwise(self, vals: List, node, like: Optional[T.DType] = None, same_dtype=True) -> List[Value]:
        """Operands of a pointwise op: numbers take the dtype of the runtime operands, then every
        operand is broadcast to the common shape (explicit broadcast, L4.1)."""
        vals = [self.rt(v) for v in vals]
        rt = [v for v in vals if is_runtime(v)]
        if like is None and rt:
            like = T.element(rt[0].type)
        if like is None:
            raise self.error(node, f"the Python constants {', '.join(repr(v) for v in vals)} have no dtype here: give "
                                   f"one of them a dtype, e.g. intent.cast({vals[-1]!r}, intent.i32)", "L4.14")
        if same_dtype:
            for v in rt:
                if T.element(v.type) is None:
                    raise self.error(node, f"{v.type.kir()} is not a scalar or tensor", "L4.14")
                if T.element(v.type) is not like:
                    raise self.error(node, f"operands have dtypes {like.name} and {T.element(v.type).name}: convert "
                                           f"one explicitly with intent.cast", "L4.14")
        vs = [self.value(v, like, node) for v in vals]
        shape = self.broadcast_shape([T.shape_of(v.type) for v in vs], node)
        if all(isinstance(v.type, T.ScalarT) for v in vs):
            return vs
        return [self.broadcast_to(v, shape, node) for v in vs]

    # -- arithmetic -----------------------------------------------------------------------------------
    def binop(self, op, a, b, node):
        a, b = self.rt(a), self.rt(b)
        if not is_runtime(a) and not is_runtime(b):
            return self.fold(op, a, b, node)
        if op in (ast.FloorDiv, ast.Mod):
            d = T.element((a if is_runtime(a) else b).type)
            if d is not None and (d.is_float or d.is_signed):
                what = "//" if op is ast.FloorDiv else "%"
                raise self.error(node, f"Python's `{what}` rounds toward negative infinity, KIR's div/rem toward zero: "
                                       f"write intent.div / intent.rem (truncating) or compute the floor explicitly",
                                 "L4.14")
            name = "div" if op is ast.FloorDiv else "rem"
        elif op is ast.MatMult:
            return self.call_marker("matmul", [a, b], {}, node)
        else:
            name = BINOPS.get(op)
            if name is None:
                raise self.error(node, not_implemented(f"the operator {op.__name__}"))
        if name == "div":
            d = T.element((a if is_runtime(a) else b).type)
            if d is not None and d.is_int and op is ast.Div:
                raise self.error(node, "`/` is true division; integer division is intent.div (truncating) or `//` "
                                       "on unsigned values", "L4.14")
        x, y = self.elementwise([a, b], node)
        return self.emit1(name, [x, y], x.type)

    def fold(self, op, a, b, node):
        import operator
        f = {ast.Add: operator.add, ast.Sub: operator.sub, ast.Mult: operator.mul, ast.Div: operator.truediv,
             ast.FloorDiv: operator.floordiv, ast.Mod: operator.mod, ast.Pow: operator.pow,
             ast.BitAnd: operator.and_, ast.BitOr: operator.or_, ast.BitXor: operator.xor,
             ast.LShift: operator.lshift, ast.RShift: operator.rshift}.get(op)
        if f is None:
            raise self.error(node, not_implemented(f"the operator {op.__name__} on constants"))
        try:
            return f(a, b)
        except Exception as ex:  # a constexpr error is the author's
            raise self.error(node, f"constexpr arithmetic failed: {ex}", "L2.5")

    def unaryop(self, op, a, node):
        a = self.rt(a)
        if not is_runtime(a):
            if op is ast.USub:
                return -a
            if op is ast.UAdd:
                return +a
            if op is ast.Not:
                return not a
            if op is ast.Invert:
                return ~a
        if op is ast.UAdd:
            return a
        if op is ast.USub:
            return self.emit1("neg", [a], a.type)
        if op in (ast.Not, ast.Invert):
            return self.emit1("not", [a], a.type)
        raise self.error(node, not_implemented(f"the operator {op.__name__}"))

    def compare(self, op, a, b, node):
        a, b = self.rt(a), self.rt(b)
        if not is_runtime(a) and not is_runtime(b):
            import operator
            f = {ast.Lt: operator.lt, ast.LtE: operator.le, ast.Gt: operator.gt, ast.GtE: operator.ge,
                 ast.Eq: operator.eq, ast.NotEq: operator.ne, ast.Is: operator.is_, ast.IsNot: operator.is_not,
                 ast.In: lambda x, y: x in y, ast.NotIn: lambda x, y: x not in y}[op]
            try:
                return f(a, b)
            except Exception as ex:
                raise self.error(node, f"constexpr comparison failed: {ex}", "L2.5") from None
        pred = CMPS.get(op)
        if pred is None:
            raise self.error(node, f"`{op.__name__}` does not compare runtime values", "L4.14")
        x, y = self.elementwise([a, b], node)
        return self.emit1("cmp", [x, y], T.with_dtype(x.type, BOOL), {"pred": Raw(pred)})

    def logical(self, kind, a, b, node):
        if not is_runtime(a) and not is_runtime(b):
            return (a and b) if kind == "and" else (a or b)
        x, y = self.elementwise([a, b], node, like=BOOL)
        if x.type.dtype is not BOOL:
            raise self.error(node, f"`{kind}` takes bool operands, got {x.type.kir()}", "L4.14")
        return self.emit1(kind, [x, y], x.type)

    # -- aggregates -----------------------------------------------------------------------------------
    def make_tuple(self, items, node) -> Value:
        vs = [self.value(v, None, node) for v in items]
        return self.emit1("tuple", vs, T.TupleT(tuple(v.type for v in vs)))

    def make_record(self, rec, node) -> Value:
        vs = [self.value(v, None, node) for v in rec.values]
        return self.emit1("record", vs, T.RecordT(tuple(zip(rec.names, (v.type for v in vs)))))

    def unpack(self, v, n: Optional[int], node, hints=None) -> list:
        if isinstance(v, tuple):
            items = list(v)
        elif is_runtime(v) and isinstance(v.type, T.TupleT):
            items = [self.emit1("tuple.get", [v], t, {"index": i}, hints[i] if hints and i < len(hints) else "t")
                     for i, t in enumerate(v.type.items)]
        else:
            raise self.error(node, f"cannot unpack {describe(v)}: only tuples destructure", "L4.11")
        if n is not None and len(items) != n:
            raise self.error(node, f"cannot unpack a tuple of {len(items)} into {n} names", "L4.11")
        return items

    # -- attributes and indexing ------------------------------------------------------------------------
    def attribute(self, base, name, node):
        if is_runtime(base):
            t = base.type
            if name == "shape":
                if not isinstance(t, (T.TensorT, T.ViewT, T.BufferT)):
                    raise self.error(node, f"{t.kir()} has no .shape: only ranked tensors, views and buffers do",
                                     "L4.8")
                return tuple(Dim(base, i, t.shape[i]) for i in range(t.rank))
            if name == "dtype":
                if T.element(t) is None:
                    raise self.error(node, f"{t.kir()} has no .dtype", "L4.13")
                return T.element(t)
            if isinstance(t, T.RecordT):
                ft = t.field(name)
                if ft is None:
                    raise self.error(node, f"the record has no field '{name}' (fields: "
                                           f"{', '.join(n for n, _ in t.fields)})", "L4.12")
                return self.emit1("record.get", [base], ft, {"field": Raw(name)}, name)
            raise self.error(node, f"{t.kir()} has no attribute '{name}'", "L4.8")
        if isinstance(base, RecordValue):
            if name not in base.names:
                raise self.error(node, f"the record has no field '{name}'", "L4.12")
            return base.values[base.names.index(name)]
        try:
            v = getattr(base, name)
        except AttributeError:
            raise self.error(node, f"{describe(base)} has no attribute '{name}'") from None
        return v

    def dim(self, base: Value, axis: int, hint: str = "") -> Value:
        key = ("dim", base.name, axis)
        c = self.fl.scope.cached(key)
        if c is not None:
            return c
        v = self.emit1("dim", [base], T.ScalarT(INDEX), {"axis": axis}, hint or f"{base.name}_d{axis}")
        self.fl.scope.cache[key] = v
        return v

    def subscript(self, base, items, node):
        if isinstance(base, tuple):
            if len(items) != 1 or is_runtime(items[0]) or not isinstance(items[0], int):
                raise self.error(node, "a tuple is indexed by a constant position", "L4.11")
            return base[items[0]]
        if isinstance(base, (Marker, Namespace)) or isinstance(base, type):
            return base[tuple(items) if len(items) > 1 else items[0]]
        if not is_runtime(base):
            raise self.error(node, f"{describe(base)} cannot be indexed")
        t = base.type
        if isinstance(t, T.TupleT):
            if len(items) != 1 or not isinstance(items[0], int):
                raise self.error(node, "a tuple is indexed by a constant position", "L4.11")
            i = items[0]
            if not -len(t.items) <= i < len(t.items):
                raise self.error(node, f"tuple position {i} is out of range for {len(t.items)} components", "L4.11")
            i %= len(t.items)
            return self.emit1("tuple.get", [base], t.items[i], {"index": i})
        if isinstance(t, T.DomainT):
            if len(items) != 1 or not isinstance(items[0], tuple) or items[0][0] != "slice":
                raise self.error(node, "a domain is sliced as axis[begin:end] (a contiguous subregion)", "L3.3")
            _, lo, hi, step, sl = items[0]
            if step is not None:
                raise self.error(sl, "a subregion is contiguous: non-contiguous, repeated or permuted members use an "
                                     "index relation", "L3.5")
            lo = self.index(0 if lo is None else lo, node)
            hi = self.index(hi, node) if hi is not None else self.domain_extent_value(base, node)
            ext = self.extent(hi) - self.extent(lo)
            return self.emit1("subregion", [base, lo, hi], T.DomainT(ext, True), hint="sub")
        if isinstance(t, (T.ViewT, T.TensorT, T.BufferT)):
            rel = self.relation(base, items, node)
            shape = rel.type.shape
            op = LOADS[type(t)]
            return self.emit1(op, [base, rel], T.value_type(t.dtype, shape), hint=base.name + "_v")
        raise self.error(node, f"{t.kir()} cannot be indexed")

    def domain_extent_value(self, d: Value, node) -> Value:
        e = d.type.extent
        if e.constant() is not None:
            return self.const(e.constant(), INDEX, node)
        raise self.error(node, "an open slice `d[a:]` of a domain with a dynamic extent needs its end: write d[a:end]",
                         "L3.3")

    def relation(self, base: Value, items, node) -> Value:
        rank = base.type.rank
        if len(items) != rank:
            raise self.error(node, f"{base.type.kir()} has rank {rank} and takes {rank} coordinates, got "
                                   f"{len(items)}", "L15.1")
        coords = []  # (value, axes it spans: list of result positions) or scalar
        shape: List[T.Extent] = []
        for axis, it in enumerate(items):
            if isinstance(it, tuple) and it and it[0] == "slice":
                _, lo, hi, step, sl = it
                if lo is None and hi is None and step is None:
                    d = self.domain_over(self.dim(base, axis), node)
                else:
                    raise self.error(sl, "index a view with a domain or a subregion (axis[begin:end]), not a "
                                         "Python slice", "L3.3")
                it = d
            if is_runtime(it) and isinstance(it.type, T.DomainT):
                ind = self.indices(it, node)
                coords.append((ind, [len(shape)]))
                shape.append(it.type.extent)
            elif is_runtime(it) and isinstance(it.type, T.TensorT):
                if not it.type.dtype.is_int:
                    raise self.error(node, f"coordinates are integers, got {it.type.kir()}", "L15.1")
                coords.append((it, list(range(len(shape), len(shape) + it.type.rank))))
                shape.extend(it.type.shape)
            else:
                coords.append((self.index(it, node), None))
        key = ("rel", tuple((c.name, None if a is None else tuple(a)) for c, a in coords), tuple(shape))
        cached = self.fl.scope.cached(key)
        if cached is not None:
            return cached
        ops = []
        for c, axes in coords:
            if axes is None or (len(axes) == len(shape)):
                ops.append(c)
            else:
                ops.append(self.emit1("broadcast", [c], T.TensorT(c.type.dtype, tuple(shape)), {"dims": axes},
                                      c.name + "_b"))
        rel = self.emit1("relation", ops, T.RelationT(rank, tuple(shape)), hint="rel")
        self.fl.scope.cache[key] = rel
        return rel

    def indices(self, d: Value, node) -> Value:
        key = ("indices", d.name)
        c = self.fl.scope.cached(key)
        if c is None:
            c = self.emit1("indices", [d], T.TensorT(INDEX, (d.type.extent,)), hint=d.name + "_i")
            self.fl.scope.cache[key] = c
        return c

    def domain_over(self, end: Value, node) -> Value:
        zero = self.const(0, INDEX, node)
        return self.emit1("domain", [zero, end], T.DomainT(self.extent(end)), hint="d")

    def store(self, base, items, value, node, rel=None, op=None) -> None:
        if not is_runtime(base) or not isinstance(base.type, (T.ViewT, T.BufferT)):
            raise self.error(node, f"only views and buffers are written by indexed assignment, not {describe(base)}"
                                   " (tensors are immutable values)", "L15.3")
        if isinstance(base.type, T.ViewT) and base.type.access == "In":
            raise self.error(node, f"%{base.name} is an In view: it is read-only", "L2.1")
        rel = rel or self.relation(base, items, node)
        v = self.value(value, base.type.dtype, node)
        if T.element(v.type) is not base.type.dtype:
            raise self.error(node, f"storing {v.type.kir()} into {base.type.kir()}: convert it explicitly with "
                                   f"intent.cast", "L4.14")
        v = self.broadcast_to(v, rel.type.shape, node) if rel.type.shape else v
        if not rel.type.shape and not isinstance(v.type, T.ScalarT):
            raise self.error(node, f"one element is stored, got {v.type.kir()}", "L15.1")
        self.em.op(op or ("view.store" if isinstance(base.type, T.ViewT) else "buffer.store"), [base, rel, v], [])

    # -- calls ---------------------------------------------------------------------------------------
    def call(self, f, args, kwargs, node):
        from .kernel import Helper, Kernel
        if isinstance(f, Forbidden):
            raise self.error(node, f"intent.{f.name} is not in the Intent language: {f.why}", f.rule)
        if isinstance(f, Kernel):
            raise self.error(node, f"calling kernel '{f.name}' from a kernel would be a hidden launch; call an "
                                   f"@intent.fn helper instead", "L1.3")
        if isinstance(f, Helper):
            return self.fl.program.call_helper(self.fl, f, args, kwargs, node)
        if isinstance(f, Namespace):
            f = f._marker
        if isinstance(f, Marker):
            return self.call_marker(f.name, args, kwargs, node)
        if f in (builtins.min, builtins.max) and any(is_runtime(a) for a in args):
            out = args[0]
            for a in args[1:]:
                out = self.call_marker("minimum" if f is builtins.min else "maximum", [out, a], {}, node)
            return out
        if f is builtins.abs and args and is_runtime(args[0]):
            return self.call_marker("abs", args, {}, node)
        if f is builtins.len and args and isinstance(args[0], tuple):
            return len(args[0])
        if any(is_runtime(a) for a in list(args) + list(kwargs.values())):
            raise self.error(node, f"{describe(f)} is not an op of the language and cannot take runtime values")
        try:
            return f(*args, **kwargs)  # a compile-time Python computation on constexpr values
        except Exception as ex:
            raise self.error(node, f"constexpr call of {describe(f)} failed: {ex}", "L2.5") from None

    def call_marker(self, name, args, kwargs, node):
        from . import ops_contract, ops_memory, ops_reduce, ops_values
        key = "op_" + name.replace(".", "_")
        m = getattr(self, key, None)
        for mod in (ops_values, ops_reduce, ops_contract, ops_memory):
            m = m or getattr(mod, key, None)
        if m is None:
            raise self.error(node, not_implemented(f"intent.{name}"))
        try:
            return m(self, node, *args, **kwargs)
        except TypeError as ex:
            if "op_" in str(ex) or "argument" in str(ex):
                raise self.error(node, f"intent.{name}: {str(ex).replace('op_' + name.replace('.', '_') + '()', 'call')}"
                                 ) from None
            raise

    # -- control ------------------------------------------------------------------------------------
    def carried(self, stmts):
        """Runtime names assigned in `stmts` that are visible before them: the carries."""
        out = []
        for n in assigned_names(stmts):
            found, v = self.fl.scope.lookup(n)
            if found:
                out.append((n, v))
        return out

    def carry_value(self, name, v, node, like=None) -> Value:
        if is_runtime(v):
            return v
        if isinstance(v, (tuple, RecordValue)):
            return self.value(v, None, node)
        if isinstance(like, T.ScalarT) and isinstance(v, (bool, int, float)):
            return self.const(v, like.dtype, node)
        raise self.error(node, f"'{name}' is updated under runtime control but holds the Python constant {v!r}, "
                               f"which has no dtype: give it one first, e.g. {name} = intent.cast({v!r}, intent.f32)",
                         "L6.2")

    def check_carry(self, i, name, want, got, node, where):
        if want.type != got.type:
            raise self.error(node, f"carry {i} ('{name}') has type {want.type.kir()} before the {where} but "
                                   f"{got.type.kir()} at its end", "L6.2")

    def region_args(self, names_types):
        vals = []
        texts = []
        for hint, t in names_types:
            v = Value(self.em.fn.fresh(hint), t, "arg")
            vals.append(v)
            texts.append(f"{v.ref}: {t.kir()}")
        return vals, ", ".join(texts)

    def push(self):
        self.fl.scope = Scope(self.fl.scope)

    def pop(self):
        s = self.fl.scope
        self.fl.scope = s.parent
        return s

    def op_head(self, name, operands, results, attrs=None, hints=()):
        """Writes `results = name(operands) {attrs} : types` as the head of a region op; returns
        the results and the op's location (written after its last region)."""
        loc = self.em.location()
        outs = self.em.op(name, operands, results, attrs, hints)
        line = self.em.fn.lines[-1]
        if loc and line.endswith(" " + loc):
            self.em.fn.lines[-1] = line[: -len(loc) - 1]
        return outs, loc

    def region(self, args_text):
        self.em.fn.lines[-1] += f" region({args_text}) {{"
        self.em.fn.depth += 1

    def end_region(self):
        self.em.fn.depth -= 1
        self.em.fn.lines.append("  " * self.em.fn.depth + "}")

    def lower_region_body(self, stmts, carried, inits, node, kind):
        """Lowers a loop body; returns the carries' values at its end (None when it ended in
        break/continue)."""
        self.fl.loops.append({"kind": kind, "carried": list(zip([n for n, _ in carried], inits))})
        try:
            self.fl.lower_body_in_place(stmts)
        finally:
            self.fl.loops.pop()
        if self.fl.terminated:
            self.fl.terminated = False
            return None
        outs = []
        for (name, _), init in zip(carried, inits):
            _, now = self.fl.scope.lookup(name)
            outs.append(self.carry_value(name, now, node, init.type))
        return outs

    def finish_loop_body(self, carried, inits, ends, node):
        if ends is None:
            return
        for i, ((n, _), init, end) in enumerate(zip(carried, inits, ends)):
            self.check_carry(i, n, init, end, node, "loop")
        self.em.line(f"yield({', '.join(v.ref for v in ends)})", loc=False)

    def ordered_for(self, s, dom):
        fl = self.fl
        if not (is_runtime(dom) and isinstance(dom.type, T.DomainT)):
            raise self.error(s.iter, f"a `for` iterates a domain or subregion (intent.domain(begin, end)), not "
                                     f"{describe(dom)}", "L6.1")
        if not isinstance(s.target, ast.Name):
            raise self.error(s.target, "the loop variable is one name (the index)", "L6.1")
        carried = [(n, v) for n, v in self.carried(s.body) if n != s.target.id]
        inits = [self.carry_value(n, v, s) for n, v in carried]
        fl.at(s)
        outs, loc = self.op_head("for", [dom] + inits, [v.type for v in inits], hints=[n for n, _ in carried])
        args, text = self.region_args([(s.target.id, T.ScalarT(INDEX))] + [(n, v.type) for (n, _), v in
                                                                          zip(carried, inits)])
        self.region(text)
        self.push()
        fl.bind(s.target.id, args[0])
        for (n, _), a in zip(carried, args[1:]):
            fl.bind(n, a)
        ends = self.lower_region_body(s.body, carried, inits, s, "for")
        fl.at(s)
        self.finish_loop_body(carried, inits, ends, s)
        self.pop()
        self.end_region()
        if loc:
            self.em.fn.lines[-1] += " " + loc
        for (n, _), o in zip(carried, outs):
            fl.bind(n, o)

    def parallel_for(self, s, call):
        fl = self.fl
        if len(call.args) != 1 or call.keywords:
            raise self.error(call, "intent.parallel takes one domain", "L5.1")
        dom = fl.expr(call.args[0])
        if not (is_runtime(dom) and isinstance(dom.type, T.DomainT)):
            raise self.error(call, f"intent.parallel takes a domain or subregion, not {describe(dom)}", "L5.1")
        if not isinstance(s.target, ast.Name):
            raise self.error(s.target, "the loop variable is one name (the index)", "L5.1")
        for n, v in self.carried(s.body):
            if n != s.target.id:
                raise self.error(s, f"'{n}' is updated inside intent.parallel: parallel points have no order and "
                                    f"no loop-carried values (use a reduce, or an ordered for)", "L5.1")
        fl.at(s)
        _, loc = self.op_head("parallel", [dom], [])
        args, text = self.region_args([(s.target.id, T.ScalarT(INDEX))])
        self.region(text)
        self.push()
        fl.bind(s.target.id, args[0])
        fl.loops.append({"kind": "parallel", "carried": []})
        try:
            fl.lower_body_in_place(s.body)
        finally:
            fl.loops.pop()
        self.em.line("yield()", loc=False)
        self.pop()
        self.end_region()
        if loc:
            self.em.fn.lines[-1] += " " + loc

    def structured_if(self, cond, s):
        fl = self.fl
        before = self.carried(s.body + s.orelse)
        both_new = [n for n in assigned_names(s.body) if n in assigned_names(s.orelse)
                    and not fl.scope.lookup(n)[0]]
        names = [n for n, _ in before] + both_new

        def branch(stmts, like=None):
            """Lowers one branch; its values of `names`, or None when it ends in break/continue."""
            self.push()
            fl.lower_body_in_place(stmts)
            if fl.terminated:
                fl.terminated = False
                return None
            vals = []
            for i, n in enumerate(names):
                found, v = fl.scope.lookup(n)
                if not found:
                    raise self.error(s, f"'{n}' is assigned in one branch of the `if` only and has no value before "
                                        f"it", "L6.2")
                vals.append(self.carry_value(n, v, s, like[i] if like else None))
            return vals

        # Lower each branch once into a scratch buffer to learn the result types, then for real.
        fn = fl.em.fn
        saved = (list(fn.lines), dict(fn.names), fn.depth)
        fn.depth += 1
        pre = [v.type if is_runtime(v) else None for _, v in before] + [None] * len(both_new)
        then_vals = branch(s.body, pre)
        self.pop()
        else_vals = branch(s.orelse, pre)
        self.pop()
        fn.lines, fn.names, fn.depth = list(saved[0]), dict(saved[1]), saved[2]
        if then_vals is not None and else_vals is not None:
            for n, a, b in zip(names, then_vals, else_vals):
                if a.type != b.type:
                    raise self.error(s, f"'{n}' has type {a.type.kir()} after the `if` branch but {b.type.kir()} "
                                        f"after the `else` branch", "L6.2")
        live = then_vals if then_vals is not None else else_vals
        types = [v.type for v in live] if live is not None else []
        if live is None:
            names = []
        fl.at(s)
        outs, loc = self.op_head("if", [cond], types, hints=names)
        ended = 0
        for stmts in (s.body, s.orelse):
            self.region("")
            vals = branch(stmts, types)
            if vals is None:
                ended += 1
            else:
                self.em.line(f"yield({', '.join(v.ref for v in vals[:len(types)])})", loc=False)
                self.pop()
            if vals is None:
                self.pop()
            self.end_region()
        if loc:
            self.em.fn.lines[-1] += " " + loc
        for n, o in zip(names, outs):
            fl.bind(n, o)
        if ended == 2:
            fl.terminated = True

    def structured_while(self, s):
        fl = self.fl
        carried = self.carried(s.body)
        inits = [self.carry_value(n, v, s) for n, v in carried]
        fl.at(s)
        outs, loc = self.op_head("while", inits, [v.type for v in inits], hints=[n for n, _ in carried])
        for part in ("cond", "body"):
            args, text = self.region_args([(n, v.type) for (n, _), v in zip(carried, inits)])
            self.region(text)
            self.push()
            for (n, _), a in zip(carried, args):
                fl.bind(n, a)
            if part == "cond":
                c = fl.expr(s.test)
                fl.at(s.test)
                if not (is_runtime(c) and c.type == T.ScalarT(BOOL)):
                    raise self.error(s.test, f"a `while` condition is a runtime bool scalar, got {describe(c)}",
                                     "L6.1")
                self.em.line(f"condition({', '.join(v.ref for v in [c] + args)})", loc=False)
            else:
                ends = self.lower_region_body(s.body, carried, inits, s, "while")
                self.finish_loop_body(carried, inits, ends, s)
            self.pop()
            self.end_region()
        if loc:
            self.em.fn.lines[-1] += " " + loc
        for (n, _), o in zip(carried, outs):
            fl.bind(n, o)


class Dim:
    """An extent read with `.shape` (or an extent symbol named in the body): its `dim` op is
    emitted only when it is used as a runtime index value; as a shape argument it is just the
    extent, so a helper of a region op can shape tensors without observing a slice extent."""

    def __init__(self, base, axis: int, extent: T.Extent, hint: str = ""):
        self.base, self.axis, self.extent, self.hint = base, axis, extent, hint

    def __repr__(self) -> str:
        return f"extent {self.extent}"


class Address:
    """`view[i, j]` written as the first argument of an atomic: the element, not its value."""

    def __init__(self, base, items):
        self.base, self.items = base, items


class RecordValue:
    """`intent.record(a=..., b=...)` before it becomes a KIR record (field access stays static)."""

    def __init__(self, names, values):
        self.names, self.values = list(names), list(values)


def describe(v) -> str:
    if is_runtime(v):
        return f"a value of type {v.type.kir()}"
    if isinstance(v, (Marker, Namespace)):
        return f"intent.{v.name}"
    name = getattr(v, "__name__", None)
    return name if name else repr(v)
