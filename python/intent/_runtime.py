"""The runtime side of the intent package: loading KIR, running kernels, and raw-bit arrays.

``load(text, file="<string>")`` parses, normalizes and verifies KIR text into a ``Module``;
``run(module, kernel, args, ...)`` runs a kernel in kir's exact reference interpreter (or, with
``backend="cpu"``, natively through the CPU backend, checked bit for bit against the interpreter);
every failure raises ``KirError`` with located diagnostics. ``Array`` carries the dtypes NumPy has
no type for (bf16, e4m3, e5m2, e2m1, e8m0) as their bit patterns.
"""

import numpy as np

from . import _kir
from ._kir import KirError, Module

__all__ = ["Array", "KirError", "Module", "RunResult", "load", "run"]

# The dtypes an Array holds, with the unsigned NumPy type of their bit patterns (as kir's .npy
# files store them: one element per byte for the 8- and 4-bit formats, e2m1 in the low nibble).
_CARRIERS = {
    "bf16": np.dtype(np.uint16),
    "e4m3": np.dtype(np.uint8),
    "e5m2": np.dtype(np.uint8),
    "e2m1": np.dtype(np.uint8),
    "e8m0": np.dtype(np.uint8),
}
_WIDTH = {"bf16": 16, "e4m3": 8, "e5m2": 8, "e2m1": 4, "e8m0": 8}


class Array:
    """Raw bit patterns of a kir dtype that NumPy has no type for.

    ``Array(bits, dtype)``: ``bits`` is an array of unsigned integers (converted to the dtype's
    carrier: uint16 for bf16, uint8 for e4m3, e5m2, e8m0 and e2m1 — one e2m1 value per byte, in
    the low nibble), ``dtype`` one of "bf16", "e4m3", "e5m2", "e2m1", "e8m0". Conversions go through
    kir's numerics: ``Array.from_float(values, dtype)`` rounds once to nearest even (with the
    format's overflow rule), ``to_float32()`` / ``to_float64()`` are exact.
    """

    __slots__ = ("bits", "dtype")
    __hash__ = None

    def __init__(self, bits, dtype):
        dtype = str(dtype)
        if dtype not in _CARRIERS:
            raise KirError(
                f"Array holds bf16, e4m3, e5m2, e2m1 or e8m0 bit patterns, not {dtype!r} "
                "(use a NumPy array for the other dtypes)"
            )
        carrier = _CARRIERS[dtype]
        b = np.asarray(bits)
        if b.dtype != carrier:
            if b.dtype.kind not in "ui" and b.size:
                raise KirError(f"Array({dtype}) takes unsigned integer bit patterns, got dtype {b.dtype}")
            if b.size and (b.min() < 0 or b.max() >= (1 << _WIDTH[dtype])):
                raise KirError(f"Array({dtype}): bit patterns must lie in [0, {(1 << _WIDTH[dtype]) - 1}]")
            b = b.astype(carrier)
        elif dtype == "e2m1" and b.size and b.max() > 0xF:
            raise KirError("Array(e2m1): one value per byte, in the low nibble (bit patterns 0..15)")
        self.bits = b
        self.dtype = dtype

    @classmethod
    def from_float(cls, values, dtype):
        """Round float values once (to nearest, ties to even) into ``dtype``, with kir's numerics."""
        return cls(_kir.from_float(np.asarray(values, dtype=np.float64), str(dtype)), dtype)

    def to_float32(self):
        """The exact values as a float32 array (every value of these formats is a float32)."""
        return _kir.cast(self.bits, self.dtype, "f32")

    def to_float64(self):
        """The exact values as a float64 array."""
        return _kir.to_float64(self.bits, self.dtype)

    @property
    def shape(self):
        return self.bits.shape

    @property
    def ndim(self):
        return self.bits.ndim

    @property
    def size(self):
        return self.bits.size

    def __len__(self):
        return len(self.bits)

    def __getitem__(self, index):
        return Array(np.asarray(self.bits[index]), self.dtype)

    def reshape(self, *shape):
        return Array(self.bits.reshape(*shape), self.dtype)

    def copy(self):
        return Array(self.bits.copy(), self.dtype)

    def __eq__(self, other):
        """Bit-exact equality of dtype, shape and every bit pattern (a bool, not an array)."""
        if not isinstance(other, Array):
            return NotImplemented
        return self.dtype == other.dtype and self.shape == other.shape and bool(np.array_equal(self.bits, other.bits))

    def __repr__(self):
        values = np.array2string(self.to_float64(), threshold=16, separator=", ")
        return f"Array({self.dtype}, shape={self.shape}, {values})"


