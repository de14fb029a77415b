"""kir's exact numerics from Python: casts, ULP distances, Philox random bits, and one op
evaluated exactly as the reference interpreter evaluates it.

Nothing here computes in Python: every value comes from kir's numerics library (numerics/) or
from the interpreter itself. dtypes are kir's names: bool i8 i16 i32 i64 u8 u16 u32 u64 index f16
bf16 f32 f64 e4m3 e5m2 e2m1 e8m0. Values of bf16 and the small formats travel as ``Array``.
"""

import numpy as np

from . import _kir
from ._runtime import _CARRIERS, Array, KirError

__all__ = [
    "cast", "bitcast", "ulp_distance", "philox", "uniform", "eval", "from_float", "to_float64",
    "format_value", "parse_value", "dtype_of", "dtypes", "dtype_info",
]

_NUMPY_TO_KIR = {
    np.dtype(np.bool_): "bool",
    np.dtype(np.int8): "i8", np.dtype(np.int16): "i16", np.dtype(np.int32): "i32", np.dtype(np.int64): "i64",
    np.dtype(np.uint8): "u8", np.dtype(np.uint16): "u16", np.dtype(np.uint32): "u32", np.dtype(np.uint64): "u64",
    np.dtype(np.float16): "f16", np.dtype(np.float32): "f32", np.dtype(np.float64): "f64",
}


def dtypes():
    """Every kir dtype name."""
    return _kir.dtypes()


def dtype_info(dtype):
    """A dtype's properties: name, bits, class, carrier (its NumPy dtype), float."""
    return _kir.dtype_info(dtype)


def dtype_of(values):
    """The kir dtype of an Array, a NumPy array or scalar, or a Python number (float -> f64,
    int -> i64, bool -> bool)."""
    if isinstance(values, Array):
        return values.dtype
    if isinstance(values, bool):
        return "bool"
    if isinstance(values, int):
        return "i64"
    if isinstance(values, float):
        return "f64"
    d = np.asarray(values).dtype
    if d not in _NUMPY_TO_KIR:
        raise KirError(f"no kir dtype for NumPy dtype {d}")
    return _NUMPY_TO_KIR[d]


def _wrap(bits, dtype):
    return Array(bits, dtype) if dtype in _CARRIERS else bits


def _scalar(bits, dtype):
    """One element of a carrier array as a Python value (floats exactly, as float)."""
    if _kir.dtype_info(dtype)["float"]:
        return float(_kir.to_float64(bits.reshape(1), dtype)[0])
    if dtype == "bool":
        return bool(bits.reshape(1)[0])
    return int(bits.reshape(1)[0])


def _bits(x, dtype):
    """``x`` as something _kir accepts as ``dtype`` elements: an Array of that dtype or a carrier
    array unchanged, floats rounded once into a float dtype by kir, integers checked to fit."""
    if isinstance(x, Array):
        if x.dtype != dtype:
            raise KirError(f"expected {dtype} values, got an Array of {x.dtype}")
        return x
    carrier = np.dtype(_kir.dtype_info(dtype)["carrier"])
    a = np.asarray(x)
    if a.dtype == carrier:
        return a
    if _kir.dtype_info(dtype)["float"] and a.dtype.kind in "fiub":
        return _kir.from_float(a.astype(np.float64), dtype)
    if a.dtype.kind in "iub" and carrier.kind in "iub":
        c = a.astype(carrier)
        if not np.array_equal(c, a):
            raise KirError(f"some values do not fit {dtype}")
        return c
    return a


def from_float(values, dtype):
    """Float values rounded once (nearest, ties to even, the format's overflow rule) into ``dtype``:
    a NumPy array for f16/f32/f64, an Array for bf16 and the small formats."""
    return _wrap(_kir.from_float(np.asarray(values, dtype=np.float64), dtype), dtype)


def to_float64(values, dtype=None):
    """The exact values of float elements (an Array, or a NumPy array with ``dtype``) as float64."""
    dtype = dtype or dtype_of(values)
    return _kir.to_float64(_bits(values, dtype), dtype)


def cast(values, to, *, src=None):
    """kir's ``cast`` of every element (numerics/cast.h): floats rounded once to nearest even with
    the target's overflow rule, float -> int truncating (NaN, inf and out-of-range values raise
    KirError), int -> int wrapping, x -> bool is x != 0.

    ``values``: an Array, a NumPy array or a number; its kir dtype is ``src`` or follows from it
    (``dtype_of``: float64 for Python floats). Returns a NumPy array (an Array for bf16 and the
    small formats); scalars in, scalars out.
    """
    src = src or dtype_of(values)
    scalar = not isinstance(values, Array) and np.ndim(values) == 0
    out = _kir.cast(_bits(values if not scalar else np.reshape(values, (1,)), src), src, to)
    if scalar:
        return _wrap(out, to)[0] if to in _CARRIERS else out.reshape(())[()]
    return _wrap(out, to)


