"""intent._kir / intent._runtime: load, Module, run (interpreter and CPU backend), KirError, Array.
Each expected value is known independently: NumPy's IEEE arithmetic, fixed bit patterns of the
formats, or the kernel's definition."""

import subprocess
import threading

import numpy as np
import pytest

import intent._kir as _kir
from intent._runtime import Array, KirError, Module, load, run


# ---- load, Module ----

def test_load_returns_module_with_kernels(kernels):
    m = load(kernels.binary("add"), "k.kir")
    assert isinstance(m, Module)
    assert m.kernels == ["k"]
    assert m.file == "k.kir"
    assert not m.normalized


def test_module_text_is_canonical_and_stable(kernels):
    m = load(kernels.binary("add", loc=("model.py", 3, 9)))
    assert 'loc("model.py":3:9)' in m.text
    assert load(m.text).text == m.text


def test_module_text_is_what_kir_fmt_prints(kernels, kir_bin, tmp_path):
    """A module's text is the canonical print; kir fmt prints the same, plus the file's comments,
    which the module (parsed, not text) does not hold."""
    src = kernels.binary("mul", attrs="", invocation="N = 4")
    f = tmp_path / "k.kir"
    f.write_text("// a comment kir fmt keeps\n" + src)
    printed = subprocess.run([kir_bin, "fmt", str(f)], capture_output=True, text=True, check=True).stdout
    assert printed == "// a comment kir fmt keeps\n" + load(f.read_text()).text


def test_surface_forms_are_normalized():
    src = """kernel @k(%x: In<f32[N]>, %z: Out<f32[N]>) {
  %zero = const() {value = 0} : index
  %n = dim(%x) {axis = 0} : index
  %d = domain(%zero, %n) : domain<N>
  %i = indices(%d) : index[N]
  %rel = relation(%i) : relation<1 -> [N]>
  %a = view.load(%x, %rel) : f32[N]
  %two = const() {value = 2.0} : f32
  %r = mul(%a, %two) : f32[N]
  view.store(%z, %rel, %r)
}
"""
    m = load(src)
    assert m.normalized
    assert "broadcast" in m.text
    out = run(m, "k", {"x": np.array([1.5, -2.0], np.float32)}).outputs["z"]
    assert out.tolist() == [3.0, -4.0]


def test_params_and_invocation(kernels):
    m = load(kernels.binary("add", "f32", invocation="N = 4") + kernels.MODE.replace("@mode", "@m2"))
    p = m.params("k")
    assert [(x["name"], x["kind"], x["dtype"], x["shape"]) for x in p] == [
        ("x", "In", "f32", ["N"]), ("y", "In", "f32", ["N"]), ("z", "Out", "f32", ["N"])]
    assert m.invocation("k") == {"N": 4}
    assert m.invocation("m2") == {}
    mode = m.params("m2")[2]
    assert (mode["kind"], mode["enum"], mode["members"], mode["default"]) == ("constexpr", "Mode", ["keep", "zero"], "keep")
    scalar = load(kernels.SCALE).params("scale")[2]
    assert (scalar["kind"], scalar["dtype"], scalar["shape"]) == ("scalar", "f32", [])


def test_unknown_kernel_raises(kernels):
    m = load(kernels.binary("add"))
    with pytest.raises(KirError, match="no kernel @nope"):
        m.params("nope")
    with pytest.raises(KirError, match="no kernel @nope"):
        run(m, "nope", {})


# ---- errors with locations ----

def test_verify_error_points_at_the_loc_of_the_op(kernels):
    src = kernels.binary("add", loc=("model.py", 12, 5)).replace(
        "%s = add(%a, %b)", "%c = cast(%b) : i32[N]\n  %s = add(%a, %c)")
    with pytest.raises(KirError) as e:
        load(src, "gen.kir")
    d = e.value.diagnostics[0]
    assert (d["file"], d["line"], d["col"]) == ("model.py", 12, 5)
    assert d["rule"] == "L4.14"
    assert d["severity"] == "error"
    assert str(e.value).startswith("model.py:12:5: error[L4.14]: op 'add'")
    assert "\n  " not in str(e.value)  # one line per diagnostic, no source excerpt