def _wrap(value, dtype):
    """A carrier array of kir dtype ``dtype`` as an Array when NumPy has no type for it."""
    return Array(value, dtype) if dtype in _CARRIERS else value


class RunResult:
    """What ``run`` returns.

    ``outputs``: name -> NumPy array for every Out/InOut view (bf16, e4m3, e5m2, e2m1, e8m0 outputs
    as ``Array``); ``trace``: the ``--trace`` lines (empty unless ``trace=True``); ``dtypes``: name
    -> kir dtype; ``undefined``: name -> elements the kernel never wrote; ``dims``: the extents
    bound; ``notes``: extents that were defaulted; ``dump``: ``--dump`` lines; ``backend``;
    ``steps`` (interpreter); ``check`` and ``config_row`` (``backend="cpu"``).
    """

    def __init__(self, raw):
        self._raw = raw
        self.outputs = {name: _wrap(a, raw.dtypes[name]) for name, a in raw.outputs.items()}
        self.trace = list(raw.trace)

    def __getattr__(self, name):
        if name.startswith("__") or name == "_raw":
            raise AttributeError(name)
        return getattr(self._raw, name)

    def __getitem__(self, name):
        return self.outputs[name]

    def __repr__(self):
        return f"<RunResult backend={self._raw.backend} outputs={sorted(self.outputs)}>"


def load(text, file="<string>"):
    """Parse KIR text, normalize it when it has surface forms, and verify it (as ``kir run`` does).

    Returns a ``Module``; raises ``KirError`` with every diagnostic (``file:line:col``, rule).
    """
    return _kir.load(text, file)


def _module(module):
    if isinstance(module, Module):
        return module
    if isinstance(module, str):
        return _kir.load(module)
    to_module = getattr(module, "module", None)
    if isinstance(to_module, Module):
        return to_module
    raise KirError(f"expected an intent Module or KIR text, got {type(module).__name__}")


def run(module, kernel=None, args=None, *, backend="interp", dims=None, policy=None, trace=False,
        break_on=None, max_steps=None, check=True, **options):
    """Run ``kernel`` of ``module`` (a Module or KIR text) as ``kir run`` does.

    ``args``: dict parameter name -> value: NumPy arrays for views (bool, int8..uint64, float16,
    float32, float64; index takes int64; bf16/e4m3/e5m2/e2m1/e8m0 as ``Array`` or their raw
    uint16/uint8 bit patterns), numbers (or a str: decimal or 0x bit pattern) for runtime scalars
    and constexprs, a member name (or value) for constexpr enums. Extents not fixed by the given
    views come from ``dims`` (``--dim``), then the kernel's default invocation, else 8 (a note);
    views not given are generated like ``kir run``'s (seeded by ``seed=``, default 0). The arrays
    passed in are never modified.

    ``backend="interp"`` takes ``policy`` (``--policy`` strings, e.g. ``"parallel=reverse"``),
    ``trace``, ``break_on`` (``["nan", "inf"]``), ``max_steps`` and, as keywords, ``time_limit``,
    ``max_depth``, ``dump``; ``backend="cpu"`` compiles natively (artifact cache ``$KIR_CACHE_DIR``)
    and with ``check=True`` requires every output to equal the interpreter's bit for bit.
    Returns a ``RunResult``; raises ``KirError`` on any failure.
    """
    raw = _kir.run(_module(module), kernel, {} if args is None else args, backend=backend, dims=dims, policy=policy,
                   trace=trace, break_on=break_on, max_steps=max_steps, check=check, **options)
    return RunResult(raw)
