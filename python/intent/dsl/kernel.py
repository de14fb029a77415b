"""`@intent.kernel` and `@intent.fn`: the decorated objects, their specialization by constexpr
values, and the assembly of one KIR module per kernel specialization (enums, helper
specializations, the kernel). Helpers are specialized per call signature: the argument types with
their dynamic extents renamed to the helper's own symbols (A0, A1, ...; equal extents share one,
so identity survives the boundary, L1.6) plus the constexpr arguments."""
from __future__ import annotations

import ast
import inspect
import json
import re
from typing import Any, Dict, List

from . import types as T
from .emitter import Function, Value
from .errors import IntentError
from .lower import FunctionLowering, Source, is_runtime
from .surface import ConstexprAnnotation, ViewAnnotation


# ---- enums ----------------------------------------------------------------------------------------

class EnumMember:
    def __init__(self, enum, name: str, value: int):
        self.enum, self.name, self.value = enum, name, value

    def __repr__(self) -> str:
        return f"{self.enum.__name__}.{self.name}"

    def __eq__(self, other):
        if isinstance(other, EnumMember) and other.enum is not self.enum:
            raise TypeError(f"{self!r} and {other!r} belong to different enums: they do not compare (L2.6)")
        return other is self

    def __hash__(self):
        return hash((id(self.enum), self.name))

    def __bool__(self):
        raise TypeError(f"{self!r} is an enum member, not a bool: compare it with == (L2.6)")


class _EnumMeta(type):
    def __new__(mcs, name, bases, ns):
        cls = super().__new__(mcs, name, bases, {k: v for k, v in ns.items() if k.startswith("__")})
        members = [(k, v) for k, v in ns.items() if not k.startswith("_")]
        if bases and bases != (object,):
            if not members:
                raise TypeError(f"enum {name} has no members: an enum is non-empty (L2.6)")
            seen = set()
            for k, v in members:
                if not isinstance(v, int) or isinstance(v, bool):
                    raise TypeError(f"enum {name}.{k} = {v!r}: member values are ints (L2.6)")
                if v in seen:
                    raise TypeError(f"enum {name}: the value {v} is used twice (L2.6)")
                seen.add(v)
            type.__setattr__(cls, "_members", {k: EnumMember(cls, k, v) for k, v in members})
            for k, m in cls._members.items():
                type.__setattr__(cls, k, m)
        return cls

    def __setattr__(cls, k, v):
        raise TypeError(f"enum {cls.__name__} is closed (L2.6)")


class EnumBase(metaclass=_EnumMeta):
    """`class Mode(intent.Enum): FAST = 0; EXACT = 1` — a closed, named constexpr type."""


# ---- the program being assembled -----------------------------------------------------------------