def test_syntax_error_is_located():
    with pytest.raises(KirError) as e:
        load("kernel @k(%x: In<f32[N]>) {\n  %a = = 1\n}\n", "bad.kir")
    d = e.value.diagnostics[0]
    assert (d["file"], d["line"], d["rule"]) == ("bad.kir", 2, "syntax")


def test_kir_error_is_an_exception_class():
    assert issubclass(KirError, Exception)
    assert KirError is _kir.KirError
    assert KirError("x").diagnostics == []


def test_wrong_shape_argument_names_the_parameter(kernels):
    m = load(kernels.binary("add"))
    with pytest.raises(KirError, match="%y") as e:
        run(m, "k", {"x": np.zeros(4, np.float32), "y": np.zeros(5, np.float32)})
    assert e.value.diagnostics and e.value.diagnostics[0]["rule"] == "binding"


def test_wrong_rank_argument_names_the_parameter(kernels):
    m = load(kernels.binary("add"))
    with pytest.raises(KirError, match="parameter %x.*rank 1"):
        run(m, "k", {"x": np.zeros((2, 2), np.float32), "y": np.zeros(4, np.float32)})


def test_wrong_dtype_argument_names_the_parameter(kernels):
    m = load(kernels.binary("add"))
    with pytest.raises(KirError, match="parameter %y.*float64"):
        run(m, "k", {"x": np.zeros(4, np.float32), "y": np.zeros(4, np.float64)})


def test_unknown_parameter_raises(kernels):
    with pytest.raises(KirError, match="no parameter %w"):
        run(load(kernels.binary("add")), "k", {"w": np.zeros(4, np.float32)})


def test_runtime_error_is_located(kernels):
    m = load(kernels.binary("div", "i32", loc=("model.py", 7, 3)))
    with pytest.raises(KirError, match="division-by-zero") as e:
        run(m, "k", {"x": np.array([1, 2], np.int32), "y": np.array([1, 0], np.int32)})
    d = e.value.diagnostics[0]
    assert (d["file"], d["line"], d["col"], d["rule"], d["op"], d["coords"]) == ("model.py", 7, 3, "division-by-zero", "div", "(1)")


def test_break_on_nan_names_the_op_and_coordinates(kernels):
    m = load(kernels.binary("div", loc=("model.py", 4, 11)))
    args = {"x": np.array([1, 0, 2], np.float32), "y": np.array([1, 0, 0], np.float32)}
    assert np.isnan(run(m, "k", args).outputs["z"][1])  # no stop without break_on
    with pytest.raises(KirError) as e:
        run(m, "k", args, break_on=["nan"])
    d = e.value.diagnostics[0]
    assert (d["file"], d["line"], d["col"], d["rule"], d["op"], d["coords"]) == ("model.py", 4, 11, "break-on", "div", "(1)")
    assert "nan" in str(e.value)
    assert e.value.trace == []
    with pytest.raises(KirError) as e:
        run(m, "k", args, break_on=["nan"], trace=True)
    assert e.value.trace and e.value.trace[-1].startswith("model.py:4:11: div %s")


def test_break_on_inf(kernels):
    m = load(kernels.unary("log"))
    with pytest.raises(KirError, match="op 'log'.* is -?inf") as e:
        run(m, "k", {"x": np.array([1, 0], np.float32)}, break_on=["inf"])
    assert e.value.diagnostics[0]["coords"] == "(1)"
    with pytest.raises(KirError, match="break_on"):
        run(m, "k", {"x": np.array([1], np.float32)}, break_on=["zero"])


