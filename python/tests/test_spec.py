"""intent.spec: `kir spec validate | instantiate | run` as functions, on the bundled manifests
(specs/ops/) and on broken ones written here."""

import numpy as np
import pytest

import intent.spec as S
from intent._runtime import Array, KirError


def test_bundled_manifests_validate(repo):
    problems = S.validate(repo / "specs")
    assert [p["text"] for p in problems if p["severity"] == "error"] == []


def test_one_bundled_file_validates(repo):
    assert S.validate(str(repo / "specs" / "ops" / "elementwise_binary.yaml"), op="AddFwdOp") == []


def test_broken_yaml_is_a_located_problem(tmp_path):
    f = tmp_path / "broken.yaml"
    f.write_text("AddFwdOp:\n  family: elementwise\n  signature: {inputs: [oops\n")
    problems = S.validate(f)
    assert problems
    p = problems[0]
    assert p["file"] == str(f) and p["line"] > 0 and p["col"] > 0
    assert p["rule"] == "L1" and p["severity"] == "error"
    assert p["text"].startswith(f"{f}:{p['line']}:{p['col']}: [loader]")


def test_schema_error_names_its_rule(tmp_path, repo):
    f = tmp_path / "elementwise_x.yaml"
    src = (repo / "specs" / "ops" / "elementwise_binary.yaml").read_text()
    f.write_text(src.replace("  family: elementwise\n", "  family: elementwise\n  colour: blue\n", 1))
    (tmp_path / "types.yaml").write_text((repo / "specs" / "types.yaml").read_text())
    problems = [p for p in S.validate(f) if p["severity"] == "error"]
    assert problems and all(p["rule"] for p in problems)
    assert any("colour" in p["message"] for p in problems)
    assert problems[0]["line"] == 4  # the line of `colour:` (line 1 is a comment)


def test_missing_path_is_a_problem_not_an_exception(tmp_path):
    problems = S.validate(tmp_path / "nothing-here.yaml")
    assert problems and problems[0]["severity"] == "error"


def test_instantiate_add_rows(repo):
    calls = S.instantiate(repo / "specs" / "ops" / "elementwise_binary.yaml", "AddFwdOp")
    assert [(c["row"], c["case_id"]) for c in calls] == [
        ("square", "square-float16"), ("square", "square-bfloat16"), ("bcast", "bcast-float32"), ("bcast", "bcast-int32")]
    f16 = calls[0]
    assert f16["op"] == "AddFwdOp" and f16["params"] == {"alpha": -0.5}
    assert f16["inputs"]["input"].dtype == np.float16 and f16["inputs"]["input"].shape == (32, 32)
    bf16 = calls[1]["inputs"]["other"]
    assert isinstance(bf16, Array) and bf16.dtype == "bf16" and bf16.shape == (32, 32)
    bc = calls[2]
    assert bc["inputs"]["input"].shape == (8, 1, 64) and bc["inputs"]["other"].shape == (4, 64)
    assert bc["dtypes"] == {"input": "float32", "other": "float32"}
    # the data is the manifest's reproducible draw
    again = S.instantiate(repo / "specs" / "ops" / "elementwise_binary.yaml", "AddFwdOp", rows="bcast")
    assert [c["case_id"] for c in again] == ["bcast-float32", "bcast-int32"]
    assert again[0]["inputs"]["input"].tobytes() == bc["inputs"]["input"].tobytes()


def test_instantiate_unknown_op_raises(repo):
    with pytest.raises(KirError, match="no op named 'NopeOp'"):
        S.instantiate(repo / "specs" / "ops" / "elementwise_binary.yaml", "NopeOp")


def test_spec_run_one_op(repo):
    report = S.spec_run(repo / "specs", op="AddFwdOp")
    assert report["ok"] and not report["manifest_errors"]
    assert report["passed"] == 4 and report["failed"] == 0
    assert {c["case_id"] for c in report["cases"]} == {"square-float16", "square-bfloat16", "bcast-float32", "bcast-int32"}
    assert all(c["status"] == "pass" and c["backend"] == "skip" for c in report["cases"])