class Program:
    def __init__(self, file: str):
        self.file = file
        self.functions: List[Function] = []
        self.helpers: Dict[Any, tuple] = {}
        self.fn_names: Dict[str, int] = {}
        self.enums: Dict[str, Any] = {}
        self.stack: List[Any] = []

    def fn_name(self, base: str) -> str:
        n = self.fn_names.get(base, 0)
        self.fn_names[base] = n + 1
        return base if n == 0 else f"{base}_{n}"

    def text(self) -> str:
        parts = []
        for name, e in self.enums.items():
            members = ", ".join(f"{k} = {m.value}" for k, m in e._members.items())
            parts.append(f"enum @{name} {{{members}}}\n")
        parts += [f.text() for f in self.functions]
        return "\n".join(parts)

    def enum_type(self, e) -> T.EnumT:
        self.enums[e.__name__] = e
        return T.EnumT(e.__name__)

    # Helper specialization ------------------------------------------------------------------------
    def generalize(self, types: List) -> tuple:
        """Renames the dynamic extents of `types` to A0, A1, ... (equal extents, one symbol)."""
        binding: Dict[T.Extent, T.Extent] = {}

        def ext(e: T.Extent) -> T.Extent:
            if e.constant() is not None:
                return e
            if e not in binding:
                binding[e] = T.Extent.symbol(f"A{len(binding)}")
            return binding[e]

        def gen(t):
            if isinstance(t, T.TensorT):
                return T.TensorT(t.dtype, tuple(ext(e) for e in t.shape))
            if isinstance(t, T.ViewT):
                return T.ViewT(t.access, t.dtype, tuple(ext(e) for e in t.shape))
            if isinstance(t, T.TupleT):
                return T.TupleT(tuple(gen(x) for x in t.items))
            if isinstance(t, T.RecordT):
                return T.RecordT(tuple((n, gen(x)) for n, x in t.fields))
            if isinstance(t, T.DomainT):
                return T.DomainT(ext(t.extent), t.sub)
            return t

        out = [gen(t) for t in types]
        back = {str(v): k for k, v in binding.items()}
        return out, back

    def call_helper(self, fl: FunctionLowering, helper, args, kwargs, node):
        try:
            bound = inspect.signature(helper.fn).bind(*args, **kwargs)
        except TypeError as ex:
            raise fl.error(node, f"call of helper '{helper.name}': {ex}", "L1.4") from None
        bound.apply_defaults()
        runtime, statics = [], []
        for pname, v in bound.arguments.items():
            v = fl.ops.rt(v)  # an extent read with .shape passes as its index value
            if isinstance(v, tuple) and any(is_runtime(fl.ops.rt(x)) for x in v) or type(v).__name__ == "RecordValue":
                v = fl.ops.value(tuple(fl.ops.rt(x) for x in v) if isinstance(v, tuple) else v, None, node)
            if is_runtime(v):
                runtime.append((pname, v))
            else:
                if not isinstance(v, tuple):
                    fl.capture(ast.Name(id=pname, lineno=node.lineno, col_offset=node.col_offset), v)
                statics.append((pname, v))
        gtypes, back = self.generalize([v.type for _, v in runtime])
        key = (helper, tuple(zip((p for p, _ in runtime), gtypes)), tuple((p, repr(v)) for p, v in statics))
        if key not in self.helpers:
            self.helpers[key] = self.lower_helper(fl, helper, [(p, t) for (p, _), t in zip(runtime, gtypes)],
                                                  dict(statics), node)
        name, results, _ = self.helpers[key]
        binding = {k: v for k, v in back.items()}
        rtypes = [substitute(t, binding) for t in results]
        outs = fl.em.op("call", [v for _, v in runtime], rtypes, {"callee": _raw("@" + name)},
                        [helper.name] * len(rtypes))
        if len(outs) == 1 and not helper_returns_tuple(self.helpers[key]):
            return outs[0]
        return tuple(outs)

    def typed_helper(self, fl, helper, arg_types, node, role: str, rule: str, extra=None):
        """Specializes `helper` for parameters of `arg_types` (a structured op's summarize, combine,
        apply or emit); a Python tuple it returns is one KIR tuple value. Returns its name and its
        result type in the caller's extents (`extra` maps placeholder symbols back)."""
        if not isinstance(helper, Helper):
            raise fl.error(node, f"{role} is an @intent.fn helper, got {helper!r}", rule)
        gtypes, back = self.generalize(arg_types)
        names = list(inspect.signature(helper.fn).parameters)
        if len(names) != len(arg_types):
            raise fl.error(node, f"{role} helper '{helper.name}' takes {len(names)} parameters; it is called with "
                                 f"{len(arg_types)} ({', '.join(t.kir() for t in arg_types)})", rule)
        key = (helper, tuple(zip(names, gtypes)), "packed")
        if key not in self.helpers:
            self.helpers[key] = self.lower_helper(fl, helper, list(zip(names, gtypes)), {}, node, pack=True)
        name, results, _ = self.helpers[key]
        binding = dict(back)
        result = substitute(results[0], binding)
        if extra:
            result = substitute(result, extra)
        return name, result

    def combine_helper(self, fl, helper, arg_types, acc_t, node) -> str:
        name, result = self.typed_helper(fl, helper, arg_types, node, "combine", "L7.2")
        if result != acc_t:
            raise fl.error(node, f"combine helper '{helper.name}' returns {result.kir()}; the accumulator is "
                                 f"{acc_t.kir()}", "L7.2")
        return name

    def lower_helper(self, caller: FunctionLowering, helper, params, statics, node, pack=False):
        if helper in self.stack:
            chain = " -> ".join(h.name for h in self.stack + [helper])
            raise caller.error(node, f"recursive helper call ({chain}): recursion is not in the language", "L1.3")
        self.stack.append(helper)
        try:
            src = helper.source()
            name = self.fn_name(helper.name)
            fn = Function("")
            fl = FunctionLowering(self, src, fn, "fn")
            args = []
            for pname, t in params:
                v = Value(fn.fresh(pname), t, "param")
                fl.bind(pname, v)
                args.append(v)
            for pname, v in statics.items():
                fl.bind(pname, v)
            fl.lower_body(src.defn.body)
            if fl.returned is None or fl.returned == [None]:
                raise fl.error(src.defn, f"helper '{helper.name}' returns nothing: a helper returns a scalar, tensor, "
                                         f"tuple or record", "L1.2")
            ret = fl.returned[0]
            is_tuple = isinstance(ret, tuple) and not pack
            vals = [fl.ops.value(v, None, src.defn) for v in (ret if is_tuple else (ret,))]
            fl.em.line(f"return({', '.join(v.ref for v in vals)})", loc=False)
            results = [v.type for v in vals]
            rt = ", ".join(t.kir() for t in results)
            fn.header = (f"fn @{name}({', '.join(f'{a.ref}: {a.type.kir()}' for a in args)}) -> "
                         + (rt if len(results) == 1 else f"({rt})"))
            self.functions.insert(0, fn)
            return name, results, is_tuple
        finally:
            self.stack.pop()