def test_max_steps_limit(kernels):
    m = load(kernels.binary("add"))
    with pytest.raises(KirError, match="limit") as e:
        run(m, "k", {"x": np.zeros(64, np.float32), "y": np.zeros(64, np.float32)}, max_steps=10)
    assert e.value.diagnostics[0]["rule"] == "limit"


# ---- run on the interpreter ----

def test_add_f32_is_ieee_add(kernels):
    rng = np.random.default_rng(1)
    x = rng.standard_normal(33).astype(np.float32)
    y = rng.standard_normal(33).astype(np.float32)
    r = run(load(kernels.binary("add")), "k", {"x": x, "y": y})
    assert r.outputs["z"].dtype == np.float32
    assert np.array_equal(r.outputs["z"].view(np.uint32), (x + y).view(np.uint32))
    assert r.undefined == {"z": 0}
    assert r.dims == {"N": 33}
    assert r.trace == []


def test_int32_add_wraps(kernels):
    x = np.array([2**31 - 1, -(2**31), 5], np.int32)
    y = np.array([1, -1, -7], np.int32)
    out = run(load(kernels.binary("add", "i32")), "k", {"x": x, "y": y}).outputs["z"]
    assert out.tolist() == [-(2**31), 2**31 - 1, -2]


def test_sqrt_f64_is_correctly_rounded(kernels):
    x = np.array([2.0, 3.0, 0.25, 1e300], np.float64)
    out = run(load(kernels.unary("sqrt", "f64")), "k", {"x": x}).outputs["z"]
    assert np.array_equal(out, np.sqrt(x))


def test_cmp_gives_bool(kernels):
    m = load(kernels.binary("cmp", "f32", out="bool", attrs=" {pred = lt}"))
    out = run(m, "k", {"x": np.array([1, 2, np.nan], np.float32), "y": np.array([2, 2, 0], np.float32)}).outputs["z"]
    assert out.dtype == np.bool_
    assert out.tolist() == [True, False, False]


NATIVE = {
    "bool": np.array([True, False, True]),
    "i8": np.array([-128, 0, 127], np.int8),
    "i16": np.array([-32768, 1, 32767], np.int16),
    "i32": np.array([-(2**31), 7, 2**31 - 1], np.int32),
    "i64": np.array([-(2**63), 7, 2**63 - 1], np.int64),
    "u8": np.array([0, 1, 255], np.uint8),
    "u16": np.array([0, 1, 65535], np.uint16),
    "u32": np.array([0, 1, 2**32 - 1], np.uint32),
    "u64": np.array([0, 1, 2**64 - 1], np.uint64),
    "index": np.array([-5, 0, 2**40], np.int64),
    "f16": np.array([-0.0, 6.1e-5, np.inf, 65504], np.float16),
    "f32": np.array([-0.0, 1.4e-45, -np.inf, 3.4028235e38], np.float32),
    "f64": np.array([-0.0, 5e-324, np.inf, 1.7976931348623157e308], np.float64),
}


@pytest.mark.parametrize("dtype", sorted(NATIVE))
def test_numpy_dtype_round_trip(kernels, dtype):
    x = NATIVE[dtype]
    out = run(load(kernels.copy(dtype)), "k", {"x": x}).outputs["z"]
    assert out.dtype == x.dtype
    assert out.tobytes() == x.tobytes()  # bit for bit (signed zeros, subnormals, extremes)


# bit patterns with known values: 1.0 in each format, then a few others
SMALL = {
    "bf16": ([0x3F80, 0xC020, 0x7F80, 0x0001], [1.0, -2.5, np.inf, 2.0**-133]),
    "e4m3": ([0x38, 0xC4, 0x7E, 0x01], [1.0, -3.0, 448.0, 2.0**-9]),
    "e5m2": ([0x3C, 0xC2, 0x7C, 0x01], [1.0, -3.0, np.inf, 2.0**-16]),
    "e2m1": ([0x2, 0xD, 0x7, 0x1], [1.0, -3.0, 6.0, 0.5]),
    "e8m0": ([127, 128, 0, 254], [1.0, 2.0, 2.0**-127, 2.0**127]),
}


