"""The Intent kernel language, embedded in Python.

    import intent as I

    @I.kernel
    def scale_rows(x: I.In[I.f32, ("M", "N")], y: I.Out[I.f32, ("M", "N")], s: I.f32):
        rows, cols = I.domain(0, M), I.domain(0, N)
        y[rows, cols] = x[rows, cols] * s

`scale_rows.kir` is its canonical KIR; `scale_rows(x, y, 2.0)` runs it on NumPy arrays in kir's
exact interpreter (`backend="cpu"`: the optimizing CPU backend). See docs/python.md.
"""
from .dsl.types import DTYPES as _DTYPES, DType  # noqa: F401 (public names)
from .dsl.kernel import EnumBase as Enum, Helper, Kernel, Specialization  # noqa: F401 (public names)
from .dsl.errors import IntentError  # noqa: F401 (public names)
from .dsl.surface import ConstexprAnnotation, Forbidden, Marker, Namespace, ViewAnnotation, _Constexpr, _ViewKind  # noqa: F401 (public names)

# dtypes
bool_ = _DTYPES["bool"]
globals().update({n: d for n, d in _DTYPES.items() if n != "bool"})
globals()["bool"] = _DTYPES["bool"]  # intent.bool, as the language spells it

# parameters
In, Out, InOut = _ViewKind("In"), _ViewKind("Out"), _ViewKind("InOut")
Constexpr = _Constexpr()


def kernel(fn=None, *, fixes=None):
    """Defines a logical kernel; the target is chosen when it is run, never inside (L1.1).
    `@intent.kernel(fixes={"stride": 2, "padding": "same"})` declares the op-spec manifest params
    the kernel hard-codes (KIR's `fixes {...}` clause: kernel choice in `kir spec run` requires a
    row to have those values). Values: int, float, bool, str, None, and lists/tuples of them."""
    if fn is None:
        return lambda f: Kernel(f, fixes=fixes)
    return Kernel(fn, fixes=fixes)


def fn(f) -> Helper:
    """Defines a typed helper, lowered to a KIR `fn` per call signature (L1.2)."""
    return Helper(f)


def _m(name, doc=""):
    return Marker(name, doc)


# domains, relations, control
domain = _m("domain", "domain(begin, end, step=1): a half-open integer sequence (L3.1).")
indices = _m("indices", "indices(domain_or_subregion): its source coordinates as an index tensor (L3.4).")
parallel = _m("parallel", "for i in parallel(domain): unordered iteration, no carries (L5.1).")

# values and shapes
cast, bitcast, full, zeros, select = _m("cast"), _m("bitcast"), _m("full"), _m("zeros"), _m("select")
maximum, minimum, rem, div, pow = _m("maximum"), _m("minimum"), _m("rem"), _m("div"), _m("pow")
fdiv, exp2, tanh = _m("fdiv"), _m("exp2"), _m("tanh")
exp, log, log1p, lgamma, sin, asin, cos = _m("exp"), _m("log"), _m("log1p"), _m("lgamma"), _m("sin"), _m("asin"), _m("cos")
floor, erf, erfc, i0, rsqrt, sqrt, sigmoid, abs = (_m("floor"), _m("erf"), _m("erfc"), _m("i0"), _m("rsqrt"),
                                                   _m("sqrt"), _m("sigmoid"), _m("abs"))
reshape, transpose, permute, join, record = _m("reshape"), _m("transpose"), _m("permute"), _m("join"), _m("record")

# structured ops
reduce = Namespace(_m("reduce"), sum=_m("reduce.sum"), max=_m("reduce.max"), any=_m("reduce.any"),
                   all=_m("reduce.all"))
arg_reduce = Namespace(_m("arg_reduce"), max=_m("arg_reduce.max"))
scan, cumsum, cummax = _m("scan"), _m("cumsum"), _m("cummax")
region_fold, region_scan = _m("region_fold"), _m("region_scan")
dot, matvec, vecmat, matmul, outer, contract = (_m("dot"), _m("matvec"), _m("vecmat"), _m("matmul"), _m("outer"),
                                                _m("contract"))
scaled_matmul, scaled_contract = _m("scaled_matmul"), _m("scaled_contract")
sparse_matmul, sparse_contract = _m("sparse_matmul"), _m("sparse_contract")
quantize, quantized_dot, histogram = _m("quantize"), _m("quantized_dot"), _m("histogram")
gather, scatter_reduce, unique_store = _m("gather"), _m("scatter_reduce"), _m("unique_store")
ragged, members = _m("ragged"), _m("members")
from .dsl.ops_contract import Format as _Format  # noqa: E402


class _Formats:
    def __init__(self, *names):
        for n in names:
            setattr(self, n, _Format(n))


sparse = _Formats("two_of_four", "one_of_two")
quant = _Formats("q4_k", "q8_k")
atomic = Namespace(_m("atomic"), load=_m("atomic_load"), store=_m("atomic_store"), add=_m("atomic_add"),
                   exchange=_m("atomic_exchange"), max=_m("atomic_max"), min=_m("atomic_min"),
                   and_=_m("atomic_and"), or_=_m("atomic_or"), xor=_m("atomic_xor"),
                   compare_exchange=_m("atomic_compare_exchange"))
buffer = _m("buffer", "buffer(shape, dtype=, init=None): kernel-local mutable state (L15.4).")
random = Namespace(_m("random"), bits=_m("random_bits"), uniform=_m("random_uniform"))

# what the language deliberately does not have (L18.1, L19.1, L6.3, L6.4)
partition = Forbidden("partition", "L18.1", "logical parts are written with domains, subregions and index "
                                            "arithmetic; physical tiling is the compiler's")
auto = Forbidden("auto", "L19.1", "there is no `auto` partition or schedule in the language")
ordered = Forbidden("ordered", "L6.3", "there is no public `ordered`: a plain `for` over a domain is already in "
                                       "logical order")
state_stream = Forbidden("state_stream", "L6.4", "a per-element summary is a reduce/scan, a sliced one a "
                                                 "region_fold/region_scan, a strict recurrence an ordinary loop")
program_id = Forbidden("program_id", "L19.1", "program, thread and lane ids are not in the language (a kernel is "
                                              "logical; the target chooses its physical execution)")
lane_id = Forbidden("lane_id", "L19.1", "program, thread and lane ids are not in the language")
num_programs = Forbidden("num_programs", "L19.1", "program counts are not in the language")
softmax = Forbidden("softmax", "L19.1", "whole-operator ops are not in the language: write softmax with reduce.max, "
                                        "exp and reduce.sum")
attention = Forbidden("attention", "L19.1", "whole-operator ops are not in the language: write attention with "
                                            "contracts and a region_fold")
moe = Forbidden("moe", "L19.1", "whole-operator ops are not in the language")

try:  # the native part (kir's interpreter, backend, numerics); absent in a pure-source checkout
    from ._runtime import Array, KirError, load, run  # noqa: F401
except ImportError:  # pragma: no cover
    pass