def helper_returns_tuple(entry) -> bool:
    return entry[2]


def _raw(text):
    from .emitter import Raw
    return Raw(text)


def substitute(t, binding: Dict[str, T.Extent]):
    if isinstance(t, T.TensorT):
        return T.TensorT(t.dtype, tuple(e.substitute(binding) for e in t.shape))
    if isinstance(t, T.TupleT):
        return T.TupleT(tuple(substitute(x, binding) for x in t.items))
    if isinstance(t, T.RecordT):
        return T.RecordT(tuple((n, substitute(x, binding)) for n, x in t.fields))
    return t


# ---- decorated objects --------------------------------------------------------------------------------

class Helper:
    """An `@intent.fn` helper: lowered per call signature into a KIR `fn`."""

    def __init__(self, fn, fixes=None):
        self.fn, self.name = fn, fn.__name__
        self.fixes = dict(fixes or {})
        for key, value in self.fixes.items():  # fail at the decorator, not at the first lowering
            fixes_value(self.name, key, value)
        self._src = None
        self.__doc__, self.__wrapped__ = fn.__doc__, fn

    def source(self) -> Source:
        if self._src is None:
            self._src = Source(self.fn)
        return self._src

    def __call__(self, *args, **kwargs):
        raise RuntimeError(f"@intent.fn helper '{self.name}' is called from kernels and helpers only")

    def __repr__(self) -> str:
        return f"<intent.fn {self.name}>"


class Specialization:
    """One kernel with all its constexpr parameters fixed: its KIR and how to run it."""

    def __init__(self, kernel: "Kernel", constexprs: Dict[str, Any]):
        self.kernel, self.constexprs = kernel, constexprs
        self.surface = kernel._lower(constexprs)
        self._module = None

    @property
    def module(self):
        if self._module is None:
            from .. import _runtime
            self._module = _runtime.load(self.surface, self.kernel.source().file)
        return self._module

    @property
    def kir(self) -> str:
        """The canonical KIR (normalized and verified), with the Python locations of its ops."""
        return self.module.text

    def text(self, locations: bool = False) -> str:
        t = self.kir
        return t if locations else re.sub(r' loc\("(?:[^"\\]|\\.)*":\d+:\d+\)', "", t)


_FIX_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*(\.[A-Za-z_][A-Za-z0-9_]*)?$")