@pytest.mark.parametrize("dtype", sorted(SMALL))
def test_small_format_round_trip_through_array(kernels, dtype):
    bits, values = SMALL[dtype]
    a = Array(np.array(bits), dtype)
    assert a.to_float64().tolist() == values
    assert Array.from_float(values, dtype) == a
    out = run(load(kernels.copy(dtype)), "k", {"x": a}).outputs["z"]
    assert isinstance(out, Array) and out.dtype == dtype
    assert out.bits.tolist() == bits
    assert out.bits.dtype == (np.uint16 if dtype == "bf16" else np.uint8)


def test_small_format_takes_raw_carrier_bits(kernels):
    out = run(load(kernels.copy("bf16")), "k", {"x": np.array([0x3F80, 0x4000], np.uint16)}).outputs["z"]
    assert out.to_float32().tolist() == [1.0, 2.0]
    with pytest.raises(KirError, match="parameter %x"):
        run(load(kernels.copy("e2m1")), "k", {"x": np.array([0x12], np.uint8)})  # high nibble set
    with pytest.raises(KirError, match="Array of e4m3"):
        run(load(kernels.copy("e5m2")), "k", {"x": Array([0x38], "e4m3")})


def test_cast_to_bf16_in_a_kernel_rounds_to_nearest_even(kernels):
    x = np.array([1.0, 1.00390625, 1.01171875, -1.00390625], np.float32)  # exact, tie, tie, tie
    out = run(load(kernels.unary("cast", "f32", out="bf16")), "k", {"x": x}).outputs["z"]
    assert out.bits.tolist() == [0x3F80, 0x3F80, 0x3F82, 0xBF80]


def test_runtime_scalar_in_every_spelling(kernels):
    m = load(kernels.SCALE)
    x = np.array([1.0, -3.0], np.float32)
    for s in (0.5, np.float32(0.5), "0.5", "0x3f000000", np.float64(0.5)):
        assert run(m, "scale", {"x": x, "s": s}).outputs["z"].tolist() == [0.5, -1.5]
    with pytest.raises(KirError, match="parameter %s"):
        run(m, "scale", {"x": x, "s": "half"})


def test_constexpr_enum_by_name_or_value(kernels):
    m = load(kernels.MODE)
    x = np.array([1.0, 2.0], np.float32)
    assert run(m, "mode", {"x": x}).outputs["z"].tolist() == [1.0, 2.0]  # the default, keep
    assert run(m, "mode", {"x": x, "mode": "zero"}).outputs["z"].tolist() == [0.0, 0.0]
    assert run(m, "mode", {"x": x, "mode": "@Mode::zero"}).outputs["z"].tolist() == [0.0, 0.0]
    assert run(m, "mode", {"x": x, "mode": 1}).outputs["z"].tolist() == [0.0, 0.0]
    with pytest.raises(KirError, match="mode"):
        run(m, "mode", {"x": x, "mode": "sideways"})


def test_inout_arrays_are_not_modified(kernels):
    m = load(kernels.PARALLEL)
    x = np.array([1, 2, 3], np.float32)
    acc = np.array([10, 20, 30], np.float32)
    r = run(m, "par", {"x": x, "acc": acc})
    assert r.outputs["acc"].tolist() == [11, 22, 33]
    assert r.outputs["y"].tolist() == [2, 4, 6]
    assert acc.tolist() == [10, 20, 30]


