"""The objects an Intent program names: parameter annotations (`I.In[...]`, `I.Constexpr[...]`),
enums, and the marker functions of the language's ops (`I.exp`, `I.reduce.sum`, ...). Markers do
nothing when called from plain Python; the frontend recognizes them by identity while lowering a
kernel's AST (dsl/lower.py) and emits their KIR."""
from __future__ import annotations

from typing import Tuple

from .types import DType


class ViewAnnotation:
    def __init__(self, access: str, dtype: DType, shape: Tuple[str, ...]):
        self.access, self.dtype, self.shape = access, dtype, shape

    def __repr__(self) -> str:
        return f"intent.{self.access}[{self.dtype!r}, {self.shape!r}]"


class _ViewKind:
    def __init__(self, access: str):
        self.access = access

    def __getitem__(self, item) -> ViewAnnotation:
        if not isinstance(item, tuple) or len(item) != 2 or not isinstance(item[0], DType):
            raise TypeError(f"intent.{self.access}[dtype, (\"M\", \"N\", ...)] expected, got {item!r}")
        shape = item[1]
        if isinstance(shape, str):
            shape = (shape,)
        shape = tuple(shape)
        from .types import parse_extent
        for s in shape:
            if isinstance(s, str) and not s.isidentifier():
                try:
                    parse_extent(s)
                except ValueError:
                    raise TypeError(f"intent.{self.access}: {s!r} is not an extent (symbols, ints, + - *, "
                                    f"floordiv(a, b))") from None
            elif not isinstance(s, str) and not (isinstance(s, int) and not isinstance(s, bool) and s >= 0):
                raise TypeError(f"intent.{self.access}: an extent is a symbol, an extent expression or a "
                                f"non-negative int, got {s!r}")
        return ViewAnnotation(self.access, item[0], shape)


class ConstexprAnnotation:
    def __init__(self, pytype):
        self.pytype = pytype

    def __repr__(self) -> str:
        return f"intent.Constexpr[{getattr(self.pytype, '__name__', self.pytype)}]"


class _Constexpr:
    def __getitem__(self, pytype) -> ConstexprAnnotation:
        return ConstexprAnnotation(pytype)


class Marker:
    """An op of the language; `name` is its KIR spelling or a frontend keyword."""

    def __init__(self, name: str, doc: str = ""):
        self.name = name
        self.__doc__ = doc or f"The Intent op `{name}` (usable only inside @intent.kernel / @intent.fn)."

    def __call__(self, *args, **kwargs):
        raise RuntimeError(f"intent.{self.name} is an op of the Intent language: it can only be used inside "
                           f"an @intent.kernel or @intent.fn function")

    def __repr__(self) -> str:
        return f"<intent op {self.name}>"


class Forbidden:
    """A name that is deliberately not in the language; using it is a located error."""

    def __init__(self, name: str, rule: str, why: str):
        self.name, self.rule, self.why = name, rule, why

    def __call__(self, *args, **kwargs):
        raise RuntimeError(f"intent.{self.name} is not in the Intent language: {self.why}")


class Namespace:
    """`I.reduce.sum`, `I.random.bits`, ...: a callable marker with attribute markers."""

    def __init__(self, marker: Marker, **members):
        self._marker = marker
        for k, v in members.items():
            setattr(self, k, v)

    def __call__(self, *args, **kwargs):
        return self._marker(*args, **kwargs)

    @property
    def name(self) -> str:
        return self._marker.name