def fixes_value(kernel: str, key: str, value) -> str:
    """KIR attribute text of one `fixes` entry's value; IntentError for a name or value KIR's
    clause cannot hold."""
    if not isinstance(key, str) or not _FIX_NAME.match(key):
        raise IntentError(f"kernel {kernel}: fixes key {key!r} is not a param name (name or name.field)", rule="L2.5")
    if value is None:
        return "none"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, float):
        if value != value or value in (float("inf"), float("-inf")):
            raise IntentError(f"kernel {kernel}: fixes {key} = {value!r}: only finite floats", rule="L2.5")
        return repr(value)
    if isinstance(value, str):
        return json.dumps(value)
    if isinstance(value, (list, tuple)):
        return "[" + ", ".join(fixes_value(kernel, key, v) for v in value) + "]"
    raise IntentError(f"kernel {kernel}: fixes {key} = {value!r}: a {type(value).__name__} is not a manifest "
                      f"param value (int, float, bool, str, None or a list of them)", rule="L2.5")


class Kernel:
    """An `@intent.kernel` function. `k.kir` is its canonical KIR (constexpr defaults);
    `k.specialize(NAME=value)` fixes constexprs; `k(x, y, ..., backend="interp")` runs it."""

    def __init__(self, fn, fixes=None):
        self.fn, self.name = fn, fn.__name__
        self.fixes = dict(fixes or {})
        for key, value in self.fixes.items():  # fail at the decorator, not at the first lowering
            fixes_value(self.name, key, value)
        self._src = None
        self._specs: Dict[Any, Specialization] = {}
        self.__doc__, self.__wrapped__ = fn.__doc__, fn

    def __repr__(self) -> str:
        return f"<intent.kernel {self.name}>"

    def source(self) -> Source:
        if self._src is None:
            self._src = Source(self.fn)
        return self._src

    def params(self):
        """(name, annotation, default) per parameter, annotations evaluated."""
        src = self.source()
        sig = inspect.signature(self.fn)
        anns = dict(getattr(self.fn, "__annotations__", {}))
        out = []
        for p in sig.parameters.values():
            a = anns.get(p.name)
            node = next((x for x in src.defn.args.args + src.defn.args.kwonlyargs if x.arg == p.name), src.defn)
            if isinstance(a, str):
                try:
                    a = eval(a, self.fn.__globals__)
                except Exception as ex:
                    raise IntentError(f"annotation of '{p.name}' does not evaluate: {ex}", rule="L2.4",
                                      file=src.file, line=src.where(node)[0], col=src.where(node)[1]) from None
            if a is None:
                raise IntentError(f"kernel parameter '{p.name}' needs an annotation: intent.In/Out/InOut[dtype, "
                                  f"shape], a dtype (runtime scalar) or intent.Constexpr[type]", rule="L2.4",
                                  file=src.file, line=src.where(node)[0], col=src.where(node)[1])
            out.append((p.name, a, None if p.default is inspect.Parameter.empty else p.default, node))
        return out

    def specialize(self, **constexprs) -> Specialization:
        values = {}
        for name, ann, default, node in self.params():
            if isinstance(ann, ConstexprAnnotation):
                v = constexprs.pop(name, default)
                if v is None:
                    src = self.source()
                    raise IntentError(f"constexpr '{name}' has no default: give it, e.g. "
                                      f"{self.name}.specialize({name}=...)", rule="L2.5", file=src.file,
                                      line=src.where(node)[0], col=src.where(node)[1])
                values[name] = v
        if constexprs:
            raise TypeError(f"{self.name} has no constexpr parameter(s) {', '.join(constexprs)}")
        key = tuple((k, repr(v)) for k, v in sorted(values.items()))
        if key not in self._specs:
            self._specs[key] = Specialization(self, values)
        return self._specs[key]

    @property
    def kir(self) -> str:
        return self.specialize().kir

    @property
    def surface_kir(self) -> str:
        """The KIR the frontend wrote, before `kir normalize` (shorthands and all)."""
        return self.specialize().surface

    def _lower(self, constexprs: Dict[str, Any]) -> str:
        src = self.source()
        prog = Program(src.file)
        fn = Function("")
        fl = FunctionLowering(prog, src, fn, "kernel")
        header = []
        for name, ann, default, node in self.params():
            fl.at(node)
            if isinstance(ann, ViewAnnotation):
                shape = tuple(T.Extent.const(s) if isinstance(s, int) else T.parse_extent(s) for s in ann.shape)
                v = Value(fn.fresh(name), T.ViewT(ann.access, ann.dtype, shape), "param")
                for axis, s in enumerate(ann.shape):
                    if isinstance(s, str) and s.isidentifier():
                        fl.views.setdefault(s, []).append((v, axis))
                header.append(f"{v.ref}: {v.type.kir()}")
                fl.bind(name, v)
            elif isinstance(ann, T.DType):
                v = Value(fn.fresh(name), T.ScalarT(ann), "param")
                header.append(f"{v.ref}: {ann.name}")
                fl.bind(name, v)
            elif isinstance(ann, ConstexprAnnotation):
                val = constexprs[name]
                header.append(constexpr_param(fn, prog, name, ann, val, fl, node))
                fl.bind(name, val)
            else:
                raise fl.error(node, f"parameter '{name}': {ann!r} is not a parameter annotation (intent.In/Out/"
                                     f"InOut[dtype, shape], a dtype, or intent.Constexpr[type]); tuples and records "
                                     f"are never public parameters", "L4.13" if ann in (tuple,) else "L2.4")
        fn.header = f"kernel @{self.name}({', '.join(header)})"
        if self.fixes:
            fn.header += " fixes {" + ", ".join(f"{k} = {fixes_value(self.name, k, v)}" for k, v in self.fixes.items()) + "}"
        fl.lower_body(src.defn.body)
        prog.functions.append(fn)
        return prog.text()

    def __call__(self, *args, backend: str = "interp", policy=None, trace: bool = False, break_on=None,
                 dims=None, max_steps=None, check: bool = True, **kwargs):
        """Runs the kernel on NumPy arrays; Out/InOut arrays are filled in place. Returns the
        run's result (its `.outputs` and, with trace=True, its `.trace` lines)."""
        from .. import _runtime
        params = self.params()
        constexprs, runtime = {}, {}
        names = [p[0] for p in params]
        if len(args) > len(names):
            raise TypeError(f"{self.name} takes {len(names)} arguments, got {len(args)}")
        given = dict(zip(names, args))
        for k, v in kwargs.items():
            if k not in names:
                raise TypeError(f"{self.name} has no parameter '{k}'")
            if k in given:
                raise TypeError(f"{self.name}: '{k}' given twice")
            given[k] = v
        for name, ann, default, _ in params:
            if isinstance(ann, ConstexprAnnotation):
                if name in given:
                    constexprs[name] = given[name]
            elif name not in given:
                raise TypeError(f"{self.name}: missing argument '{name}'")
            else:
                runtime[name] = given[name]
        spec = self.specialize(**constexprs)
        result = _runtime.run(spec.module, self.name, runtime, backend=backend, dims=dims, policy=policy,
                              trace=trace, break_on=break_on, max_steps=max_steps, check=check)
        for name, ann, _, _ in params:
            if isinstance(ann, ViewAnnotation) and ann.access != "In" and name in result.outputs:
                dst = runtime[name]
                out = result.outputs[name]
                if hasattr(dst, "bits"):
                    dst.bits[...] = out.bits if hasattr(out, "bits") else out
                else:
                    dst[...] = out
        return result