def test_policy_accepted_and_checked(kernels):
    m = load(kernels.PARALLEL)
    args = {"x": np.array([1, 2, 3, 4], np.float32), "acc": np.zeros(4, np.float32)}
    want = run(m, "par", args).outputs["y"].tolist()
    for p in (["parallel=reverse"], ["parallel=shuffle:7"], ["atomics=interleaved:3", "region=element"]):
        assert run(m, "par", args, policy=p).outputs["y"].tolist() == want
    with pytest.raises(KirError, match="policy takes"):
        run(m, "par", args, policy=["parallel=sideways"])


def test_trace_returns_lines(kernels):
    r = run(load(kernels.binary("add", loc=("model.py", 9, 1))), "k",
            {"x": np.ones(2, np.float32), "y": np.ones(2, np.float32)}, trace=True)
    assert r.trace and all(isinstance(t, str) for t in r.trace)
    assert any(t.startswith("model.py:9:1: add %s") for t in r.trace)


def test_dims_invocation_and_default_extent(kernels):
    m = load(kernels.PARALLEL)  # invocation {N = 6}
    assert run(m, "par", {}).outputs["y"].shape == (6,)
    assert run(m, "par", {}, dims={"N": 3}).outputs["y"].shape == (3,)
    r = run(load(kernels.copy("f32")), "k", {})  # no invocation: 8, with a note
    assert r.outputs["z"].shape == (8,)
    assert r.notes and "extent N" in r.notes[0]
    with pytest.raises(KirError, match="dims"):
        run(m, "par", {}, dims={"N": -1})


def test_generated_inputs_follow_the_seed(kernels):
    m = load(kernels.copy("f32"))
    a = run(m, "k", {}, dims={"N": 4}, seed=1).outputs["z"]
    b = run(m, "k", {}, dims={"N": 4}, seed=1).outputs["z"]
    c = run(m, "k", {}, dims={"N": 4}, seed=2).outputs["z"]
    assert a.tobytes() == b.tobytes() != c.tobytes()


def test_lists_and_strided_arrays_are_accepted(kernels):
    m = load(kernels.binary("add"))
    x = np.arange(8, dtype=np.float32)[::2]
    assert run(m, "k", {"x": x, "y": [0.5, 0.5, 0.5, 0.5]}).outputs["z"].tolist() == [0.5, 2.5, 4.5, 6.5]
    with pytest.raises(KirError, match="parameter %y"):
        run(load(kernels.binary("add", "i8")), "k", {"x": [1], "y": [300]})


