"""Op-spec manifests (specs/) from Python: ``kir spec validate``, ``kir spec instantiate`` and
``kir spec run`` as functions returning Python data (docs/manifests.md, docs/spec-run.md)."""

from . import _kir
from ._runtime import Array, KirError  # noqa: F401 - KirError: what instantiate and spec_run raise

__all__ = ["validate", "instantiate", "spec_run", "run"]

# Manifest dtypes whose data an Array carries (their kir dtype); packed fp4 (float4_e2m1fn_x2,
# two values per byte) and the fnuz float8s stay raw uint8 arrays.
_ARRAY_DTYPES = {"bf16", "e4m3", "e5m2", "e8m0"}


def validate(path, op=None):
    """Check manifests (a file, a folder, or a list of them) for every rule, as ``kir spec validate``.

    Returns the problems as a list of dicts {"file", "line", "col", "level", "severity", "op",
    "rule", "message", "text"} (``severity`` "warning" for advisory ones; ``rule`` the check ID,
    e.g. "C27"); an empty list when the manifests validate. Never raises for bad manifests.
    """
    return _kir.spec_validate(path, op)


def instantiate(path, op=None, rows=None, *, force=False, special=False, seed=None):
    """The workload rows of ``op`` (every op when None) as concrete calls, as ``kir spec instantiate``.

    ``rows``: None (every row), a row label, or a list of labels. Each call is a dict {"op", "row"
    (its label), "case_id", "params", "inputs": {name: NumPy array, or Array for bf16/e4m3/e5m2/
    e8m0}, "dtypes": {name: manifest dtype}, "kir_dtypes", "call": the full JSON form}. An op that
    does not validate raises KirError unless ``force=True`` (then each call has
    "invalid_manifest"). ``special`` injects special values; ``seed`` changes the input draws.
    """
    labels = [None] if rows is None else ([rows] if isinstance(rows, str) else list(rows))
    calls = []
    for label in labels:
        calls.extend(_kir.spec_instantiate(path, op, label, force=force, special=special, seed=seed))
    for call in calls:
        for name, kd in call["kir_dtypes"].items():
            if kd in _ARRAY_DTYPES:
                call["inputs"][name] = Array(call["inputs"][name], kd)
    return calls


def spec_run(path="specs", backend="interp", *, op=None, row=None, special=False):
    """Run every workload case of the manifests through the interpreter against the reference
    kernels (with ``backend="cpu"`` also natively, checked bit for bit), as ``kir spec run``.

    Returns a report dict: "cases" (each {"op", "label", "case_id", "status": "pass"|"FAIL"|"skip",
    "message", "seconds", "backend", "backend_message", "compiled"}), "passed", "failed",
    "skipped", "backend_passed", "backend_failed", "artifacts_compiled", "artifacts_loaded",
    "diagnostics", "manifest_errors", "ok".
    """
    return _kir.spec_run(path, backend, op=op, row=row, special=special)


run = spec_run