def constexpr_param(fn, prog, name, ann, val, fl, node) -> str:
    py = ann.pytype
    from .lower import is_enum_class
    if is_enum_class(py):
        if not (hasattr(val, "enum") and val.enum is py):
            raise fl.error(node, f"constexpr '{name}' is a {py.__name__} member, got {val!r}", "L2.6")
        prog.enum_type(py)
        return f"constexpr %{fn.fresh(name)}: enum<@{py.__name__}> = @{py.__name__}::{val.name}"
    if py is bool:
        if not isinstance(val, bool):
            raise fl.error(node, f"constexpr '{name}' is a bool, got {val!r}", "L2.5")
        return f"constexpr %{fn.fresh(name)}: bool = {'true' if val else 'false'}"
    if py is int or (isinstance(py, T.DType) and py.is_int):
        if not isinstance(val, int) or isinstance(val, bool):
            raise fl.error(node, f"constexpr '{name}' is an int, got {val!r}", "L2.5")
        d = "i64" if py is int else py.name
        return f"constexpr %{fn.fresh(name)}: {d} = {val}"
    raise fl.error(node, f"constexpr '{name}': Constexpr[{getattr(py, '__name__', py)}] is not a constexpr type "
                         f"(bool, int (i64), an integer dtype such as intent.index, or an intent.Enum)", "L2.5")