def test_run_accepts_kir_text_and_releases_the_gil(kernels):
    text = kernels.binary("add")
    results = {}

    def work(i):
        x = np.full(2000, i, np.float32)
        results[i] = run(text, "k", {"x": x, "y": x}).outputs["z"]

    threads = [threading.Thread(target=work, args=(i,)) for i in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert all(results[i].tolist() == [2.0 * i] * 2000 for i in range(4))


def test_random_bits_kernel_matches_numerics_philox(kernels):
    import intent.numerics as N
    out = run(load(kernels.BITS), "bits", {"seed": 0}).outputs["y"]
    assert out.tolist() == [int(v) for v in N.philox(0, np.arange(8))]
    assert out[:4].tolist() == [0x6627E8D5, 0xE169C58D, 0xBC57AC4C, 0x9B00DBD8]  # Random123 KAT


# ---- the CPU backend ----

def test_cpu_backend_equals_interpreter(kernels):
    m = load(kernels.binary("mul"))
    # products: exact, rounded, underflowing to 0, overflowing to inf, signed zeros
    x = np.array([1.5, -2.0, 3.0, 1e-30, 3e38, 0.0, 7.0, -0.0], np.float32)
    y = np.array([2.0, 0.5, -1.1, 1e-30, 2.0, -1.0, 3.0, 2.0], np.float32)
    interp = run(m, "k", {"x": x, "y": y}).outputs["z"]
    cpu = run(m, "k", {"x": x, "y": y}, backend="cpu")
    assert cpu.backend == "cpu"
    assert "bit-identical" in cpu.check
    with np.errstate(over="ignore"):
        assert cpu.outputs["z"].tobytes() == interp.tobytes() == (x * y).tobytes()
    with pytest.raises(KirError, match="apply to the interpreter"):
        run(m, "k", {"x": x, "y": y}, backend="cpu", trace=True)
    with pytest.raises(KirError, match="backend takes"):
        run(m, "k", {"x": x, "y": y}, backend="gpu")


# ---- Array ----

def test_array_basics():
    a = Array.from_float([[1.0, 2.0], [3.0, 4.0]], "bf16")
    assert a.shape == (2, 2) and a.ndim == 2 and a.size == 4 and len(a) == 2
    assert a[1].to_float32().tolist() == [3.0, 4.0]
    assert a.reshape(4).shape == (4,)
    assert a.to_float32().dtype == np.float32
    assert repr(a).startswith("Array(bf16, shape=(2, 2)")
    assert a == a.copy() and a != Array.from_float([[1.0, 2.0], [3.0, 5.0]], "bf16")


def test_array_rejects_bad_input():
    with pytest.raises(KirError):
        Array([1], "f32")
    with pytest.raises(KirError):
        Array([0x1FF], "e4m3")
    with pytest.raises(KirError):
        Array(np.array([0x10], np.uint8), "e2m1")


def test_array_from_float_rounds_with_overflow_rules():
    assert Array.from_float([1000.0, -1000.0], "e4m3").bits.tolist() == [0x7F, 0xFF]  # to NaN
    assert Array.from_float([1e6], "e5m2").bits.tolist() == [0x7C]  # to inf
    assert Array.from_float([10.0, 2.5, 5.0], "e2m1").bits.tolist() == [0x7, 0x4, 0x6]  # saturates; ties to even
    assert Array.from_float([1.5, 0.75], "e8m0").bits.tolist() == [128, 127]  # 1.5*2^k rounds up


# ---- bad arguments are KirErrors, never crashes ----

@pytest.mark.parametrize("call", [
    lambda m: run(m, 7, {}),
    lambda m: run(m, "k", [1, 2]),
    lambda m: run(m, "k", {}, dims={"N": "eight"}),
    lambda m: run(m, "k", {}, max_steps=-1),
    lambda m: run(m, "k", {}, seed=-1),
    lambda m: run(m, "k", {"x": "hello"}),
    lambda m: run(m, "k", {"x": [[1.0], [2.0, 3.0]]}),
    lambda m: run(m, "k", {"x": np.zeros(4, object)}),
    lambda m: run(m, "k", {}, dims={"N": 2**40}),
    lambda m: _kir.run("not a module", "k", {}),
], ids=["kernel-int", "args-list", "dims-str", "steps-negative", "seed-negative", "str-array", "ragged",
        "object-dtype", "too-big", "not-a-module"])
def test_bad_arguments_raise_kir_error(kernels, call):
    with pytest.raises(KirError):
        call(load(kernels.copy("f32")))


def test_single_policy_and_break_on_strings(kernels):
    m = load(kernels.PARALLEL)
    assert run(m, "par", {}, policy="parallel=reverse", break_on="nan").outputs["y"].shape == (6,)


def test_rank0_views_bind_from_0d_arrays():
    """A 0-d NumPy array is a rank-0 view (numpy's ascontiguousarray would make it [1])."""
    m = load("""kernel @k(%x: In<f32[]>, %y: Out<f32[]>) {
  %rel = relation() : relation<0 -> []>
  %v = view.load(%x, %rel) : f32
  %w = add(%v, %v) : f32
  view.store(%y, %rel, %w)
}
""")
    r = run(m, "k", {"x": np.array(1.5, np.float32)})
    assert r.outputs["y"].shape == () and r.outputs["y"][()] == np.float32(3.0)
    with pytest.raises(KirError, match="rank 0"):
        run(m, "k", {"x": np.array([1.5], np.float32)})
