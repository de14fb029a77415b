"""intent.oracle.compare: the differential oracle's verdict (CPU backend against the interpreter)."""

import numpy as np
import pytest

import intent.oracle as O
from intent._runtime import KirError, load


def test_compare_passes_on_a_correct_backend(kernels):
    m = load(kernels.binary("mul"))
    x = np.array([1.5, -2.0, 3.0, 1e-30, 3e38, 0.0, 7.0, -0.0], np.float32)
    y = np.array([2.0, 0.5, -1.1, 1e-30, 2.0, -1.0, 3.0, 2.0], np.float32)
    v = O.compare(m, "k", {"x": x, "y": y})
    assert isinstance(v, O.Verdict)
    assert v.outcome == "pass" and not v.failed and bool(v)
    assert v.rule == "bit-exact"
    assert v.compared == 8 and v.wrong == 0 and v.diffs == []
    assert v.signature.startswith("pass|bit-exact")
    assert str(v).startswith("pass")


def test_compare_on_kir_text_with_generated_inputs(kernels):
    v = O.compare(kernels.binary("mul"), "k", dims={"N": 8})
    assert v.outcome == "pass"


def test_compare_rejects_arguments_that_do_not_bind(kernels):
    with pytest.raises(KirError, match="%y"):
        O.compare(load(kernels.binary("mul")), "k", {"x": np.zeros(2, np.float32), "y": np.zeros(3, np.float32)})