def bitcast(values, to, *, src=None):
    """kir's ``bitcast`` between dtypes of the same width (the bits unchanged)."""
    src = src or dtype_of(values)
    return _wrap(_kir.bitcast(_bits(values, src), src, to), to)


def ulp_distance(a, b, dtype):
    """The number of representable ``dtype`` values between a and b (+0 and -0 are one point;
    infinities one step past the largest finite value). Python floats are rounded once into
    ``dtype`` first. NaN raises KirError. Scalars give an int, arrays a uint64 array."""
    scalar = (not isinstance(a, Array) and np.ndim(a) == 0) and (not isinstance(b, Array) and np.ndim(b) == 0)
    if scalar:
        a, b = np.reshape(a, (1,)), np.reshape(b, (1,))
    out = _kir.ulp_distance(_bits(a, dtype), _bits(b, dtype), dtype)
    return int(out[0]) if scalar else out


def philox(seed, counter):
    """The language's ``random.bits(seed, counter)``: word ``counter % 4`` of Philox4x32-10 with
    key (lo32(seed), hi32(seed)) and counter block ``counter // 4``. An int (a uint32 array for an
    array of counters)."""
    if isinstance(counter, (int, np.integer)) and not isinstance(counter, bool):
        return _kir.philox(int(seed), int(counter))
    return _kir.philox(int(seed), np.asarray(counter))


def uniform(seed, counter, dtype="f32"):
    """The language's ``random.uniform(seed, counter)`` in ``dtype`` (f16, bf16, f32, f64): the
    top k bits of ``philox(seed, counter)`` as a fraction in [0, 1). A float for one counter; an
    array (Array for bf16) for an array of counters."""
    if isinstance(counter, (int, np.integer)) and not isinstance(counter, bool):
        return _scalar(_kir.uniform(int(seed), np.array([int(counter)], dtype=np.uint64), dtype), dtype)
    return _wrap(_kir.uniform(int(seed), np.asarray(counter), dtype), dtype)


def eval(op, *args, dtype="f32", to=None, **attrs):  # noqa: A001 - the op evaluator, named as in the brief
    """Evaluate one KIR op on values of ``dtype`` exactly as the interpreter does (it runs a
    one-op helper in the interpreter).

    ``op``: a pointwise binary op (add sub mul div rem min max and or xor shl shr pow), a unary op
    (neg not exp exp2 log log1p lgamma sin asin cos tanh floor erf erfc i0 rsqrt sqrt sigmoid
    abs), ``cmp`` (``pred="lt"``...; result bool), ``select`` (first argument bool), ``cast`` /
    ``bitcast`` (``to=DTYPE``). Keyword attributes go to the op (``approximate=True``,
    ``flush_to_zero=True``, ``pred="le"``). Arguments are numbers (rounded once into ``dtype``),
    NumPy arrays of ``dtype`` or Arrays; they broadcast like NumPy. Scalars give a Python value
    (float, int or bool), arrays an array (Array for bf16 and the small formats).

    >>> eval("exp", 1.0, dtype="f32")
    2.7182817459106445
    """
    if not args:
        raise KirError(f"eval({op!r}) needs operands")
    arg_dtypes = [dtype] * len(args)
    if op == "select":
        arg_dtypes[0] = "bool"
    result = "bool" if op == "cmp" else (to if op in ("cast", "bitcast") and to else dtype)
    scalar = all(not isinstance(a, Array) and np.ndim(a) == 0 for a in args)
    converted = [_bits(a, d) for a, d in zip(args, arg_dtypes)]
    raws = [c.bits if isinstance(c, Array) else np.asarray(c) for c in converted]
    shape = np.broadcast_shapes(*(r.shape for r in raws))
    flat = [np.ascontiguousarray(np.broadcast_to(r, shape)).reshape(-1) for r in raws]
    out = _kir.eval(op, flat, dtype, attrs, to).reshape(shape)
    if scalar:
        return _scalar(out, result)
    return _wrap(out, result)


def format_value(value, dtype=None):
    """The exact decimal text of one value (an int bit pattern with ``dtype``, or a one-element
    Array / NumPy scalar)."""
    if isinstance(value, (int, np.integer)) and dtype is not None and not isinstance(value, bool):
        return _kir.format_value(int(value), dtype)
    dtype = dtype or dtype_of(value)
    b = _bits(value, dtype)
    b = b.bits if isinstance(b, Array) else np.asarray(b)
    if b.size != 1:
        raise KirError("format_value takes one value")
    return _kir.format_value(int(b.reshape(1).view(np.dtype(f"u{b.itemsize}"))[0]) if b.dtype.kind != "b" else int(b.reshape(1)[0]), dtype)


def parse_value(text, dtype):
    """A decimal (rounded once) or 0x bit-pattern text as ``dtype``'s bit pattern (an int)."""
    return _kir.parse_value(text, dtype)
