"""The differential oracle from Python: the CPU backend against the reference interpreter on one
kernel invocation, judged element by element under the numerics contract (oracle/verdict.h;
docs/fuzzing.md "The verdict"). No tolerances: bit-exact under the backend's declared evaluation
order, reassociation envelopes, reachable atomic interleavings, or error agreement."""

from . import _kir
from ._kir import Verdict
from ._runtime import _module

__all__ = ["Verdict", "compare"]


def compare(module, kernel=None, args=None, *, dims=None, seed=0):
    """Compile ``kernel`` of ``module`` (a Module or KIR text) with the CPU backend, run it and the
    interpreter on the same arguments (bound as ``intent.run`` binds them) and return the Verdict:
    ``.outcome`` ("pass", "wrong", "missed-error", "spurious-error", "unsupported", ...),
    ``.rule``, ``.op``, ``.location``, ``.message``, ``.failed``, ``.signature``, ``.diffs``.
    A backend bug is a verdict; KirError is raised only for arguments that do not bind."""
    return _kir.compare(_module(module), kernel, {} if args is None else args, dims=dims, seed=seed)
