"""Shared fixtures of the intent package's tests: the repository root, the `kir` binary, and tiny
hand-written KIR kernels (canonical text) to run through intent._kir.

Run from a build tree: PYTHONPATH=<build>/python KIR_BIN=<build>/tools/kir python3 -m pytest python/tests
(the CTest test `python` does exactly this)."""

import os
import pathlib

import pytest

REPO = pathlib.Path(__file__).resolve().parents[2]


def pytest_report_header(config):
    try:
        import intent._kir as k
        return f"intent._kir: {k.__file__}"
    except ImportError as e:  # pragma: no cover - reported by the tests themselves
        return f"intent._kir: not importable ({e}); set PYTHONPATH=<build>/python"


@pytest.fixture(scope="session")
def repo():
    return REPO


@pytest.fixture(scope="session")
def kir_bin():
    path = os.environ.get("KIR_BIN")
    if not path or not os.path.exists(path):
        pytest.skip("KIR_BIN (the kir binary) is not set")
    return path


def _loc(loc):
    return f' loc("{loc[0]}":{loc[1]}:{loc[2]})' if loc else ""


class Kernels:
    """KIR text of small kernels over one extent N."""

    HEAD = """  %zero = const() {value = 0} : index
  %n = dim(%x) {axis = 0} : index
  %d = domain(%zero, %n) : domain<N>
  %i = indices(%d) : index[N]
  %rel = relation(%i) : relation<1 -> [N]>
"""

    @staticmethod
    def binary(op, dtype="f32", out=None, loc=None, attrs="", invocation=""):
        """z[i] = op(x[i], y[i])."""
        out = out or dtype
        inv = f" invocation {{{invocation}}}" if invocation else ""
        return (f"kernel @k(%x: In<{dtype}[N]>, %y: In<{dtype}[N]>, %z: Out<{out}[N]>){inv} {{\n" + Kernels.HEAD +
                f"  %a = view.load(%x, %rel) : {dtype}[N]\n"
                f"  %b = view.load(%y, %rel) : {dtype}[N]\n"
                f"  %s = {op}(%a, %b){attrs} : {out}[N]{_loc(loc)}\n"
                "  view.store(%z, %rel, %s)\n}\n")

    @staticmethod
    def unary(op, dtype="f32", out=None, loc=None):
        """z[i] = op(x[i]) (also cast: out is the result dtype)."""
        out = out or dtype
        return (f"kernel @k(%x: In<{dtype}[N]>, %z: Out<{out}[N]>) {{\n" + Kernels.HEAD +
                f"  %a = view.load(%x, %rel) : {dtype}[N]\n"
                f"  %s = {op}(%a) : {out}[N]{_loc(loc)}\n"
                "  view.store(%z, %rel, %s)\n}\n")

    @staticmethod
    def copy(dtype):
        """z[i] = x[i]."""
        return (f"kernel @k(%x: In<{dtype}[N]>, %z: Out<{dtype}[N]>) {{\n" + Kernels.HEAD +
                f"  %a = view.load(%x, %rel) : {dtype}[N]\n"
                "  view.store(%z, %rel, %a)\n}\n")

    # z[i] = x[i] * s with a runtime scalar s.
    SCALE = """kernel @scale(%x: In<f32[N]>, %z: Out<f32[N]>, %s: f32) {
  %zero = const() {value = 0} : index
  %n = dim(%x) {axis = 0} : index
  %d = domain(%zero, %n) : domain<N>
  %i = indices(%d) : index[N]
  %rel = relation(%i) : relation<1 -> [N]>
  %a = view.load(%x, %rel) : f32[N]
  %sb = broadcast(%s) {dims = []} : f32[N]
  %r = mul(%a, %sb) : f32[N]
  view.store(%z, %rel, %r)
}
"""

    # z = x, or zeros when the constexpr enum says so.
    MODE = """enum @Mode { keep = 0, zero = 1 }

kernel @mode(%x: In<f32[N]>, %z: Out<f32[N]>, constexpr %mode: enum<@Mode> = @Mode::keep) {
  %zero = const() {value = 0} : index
  %n = dim(%x) {axis = 0} : index
  %d = domain(%zero, %n) : domain<N>
  %i = indices(%d) : index[N]
  %rel = relation(%i) : relation<1 -> [N]>
  %a = view.load(%x, %rel) : f32[N]
  %zm = const() {value = @Mode::zero} : enum<@Mode>
  %is = cmp(%mode, %zm) {pred = eq} : bool
  %r = if(%is) : f32[N] region() {
    %zf = const() {value = 0.0} : f32
    %zb = broadcast(%zf) {dims = []} : f32[N]
    yield(%zb)
  } region() {
    yield(%a)
  }
  view.store(%z, %rel, %r)
}
"""

    # acc[i] += x[i] (InOut) and y[i] = 2 * x[i], rows in an unordered parallel.
    PARALLEL = """kernel @par(%x: In<f32[N]>, %y: Out<f32[N]>, %acc: InOut<f32[N]>) invocation {N = 6} {
  %zero = const() {value = 0} : index
  %n = dim(%x) {axis = 0} : index
  %d = domain(%zero, %n) : domain<N>
  parallel(%d) region(%p: index) {
    %rel = relation(%p) : relation<1 -> []>
    %v = view.load(%x, %rel) : f32
    %two = add(%v, %v) : f32
    view.store(%y, %rel, %two)
    %old = view.load(%acc, %rel) : f32
    %new = add(%old, %v) : f32
    view.store(%acc, %rel, %new)
    yield()
  }
}
"""

    # y[i] = random.bits(seed, i).
    BITS = """kernel @bits(%y: Out<u32[N]>, %seed: u64) invocation {N = 8} {
  %zero = const() {value = 0} : index
  %n = dim(%y) {axis = 0} : index
  %d = domain(%zero, %n) : domain<N>
  %i = indices(%d) : index[N]
  %rel = relation(%i) : relation<1 -> [N]>
  %r = random.bits(%seed, %i) : u32[N]
  view.store(%y, %rel, %r)
}
"""


@pytest.fixture(scope="session")
def kernels():
    return Kernels
