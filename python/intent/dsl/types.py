"""Types of the Intent language as the DSL frontend tracks them while lowering Python to KIR.

The frontend must write every op's result type into the KIR it emits, so it mirrors the small
part of kir's type system that decides those types: dtypes, symbolic extents (a polynomial over
extent symbols, index SSA values and floor divisions, as kir/extent.h), ranked tensors, views,
tuples, records, domains, subregions and relations. The C++ verifier re-checks all of it.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Dict, Optional, Tuple, Union


# ---------------------------------------------------------------------------------------------
# dtypes

class DType:
    """A kir element type (`intent.f32`, ...). Used as an annotation (`scale: I.f32` is a runtime
    scalar) and as the `dtype=` / `acc_dtype=` argument of ops."""

    def __init__(self, name: str, kind: str, bits: int):
        self.name, self.kind, self.bits = name, kind, bits

    def __repr__(self) -> str:
        return f"intent.{self.name}"

    @property
    def is_float(self) -> bool:
        return self.kind == "float"

    @property
    def is_int(self) -> bool:
        return self.kind in ("int", "uint", "index")

    @property
    def is_signed(self) -> bool:
        return self.kind in ("int", "index")


DTYPES: Dict[str, DType] = {}
for _n, _k, _b in [("bool", "bool", 1), ("i8", "int", 8), ("i16", "int", 16), ("i32", "int", 32),
                   ("i64", "int", 64), ("u8", "uint", 8), ("u16", "uint", 16), ("u32", "uint", 32),
                   ("u64", "uint", 64), ("index", "index", 64), ("f16", "float", 16), ("bf16", "float", 16),
                   ("f32", "float", 32), ("f64", "float", 64), ("e4m3", "small", 8), ("e5m2", "small", 8),
                   ("e2m1", "small", 4), ("e8m0", "small", 8)]:
    DTYPES[_n] = DType(_n, _k, _b)


def dtype(name: str) -> DType:
    return DTYPES[name]


# Default accumulator of reduce.sum / cumsum (docs/normalization.md, "Default accumulator widening").
def default_sum_accumulator(d: DType) -> Optional[DType]:
    if d.name in ("f16", "bf16", "e4m3", "e5m2", "e2m1"):
        return DTYPES["f32"]
    if d.name in ("i8", "i16"):
        return DTYPES["i32"]
    if d.name in ("u8", "u16"):
        return DTYPES["u32"]
    if d.name in ("bool", "e8m0"):
        return None
    return d


# ---------------------------------------------------------------------------------------------
# extents

class Extent:
    """A logical extent: an integer polynomial over atoms. Atoms are extent symbols (`M`), index
    SSA values (`%n`) and floor divisions; the form is canonical, so equal extents compare equal
    exactly as in kir (M*N == N*M, M != N)."""

    __slots__ = ("terms",)

    def __init__(self, terms: Optional[Dict[Tuple[str, ...], int]] = None):
        self.terms = {m: c for m, c in (terms or {}).items() if c != 0}

    @staticmethod
    def const(v: int) -> "Extent":
        return Extent({(): int(v)})

    @staticmethod
    def symbol(name: str) -> "Extent":
        return Extent({(name,): 1})

    @staticmethod
    def floordiv(num: "Extent", den: "Extent") -> "Extent":
        a, b = num.constant(), den.constant()
        if a is not None and b is not None and b != 0:
            return Extent.const(a // b)
        if b == 1:
            return num
        return Extent.symbol(f"floordiv({num}, {den})")

    def constant(self) -> Optional[int]:
        if not self.terms:
            return 0
        if len(self.terms) == 1 and () in self.terms:
            return self.terms[()]
        return None

    def __add__(self, o: "Extent") -> "Extent":
        t = dict(self.terms)
        for m, c in o.terms.items():
            t[m] = t.get(m, 0) + c
        return Extent(t)

    def __neg__(self) -> "Extent":
        return Extent({m: -c for m, c in self.terms.items()})

    def __sub__(self, o: "Extent") -> "Extent":
        return self + (-o)

    def __mul__(self, o: "Extent") -> "Extent":
        t: Dict[Tuple[str, ...], int] = {}
        for m1, c1 in self.terms.items():
            for m2, c2 in o.terms.items():
                m = tuple(sorted(m1 + m2))
                t[m] = t.get(m, 0) + c1 * c2
        return Extent(t)

    def __eq__(self, o: object) -> bool:
        return isinstance(o, Extent) and self.terms == o.terms

    def __hash__(self) -> int:
        return hash(tuple(sorted(self.terms.items())))

    def atoms(self):
        return sorted({a for m in self.terms for a in m})

    def substitute(self, binding: Dict[str, "Extent"]) -> "Extent":
        out = Extent()
        for m, c in self.terms.items():
            term = Extent.const(c)
            for a in m:
                term = term * binding.get(a, Extent.symbol(a))
            out = out + term
        return out

    def __str__(self) -> str:
        if not self.terms:
            return "0"
        parts = []
        for m in sorted(self.terms, key=lambda m: (m == (), m)):
            c = self.terms[m]
            body = "*".join(m)
            if not m:
                s = str(abs(c))
            elif abs(c) == 1:
                s = body
            else:
                s = f"{abs(c)}*{body}"
            parts.append(("-" if c < 0 else "+", s))
        out = ("-" if parts[0][0] == "-" else "") + parts[0][1]
        for sign, s in parts[1:]:
            out += f" {sign} {s}"
        return out

    __repr__ = __str__


def extent_of(x) -> Extent:
    if isinstance(x, Extent):
        return x
    return Extent.const(int(x))


# ---------------------------------------------------------------------------------------------
# types

Shape = Tuple[Extent, ...]


class _Ranked:
    """Tensors, views and buffers: a dtype and a shape of logical extents."""

    @property
    def rank(self) -> int:
        return len(self.shape)


@dataclass(frozen=True)
class ScalarT:
    dtype: DType

    def kir(self) -> str:
        return self.dtype.name


@dataclass(frozen=True)
class TensorT(_Ranked):
    dtype: DType
    shape: Shape

    def kir(self) -> str:
        return f"{self.dtype.name}[{', '.join(str(e) for e in self.shape)}]"


@dataclass(frozen=True)
class ViewT(_Ranked):
    access: str  # In, Out, InOut
    dtype: DType
    shape: Shape

    def kir(self) -> str:
        return f"{self.access}<{TensorT(self.dtype, self.shape).kir()}>"


@dataclass(frozen=True)
class BufferT(_Ranked):
    dtype: DType
    shape: Shape

    def kir(self) -> str:
        return f"buffer<{TensorT(self.dtype, self.shape).kir()}>"


@dataclass(frozen=True)
class TupleT:
    items: Tuple["Type", ...]

    def kir(self) -> str:
        return f"tuple<{', '.join(t.kir() for t in self.items)}>"


@dataclass(frozen=True)
class RecordT:
    fields: Tuple[Tuple[str, "Type"], ...]

    def kir(self) -> str:
        return f"record<{', '.join(f'{n}: {t.kir()}' for n, t in self.fields)}>"

    def field(self, name: str):
        for n, t in self.fields:
            if n == name:
                return t
        return None


@dataclass(frozen=True)
class DomainT:
    extent: Extent
    sub: bool = False

    def kir(self) -> str:
        return f"{'subregion' if self.sub else 'domain'}<{self.extent}>"


@dataclass(frozen=True)
class RelationT:
    rank: int
    shape: Shape
    masked: bool = False

    def kir(self) -> str:
        m = ", masked" if self.masked else ""
        return f"relation<{self.rank} -> [{', '.join(str(e) for e in self.shape)}]{m}>"


@dataclass(frozen=True)
class EnumT:
    name: str

    def kir(self) -> str:
        return f"enum<@{self.name}>"


Type = Union[ScalarT, TensorT, ViewT, BufferT, TupleT, RecordT, DomainT, RelationT, EnumT]


def element(t) -> Optional[DType]:
    return t.dtype if isinstance(t, (ScalarT, TensorT, ViewT, BufferT)) else None


def shape_of(t) -> Shape:
    return t.shape if isinstance(t, (TensorT, ViewT, BufferT)) else ()


def with_dtype(t, d: DType):
    return ScalarT(d) if isinstance(t, ScalarT) else TensorT(d, t.shape)


def value_type(d: DType, shape: Shape):
    """The type of a block of `shape`: a scalar for rank 0 reached through a relation."""
    return ScalarT(d) if not shape else TensorT(d, tuple(shape))


def parse_extent(text: str) -> Extent:
    """An extent written in an annotation: integers, symbols, + - *, floordiv(a, b), parentheses
    (the grammar of kir's extents, docs/kir-text.md)."""
    import re as _re
    toks = _re.findall(r"\d+|[A-Za-z_][A-Za-z0-9_]*|[-+*(),]", text)
    if "".join(toks) != _re.sub(r"\s+", "", text):
        raise ValueError(f"not an extent: {text!r}")
    pos = 0

    def peek():
        return toks[pos] if pos < len(toks) else None

    def take(t=None):
        nonlocal pos
        tok = peek()
        if tok is None or (t is not None and tok != t):
            raise ValueError(f"not an extent: {text!r}")
        pos += 1
        return tok

    def atom():
        tok = peek()
        if tok == "(":
            take("(")
            e = expr()
            take(")")
            return e
        if tok == "-":
            take()
            return -atom()
        if tok == "floordiv":
            take()
            take("(")
            a = expr()
            take(",")
            b = expr()
            take(")")
            return Extent.floordiv(a, b)
        tok = take()
        if tok.isdigit():
            return Extent.const(int(tok))
        if tok[0].isalpha() or tok[0] == "_":
            return Extent.symbol(tok)
        raise ValueError(f"not an extent: {text!r}")

    def term():
        e = atom()
        while peek() == "*":
            take()
            e = e * atom()
        return e

    def expr():
        e = term()
        while peek() in ("+", "-"):
            op = take()
            e = e + term() if op == "+" else e - term()
        return e

    e = expr()
    if pos != len(toks):
        raise ValueError(f"not an extent: {text!r}")
    return e
